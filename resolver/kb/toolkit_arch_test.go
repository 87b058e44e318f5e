package kb

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sassRange reports whether a toolkit's nvcc can emit SASS for cc.
func sassRange(t *testing.T, k *KB, cuda, cc string) bool {
	t.Helper()
	r, ok := k.ToolkitArch(cuda)
	if !ok {
		t.Fatalf("ToolkitArch(%q): no row", cuda)
	}
	lo, ok1 := CompareDotted(cc, r.MinSASS)
	hi, ok2 := CompareDotted(cc, r.MaxSASS)
	if !ok1 || !ok2 {
		t.Fatalf("CUDA %s: cc %s or row %+v does not compare", cuda, cc, r)
	}
	return lo >= 0 && hi <= 0
}

// The anchors the issue names, each from NVIDIA's notes or nvcc's lists.
func TestToolkitArchAnchors(t *testing.T) {
	k := Default()
	tests := []struct {
		cuda, cc string
		sass     bool
		why      string
	}{
		{"8.0", "2.0", true, "CUDA 8 still targets Fermi"},
		{"8.0", "6.2", true, "CUDA 8 adds Pascal"},
		{"8.0", "7.0", false, "Volta from 9.0"},
		{"9.0", "2.0", false, "CUDA 9 dropped Fermi"},
		{"9.0", "2.1", false, "CUDA 9 dropped Fermi"},
		{"9.0", "3.0", true, "Kepler 3.0 kept until 10.2"},
		{"9.0", "7.0", true, "Volta from 9.0"},
		{"9.0", "7.2", false, "sm_72 from 9.1"},
		{"9.1", "7.2", true, "sm_72 from 9.1"},
		{"10.0", "7.5", true, "Turing from 10.0"},
		{"9.2", "7.5", false, "Turing from 10.0"},
		{"10.2", "3.0", true, "3.0 last targeted by 10.2"},
		{"10.2", "8.0", false, "10.2 and older cannot target Ampere"},
		{"11.0", "3.0", false, "CUDA 11 dropped 3.0"},
		{"11.0", "3.2", false, "CUDA 11 dropped 3.2"},
		{"11.0", "3.5", true, "CUDA 11 minimum 3.5"},
		{"11.0", "8.0", true, "Ampere from 11.0"},
		{"11.0", "8.6", false, "sm_86 from 11.1"},
		{"11.1", "8.6", true, "sm_86 from 11.1"},
		{"11.3", "8.7", false, "sm_87 from 11.4"},
		{"11.4", "8.7", true, "sm_87 from 11.4"},
		{"11.7", "8.9", false, "sm_89 from 11.8"},
		{"11.7", "9.0", false, "11.7 and older cannot target Hopper"},
		{"11.8", "8.9", true, "sm_89 from 11.8"},
		{"11.8", "9.0", true, "sm_90 from 11.8"},
		{"11.8", "3.7", true, "11.8 is the last toolkit with Kepler"},
		{"12.0", "3.5", false, "CUDA 12 cannot target Kepler"},
		{"12.0", "3.7", false, "CUDA 12 cannot target Kepler"},
		{"12.0", "5.0", true, "CUDA 12 minimum 5.0"},
		{"12.6", "10.0", false, "12.7 and older cannot target Blackwell"},
		{"12.6", "12.0", false, "12.7 and older cannot target Blackwell"},
		{"12.8", "10.0", true, "sm_100 from 12.8"},
		{"12.8", "12.0", true, "sm_120 from 12.8"},
		{"12.8", "12.1", false, "sm_121 from 12.9"},
		{"12.9", "10.3", true, "12.9 adds sm_103"},
		{"12.9", "12.1", true, "12.9 adds sm_121"},
		{"12.9", "5.0", true, "12.x keeps Maxwell"},
		{"12.9", "7.0", true, "12.x keeps Volta"},
		{"13.0", "11.0", true, "sm_101 renamed sm_110"},
		{"13.0", "12.1", true, "13.0 targets through sm_121"},
	}
	for _, tt := range tests {
		if got := sassRange(t, k, tt.cuda, tt.cc); got != tt.sass {
			t.Errorf("CUDA %s SASS for %s = %v, want %v (%s)", tt.cuda, tt.cc, got, tt.sass, tt.why)
		}
	}
	// CUDA 13 cannot target Maxwell, Pascal or Volta, in any 13.x.
	for _, c := range []string{"13.0", "13.1", "13.2"} {
		for _, cc := range []string{"5.0", "5.2", "6.0", "6.1", "7.0", "7.2"} {
			if sassRange(t, k, c, cc) {
				t.Errorf("CUDA %s targets %s", c, cc)
			}
		}
		if !sassRange(t, k, c, "7.5") {
			t.Errorf("CUDA %s does not target Turing 7.5", c)
		}
	}
	// Every 12.x has minimum 5.0.
	for _, r := range k.Facts.ToolkitArch {
		if strings.HasPrefix(r.CUDA, "12.") && r.MinSASS != "5.0" {
			t.Errorf("CUDA %s min_sass = %s, want 5.0", r.CUDA, r.MinSASS)
		}
	}
	ptx := map[string]string{"8.0": "6.2", "9.0": "7.0", "10.2": "7.5", "11.0": "8.0", "11.8": "9.0", "12.4": "9.0", "12.8": "12.0", "12.9": "12.1", "13.2": "12.1"}
	for c, want := range ptx {
		if r, ok := k.ToolkitArch(c); !ok || r.MaxPTX != want {
			t.Errorf("ToolkitArch(%s).MaxPTX = %+v, want %s", c, r, want)
		}
	}
}

