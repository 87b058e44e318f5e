package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
)

// TestExtensionBuilds: an extension the file may get as any of several
// builds (an open conda-forge cupy spec: the nvcc 11.2 build's SASS sm_60
// ... sm_86 and PTX compute_35, compute_50, compute_86, and the nvcc 11.8
// build's SASS sm_35 ... sm_90 and PTX compute_90) runs on a GPU where
// every build carries code for it, fails (EG410) where none does, and is
// unknown, naming the builds, where they differ.
func TestExtensionBuilds(t *testing.T) {
	b112 := resolver.BuildCode{Label: "cupy 12.1.0 (conda-forge, the CUDA 11.2 build)", Code: resolver.GPUCode{SASS: []string{"6.0", "6.1", "7.0", "7.5", "8.0", "8.6"}, PTX: []string{"3.5", "5.0", "8.6"}, Known: true}}
	b118 := resolver.BuildCode{Label: "cupy 13.6.0 (conda-forge, the CUDA 11.8 build)", Code: resolver.GPUCode{SASS: []string{"3.5", "3.7", "5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0"}, PTX: []string{"9.0"}, Known: true}}
	b120 := resolver.BuildCode{Label: "cupy 14.0.0 (conda-forge, the CUDA 13.1 build)", Code: resolver.GPUCode{SASS: []string{"7.5", "8.0", "9.0"}, PTX: []string{"9.0"}, Known: true}}
	for _, tt := range []struct {
		name    string
		builds  []resolver.BuildCode
		ccs     []string
		eg410   bool
		differ  bool
		verdict Verdict
	}{
		{"every build runs a K80, an A100 and a B200", []resolver.BuildCode{b112, b118}, []string{"3.7", "8.0", "10.0"}, false, false, VerdictOK},
		{"no build runs compute capability 3.0", []resolver.BuildCode{b112, b118}, []string{"3.0"}, true, false, VerdictFail},
		{"builds differ on a P100", []resolver.BuildCode{b118, b120}, []string{"6.0"}, false, true, VerdictUnknown},
	} {
		pos := finding.Pos{File: "env", Line: 4, Col: 3}
		p := resolver.GPUPackage{Name: "cupy", Role: resolver.RoleExtension, Pos: pos, Line: 4, Known: true, BuiltFor: resolver.BuiltFor{CUDA: []string{"11.8"}},
			Code: resolver.GPUCode{SASS: []string{"3.5"}, PTX: []string{"9.0"}, Known: true}, Builds: tt.builds}
		st := &resolver.Stack{CUDA: &resolver.CUDAInfo{Version: "11.8"}, GPUPackages: []resolver.GPUPackage{p}}
		r := evaluate(st, host("570.86.10", "12.8", tt.ccs...), factsKB{testFacts}, CheckOptions{})
		has410, differ := false, false
		for _, d := range r.Findings {
			switch {
			case d.Code == "EG410" && strings.Contains(d.Message, "whichever build the solver installs"):
				has410 = true
			case d.Code == "EG409" && strings.Contains(d.Message, "the builds the file admits differ on sm_60") && strings.Contains(d.Message, "cupy 14.0.0 (conda-forge, the CUDA 13.1 build)"):
				differ = true
			}
		}
		if has410 != tt.eg410 || differ != tt.differ || r.Verdict != tt.verdict {
			t.Errorf("%s: EG410 %v, differ %v, verdict %s; want %v, %v, %s: %+v", tt.name, has410, differ, r.Verdict, tt.eg410, tt.differ, tt.verdict, r.Findings)
		}
	}
}
