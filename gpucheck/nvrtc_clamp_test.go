package gpucheck

import (
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestEveryReleaseClamps: an open release is decided through the cap only
// where every release the distribution published caps and compiles PTX on
// the GPU: not where one predates the cap, one compares capabilities as
// strings on a GPU of major 10, or one compiles machine code of another
// major for a build of the CUDA given.
func TestEveryReleaseClamps(t *testing.T) {
	ext := &kb.Extension{Name: "cupy", NVRTC: true, NVRTCClampFrom: "5.0.0", NVRTCIntCompareFrom: "13.4.0", NVRTCCubinFrom: "9.6.0", NVRTCCubinCUDA: "11.1",
		CondaForgeReleases: []string{"6.4.0", "9.0.0", "13.6.0"}}
	conda := &resolver.GPUPackage{Name: "cupy", From: envspec.ProviderConda}
	c := &checker{}
	h100, b200 := cc{Major: 9, Minor: 0}, cc{Major: 10, Minor: 0}
	for _, tt := range []struct {
		name string
		ext  kb.Extension
		gcc  cc
		cu   string
		hi   cc
		want bool
	}{
		{"every release caps, CUDA 10.1 PTX", *ext, h100, "10.1", cc{Major: 7, Minor: 5}, true},
		{"a release before the cap", func() kb.Extension { e := *ext; e.CondaForgeReleases = []string{"4.5.0", "6.4.0"}; return e }(), h100, "10.1", cc{Major: 7, Minor: 5}, false},
		{"string comparison on major 10", *ext, b200, "10.1", cc{Major: 7, Minor: 5}, false},
		{"machine code of another major", *ext, h100, "11.2", cc{Major: 8, Minor: 6}, false},
		{"no release list", func() kb.Extension { e := *ext; e.CondaForgeReleases = nil; return e }(), h100, "10.1", cc{Major: 7, Minor: 5}, false},
	} {
		if got := c.everyReleaseClamps(&tt.ext, conda, tt.gcc, tt.cu, tt.hi); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
