package kb

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The 1.0–1.11 tables: releases, companions, Python (2.7 included), the
// variants per distribution and an architecture row for each.
func TestTorch1x(t *testing.T) {
	k := Default()
	tests := []struct {
		version, tv, ta string
		python          []string
	}{
		{"1.0.0", "0.2.1", "", []string{"2.7", "3.5", "3.6", "3.7"}},
		{"1.2.0", "0.4.0", "", []string{"2.7", "3.5", "3.6", "3.7"}},
		{"1.4.0", "0.5.0", "0.4.0", []string{"2.7", "3.5", "3.6", "3.7", "3.8"}},
		{"1.7.0", "0.8.0", "0.7.0", []string{"3.6", "3.7", "3.8"}},
		{"1.7.1", "0.8.2", "0.7.2", []string{"3.6", "3.7", "3.8", "3.9"}},
		{"1.10.2", "0.11.3", "0.10.2", []string{"3.6", "3.7", "3.8", "3.9"}},
		{"1.11.0", "0.12.0", "0.11.0", []string{"3.7", "3.8", "3.9", "3.10"}},
	}
	for _, tt := range tests {
		r, ok := k.Release(tt.version)
		if !ok {
			t.Errorf("Release(%s) missing", tt.version)
			continue
		}
		if r.Torchvision != tt.tv || r.Torchaudio != tt.ta || !slices.Equal(r.Python, tt.python) {
			t.Errorf("Release(%s) = %s %s %v, want %s %s %v", tt.version, r.Torchvision, r.Torchaudio, r.Python, tt.tv, tt.ta, tt.python)
		}
	}
	want := []string{"1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.3.0", "1.3.1", "1.4.0", "1.5.0", "1.5.1", "1.6.0",
		"1.7.0", "1.7.1", "1.8.0", "1.8.1", "1.9.0", "1.9.1", "1.10.0", "1.10.1", "1.10.2", "1.11.0"}
	for _, v := range want {
		if _, ok := k.Release(v); !ok {
			t.Errorf("release %s missing", v)
		}
	}
	if _, ok := k.Release("1.8.2"); ok {
		t.Error("1.8.2 (LTS, its own channel) is listed")
	}

	variants := []struct {
		series string
		dist   Distribution
		cuda   []string
		def    string
	}{
		{"1.0", DistPytorchConda, []string{"8.0", "9.0", "10.0"}, ""},
		{"1.8", DistPytorchConda, []string{"10.1", "10.2", "11.1"}, ""},
		{"1.11", DistPytorchConda, []string{"10.2", "11.1", "11.3", "11.5"}, ""},
		{"1.7", DistWheel, []string{"9.2", "10.1", "10.2", "11.0"}, ""},
		{"1.2", DistPyPI, []string{"10.0"}, "10.0"},
		{"1.4", DistPyPI, []string{"10.1"}, "10.1"},
		{"1.10.1", DistPyPI, []string{"10.2"}, "10.2"},
	}
	for _, tt := range variants {
		v, ok := k.Variants(tt.series, tt.dist)
		if !ok || !slices.Equal(v.CUDA, tt.cuda) || v.Default != tt.def {
			t.Errorf("Variants(%s, %s) = %v, want %v default %q", tt.series, tt.dist, v, tt.cuda, tt.def)
		}
	}
	if v, ok := k.Variants("1.8", DistPytorchConda); !ok || v.Selector != "cudatoolkit=X.Y" {
		t.Errorf("1.8 pytorch channel selector = %v", v)
	}

	arch := []struct {
		series, cuda string
		dist         Distribution
		sass, ptx    []string
		ptxUnknown   bool
	}{
		{"1.0", "10.0", DistWheel, []string{"3.5", "5.0", "6.0", "6.1", "7.0", "7.5"}, []string{"5.0"}, false},
		{"1.4", "10.1", DistPyPI, []string{"3.7", "5.0", "6.0", "6.1", "7.0", "7.5"}, []string{"3.7"}, false}, // the wheel row
		{"1.8", "10.2", DistWheel, []string{"3.7", "5.0", "6.0", "7.0"}, nil, false},
		{"1.10", "11.3", DistWheel, []string{"3.7", "5.0", "6.0", "7.0", "7.5", "8.0", "8.6"}, nil, false},
		{"1.11", "11.5", DistPytorchConda, []string{"3.7", "5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6"}, []string{"3.7"}, false},
		{"1.3", "10.1", DistWheel, []string{"5.0", "6.0", "6.1", "7.0", "7.5"}, nil, true},
	}
	for _, tt := range arch {
		a, ok := k.Arch(tt.series, tt.cuda, tt.dist)
		if !ok || !a.Known || !slices.Equal(a.SASS, tt.sass) || !slices.Equal(a.PTX, tt.ptx) && len(a.PTX)+len(tt.ptx) > 0 || a.PTXUnknown != tt.ptxUnknown {
			t.Errorf("Arch(%s, %s, %s) = %+v", tt.series, tt.cuda, tt.dist, a)
		}
	}
}

