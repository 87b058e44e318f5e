package resolver

import (
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestEG204CondaTensorFlowByItsDistribution: the tested-builds table is
// the package index's wheels (TF 2.4 stops at Python 3.8); the defaults
// channel built tensorflow-gpu 2.4.1 for Python 3.9 too (its recipe's
// py_version), so a conda file asking for that is no EG204 (review
// eighteen F1, 045), while Python 3.10 beside it is.
func TestEG204CondaTensorFlowByItsDistribution(t *testing.T) {
	for _, tc := range []struct {
		py   string
		want bool
	}{{"3.9", false}, {"3.10", true}} {
		st := resolveSrc(t, "channels: [defaults]\ndependencies:\n  - python="+tc.py+"\n  - tensorflow-gpu=2.4.1\n")
		got := ruleEG204.Run(&Context{Stack: st, KB: kb.Default()})
		if (len(got) > 0) != tc.want {
			t.Errorf("python %s: %v, want a finding %v", tc.py, got, tc.want)
		}
	}
}
