package gpucheck

import (
	"cmp"
	"slices"

	"github.com/envguard/envguard/finding"
)

// Rule is a machine rule (EG401–EG412): its documentation and its step of
// the check of a stack against a host. Each is one definition in its own
// file (rule_egNNN.go), listed in rules.
type Rule struct {
	finding.Rule
	// run is the rule's step. It returns false when the steps after it
	// have nothing to judge. It is nil for a rule raised within another
	// rule's step, by the same comparison: EG402 beside EG401 (the driver
	// against the runtime), EG408 beside EG403 (the architecture verdict).
	run func(*checker) bool
}

// rules is the registry of the machine rules, in the order check runs
// their steps: the build's variant (EG407, EG409), whether the machine can
// run CUDA at all (EG404), the driver (EG401), the architectures (EG403),
// then the GPUs' state (EG405, EG406). The order is that of the notes and
// of what was left undecided, which the outputs list as made.
var rules = []*Rule{
	ruleEG411, ruleEG407, ruleEG409, ruleEG404, ruleEG401, ruleEG412, ruleEG403, ruleEG410, ruleEG405, ruleEG406,
	ruleEG402, ruleEG408,
}

// Rules documents EG401–EG412, the checks of an environment against a
// machine, in code order. Check raises them; `envguard rules` and the
// generated docs read these values.
var Rules = docs()

func docs() []*finding.Rule {
	out := make([]*finding.Rule, len(rules))
	for i, r := range rules {
		out[i] = &r.Rule
	}
	slices.SortFunc(out, func(a, b *finding.Rule) int { return cmp.Compare(a.Code, b.Code) })
	return out
}

// severity is the severity of the rule with the code: every finding of a
// rule has the rule's.
func severity(code string) finding.Severity {
	for _, r := range rules {
		if r.Code == code {
			return r.Severity
		}
	}
	panic("gpucheck: no rule " + code)
}
