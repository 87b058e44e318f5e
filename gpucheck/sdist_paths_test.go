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
// has sm_80: an 8.x GPU runs either way (review r7 #543), while sm_90
// (only with nvcc >= 11.8 in the build) stays undecided.
func TestSdistEveryPathRuns(t *testing.T) {
	src := "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - torch==2.6.0\n    - flash-attn==2.7.4.post1\n"
	st := resolver.Resolve(envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"}), kb.Default())
	for _, tt := range []struct {
		cc      string
		decided bool
	}{{"8.0", true}, {"8.6", true}, {"9.0", false}} {
		r := Evaluate(st, host("570.124.06", "12.8", tt.cc), kb.Default(), CheckOptions{})
		undecided := false
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, "flash-attn") {
				undecided = true
			}
		}
		if undecided == tt.decided {
			t.Errorf("flash-attn 2.7.4.post1 on %s: undecided %v, want %v; %v", tt.cc, undecided, !tt.decided, r.Findings)
		}
	}
}
