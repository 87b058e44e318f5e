package builder

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// -update regenerates builder/testdata (go test ./builder -update). It is
// registered here unless another test file of the package already has.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenMachines are the targets of the framework goldens: an old Kepler
// driver, the A100 on 535, the H100 on 550 and the RTX 5090 on 570.
var goldenMachines = []*gpucheck.Host{
	machine("k80-470", "470.57.02", k80),
	machine("a100-535", "535.104.05", a100),
	machine("h100-550", "550.54.15", h100gpu),
	machine("rtx5090-570", "570.124.06", rtx5090),
}

// TestFrameworkGoldens: what build writes for TensorFlow and JAX on each
// golden target, or the refusal, as a golden file each; every file
// written validates on its target with no error.
func TestFrameworkGoldens(t *testing.T) {
	for _, fw := range []string{"tensorflow", "jax"} {
		for _, h := range goldenMachines {
			t.Run(fw+"_"+h.Name, func(t *testing.T) {
				hosts := []*gpucheck.Host{h}
				res, err := Build(Request{Framework: fw, Hosts: hosts, Command: "envguard build " + fw + " --target " + h.Name})
				var got []byte
				if err != nil {
					var be *Error
					if !errors.As(err, &be) {
						t.Fatalf("error %T %v, want *Error", err, err)
					}
					got = []byte("refused (" + be.ErrorCode() + "): " + be.Error() + "\n")
				} else {
					revalidate(t, res, hosts)
					got = res.YAML
				}
				golden(t, filepath.Join("testdata", fw+"_"+h.Name+".golden"), got)
			})
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./builder -run %s -update)", err, t.Name())
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from what was built:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestFrameworkGoldenChoices pins the facts the goldens rest on, so that a
// regenerated golden cannot quietly change them.
func TestFrameworkGoldenChoices(t *testing.T) {
	tests := []struct {
		fw, target string
		pip, name  string // "" pip: refused
		closest    string
	}{
		// CUDA 12 needs a 525 driver; 2.14 is CUDA 11.8 with sm_35 SASS,
		// which runs on the K80's sm_37 (same major).
		// 2.14.0 is the newest on a CUDA 11 driver, and it opens whatever
		// cuDNN 8 is installed (libcudnn.so.8): 8.7.0 and older carry
		// Kepler, 8.8.0 and newer do not, so it is not decided.
		{"tensorflow", "k80-470", "", "", ""},
		// 2.21's architecture list is not in the knowledge base (EG409).
		{"tensorflow", "a100-535", "tensorflow[and-cuda]==2.20.0", "tf220_cu125", ""},
		{"tensorflow", "h100-550", "tensorflow[and-cuda]==2.20.0", "tf220_cu125", ""},
		// No TensorFlow release has sm_120 SASS, and the CUDA 12.5
		// libraries 2.20 loads have no code of their own for sm_120 (that
		// came in CUDA 12.8): its PTX path is not decided (EG409).
		{"tensorflow", "rtx5090-570", "", "", ""},
		// No CUDA jax runs on a CUDA 11 driver since 0.4.26.
		{"jax", "k80-470", "", "", "a CPU build: envguard build jax=0.11.0 --cuda cpu"},
		// CUDA 13 needs a 580 driver: the CUDA 12 plugins.
		{"jax", "a100-535", "jax[cuda12]==0.11.0", "jax011_cu12", ""},
		{"jax", "h100-550", "jax[cuda12]==0.11.0", "jax011_cu12", ""},
		{"jax", "rtx5090-570", "jax[cuda12]==0.11.0", "jax011_cu12", ""},
	}
	byName := map[string]*gpucheck.Host{}
	for _, h := range goldenMachines {
		byName[h.Name] = h
	}
	for _, tt := range tests {
		res, err := Build(Request{Framework: tt.fw, Hosts: []*gpucheck.Host{byName[tt.target]}})
		if tt.pip == "" {
			var be *Error
			if !errors.As(err, &be) || !be.NoFit || be.Closest != tt.closest {
				t.Errorf("%s on %s: %v, want no fit with closest %q", tt.fw, tt.target, err, tt.closest)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s on %s: %v", tt.fw, tt.target, err)
			continue
		}
		if !slices.Equal(res.Pip, []string{tt.pip}) || res.Name != tt.name || res.Report.Name.Canonical != tt.name {
			t.Errorf("%s on %s: pip %v name %s (report %s), want %s %s", tt.fw, tt.target, res.Pip, res.Name, res.Report.Name.Canonical, tt.pip, tt.name)
		}
	}
}

// TestJAXCUDA13WhereItRuns: on a CUDA 13.0 driver the CUDA 13 plugins run
// with a warning (pip may install a newer 13.x runtime, EG402) and the CUDA
// 12 ones clean, so CUDA 12 wins and the header says why CUDA 13 lost;
// --cuda 13 takes them. On a GPU CUDA 13 dropped (Volta) CUDA 13 is refused.
func TestJAXCUDA13WhereItRuns(t *testing.T) {
	h := []*gpucheck.Host{machine("h100-580", "580.65.06", h100gpu)}
	res := mustBuild(t, Request{Framework: "jax", Hosts: h})
	revalidate(t, res, h)
	if res.Pip[0] != "jax[cuda12]==0.11.0" || !strings.Contains(string(res.YAML), "not chosen: jax 0.11.0 CUDA 13: driver 580.65.06 supports CUDA 13.0") {
		t.Errorf("h100-580: %v, want jax[cuda12]==0.11.0 and why CUDA 13 lost:\n%s", res.Pip, res.YAML)
	}
	res = mustBuild(t, Request{Framework: "jax", CUDA: "13", Hosts: h})
	revalidate(t, res, h)
	if res.Pip[0] != "jax[cuda13]==0.11.0" || res.Name != "jax011_cu13" {
		t.Errorf("h100-580 --cuda 13: %v %s, want jax[cuda13]==0.11.0 jax011_cu13", res.Pip, res.Name)
	}
	v := []*gpucheck.Host{machine("v100-580", "580.65.06", v100)}
	res = mustBuild(t, Request{Framework: "jax", Hosts: v})
	revalidate(t, res, v)
	if res.Pip[0] != "jax[cuda12]==0.11.0" {
		t.Errorf("v100-580: %v, want jax[cuda12]==0.11.0", res.Pip)
	}
	if !strings.Contains(string(res.YAML), "not chosen: jax 0.11.0 CUDA 13: ") || !strings.Contains(string(res.YAML), "EG403") {
		t.Errorf("v100-580: the header does not say why CUDA 13 lost:\n%s", res.YAML)
	}
	// 0.7.1 has no CUDA 13 plugins in the knowledge base: CUDA 12 even on 580.
	res = mustBuild(t, Request{Framework: "jax", Version: "0.7.1", Hosts: h})
	if res.Pip[0] != "jax[cuda12]==0.7.1" {
		t.Errorf("jax 0.7.1 on h100-580: %v, want jax[cuda12]==0.7.1", res.Pip)
	}
}

// TestPipFrameworkRequests: versions, series, Python, --cuda and --via as
// the TensorFlow and JAX builders read them.
func TestPipFrameworkRequests(t *testing.T) {
	a100h := []*gpucheck.Host{machine("a100-535", "535.104.05", a100)}
	tests := []struct {
		name string
		req  Request
		pip  string
		py   string
		yaml []string // in the file
	}{
		{"tf series", Request{Framework: "tensorflow", Version: "2.16", Hosts: a100h}, "tensorflow[and-cuda]==2.16.1", "3.12", []string{"name: tf216_cu123", "The newest release of the 2.16 series", "CUDA 12.3 and cuDNN 8.9"}},
		{"tf release", Request{Framework: "tf", Version: "=2.17.0", Python: "3.10"}, "tensorflow[and-cuda]==2.17.0", "3.10", []string{"python=3.10", "tensorflow 2.17.0 as asked"}},
		{"tf python narrows the release", Request{Framework: "tensorflow", Python: "3.9"}, "tensorflow[and-cuda]==2.20.0", "3.9", nil},
		{"tf cuda narrows the release", Request{Framework: "tensorflow", CUDA: "11.8"}, "tensorflow[and-cuda]==2.14.0", "3.10", []string{"Python 3.10 is the newest tensorflow 2.14.0 can be installed on", "no Python 3.11 wheel of"}},
		{"tf 2.15's extra cannot be installed", Request{Framework: "tensorflow", Version: "2.15"}, "tensorflow[and-cuda]==2.15.0.post1", "3.11", []string{"name: tf215_cu122", "tensorflow[and-cuda]==2.15.0 cannot be installed (it pins tensorrt-libs==8.6.1"}},
		{"jax series", Request{Framework: "jax", Version: "0.4", Hosts: a100h}, "jax[cuda12]==0.4.38", "3.13", []string{"name: jax04_cu12"}},
		{"jax python range", Request{Framework: "jax", Version: "0.4.30", Python: "3.9"}, "jax[cuda12]==0.4.30", "3.9", nil},
		{"jax cuda major", Request{Framework: "jax", CUDA: "cu126"}, "jax[cuda12]==0.11.0", "3.14", nil},
		{"jax cpu", Request{Framework: "jax", CUDA: "cpu", Hosts: a100h}, "jax==0.11.0", "3.14", []string{"name: jax011_cpu", "CPU-only build"}},
		{"jax via pip", Request{Framework: "jax", Version: "0.6.0", Via: "pip"}, "jax[cuda12]==0.6.0", "3.13", []string{"cuDNN >= 9.8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustBuild(t, tt.req)
			r := revalidate(t, res, tt.req.Hosts)
			if !slices.Equal(res.Pip, []string{tt.pip}) || res.Python != tt.py {
				t.Errorf("pip %v python %s, want %s python %s", res.Pip, res.Python, tt.pip, tt.py)
			}
			if r.Name.Canonical != res.Name {
				t.Errorf("name %s, the report's %s", res.Name, r.Name.Canonical)
			}
			for _, s := range tt.yaml {
				if !strings.Contains(string(res.YAML), s) {
					t.Errorf("the file lacks %q:\n%s", s, res.YAML)
				}
			}
		})
	}
}

// TestPipFrameworkRefusals: requests the builders cannot write are bad
// requests (exit 2) that say which fact is missing or wrong; nothing that
// runs is no fit (exit 1).
func TestPipFrameworkRefusals(t *testing.T) {
	k80h := []*gpucheck.Host{machine("k80-470", "470.57.02", k80)}
	tests := []struct {
		name  string
		req   Request
		noFit bool
		msg   []string
	}{
		{"tf before and-cuda", Request{Framework: "tensorflow", Version: "2.13.0"}, false, []string{"tensorflow 2.13.0 predates the and-cuda extra", "from 2.14.0", "envguard build tensorflow=2.14"}},
		{"tf patch not listed", Request{Framework: "tensorflow", Version: "2.17.1"}, false, []string{"tensorflow 2.17.1 is not in the knowledge base", "of the 2.17 series it lists 2.17.0"}},
		{"tf unknown", Request{Framework: "tensorflow", Version: "9.9"}, false, []string{"tensorflow 9.9 is not in the knowledge base", "newest known: 2.21.0", "--kb DIR"}},
		{"tf cpu", Request{Framework: "tensorflow", CUDA: "cpu"}, false, []string{"writes tensorflow[and-cuda] builds only", "CPU-only package"}},
		{"tf other cuda", Request{Framework: "tensorflow", Version: "2.16", CUDA: "12.1"}, false, []string{"tensorflow 2.16.1 was built and tested with CUDA 12.3 only", "not 12.1"}},
		{"tf conda", Request{Framework: "tensorflow", Via: "conda"}, false, []string{"--via conda", "--via pip"}},
		{"tf python", Request{Framework: "tensorflow", Python: "3.8"}, false, []string{"no tensorflow release in the knowledge base has Python 3.8", "not 3.8"}},
		{"tf 2.14 extra on 3.11", Request{Framework: "tensorflow", Version: "2.14", Python: "3.11"}, false, []string{"tensorflow[and-cuda]==2.14.0 cannot be installed on Python 3.11", "tensorrt==8.5.3.1"}},
		{"tf nothing runs", Request{Framework: "tensorflow", Version: "2.16", Hosts: k80h}, true, []string{"no variant of tensorflow 2.16.1 runs on k80-470", "EG401"}},
		{"jax yanked", Request{Framework: "jax", Version: "0.4.32"}, false, []string{"jax 0.4.32 was yanked", "build 0.4.33 instead"}},
		{"jax monolithic", Request{Framework: "jax", Version: "0.4.26"}, false, []string{"jax 0.4.26 predates the CUDA plugins", "from 0.4.30", "file names"}},
		{"jax old series", Request{Framework: "jax", Version: "0.3"}, false, []string{"jax 0.3 predates the CUDA plugins"}},
		{"jax no cuda13", Request{Framework: "jax", Version: "0.4.30", CUDA: "13"}, false, []string{"jax 0.4.30 has CUDA plugins for CUDA 12", "not --cuda 13"}},
		{"jax python", Request{Framework: "jax", Version: "0.4.30", Python: "3.13"}, false, []string{"jax 0.4.30 has wheels for Python 3.9, 3.10, 3.11, 3.12, not 3.13"}},
		{"jax nothing runs", Request{Framework: "jax", Version: "0.6", Hosts: k80h}, true, []string{"no jax release of the 0.6 series runs on k80-470", "jax 0.6.2 CUDA 12"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build(tt.req)
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("Build: %v, want *Error", err)
			}
			if be.NoFit != tt.noFit {
				t.Errorf("NoFit %v, want %v: %v", be.NoFit, tt.noFit, err)
			}
			for _, s := range tt.msg {
				if !strings.Contains(be.Error(), s) {
					t.Errorf("error lacks %q:\n%v", s, err)
				}
			}
		})
	}
	// The closest build of a release that does not fit is the newest other
	// release that does: on a P100 with driver 470, 2.14.0 (CUDA 11.8,
	// through minor-version compatibility). On the K80 none is decided to
	// run: 2.14.0 opens whatever cuDNN 8 is installed, and only those up
	// to 8.7.0 carry Kepler (8.8.0 is the first without it).
	p100h := []*gpucheck.Host{machine("p100-470", "470.57.02", gpu{"Tesla P100-PCIE-16GB", "6.0"})}
	_, err := Build(Request{Framework: "tensorflow", Version: "2.16", Hosts: p100h})
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("Build: %v, want *Error", err)
	}
	if be.Closest != "tensorflow 2.14.0 CUDA 11.8 — envguard build tensorflow=2.14.0" {
		t.Errorf("closest %q (%v)", be.Closest, err)
	}
}

// TestFrameworksAllBuild: every name Frameworks lists is one Build builds,
// and each TensorFlow or JAX result is installed by uv from its pip line
// and is not something pick prints.
func TestFrameworksAllBuild(t *testing.T) {
	for _, fw := range Frameworks() {
		res, err := Build(Request{Framework: fw})
		if err != nil {
			t.Errorf("Build(%s): %v", fw, err)
			continue
		}
		if fw == "pytorch" {
			continue
		}
		if !Installs("uv", res) {
			t.Errorf("%s: uv does not install it", fw)
		}
		p, err := InstallPlan("uv", "/opt/env", "/tmp/environment.yml", res)
		if err != nil {
			t.Fatalf("%s: %v", fw, err)
		}
		want := [][]string{{"uv", "venv", "--python", res.Python, "/opt/env"}, {"uv", "pip", "install", "--python", "/opt/env", res.Pip[0]}}
		if len(p.Steps) != 2 || !slices.Equal(p.Steps[0], want[0]) || !slices.Equal(p.Steps[1], want[1]) {
			t.Errorf("%s: uv steps %v, want %v", fw, p.Steps, want)
		}
		if _, err := res.Pick(PickIndex); err == nil {
			t.Errorf("%s: Pick printed a line for a build it does not know", fw)
		}
	}
}

// TestPipFrameworkProperty: for every TensorFlow and JAX release the
// builders write (-short: the newest of each series) and every machine,
// what Build emits validates on that machine with no error and carries the
// report's own canonical name; or Build refuses with an *Error that names
// the release and, for no fit, the machine. With no version, the release
// chosen is the newest that fits: every newer one is refused.
func TestPipFrameworkProperty(t *testing.T) {
	k := kb.Default()
	machines := append([]*gpucheck.Host{machine("k80-470", "470.57.02", k80)}, propertyMachines...)
	var built, refused int
	for _, fw := range []*pipFramework{tensorFlow(k), jaxBuilder(k)} {
		rels := fw.releases
		if testing.Short() {
			rels = newestPipPerSeries(rels)
		}
		for _, h := range machines {
			hosts := []*gpucheck.Host{h}
			for _, rel := range rels {
				for _, py := range []string{rel.pythons[0], rel.pythons[len(rel.pythons)-1]} {
					res, err := Build(Request{Framework: fw.name, Version: rel.version, Python: py, Hosts: hosts, KB: k})
					if err != nil {
						var be *Error
						if !errors.As(err, &be) || !strings.Contains(be.Error(), rel.pin) || (be.NoFit && !strings.Contains(be.Msg, h.Name)) {
							t.Errorf("%s %s py%s on %s: %v, want an *Error naming the release and machine", fw.name, rel.version, py, h.Name, err)
						}
						refused++
						continue
					}
					built++
					r := report.Validate("environment.yml", res.YAML, report.Options{Platform: "linux-64", KB: k, Hosts: hosts})
					if r.Summary.Errors > 0 || refusal(r) != "" {
						t.Errorf("%s %s py%s on %s: the file does not pass:\n%s", fw.name, rel.version, py, h.Name, res.YAML)
					}
					if r.Name.Canonical != res.Name || res.Release != rel.pin || res.Python != py {
						t.Errorf("%s %s py%s on %s: built %s %s py%s, report's name %s", fw.name, rel.version, py, h.Name, res.Name, res.Release, res.Python, r.Name.Canonical)
					}
				}
			}
			res, err := Build(Request{Framework: fw.name, Hosts: hosts, KB: k})
			if err != nil {
				continue
			}
			for _, rel := range fw.releases {
				if rel.pin == res.Release {
					break
				}
				if _, err := Build(Request{Framework: fw.name, Version: rel.version, Hosts: hosts, KB: k}); err == nil {
					t.Errorf("%s on %s: chose %s, but the newer %s builds too", fw.name, h.Name, res.Release, rel.version)
				}
			}
		}
	}
	t.Logf("%d built, %d refused", built, refused)
	if built == 0 || refused == 0 {
		t.Errorf("%d built, %d refused: the property says nothing about one side", built, refused)
	}
}

func newestPipPerSeries(rs []pipRelease) []pipRelease {
	var out []pipRelease
	seen := map[string]bool{}
	for _, r := range rs { // newest first
		if !seen[seriesOf(r.version)] {
			seen[seriesOf(r.version)] = true
			out = append(out, r)
		}
	}
	return out
}

// FuzzPipFrameworkRequest: whatever version, Python and --cuda a request
// names, the TensorFlow and JAX builders answer with a file that validates
// or an *Error, never a panic.
func FuzzPipFrameworkRequest(f *testing.F) {
	for _, s := range [][4]string{
		{"tensorflow", "2.16", "3.10", "auto"}, {"jax", "0.4", "", "cu126"}, {"jax", "0.3", "3.9", "13"},
		{"tensorflow", "=v2.14.0", "python=3.11", "11.8"}, {"jax", "0.4.32", "", "cpu"}, {"tf", "", "3", "cuda"},
		{"jax", "1.2.3.4", "3.99", "cu1"}, {"tensorflow", "2.15.0.post1", "", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	hosts := []*gpucheck.Host{machine("a100-535", "535.104.05", a100)}
	f.Fuzz(func(t *testing.T, fw, version, python, cuda string) {
		if fw != "tensorflow" && fw != "jax" && fw != "tf" {
			fw = "jax"
		}
		res, err := Build(Request{Framework: fw, Version: version, Python: python, CUDA: cuda, Hosts: hosts})
		if err != nil {
			var be *Error
			if !errors.As(err, &be) || be.Msg == "" {
				t.Fatalf("%q %q %q %q: %T %v, want *Error", fw, version, python, cuda, err, err)
			}
			return
		}
		if res.Report.Summary.Errors > 0 || len(res.Pip) != 1 {
			t.Fatalf("%q %q %q %q: emitted a file with errors:\n%s", fw, version, python, cuda, res.YAML)
		}
	})
}
