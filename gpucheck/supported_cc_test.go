package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestSupportedCC: an extension release described by the GPUs its vendor
// says it supports (supported_cc: TensorRT 10.8's 7.5 … 9.0) runs on a GPU
// of a listed compute capability, fails below its floor (EG410), and is
// left undecided on any other (EG409, extension-cc-unlisted, with the
// knowledge base's reason). Its own CUDA 12 runtime beside a CUDA 11.7
// framework is held against the driver: a CUDA 11 driver runs none of it
// (EG401 on the package's line), a CUDA 12.4 driver runs a newer 12.x only
// through minor-version compatibility (EG402), and a runtime of the
// environment's own major is EG401's business alone.
func TestSupportedCC(t *testing.T) {
	k := factsKB{testFacts}
	pos := finding.Pos{File: "environment.yml", Line: 9, Col: 7}
	trt := resolver.GPUPackage{Name: "tensorrt", Version: "10.8.0.43", Role: resolver.RoleExtension, Known: true, Pos: pos, Line: 9,
		BuiltFor: resolver.BuiltFor{CUDA: []string{"12"}},
		Code: resolver.GPUCode{MinCC: "7.5", SupportedCC: []string{"7.5", "8.0", "8.6", "8.9", "9.0"},
			UnlistedCC: "Blackwell needs a CUDA 12.8 runtime, which pip does not fix"}}
	for _, tt := range []struct {
		name, fw, cuda  string
		drv, drvCUDA    string
		ccs             []string
		verdict         Verdict
		pkgCodes        string // the codes on the package's line, in order
		reason, message string // an undecided reason, and a text a finding on the line must hold
	}{
		{"listed GPU, CUDA 12.4 driver", "2.0.1", "11.7", "550.54.15", "12.4", []string{"8.0"}, VerdictOK, "EG402", "",
			"tensorrt 10.8.0.43 is a CUDA 12 build with a CUDA 12 runtime of its own, whichever 12.x"},
		{"listed GPU, CUDA 11.7 driver", "2.0.1", "11.7", "515.43.04", "11.7", []string{"8.0"}, VerdictFail, "EG401", "",
			"supports CUDA 11.7; tensorrt 10.8.0.43 is a CUDA 12 build with a CUDA 12 runtime of its own, which does not run on a CUDA 11 driver"},
		{"below the floor", "2.0.1", "11.7", "550.54.15", "12.4", []string{"7.0"}, VerdictFail, "EG402 EG410", "",
			"needs compute capability 7.5 or newer and cannot run on"},
		{"unlisted GPU at or above the floor", "2.0.1", "11.7", "550.54.15", "12.4", []string{"8.7"}, VerdictUnknown, "EG402 EG409", "extension-cc-unlisted",
			"the sources read list compute capability 7.5, 8.0, 8.6, 8.9, 9.0 as supported without condition; of 8.7 (target t's GPU 0 (GPU 8.7, compute capability 8.7)) they say: Blackwell needs a CUDA 12.8 runtime"},
		{"the environment's own major", "2.1.0", "12.1", "535.54.03", "12.2", []string{"9.0"}, VerdictOK, "", "", ""},
	} {
		st := stack(tt.fw, tt.cuda, kb.DistWheel)
		st.GPUPackages = []resolver.GPUPackage{trt}
		r := evaluate(st, host(tt.drv, tt.drvCUDA, tt.ccs...), k, CheckOptions{})
		var got []string
		held := tt.message == ""
		for _, d := range r.Findings {
			if d.Pos.Line != pos.Line {
				continue
			}
			got = append(got, d.Code)
			held = held || strings.Contains(d.Message, tt.message)
			if d.Code == "EG401" && !strings.Contains(d.Hint, "upgrade the driver to 525.60.13 or newer, the floor at which a CUDA 12.x runtime runs") {
				t.Errorf("%s: EG401's hint %q does not name CUDA 12's minor-version-compatibility floor", tt.name, d.Hint)
			}
		}
		if strings.Join(got, " ") != tt.pkgCodes || r.Verdict != tt.verdict || !held {
			t.Errorf("%s: codes on the package's line %v, verdict %s; want %q, %s, a message holding %q: %+v", tt.name, got, r.Verdict, tt.pkgCodes, tt.verdict, tt.message, r.Findings)
		}
		if tt.reason != "" && (len(r.Undecided) != 1 || r.Undecided[0].Reason != tt.reason || r.Undecided[0].What != "tensorrt 10.8.0.43") {
			t.Errorf("%s: undecided %+v, want one %s of tensorrt 10.8.0.43", tt.name, r.Undecided, tt.reason)
		}
	}
}
