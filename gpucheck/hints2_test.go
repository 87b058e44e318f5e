package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestEG410FloorHint: the hint offers "a release that supports sm_XY"
// only where the knowledge base knows of a release whose floor is at or
// below the GPU (review: triton keeps 7.0 in every release, so no triton
// runs on a K80).
func TestEG410FloorHint(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{
		{Name: "jitc", Framework: "none", MinCC: "7.0", JIT: true, Source: "S"},
		{Name: "oldfloor", Framework: "none", MinCC: "7.5", Source: "S"},
	}
	// oldfloor's first release ran from 3.5: a release row below the
	// project's floor.
	f.ExtensionBuilds = []kb.ExtensionBuild{{Name: "oldfloor", Version: "0.1", Dist: "pypi", MinCC: "3.5", Source: "S"}}
	k := factsKB{f}
	for _, tt := range []struct {
		name, min string
		offer     bool
	}{
		{"jitc", "7.0", false},
		{"oldfloor", "7.5", true},
	} {
		pos := finding.Pos{File: "env", Line: 4, Col: 3}
		p := resolver.GPUPackage{Name: tt.name, Role: resolver.RoleExtension, Version: "3.2.0", Pos: pos, Line: 4, Known: true,
			Code: resolver.GPUCode{MinCC: tt.min, JIT: tt.name == "jitc"}}
		st := &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", Version: "2.1.0", Variant: "cuda", Pos: fwPosT}, GPUPackages: []resolver.GPUPackage{p}}
		r := evaluate(st, host("470.57.02", "11.4", "3.7"), k, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG410" {
				hint = d.Hint
			}
		}
		if hint == "" {
			t.Fatalf("%s: no EG410 on a 3.7 GPU: %+v", tt.name, r.Findings)
		}
		if !strings.Contains(hint, "compute capability "+tt.min+" or newer") {
			t.Errorf("%s: hint %q does not name the floor", tt.name, hint)
		}
		if got := strings.Contains(hint, "use a release of "+tt.name+" that supports sm_37"); got != tt.offer {
			t.Errorf("%s: hint %q offers another release: %v, want %v", tt.name, hint, got, tt.offer)
		}
	}
}
