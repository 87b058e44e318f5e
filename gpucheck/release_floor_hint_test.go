package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestReleaseFloorHint: for a release the knowledge base has no row of,
// the hint offers the releases it does know only where they can run on
// the target's GPUs: a release whose row states a floor above the GPU
// (tensorrt 10.8.0.43 needs 7.5, a P100 is 6.0) is left out, and where
// that leaves none the hint says why pinning one would not help.
func TestReleaseFloorHint(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{{Name: "trtlike", Framework: "none", Source: "S"}}
	f.ExtensionBuilds = []kb.ExtensionBuild{
		{Name: "trtlike", Version: "10.8.0.43", Dist: "pypi", MinCC: "7.5", Source: "S"},
		{Name: "trtlike", Version: "10.13.2.6", Dist: "pypi", MinCC: "8.0", Source: "S"},
	}
	k := factsKB{f}
	for _, tt := range []struct {
		cc, has string
	}{
		{"6.0", "the releases envguard knows (pypi: 10.8.0.43, 10.13.2.6) need compute capability 7.5 or newer, above this target's GPU, so pinning one would not help"},
		{"7.5", "pin a release envguard knows (pypi: 10.8.0.43), or run envguard check"},
		{"8.6", "pin a release envguard knows (pypi: 10.8.0.43, 10.13.2.6), or run envguard check"},
	} {
		pos := finding.Pos{File: "env", Line: 4, Col: 3}
		p := resolver.GPUPackage{Name: "trtlike", Role: resolver.RoleExtension, Version: "10.0.1", Pos: pos, Line: 4,
			Unknown: "the knowledge base has no row for trtlike 10.0.1"}
		st := stack("2.1.0", "12.1", kb.DistWheel)
		st.GPUPackages = append(st.GPUPackages, p)
		r := evaluate(st, host("550.54.15", "12.4", tt.cc), k, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, "trtlike 10.0.1") {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, tt.has) {
			t.Errorf("compute capability %s: hint %q, want it to contain %q", tt.cc, hint, tt.has)
		}
	}
}
