package kb

import (
	"strings"
	"testing"
)

func TestFrameworkArchLookups(t *testing.T) {
	k := Default()
	tests := []struct {
		name                    string
		framework, series, cuda string
		dist                    Distribution
		wantOK, wantKnown       bool
		wantSeries, wantCUDA    string
		wantSASS, wantPTX       string // comma-joined
		wantFramework           string
	}{
		// TensorFlow: series read as major.minor, the CUDA its release was built with.
		{"tf 2.15.1 on 12.2 is undecided", "tensorflow", "2.15.1", "12.2", DistPyPI, true, false, "2.15", "12.2", "", "", "tensorflow"},
		{"tf 2.3 PTX only for 7.0", "tensorflow", "2.3.0", "10.1", DistPyPI, true, true, "2.3", "10.1", "3.5,3.7,5.2,6.0,6.1,7.0", "7.0", "tensorflow"},
		{"tf 2.2 x.y format embeds PTX everywhere", "tensorflow", "2.2", "10.1", DistPyPI, true, true, "2.2", "10.1", "3.5,3.7,5.2,6.0,6.1,7.0", "3.5,3.7,5.2,6.0,6.1,7.0", "tensorflow"},
		{"tf 2.12 wheel", "tensorflow", "2.12.0", "11.8", DistPyPI, true, true, "2.12", "11.8", "3.5,5.0,6.0,7.0,7.5,8.0", "8.0", "tensorflow"},
		{"tf 2.16 CUDA 12.3", "tensorflow", "2.16.1", "12.3", DistPyPI, true, true, "2.16", "12.3", "5.0,6.0,7.0,8.0,9.0", "9.0", "tensorflow"},
		{"tf 2.18 drops Maxwell", "tensorflow", "2.18.0", "12.5.1", DistPyPI, true, true, "2.18", "12.5", "6.0,7.0,8.0,8.9,9.0", "9.0", "tensorflow"},
		{"tf dist is ignored (wheel)", "tensorflow", "2.18", "12.5", DistWheel, true, true, "2.18", "12.5", "6.0,7.0,8.0,8.9,9.0", "9.0", "tensorflow"},
		{"tf conda-forge without a conda-forge row takes the wheel's", "tensorflow", "2.18", "12.5", DistCondaForge, true, true, "2.18", "12.5", "6.0,7.0,8.0,8.9,9.0", "9.0", "tensorflow"},
		{"tf empty cuda takes the series' only row", "TensorFlow", "2.10.1", "", DistPyPI, true, true, "2.10", "11.2", "3.5,5.0,6.0,7.0,7.5,8.0", "8.0", "tensorflow"},
		{"tf cuda the release was not built with", "tensorflow", "2.15", "11.8", DistPyPI, false, false, "", "", "", "", ""},
		// defaults' tensorflow-gpu: Anaconda's recipe, never the wheel's row
		{"tf 1.15 defaults recipe list", "tensorflow", "1.15.0", "10.0", DistDefaults, true, true, "1.15", "10.0", "3.0,3.5,5.2,6.0,6.1,7.0,7.5", "3.0,3.5,5.2,6.0,6.1,7.0,7.5", "tensorflow"},
		{"tf 2.4.1 defaults drops 3.0", "tensorflow", "2.4.1", "10.1", DistDefaults, true, true, "2.4", "10.1", "3.5,5.2,6.0,6.1,7.0,7.5", "3.5,5.2,6.0,6.1,7.0,7.5", "tensorflow"},
		{"tf defaults without a row is not the wheel's", "tensorflow", "2.10.0", "11.2", DistDefaults, false, false, "", "", "", "", ""},
		// 2.3's commits set two lists: the row has the entries both share
		{"tf defaults 2.3 common entries", "tensorflow", "2.3.0", "10.1", DistDefaults, true, true, "2.3", "10.1", "3.5,5.2,6.0,6.1,7.0,7.5", "3.5,5.2,6.0,6.1,7.0,7.5", "tensorflow"},
		{"tf defaults 1.13 not carried", "tensorflow", "1.13.1", "10.0", DistDefaults, false, false, "", "", "", "", ""},
		{"tf series not carried", "tensorflow", "1.12", "9.0", DistPyPI, false, false, "", "", "", "", ""},
		// JAX: the newest row at or below the release, for the CUDA major.
		{"jax 0.4.30 plugin cuda12", "jax", "0.4.30", "12.3", DistPyPI, true, true, "0.4.21", "12", "5.0,6.0,7.0,8.0,9.0", "9.0", "jax"},
		{"jax row boundary 0.6.0", "jax", "0.6.0", "12", DistPyPI, true, true, "0.6.0", "12", "5.0,6.0,7.0,8.0,9.0,10.0,12.0", "12.0", "jax"},
		{"jax just below a row", "jax", "0.5.3", "12.8", DistPyPI, true, true, "0.4.21", "12", "5.0,6.0,7.0,8.0,9.0", "9.0", "jax"},
		{"jaxlib local version cuda11", "jax", "0.4.13+cuda11.cudnn86", "11.8", DistPyPI, true, true, "0.4.12", "11", "5.2,6.0,7.0,8.0,9.0", "9.0", "jax"},
		{"jax 0.3.15 sm_35 still there", "jax", "0.3.15", "11.1", DistPyPI, true, true, "0.3.10", "11", "3.5,5.2,6.0,7.0,8.0", "8.0", "jax"},
		{"jaxlib 0.1.69 x.y lists", "jax", "0.1.69", "11.1", DistPyPI, true, true, "0.1.44", "11", "3.5,5.2,6.0,6.1,7.0", "3.5,5.2,6.0,6.1,7.0", "jax"},
		{"yanked jaxlib 0.4.0 undecided", "jax", "0.4.0", "11.4", DistPyPI, true, false, "0.4.0", "11", "", "", "jax"},
		{"jax cuda13 plugin", "jax", "0.8.0", "13.0", DistCondaForge, true, true, "0.7.2", "13", "7.5,8.0,9.0,10.0,12.0", "12.0", "jax"},
		{"jax thor", "jax", "0.11.0", "13.1", DistPyPI, true, true, "0.10.2", "13", "7.5,8.0,9.0,10.0,11.0,12.0", "12.0", "jax"},
		{"jax cuda13 before its wheels", "jax", "0.7.1", "13.0", DistPyPI, false, false, "", "", "", "", ""},
		{"jax older than every row", "jax", "0.1.40", "10.1", DistPyPI, false, false, "", "", "", "", ""},
		{"jax without cuda", "jax", "0.4.30", "", DistPyPI, false, false, "", "", "", "", ""},
		// PyTorch: FrameworkArch is Arch.
		{"pytorch via empty framework", "", "2.4.1", "12.4", DistPyPI, true, true, "2.4", "12.4", "", "", ""},
		{"unknown framework", "mxnet", "1.9", "11.2", DistPyPI, false, false, "", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, ok := k.FrameworkArch(tt.framework, tt.series, tt.cuda, tt.dist)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v (row %+v)", ok, tt.wantOK, a)
			}
			if !ok {
				if a != nil {
					t.Errorf("not ok but returned %+v", a)
				}
				return
			}
			if a.Known != tt.wantKnown || a.Series != tt.wantSeries || a.CUDA != tt.wantCUDA || a.Framework != tt.wantFramework {
				t.Errorf("got %s %s cuda %s known %v, want %q %s cuda %s known %v", a.Framework, a.Series, a.CUDA, a.Known, tt.wantFramework, tt.wantSeries, tt.wantCUDA, tt.wantKnown)
			}
			if tt.wantFramework == "" {
				return // the pytorch row's lists are Arch's business
			}
			if got := strings.Join(a.SASS, ","); got != tt.wantSASS {
				t.Errorf("sass = %s, want %s", got, tt.wantSASS)
			}
			if got := strings.Join(a.PTX, ","); got != tt.wantPTX {
				t.Errorf("ptx = %s, want %s", got, tt.wantPTX)
			}
			if !tt.wantKnown && a.Note == "" {
				t.Error("an unknown row says why in its note")
			}
		})
	}
}