// PyPI's default build for every series that has one, and where it is the
// CPU build.
func TestPyPIDefaults(t *testing.T) {
	k := Default()
	want := map[string]string{
		"1.2": "10.0", "1.3": "10.1", "1.4": "10.1", "1.5": "10.2", "1.6": "10.2", "1.7": "10.2",
		"1.8": "10.2", "1.9": "10.2", "1.10": "10.2", "1.11": "10.2", "1.12": "10.2", "1.13": "11.7",
		"2.0": "11.7", "2.1": "12.1", "2.2": "12.1", "2.3": "12.1", "2.4": "12.1", "2.5": "12.4",
		"2.6": "12.4", "2.7": "12.6", "2.8": "12.8", "2.9": "12.8", "2.10": "12.8", "2.11": "13.0",
		"2.12": "13.0", "2.13": "13.0", "2.14": "13.0",
	}
	for s, d := range want {
		v, ok := k.Variants(s, DistPyPI)
		if !ok || v.Default != d {
			t.Errorf("PyPI default of %s = %v, want %s", s, v, d)
			continue
		}
		if !slices.Contains(v.CPUOnlyOn, "macos") {
			t.Errorf("PyPI %s: macOS not CPU-only", s)
		}
		if _, ok := k.Arch(s, d, DistPyPI); !ok {
			t.Errorf("PyPI %s cu%s has no architecture row", s, d)
		}
	}
	for _, s := range []string{"1.9", "1.12", "2.0", "2.11"} {
		if v, _ := k.Variants(s, DistPyPI); !slices.Contains(v.CPUOnlyOn, "windows") {
			t.Errorf("PyPI %s: Windows not CPU-only", s)
		}
	}
	if v, _ := k.Variants("1.7", DistPyPI); slices.Contains(v.CPUOnlyOn, "windows") {
		t.Error("PyPI 1.7: Windows recorded as CPU-only, which no source read says")
	}
	for _, s := range []string{"1.0", "1.1", "2.15"} {
		if _, ok := k.Variants(s, DistPyPI); ok {
			t.Errorf("PyPI %s has a default, which no source read gives", s)
		}
	}
}

// The tables are merged in file-name order: the newest release and series,
// and the releases of a series, must not depend on it.
func TestOrderIndependent(t *testing.T) {
	k := Default()
	if got := k.LatestTorch(); got != "2.14.0" {
		t.Errorf("LatestTorch = %s", got)
	}
	if got := k.LatestSeries(); got != "2.14" {
		t.Errorf("LatestSeries = %s", got)
	}
	if k.NewerThanKB("1.11.0") || k.NewerThanKB("2.14.0") || !k.NewerThanKB("2.14.1") || !k.NewerThanKB("2.15.0") {
		t.Error("NewerThanKB misjudges 1.11.0 / 2.14.0 / 2.14.1 / 2.15.0")
	}

	// torch-1x.yaml renamed to sort after torch.yaml: the same answers.
	dir := copyData(t)
	if err := os.Rename(filepath.Join(dir, "torch-1x.yaml"), filepath.Join(dir, "zz-torch-1x.yaml")); err != nil {
		t.Fatal(err)
	}
	k2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k2.LatestTorch() != "2.14.0" || k2.LatestSeries() != "2.14" {
		t.Errorf("after reordering: LatestTorch %s, LatestSeries %s", k2.LatestTorch(), k2.LatestSeries())
	}
	var got []string
	for _, r := range k2.Series("1.10") {
		got = append(got, r.Version)
	}
	if !slices.Equal(got, []string{"1.10.0", "1.10.1", "1.10.2"}) {
		t.Errorf("Series(1.10) = %v", got)
	}
}

func TestTorch1xLoadErrors(t *testing.T) {
	tests := []struct {
		name, file, old, new, want string
	}{
		{"cpu_only_on", "torch.yaml", `{series: "2.0", dist: pypi, cuda: ["11.7"], cpu: false, default: "11.7", cpu_only_on: ["windows", "macos"]`,
			`{series: "2.0", dist: pypi, cuda: ["11.7"], cpu: false, default: "11.7", cpu_only_on: ["windows", "solaris"]`, `cpu_only_on "solaris" is not windows or macos`},
		{"default not a variant", "torch.yaml", `{series: "2.0", dist: pypi, cuda: ["11.7"], cpu: false, default: "11.7"`,
			`{series: "2.0", dist: pypi, cuda: ["11.7"], cpu: false, default: "11.8"`, `default 11\.8 is not one of its cuda variants`},
		{"python 2.6", "torch-1x.yaml", `{version: "1.0.0", torchvision: "0.2.1", torchaudio: "", python: ["2.7"`,
			`{version: "1.0.0", torchvision: "0.2.1", torchaudio: "", python: ["2.6"`, `python "2\.6" is not a version`},
		{"duplicate across files", "torch-1x.yaml", `{version: "1.11.0", torchvision: "0.12.0"`,
			`{version: "1.12.0", torchvision: "0.13.0"`, `duplicate release 1\.12\.0`},
		{"unsorted within a file", "torch-1x.yaml", `{version: "1.0.1", torchvision: "0.2.2"`,
			`{version: "1.0.0", torchvision: "0.2.2"`, `torch-1x\.yaml:\d+: torch\[1\]: .*version 1\.0\.0 is not after 1\.0\.0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertLoadRejects(t, tt.file, tt.old, tt.new, tt.want) })
	}
}
