package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// TestTFCondaCPUOnly: a plain conda `tensorflow` before 2.6 is CPU-only on
// conda-forge (no CUDA build in the feedstock's history) and on defaults
// (the mkl build is the default; the GPU one comes with tensorflow-gpu), so
// its variant is decided, and EG207 does not say the solver picks one per
// machine (issue 26, root cause 2: corpus 053).
func TestTFCondaCPUOnly(t *testing.T) {
	k := kb.Default()
	tests := []struct {
		name, channels, dep string
		want                string // the variant
	}{
		{"both channels, 2.0.0", "[conda-forge, defaults]", "tensorflow=2.0.0", "cpu"},
		{"conda-forge, 2.5.0", "[conda-forge]", "tensorflow=2.5.0", "cpu"},
		{"defaults, 1.15.0", "[defaults]", "tensorflow=1.15.0", "cpu"},
		// conda-forge has CUDA builds of 2.6.0: left open
		{"conda-forge, 2.6.0", "[conda-forge]", "tensorflow=2.6.0", ""},
		// no row reaches defaults' 2.6: not assumed
		{"defaults, 2.6.0", "[defaults]", "tensorflow=2.6.0", ""},
		// a channel the knowledge base says nothing of could serve it
		{"an unknown channel beside", "[conda-forge, anaconda-extras]", "tensorflow=2.0.0", ""},
		// an open release is not settled by one release's builds
		{"open release", "[conda-forge]", "tensorflow", ""},
		// tensorflow-gpu is the GPU build on defaults
		{"tensorflow-gpu", "[defaults]", "tensorflow-gpu=2.0.0", "cuda"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "name: x\nchannels: " + tt.channels + "\ndependencies:\n  - python=3.7\n  - " + tt.dep + "\n"
			env := envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
			st := Resolve(env, k)
			if st.Framework == nil {
				t.Fatalf("no framework in %q", src)
			}
			if st.Framework.Variant != tt.want {
				t.Errorf("variant %q, want %q", st.Framework.Variant, tt.want)
			}
			// the variant left open says why where only a channel the
			// knowledge base knows nothing of keeps it open (review forty
			// F20)
			if tt.name == "an unknown channel beside" && !strings.Contains(st.Framework.VariantOpen, "the file lists channels the knowledge base knows nothing of (anaconda-extras)") {
				t.Errorf("VariantOpen %q", st.Framework.VariantOpen)
			}
			for _, d := range lintWith(t, k, src) {
				if d.Code == "EG207" && tt.want == "cpu" {
					t.Errorf("EG207 on a CPU-only build: %s", d.Message)
				}
			}
		})
	}
}

// TestTensorFlowCondaCPUOnlyKB: the knowledge base's answer and its reason.
func TestTensorFlowCondaCPUOnlyKB(t *testing.T) {
	k := kb.Default()
	if why, ok := k.TensorFlowCondaCPUOnly("2.0.0", kb.DistCondaForge); !ok || why != "conda-forge built no CUDA variant of tensorflow before 2.6.0" {
		t.Errorf("conda-forge 2.0.0: %v %q", ok, why)
	}
	if why, ok := k.TensorFlowCondaCPUOnly("2.0.0", kb.DistDefaults); !ok || why == "" {
		t.Errorf("defaults 2.0.0: %v %q", ok, why)
	}
	// 1.8.0's metapackage picks mkl or eigen (_tflow_180_select); what
	// defaults published before 1.8.0 predates its recipes (review
	// fifty-five F20)
	if why, ok := k.TensorFlowCondaCPUOnly("1.8.0", kb.DistDefaults); !ok || !strings.Contains(why, "tensorflow-gpu") {
		t.Errorf("defaults 1.8.0: %v %q", ok, why)
	}
	if !k.TensorFlowBeforeDefaultsRecipes("1.4.0") || k.TensorFlowBeforeDefaultsRecipes("1.8.0") || k.TensorFlowDefaultsRecipesFrom() != "1.8.0" {
		t.Errorf("defaults recipes from %q", k.TensorFlowDefaultsRecipesFrom())
	}
	for _, c := range []struct {
		v string
		d kb.Distribution
	}{{"2.6.0", kb.DistCondaForge}, {"1.7.0", kb.DistDefaults}, {"2.6.0", kb.DistDefaults}, {"2.0.0", kb.DistPytorchConda}} {
		if _, ok := k.TensorFlowCondaCPUOnly(c.v, c.d); ok {
			t.Errorf("%s on %s read as CPU-only", c.v, c.d)
		}
	}
}

// TestTFSelectPin: review eighteen F25 (118). A file that pins
// _tflow_select pins the defaults channel's TensorFlow variant (2.3.0 mkl,
// 2.2.0 eigen: CPU; 2.1.0: GPU), whatever other channel it lists.
func TestTFSelectPin(t *testing.T) {
	for _, tc := range []struct{ sel, want string }{{"2.3.0", "cpu"}, {"2.2.0", "cpu"}, {"2.1.0", "cuda"}} {
		st := resolveSrc(t, "channels: [defaults, conda-forge, pypi]\ndependencies:\n  - python=3.7\n  - _tflow_select="+tc.sel+"\n  - tensorflow=2.0.0\n")
		if st.Framework == nil || st.Framework.Variant != tc.want {
			t.Errorf("_tflow_select=%s: %+v, want variant %s", tc.sel, st.Framework, tc.want)
		}
	}
}
