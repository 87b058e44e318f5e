package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestPTXOneOf: review seventeen F24. conda-forge's pytorch 1.11.0 for
// CUDA 10.2 carries compute_50 PTX in builds 0-1 and compute_75 in the
// 2022-06 rebuild: an H100 runs through PTX whichever build it is, a GPU
// below one of them is not decided by PTX, and the summary names both.
func TestPTXOneOf(t *testing.T) {
	list := &kb.ArchList{SASS: []string{"3.5", "5.0", "6.0", "6.1", "7.0", "7.5"}, PTXOneOf: []string{"5.0", "7.5"}, Known: true}
	if v, by := archVerdict(cc{Major: 9}, list); v != runsPTX || by != (cc{Major: 7, Minor: 5}) {
		t.Errorf("sm_90: %v by %v, want PTX", v, by)
	}
	if v, _ := archVerdict(cc{Major: 6, Minor: 2}, list); v != runsSASS {
		t.Errorf("sm_62: %v, want its sm_60 SASS", v)
	}
	open := &kb.ArchList{SASS: []string{"8.0"}, PTXOneOf: []string{"5.0", "7.5"}, Known: true}
	if v, _ := archVerdict(cc{Major: 6, Minor: 0}, open); v != runsNone || !open.PTXOpen() {
		t.Errorf("sm_60 below one of the PTX: %v; want no decision from PTX (runsNone with the PTX open)", v)
	}
	if s := archSummary(list); !strings.Contains(s, "PTX compute_50 or compute_75 (by build number)") {
		t.Errorf("summary %q", s)
	}
	a, ok := kb.Default().FrameworkArch("pytorch", "1.11.0", "10.2", kb.DistCondaForge)
	if !ok || a == nil || len(a.PTXOneOf) != 2 {
		t.Errorf("conda-forge 1.11.0 CUDA 10.2 row: %+v", a)
	}
}
