package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// The hints for a TensorFlow build never propose what TensorFlow does not
// have (review r7 #302, #430, #829): pytorch-cuda or +cuXYZ wheels for its
// runtime, tf.sysconfig.get_build_info() before 2.3 (RELEASE.md 2.3.0
// added it), "a newer CUDA variant" of a release built with one CUDA.
func TestTensorFlowHints(t *testing.T) {
	k := kb.Default()
	for _, fw := range []*resolver.Framework{
		{Name: "tensorflow", Version: "2.10.0", From: envspec.ProviderPip},
		{Name: "tensorflow", Version: "2.10.0", From: envspec.ProviderConda, Dist: kb.DistCondaForge},
		{Name: "tensorflow", Version: "2.4.1", From: envspec.ProviderConda, Dist: kb.DistDefaults},
		{Name: "tensorflow", Version: "2.4.1", From: envspec.ProviderConda},
	} {
		h := runtimeUnknownHint(fw, k)
		if strings.Contains(h, "pytorch-cuda") || strings.Contains(h, "+cu") {
			t.Errorf("%s %s (%s): runtime hint %q names PyTorch's variants", fw.From, fw.Version, fw.Dist, h)
		}
	}
	for _, tt := range []struct {
		version string
		cands   []string
		has     bool
	}{
		{"1.15.0", nil, false},
		{"2.2.0", nil, false},
		{"2.3.0", nil, true},
		{"2.10.0", nil, true},
		{"", []string{"2.1.0", "2.4.0"}, false},
		{"", nil, true},
	} {
		p := archProbe(&resolver.Framework{Name: "tensorflow", Version: tt.version, Candidates: tt.cands})
		if got := strings.Contains(p, "print(tf.sysconfig.get_build_info())"); got != tt.has {
			t.Errorf("%s %v: probe %q proposes get_build_info: %v, want %v", tt.version, tt.cands, p, got, tt.has)
		}
	}
	for _, tt := range []struct {
		fw   *resolver.Framework
		want string
	}{
		{&resolver.Framework{Name: "tensorflow", From: envspec.ProviderPip, Dist: ""}, "a newer tensorflow release"},
		{&resolver.Framework{Name: "tensorflow", From: envspec.ProviderConda, Dist: kb.DistCondaForge}, "a newer CUDA variant"},
		{&resolver.Framework{Name: "pytorch", From: envspec.ProviderPip, Dist: kb.DistWheel}, "a newer CUDA variant"},
		// review 8 #747: no CUDA variant of pytorch 1.3 has sm_120, so a
		// newer release is the way, not a newer variant.
		{&resolver.Framework{Name: "pytorch", Version: "1.3.1", From: envspec.ProviderConda, Dist: kb.DistPytorchConda}, "a newer pytorch release: no CUDA variant of pytorch 1.3"},
		// defaults' 1.3.1 (corpus 112): whatever the distribution, 1.3 was
		// built with CUDA 9.2 … 10.1, whose compilers stop at sm_75.
		{&resolver.Framework{Name: "pytorch", Version: "1.3.1", From: envspec.ProviderConda, Dist: kb.DistDefaults}, "a newer pytorch release: pytorch 1.3 was built with CUDA 9.2, 10.0, 10.1, whose compilers emit no SASS for sm_120"},
		// 2.7.0's CUDA 12.8 wheel has sm_120.
		{&resolver.Framework{Name: "pytorch", Version: "2.7.0", From: envspec.ProviderPip, Dist: kb.DistWheel}, "a newer CUDA variant: CUDA 12.8 of pytorch 2.7 has SASS for sm_120"},
	} {
		c := &checker{k: kb.Default(), st: &resolver.Stack{Framework: tt.fw}}
		if got := c.newerBuild(cc{Major: 12, Minor: 0}); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s %s: %q, want %q", tt.fw.Name, tt.fw.Dist, got, tt.want)
		}
	}
}