// Every toolkit minor from 8.0 to 13.2 has a row with a source; 12.7 was
// never released and has none.
func TestToolkitArchCoverage(t *testing.T) {
	k := Default()
	want := []string{"8.0", "9.0", "9.1", "9.2", "10.0", "10.1", "10.2",
		"11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7", "11.8",
		"12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.8", "12.9",
		"13.0", "13.1", "13.2"}
	var got []string
	for i, r := range k.Facts.ToolkitArch {
		got = append(got, r.CUDA)
		if strings.TrimSpace(r.Source) == "" {
			t.Errorf("cuda_arch[%d]: empty source", i)
		}
		if p := k.positions["cuda_arch"]; i >= len(p) || p[i].Line == 0 || !strings.HasSuffix(p[i].File, "cuda.yaml") {
			t.Errorf("cuda_arch[%d]: no position recorded", i)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cuda_arch rows = %v\nwant %v", got, want)
	}
}

func TestToolkitArchLookup(t *testing.T) {
	k := Default()
	tests := []struct {
		in, want string // want "" = absent
	}{
		{"12.4.1", "12.4"},
		{"12.4", "12.4"},
		{" 11.8.0 ", "11.8"},
		{"9.2.148", "9.2"},
		{"13.2.2", "13.2"},
		{"12.7", ""}, // never released
		{"7.5", ""},  // older than the table
		{"14.0", ""}, // newer than the table
		{"12", ""},
		{"", ""},
		{"abc", ""},
		{"12.x", ""},
	}
	for _, tt := range tests {
		r, ok := k.ToolkitArch(tt.in)
		switch {
		case tt.want == "" && ok:
			t.Errorf("ToolkitArch(%q) = %+v, want absent", tt.in, r)
		case tt.want != "" && (!ok || r.CUDA != tt.want):
			t.Errorf("ToolkitArch(%q) = %+v, %v; want the %s row", tt.in, r, ok, tt.want)
		}
	}
	// The accessor returns a copy: changing it leaves the KB as it was.
	r, _ := k.ToolkitArch("12.4")
	r.MaxSASS = "1.0"
	if r2, _ := k.ToolkitArch("12.4"); r2.MaxSASS != "9.0" {
		t.Errorf("ToolkitArch returned the table's row, not a copy")
	}
}

func TestToolkitArchValidation(t *testing.T) {
	row := `{cuda: "12.4", min_sass: "5.0", max_sass: "9.0", max_ptx: "9.0", source: "CLANG_CUDA; CMAKE_CUDA_ARCHS"}`
	tests := []struct {
		name, old, new string
		want           string // regexp over the error text
	}{
		{"min above max", row, strings.Replace(row, `min_sass: "5.0"`, `min_sass: "9.5"`, 1), `min_sass 9\.5 is above max_sass 9\.0`},
		{"sm form", row, strings.Replace(row, `min_sass: "5.0"`, `min_sass: "sm_50"`, 1), `min_sass "sm_50" is not a compute capability`},
		{"two-digit minor", row, strings.Replace(row, `max_ptx: "9.0"`, `max_ptx: "9.00"`, 1), `max_ptx "9\.00" is not a compute capability`},
		{"ptx below min", row, strings.Replace(row, `max_ptx: "9.0"`, `max_ptx: "3.5"`, 1), `max_ptx 3\.5 is below min_sass 5\.0`},
		{"unknown key cited", row, strings.Replace(row, `"CLANG_CUDA; CMAKE_CUDA_ARCHS"`, `"my memory"`, 1), `source "my memory" cites no key`},
		{"empty source", row, strings.Replace(row, `"CLANG_CUDA; CMAKE_CUDA_ARCHS"`, `""`, 1), `source is empty`},
		{"update, not minor", row, strings.Replace(row, `"12.4"`, `"12.4.1"`, 1), `cuda "12\.4\.1" is not a major\.minor`},
		{"no driver row", row, strings.Replace(row, `"12.4"`, `"12.7"`, 1), `cuda 12\.7 has no row in cuda_drivers`},
		{"duplicate", row, strings.Replace(row, `"12.4"`, `"12.3"`, 1), `duplicate row for 12\.3`},
		{"max goes down", `{cuda: "12.9", min_sass: "5.0", max_sass: "12.1"`, `{cuda: "12.9", min_sass: "5.0", max_sass: "10.0"`, `max_sass 10\.0 of CUDA 12\.9 is below CUDA 12\.8's 12\.0`},
		{"unknown field", row, strings.Replace(row, `max_ptx:`, `max_ptxx:`, 1), `cuda\.yaml:\d+: field max_ptxx not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyData(t)
			p := filepath.Join(dir, "cuda.yaml")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tt.old) {
				t.Fatalf("cuda.yaml does not contain %q", tt.old)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), tt.old, tt.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Load(dir)
			if err == nil {
				t.Fatal("Load accepted a bad cuda_arch row")
			}
			if !regexp.MustCompile(tt.want).MatchString(err.Error()) {
				t.Errorf("error %q does not match %s", err, tt.want)
			}
			if tt.name != "unknown field" && !regexp.MustCompile(`cuda\.yaml:\d+: cuda_arch\[\d+\]: `).MatchString(err.Error()) {
				t.Errorf("error %q does not name the file, line and row", err)
			}
		})
	}
	// Silent case: the unchanged copy loads, with the same table.
	k, err := Load(copyData(t))
	if err != nil {
		t.Fatalf("unchanged copy: %v", err)
	}
	if len(k.Facts.ToolkitArch) != len(Default().Facts.ToolkitArch) {
		t.Errorf("loaded %d cuda_arch rows, embedded %d", len(k.Facts.ToolkitArch), len(Default().Facts.ToolkitArch))
	}
}

// The driver table goes back to CUDA 8.0: an old driver maps to the CUDA it
// runs by NVIDIA's table, never to "" while at or above the 8.0 floor.
func TestDriverCUDAOld(t *testing.T) {
	k := Default()
	tests := []struct{ driver, want, why string }{
		{"388.73", "9.0", "Windows, CUDA 9.1 era: at or above 9.0's floors (384.81 Linux, 385.54 Windows), below 9.1's (390.46 / 391.29)"},
		{"390.46", "9.1", "CUDA 9.1.85 Linux floor"},
		{"390.45", "9.0", "just below 9.1"},
		{"384.81", "9.0", "CUDA 9.0.76 Linux floor"},
		{"384.80", "8.0", "just below 9.0"},
		{"396.26", "9.2", "CUDA 9.2.88"},
		{"396.37", "9.2", "CUDA 9.2.148 Update 1"},
		{"410.47", "9.2", "just below 10.0"},
		{"410.48", "10.0", "CUDA 10.0.130"},
		{"375.26", "8.0", "CUDA 8.0 GA2"},
		{"367.48", "8.0", "CUDA 8.0 GA1: the oldest floor"},
		{"367.47", "", "below every floor"},
		{"352.31", "", "CUDA 7.5's floor: not in the table"},
	}
	for _, tt := range tests {
		if got := k.DriverCUDA(tt.driver); got != tt.want {
			t.Errorf("DriverCUDA(%q) = %q, want %q (%s)", tt.driver, got, tt.want, tt.why)
		}
	}
	floors := []struct{ cuda, linux, windows string }{
		{"8.0", "367.48", "369.30"},
		{"8.0.44", "367.48", "369.30"}, // GA1, read as the 8.0 GA row
		{"8.0.61", "375.26", "376.51"},
		{"9.0", "384.81", "385.54"},
		{"9.1", "390.46", "391.29"},
		{"9.1.85", "390.46", "391.29"},
		{"9.2", "396.26", "397.44"},
		{"9.2.148", "396.37", "398.26"},
	}
	for _, f := range floors {
		d, ok := k.DriverFloor(f.cuda)
		if !ok || d.LinuxMin != f.linux || d.WindowsMin != f.windows {
			t.Errorf("DriverFloor(%s) = %+v, want %s / %s", f.cuda, d, f.linux, f.windows)
		}
	}
}

// Where gpus.yaml names the first CUDA of a GPU, that toolkit can target it.
func TestToolkitArchAgreesWithGPUs(t *testing.T) {
	k := Default()
	for _, g := range k.GPUs {
		if g.MinCUDA == "" {
			continue
		}
		r, ok := k.ToolkitArch(g.MinCUDA)
		if !ok {
			continue
		}
		if c, ok := CompareDotted(g.CC, r.MaxSASS); ok && c > 0 {
			t.Errorf("%s (cc %s): min_cuda %s, but CUDA %s targets at most %s", g.Name, g.CC, g.MinCUDA, r.CUDA, r.MaxSASS)
		}
	}
}

// TestToolkitLibReleases: a toolkit library whose own version does not
// name its toolkit (cuBLAS 11.11.3.6) is paired with the toolkit it
// shipped in, and only the releases read say so; the toolkits whose
// libraries' forward compatibility no public source decides say why.
func TestToolkitLibReleases(t *testing.T) {
	k := Default()
	for lib, v := range map[string]string{"libcublas": "11.11.3.6", "libcufft": "10.9.0.58", "libcurand": "10.3.0.86", "libcusolver": "11.4.1.48", "libcusparse": "11.7.5.86"} {
		row, ok := k.CUDALibOf(lib, false)
		if !ok {
			t.Fatalf("%s: no cuda_lib_packages row", lib)
		}
		if cu, ok := row.ToolkitOf(v); !ok || cu != "11.8" {
			t.Errorf("%s %s: toolkit %q %v, want 11.8", lib, v, cu, ok)
		}
		if cu, ok := row.ToolkitOf("11.10.3.66"); ok != (lib == "libcublas") || (ok && cu != "11.7") {
			// cuBLAS 11.10.3.66 is CUDA 11.7's (torch 1.13.0's CUDA 11.7
			// wheel pins it beside runtime 11.7.99); the others not read
			t.Errorf("%s 11.10.3.66: toolkit %q %v", lib, cu, ok)
		}
	}
	for cuda, open := range map[string]bool{"10.2": true, "11.8": true, "12.0": false} {
		ta, ok := k.ToolkitArch(cuda)
		if !ok {
			t.Fatalf("no cuda_arch row for %s", cuda)
		}
		if (ta.LibsForwardOpen != "") != open {
			t.Errorf("CUDA %s: libs_forward_open %q, want set: %v", cuda, ta.LibsForwardOpen, open)
		}
	}
}
