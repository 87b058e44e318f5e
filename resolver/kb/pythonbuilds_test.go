package kb

import (
	"slices"
	"testing"
)

func TestPythonBuilds(t *testing.T) {
	k := Default()
	tests := []struct {
		torch string
		dist  Distribution
		cuda  string
		found bool
		py    string
		ok    bool // Supports(py) with the release's own lists
	}{
		// the pytorch channel never built 2.0.0 for Python 3.11 (2.0.1 it did)
		{"2.0.0", DistPytorchConda, "11.8", true, "3.11", false},
		{"2.0.0", DistPytorchConda, "11.7", true, "3.10", true},
		{"2.0.0+cu118", DistPytorchConda, "11.8", true, "3.11", false},
		{"2.0.1", DistPytorchConda, "11.8", false, "", false},
		// a row naming CUDA variants says nothing of the CPU build or an unknown one
		{"2.0.0", DistPytorchConda, "", false, "", false},
		// 3.13 is experimental for 2.5 (a wheel); the channel never built it
		{"2.5.1", DistPytorchConda, "12.4", true, "3.13", false},
		{"2.5.1", DistPytorchConda, "12.4", true, "3.12", true},
		// conda-forge: complete lists, for every build of the release
		{"1.13.1", DistCondaForge, "11.2", true, "3.11", true},
		{"1.13.1", DistCondaForge, "", true, "3.7", false},
		{"2.8.0", DistCondaForge, "12.9", true, "3.9", false},
		{"2.9.1", DistCondaForge, "", true, "3.14", false},
		{"2.10.0", DistCondaForge, "13.0", true, "3.14", true},
		// no rows for the wheel index
		{"2.0.0", DistWheel, "11.8", false, "", false},
	}
	for _, tt := range tests {
		r, found := k.PythonBuilds(tt.torch, tt.dist, tt.cuda)
		if found != tt.found {
			t.Errorf("PythonBuilds(%s, %s, %q) found = %v, want %v", tt.torch, tt.dist, tt.cuda, found, tt.found)
			continue
		}
		if !found {
			continue
		}
		rel, ok := k.Release(tt.torch)
		if !ok {
			t.Fatalf("release %s not in the KB", tt.torch)
		}
		if got := r.Supports(tt.py, rel.Python, rel.PythonExperimental); got != tt.ok {
			t.Errorf("PythonBuilds(%s, %s, %q).Supports(%s) = %v, want %v", tt.torch, tt.dist, tt.cuda, tt.py, got, tt.ok)
		}
	}
}

func TestPythonBuildsMinors(t *testing.T) {
	k := Default()
	r, ok := k.PythonBuilds("2.5.1", DistPytorchConda, "12.1")
	if !ok {
		t.Fatal("no row for 2.5.1 on the pytorch channel")
	}
	rel, _ := k.Release("2.5.1")
	if got, want := r.Minors(rel.Python, rel.PythonExperimental), []string{"3.9", "3.10", "3.11", "3.12"}; !slices.Equal(got, want) {
		t.Errorf("Minors = %v, want %v", got, want)
	}
	r, ok = k.PythonBuilds("2.6.0", DistCondaForge, "12.6")
	if !ok {
		t.Fatal("no row for 2.6.0 on conda-forge")
	}
	rel, _ = k.Release("2.6.0")
	// a complete list is returned as it is, free-threaded experimental builds aside
	if got, want := r.Minors(rel.Python, rel.PythonExperimental), []string{"3.9", "3.10", "3.11", "3.12", "3.13"}; !slices.Equal(got, want) {
		t.Errorf("Minors = %v, want %v", got, want)
	}
}

// Every release conda-forge built has a row, so EG204 never falls back on
// the upstream list for a conda-forge build the tables know.
func TestPythonBuildsCoverCondaForge(t *testing.T) {
	k := Default()
	for _, v := range k.TorchVariants {
		if v.Dist != DistCondaForge || v.NotPublished {
			continue
		}
		for _, rel := range v.Releases {
			if _, known := k.Release(rel); !known {
				continue
			}
			if _, ok := k.PythonBuilds(rel, DistCondaForge, ""); !ok {
				t.Errorf("conda-forge built torch %s but torch_python_builds has no row for it", rel)
			}
		}
	}
}

func TestPythonBuildsLoadErrors(t *testing.T) {
	const file = "torch-python-builds.yaml"
	row := `{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7", "11.8"], missing: ["3.11"]`
	tests := []struct{ name, old, new, want string }{
		{"unknown release", row, `{torch: "2.0.7", dist: pytorch-channel, cuda: ["11.7", "11.8"], missing: ["3.11"]`, `torch "2\.0\.7" is not a release`},
		{"both lists", row, `{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7", "11.8"], python: ["3.8"], missing: ["3.11"]`, `exactly one of python`},
		{"neither list", row, `{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7", "11.8"]`, `exactly one of python`},
		{"missing not listed", row, `{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7", "11.8"], missing: ["3.12"]`, `missing Python 3\.12 is not in torch 2\.0\.0's`},
		{"cuda not a variant", row, `{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7", "12.1"], missing: ["3.11"]`, `CUDA 12\.1 is not a variant pytorch-channel publishes for 2\.0`},
		{"bad dist", row, `{torch: "2.0.0", dist: pip, cuda: ["11.7", "11.8"], missing: ["3.11"]`, `unknown dist "pip"`},
		{"bad python", row, `{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7", "11.8"], missing: ["3.x"]`, `python "3\.x" is not a version`},
		{"second row", `{torch: "2.5.1", dist: pytorch-channel`, `{torch: "2.5.0", dist: pytorch-channel`, `a second row answers for torch 2\.5\.0 on pytorch-channel`},
		{"conda-forge unbuilt", `{torch: "2.0.0", dist: conda-forge`, `{torch: "2.0.1", dist: conda-forge`, `conda-forge did not build torch 2\.0\.1`},
		{"uncited", `source: "MOI90_PKGS", note: "py3.9`, `source: "hearsay", note: "py3.9`, `source "hearsay" cites no key`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertLoadRejects(t, file, tt.old, tt.new, tt.want) })
	}
}

// A wrapper metapackage's row (pytorch-gpu 2.4.1, CF_ISSUE_338) answers
// only PackagePythonBuilds: the pytorch package's own row for the release
// keeps answering PythonBuilds.
func TestPackagePythonBuilds(t *testing.T) {
	k := Default()
	row, ok := k.PackagePythonBuilds("pytorch-gpu", "2.4.1", DistCondaForge, "12.0")
	if !ok || row.Package != "pytorch-gpu" || !slices.Contains(row.Missing, "3.10") {
		t.Fatalf("pytorch-gpu 2.4.1 cu120 = %+v, %v; want the row missing 3.10", row, ok)
	}
	if _, ok := k.PackagePythonBuilds("pytorch-gpu", "2.4.1", DistCondaForge, "11.8"); ok {
		t.Error("pytorch-gpu 2.4.1 cu118 has a row; CF_ISSUE_338 says its Python 3.10 upload exists")
	}
	own, ok := k.PythonBuilds("2.4.1", DistCondaForge, "12.0")
	if !ok || own.Package != "" || !slices.Contains(own.Python, "3.10") {
		t.Errorf("pytorch 2.4.1 cu120 = %+v, %v; want the package's own row with 3.10", own, ok)
	}
}