// FrameworkArch for pytorch is exactly Arch, and Arch never answers with a
// TensorFlow or JAX row, even where the series strings collide.
func TestArchNeverSeesOtherFrameworks(t *testing.T) {
	k := Default()
	for _, a := range k.Facts.Arch {
		for _, d := range []Distribution{DistWheel, DistPyPI, DistPytorchConda, DistCondaForge} {
			got, ok := k.Arch(a.Series, a.CUDA, d)
			if ok && got.Framework != "" {
				t.Errorf("Arch(%s, %s, %s) answered a %s row", a.Series, a.CUDA, d, got.Framework)
			}
			fa, fok := k.FrameworkArch("pytorch", a.Series, a.CUDA, d)
			if fok != ok || fa != got {
				t.Errorf("FrameworkArch(pytorch, %s, %s, %s) = %v,%v; Arch = %v,%v", a.Series, a.CUDA, d, fa, fok, got, ok)
			}
		}
	}
	// The collision the Framework field exists for: a TF row 2.5/11.2 (pypi)
	// must not be torch 2.5's answer.
	if a, ok := k.FrameworkArch("tensorflow", "2.5", "11.2", DistPyPI); !ok || a.Framework != "tensorflow" {
		t.Fatalf("no tensorflow 2.5 row: %+v", a)
	}
	if a, ok := k.Arch("2.5", "11.2", DistPyPI); ok {
		t.Errorf("Arch(2.5, 11.2, pypi) = %s %s %s, want nothing (torch 2.5 has no CUDA 11.2 build)", a.Framework, a.Series, a.CUDA)
	}
	// And a torch row is never a TensorFlow answer.
	if a, ok := k.FrameworkArch("tensorflow", "2.5", "12.4", DistPyPI); ok {
		t.Errorf("tensorflow 2.5 cuda 12.4 answered %+v", a)
	}
}

