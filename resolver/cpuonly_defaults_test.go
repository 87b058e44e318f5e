package resolver

import (
	"strings"
	"testing"
)

// cpuonly is the pytorch channel's selector (pytorch-mutex): the defaults
// recipe's pytorch never depends on it, so beside defaults' pytorch it
// selects no CPU build (review twelve #828, corpus 100, which read as a
// CPU-only build with an EG407). Beside the pytorch channel's, it does.
func TestCpuonlyBesideDefaultsPytorch(t *testing.T) {
	for _, tt := range []struct{ src, variant string }{
		{"channels: [defaults, pytorch]\ndependencies:\n  - python=3.10\n  - pytorch\n  - cpuonly\n", ""},
		{"channels: [pytorch, defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.1.0\n  - cpuonly\n", "cpu"},
		{"channels: [defaults, pytorch]\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.1.0\n  - cpuonly\n", "cpu"},
	} {
		st, _ := lintSrc(t, tt.src)
		if st.Framework == nil || st.Framework.Variant != tt.variant {
			t.Errorf("%q: variant %q (dist %q), want %q", tt.src, st.Framework.Variant, st.Framework.Dist, tt.variant)
		}
	}
}

// TestPytorchCudaBesideDefaultsHint: review thirteen #1244, corpus 164.
// pytorch-cuda=11.8 beside a pytorch that comes from defaults (listed
// first) selects nothing; the variant hint says to take pytorch from the
// pytorch channel to use it, before defaults' own metapackages.
func TestPytorchCudaBesideDefaultsHint(t *testing.T) {
	st, _ := lintSrc(t, "channels: [defaults, conda-forge, pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch\n  - pytorch-cuda=11.8\n")
	f := st.Framework
	if f == nil || f.IgnoredSelector != "pytorch-cuda=11.8 (line 5)" {
		t.Fatalf("framework %+v", f)
	}
	h := VariantHint(nil, f)
	for _, want := range []string{"to use pytorch-cuda=11.8 (line 5), take pytorch from the pytorch channel", "pytorch::pytorch", "otherwise drop it and "} {
		if !strings.Contains(h, want) {
			t.Errorf("hint %q lacks %q", h, want)
		}
	}
}

// TestPytorchCudaSelectorCUDA: the ignored selector's CUDA is kept, so a
// check can judge the build it would select on the pytorch channel.
func TestPytorchCudaSelectorCUDA(t *testing.T) {
	st, _ := lintSrc(t, "channels: [defaults, pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.0\n  - pytorch-cuda=11.8\n")
	if f := st.Framework; f == nil || f.IgnoredSelectorCUDA != "11.8" {
		t.Fatalf("framework %+v", f)
	}
}
