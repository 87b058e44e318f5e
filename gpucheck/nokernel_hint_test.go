package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestNoKernelHint: a GPU older than all the SASS a build carries is sent
// to an older build, one it merely lacks to a newer one (review 9 #322).
func TestNoKernelHint(t *testing.T) {
	list := &kb.ArchList{SASS: []string{"5.0", "6.0", "7.0", "8.0", "9.0"}}
	for _, tt := range []struct {
		gpu  cc
		want string
	}{
		{cc{Major: 3, Minor: 7}, "still targets this architecture (an older framework release or CUDA variant: newer ones drop old GPUs"},
		{cc{Major: 12}, "includes this architecture (a newer framework release or CUDA variant)"},
		{cc{Major: 8, Minor: 9}, "includes this architecture (a newer"},
	} {
		got := noKernelHint(tt.gpu, list, "a newer framework release or CUDA variant", "an older framework release or CUDA variant")
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.gpu.sm(), got, tt.want)
		}
	}
}

// TestUnknownPkgHintNoRows: an extension the knowledge base names but
// describes no release of (cucim) is not told to pin a release "the
// knowledge base has a build row for": there is none (review 9 #25).
func TestUnknownPkgHintNoRows(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{{Name: "norows", Framework: "none", Source: "S"}}
	c := &checker{st: &resolver.Stack{}, k: factsKB{f}, h: host("570.124.06", "12.8", "9.0")}
	got := c.unknownPkgHint(&resolver.GPUPackage{Name: "norows", Role: resolver.RoleExtension, Unknown: "the release of norows is left to the solver"})
	if strings.Contains(got, "pin a release") || !strings.Contains(got, "describes no release of norows's builds") {
		t.Errorf("hint %q", got)
	}
}