// Every TensorFlow release series from 1.13 to 2.20 in the tensorflow table
// has an arch row for the CUDA it was built with, known or saying why not.
func TestTensorFlowArchCoversTable(t *testing.T) {
	k := Default()
	for _, tf := range k.Facts.TensorFlow {
		s := majorMinor(tf.Version)
		if c, ok := CompareDotted(s, "2.20"); !ok || c > 0 {
			continue
		}
		a, ok := k.FrameworkArch("tensorflow", tf.Version, tf.CUDA, DistPyPI)
		if !ok {
			t.Errorf("tensorflow %s (cuda %s) has no arch row", tf.Version, tf.CUDA)
			continue
		}
		if !a.Known && a.Note == "" {
			t.Errorf("tensorflow %s: unknown row without a note", s)
		}
		// No list may name an architecture the toolkit cannot target.
		if ta, ok := k.ToolkitArch(a.CUDA); ok && a.Known {
			for _, cc := range a.SASS {
				if lo, _ := CompareDotted(cc, ta.MinSASS); lo < 0 {
					t.Errorf("tensorflow %s: sass %s below CUDA %s's minimum %s", s, cc, a.CUDA, ta.MinSASS)
				}
				if hi, _ := CompareDotted(cc, ta.MaxSASS); hi > 0 {
					t.Errorf("tensorflow %s: sass %s above CUDA %s's maximum %s", s, cc, a.CUDA, ta.MaxSASS)
				}
			}
		}
	}
}

func TestFrameworkArchValidation(t *testing.T) {
	tests := []struct {
		name, file, old, new string
		want                 string // regexp over the error text
	}{
		{"tf series not in tensorflow table", "arch-tensorflow.yaml", `{framework: tensorflow, series: "2.4", cuda: "11.0"`, `{framework: tensorflow, series: "2.99", cuda: "11.0"`, `arch-tensorflow\.yaml:\d+: arch\[\d+\]: tensorflow series 2\.99 is not in the tensorflow table`},
		{"tf cuda it was not built with", "arch-tensorflow.yaml", `{framework: tensorflow, series: "2.4", cuda: "11.0"`, `{framework: tensorflow, series: "2.4", cuda: "11.2"`, `tensorflow 2\.4 was built with cuda 11\.0, not 11\.2`},
		{"tf dist wheel", "arch-tensorflow.yaml", `{framework: tensorflow, series: "2.4", cuda: "11.0", dist: pypi`, `{framework: tensorflow, series: "2.4", cuda: "11.0", dist: wheel`, `tensorflow rows are dist pypi .* not "wheel"`},
		{"tf unsorted sass", "arch-tensorflow.yaml", `sass: ["6.0", "7.0", "8.0", "8.9", "9.0"], ptx: ["9.0"], known: true, source: "OTBTF_TF218`, `sass: ["6.0", "8.0", "7.0", "8.9", "9.0"], ptx: ["9.0"], known: true, source: "OTBTF_TF218`, `sass 7\.0 is not after 8\.0`},
		{"tf duplicate", "arch-tensorflow.yaml", `{framework: tensorflow, series: "2.20", cuda: "12.5"`, `{framework: tensorflow, series: "2.19", cuda: "12.5"`, `duplicate row for tensorflow 2\.19 cuda 12\.5 pypi`},
		{"jax cuda not a major", "arch-jax.yaml", `{framework: jax, series: "0.6.0", cuda: "12"`, `{framework: jax, series: "0.6.0", cuda: "12.8"`, `jax cuda "12\.8" is not a CUDA major`},
		{"jax series not a release", "arch-jax.yaml", `{framework: jax, series: "0.6.0", cuda: "12"`, `{framework: jax, series: "0.6", cuda: "12"`, `series "0\.6" is not a version`},
		{"unknown framework", "arch-jax.yaml", `{framework: jax, series: "0.6.0", cuda: "12"`, `{framework: mxnet, series: "0.6.0", cuda: "12"`, `unknown framework "mxnet"`},
		{"jax unknown row without note", "arch-jax.yaml", `note: "jaxlib 0.4.0 was yanked; an RBE-only sm_60,sm_75 setting present only in 0.4.0 'caused release wheels to ship without correct sm versions compiled in' (71569e1d)"`, `note: ""`, `unknown row needs a note`},
		{"pytorch rows still checked", "arch.yaml", `{series: "1.12", cuda: "10.2"`, `{series: "2.15", cuda: "10.2"`, `series 2\.15 is not in torch_series`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertLoadRejects(t, tt.file, tt.old, tt.new, tt.want) })
	}
	// The shipped rows load clean.
	if _, err := Load(copyData(t)); err != nil {
		t.Fatalf("shipped data does not load: %v", err)
	}
}
