package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestVariantHintByRelease: the pytorch channel's selector and CPU build
// are those of the release (review #29, #1076): cudatoolkit up to 1.12,
// pytorch-cuda from 1.13; cpuonly from 1.2, the pytorch-cpu package before.
func TestVariantHintByRelease(t *testing.T) {
	k := kb.Default()
	tests := []struct {
		version  string
		has, not []string
	}{
		{"1.1.0", []string{"cudatoolkit=X.Y", "pytorch 1.1 on the pytorch channel has CUDA 9.0, 10.0", "pytorch-cpu in place of pytorch"}, []string{"cpuonly", "pytorch-cuda", "nvidia"}},
		{"1.5.1", []string{"cudatoolkit=X.Y", "cpuonly"}, []string{"pytorch-cuda", "pytorch-cpu"}},
		// review thirty-four F17 (157): pytorch-cuda's CUDA packages are on
		// the nvidia channel
		{"2.1.0", []string{"pytorch-cuda=X.Y", "cpuonly", "with the nvidia channel listed"}, []string{"cudatoolkit", "pytorch-cpu"}},
	}
	for _, tt := range tests {
		h := VariantHint(k, &Framework{Name: "pytorch", Version: tt.version, Dist: kb.DistPytorchConda})
		for _, s := range tt.has {
			if !strings.Contains(h, s) {
				t.Errorf("%s: hint %q lacks %q", tt.version, h, s)
			}
		}
		for _, s := range tt.not {
			if strings.Contains(h, s) {
				t.Errorf("%s: hint %q says %q", tt.version, h, s)
			}
		}
	}
	// without a knowledge base, the generic wording
	if h := VariantHint(nil, &Framework{Name: "pytorch", Version: "1.1.0", Dist: kb.DistPytorchConda}); !strings.Contains(h, "pytorch-cuda=X.Y (pytorch 1.13–2.5, with the nvidia channel listed") {
		t.Errorf("no KB: %q", h)
	}
}

// buildPin keeps the file's version in the build pin it proposes (review
// thirty-nine F19: pytorch=*=*cuda* beside the file's =1.9 dropped it).
func TestBuildPinKeepsVersion(t *testing.T) {
	for spec, want := range map[string]string{
		"":         "pytorch=*=*cuda*",
		"=1.9":     "pytorch=1.9=*cuda*",
		"==1.3.1":  "pytorch=1.3.1=*cuda*",
		"1.12.*":   "pytorch=1.12.*=*cuda*",
		">=1.9,<2": "pytorch[version='>=1.9,<2',build='*cuda*']",
	} {
		if got := buildPin(&Framework{Spec: spec}, "*cuda*"); got != want {
			t.Errorf("%q: %q, want %q", spec, got, want)
		}
	}
}

// TestEG207MPSFile (review forty-three F10, corpus 095): a file that sets
// a variable of PyTorch's MPS backend is written for Apple silicon, where
// pytorch has no CUDA build to pin. EG207 says so, and its hint starts with
// validating it for macOS; a file without one keeps the plain message.
func TestEG207MPSFile(t *testing.T) {
	base := "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.9\n  - pytorch\n"
	for _, tt := range []struct {
		vars string
		want bool
	}{
		{"variables:\n  PYTORCH_ENABLE_MPS_FALLBACK: 1\n", true},
		{"variables:\n  PYTORCH_MPS_HIGH_WATERMARK_RATIO: 0.0\n", true},
		{"variables:\n  CUDA_VISIBLE_DEVICES: 0\n", false},
		{"", false},
	} {
		_, diags := lintSrc(t, base+tt.vars)
		found := false
		for _, d := range diags {
			if d.Code != "EG207" {
				continue
			}
			found = true
			says := strings.Contains(d.Message, "a variable of PyTorch's Apple-silicon (MPS) backend, so it may be written for macOS") &&
				strings.HasPrefix(d.Hint, "if the file is for macOS, validate it with --platform osx-arm64")
			if says != tt.want {
				t.Errorf("%q: %s\nhint: %s", tt.vars, d.Message, d.Hint)
			}
		}
		if !found {
			t.Errorf("%q: no EG207", tt.vars)
		}
	}
}

// TestSelectorRouteFromKB: the pytorch channel's last series comes from
// the knowledge base's torch_variants rows (its newest series published
// there), not from a number written in Go; with no knowledge base the
// route names none.
func TestSelectorRouteFromKB(t *testing.T) {
	if got := SelectorRoute(kb.Default(), "pytorch-cuda=11.8"); !strings.Contains(got, "(pytorch::pytorch, whose releases end at 2.5)") {
		t.Errorf("with the KB: %s", got)
	}
	if got := SelectorRoute(nil, "cpuonly"); !strings.Contains(got, "(pytorch::pytorch)") {
		t.Errorf("without a KB: %s", got)
	}
}
