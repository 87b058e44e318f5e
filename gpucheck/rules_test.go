package gpucheck

import "testing"

// TestRuleSteps: every machine rule is in the registry once, and each has
// a step of its own but EG402 and EG408, which EG401's and EG403's steps
// raise.
func TestRuleSteps(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.Code] {
			t.Errorf("%s is in the registry twice", r.Code)
		}
		seen[r.Code] = true
		if shared := r.Code == "EG402" || r.Code == "EG408"; (r.run == nil) != shared {
			t.Errorf("%s: step %v", r.Code, r.run != nil)
		}
		if severity(r.Code) != r.Severity {
			t.Errorf("%s: severity %v, documented %v", r.Code, severity(r.Code), r.Severity)
		}
	}
	if len(seen) != 12 || len(Rules) != 12 {
		t.Errorf("%d rules in the registry, %d documented; want EG401–EG412", len(seen), len(Rules))
	}
}
