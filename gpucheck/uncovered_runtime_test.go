package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/report"
)

// TestUncoveredReleaseRuntime: review thirteen #111. tensorflow-gpu 0.12.1
// needs CUDA 8.0 (its install guide), which the tables, starting at
// 1.13.1, do not say: the driver check stays open, and EG409 says it is
// the knowledge base that does not reach the release, not that the
// release's CUDA is unknowable, and asks for no cudatoolkit pin the
// wheel would ignore.
func TestUncoveredReleaseRuntime(t *testing.T) {
	hosts, err := (&report.Machines{Targets: report.StandardFleet()}).Resolve([]string{"a100"})
	if err != nil {
		t.Fatal(err)
	}
	r := report.Validate("requirements.txt", []byte("tensorflow-gpu==0.12.1\n"), report.Options{Platform: "linux-64", Hosts: hosts})
	found := false
	for _, d := range r.Diagnostics() {
		if d.Code != "EG409" || !strings.Contains(d.Message, "tensorflow 0.12.1") {
			continue
		}
		found = true
		if !strings.Contains(d.Message, "older than the releases the knowledge base covers (from 1.13.1), so the CUDA version its build needs is not known to envguard") {
			t.Errorf("EG409 does not say the tables stop short: %s", d.Message)
		}
		if strings.Contains(d.Hint, "cudatoolkit=X.Y") {
			t.Errorf("the hint asks for a runtime pin the wheel ignores: %s", d.Hint)
		}
	}
	if !found {
		t.Fatal("no EG409 for tensorflow 0.12.1")
	}
}
