package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestSdistEveryPathRuns: flash-attn from the package index is its
// source distribution, whose setup.py downloads the release wheel (sm_80,
// sm_90 for 2.7.4.post1) or else compiles with a default list that always
// has sm_80: an 8.x GPU runs either way (review r7 #543). sm_90 is in
// the build only with nvcc >= 11.8, and torch's BuildExtension refuses an
// nvcc of another major than torch's CUDA: beside torch 2.6.0 (CUDA 12.4)
// the nvcc is a 12.x, so an H100 runs either way too; beside torch
// 2.6.0+cu118 an 11.7 nvcc passes both checks and builds no sm_90, so the
// H100 stays undecided.
func TestSdistEveryPathRuns(t *testing.T) {
	for _, tc := range []struct {
		torch, index string
		h100         bool
	}{
		{"torch==2.6.0", "", true},
		{"torch==2.6.0+cu118", "    - --extra-index-url https://download.pytorch.org/whl/cu118\n", false},
	} {
		src := "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n" + tc.index + "    - " + tc.torch + "\n    - flash-attn==2.7.4.post1\n"
		st := resolver.Resolve(envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"}), kb.Default())
		for _, tt := range []struct {
			cc      string
			decided bool
		}{{"8.0", true}, {"8.6", true}, {"9.0", tc.h100}} {
			r := Evaluate(st, host("570.124.06", "12.8", tt.cc), kb.Default(), CheckOptions{})
			undecided := false
			for _, d := range r.Findings {
				if d.Code == "EG409" && strings.Contains(d.Message, "flash-attn") {
					undecided = true
				}
			}
			if undecided == tt.decided {
				t.Errorf("%s, flash-attn 2.7.4.post1 on %s: undecided %v, want %v; %v", tc.torch, tt.cc, undecided, !tt.decided, r.Findings)
			}
		}
	}
}

// TestSdistNVCCFloor: the oldest nvcc of a build torch's BuildExtension
// lets through is torch's CUDA major .0; nothing where the build is not
// known to go through BuildExtension or torch is not a CUDA build.
func TestSdistNVCCFloor(t *testing.T) {
	sb := kb.SdistBuild{SASS: []string{"8.0"}, NVCCSASS: []kb.NVCCSASS{{From: "11.8", SASS: []string{"9.0"}}}, NVCCTorchMajor: true}
	for _, tt := range []struct {
		floor string
		want  string
	}{{"", "8.0"}, {"11.0", "8.0"}, {"12.0", "8.0 9.0"}, {"13.0", "8.0 9.0"}} {
		if got := strings.Join(sb.SASSWithNVCCAtLeast(tt.floor), " "); got != tt.want {
			t.Errorf("SASSWithNVCCAtLeast(%q) = %q, want %q", tt.floor, got, tt.want)
		}
	}
}
