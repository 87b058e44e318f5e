package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestArchReleaseRowDecides: pytorch 1.3.0 was built with sm_35 SASS,
// which runs on a K80 (3.7, same major); 1.3.1 with sm_37. Each release's
// own row decides what the series row (the SASS both share, PTX unknown)
// could not (review r7 #346).
func TestArchReleaseRowDecides(t *testing.T) {
	k := kb.Default()
	for _, v := range []string{"1.3.0", "1.3.1"} {
		r := Evaluate(stack(v, "9.2", kb.DistPytorchConda), host("470.82.01", "11.4", "3.7"), k, CheckOptions{})
		for _, d := range r.Findings {
			if d.Code == "EG409" || d.Code == "EG403" {
				t.Errorf("pytorch %s CUDA 9.2 on 3.7: %s %s", v, d.Code, d.Message)
			}
		}
	}
}

// TestArchSummaryPTXUnknown: a row that knows only the SASS says the PTX
// is unknown, not "none" beside "whether it carries PTX is not known".
func TestArchSummaryPTXUnknown(t *testing.T) {
	got := archSummary(&kb.ArchList{SASS: []string{"5.0"}, Known: true, PTXUnknown: true})
	if got != "SASS sm_50, PTX unknown" {
		t.Errorf("archSummary = %q", got)
	}
	if got := archSummary(&kb.ArchList{SASS: []string{"5.0"}, Known: true}); !strings.HasSuffix(got, "PTX none") {
		t.Errorf("archSummary without PTX = %q", got)
	}
}
