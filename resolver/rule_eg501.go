package resolver

import (
	"fmt"

	"github.com/envguard/envguard/finding"
)

// ruleEG501 reports a declared name that differs from the canonical one.
// Without a canonical name there is nothing to compare (EG502 or the
// report's name section says why).
var ruleEG501 = &Rule{
	Rule: finding.Rule{
		Code:     "EG501",
		Name:     "name-not-canonical",
		Severity: finding.SeverityInfo,
		Fixable:  finding.FixUnsafe,
		Title:    "the declared name differs from the canonical name",
		Why: "A name that says the framework and accelerator (pt20_cu118) tells people and schedulers what " +
			"an environment holds without opening it; a name that drifts from the contents misleads them.",
		Fix:    "Rename the environment to the canonical name the hint gives.",
		Before: "name: myenv\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch=2.0.1\n  - pytorch-cuda=11.8\n",
		After:  "name: pt20_cu118\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch=2.0.1\n  - pytorch-cuda=11.8\n",
		Since:  "0.1.0",
	},
	run: runEG501,
}

func runEG501(c *Context) []finding.Diagnostic {
	if c.Env == nil || c.Env.Name == nil || c.Env.Name.Value == "" || c.Stack == nil {
		return nil
	}
	canon, err := c.Stack.Canonical()
	if err != nil || canon == c.Env.Name.Value {
		return nil
	}
	n := c.Env.Name
	end := 0
	if n.Pos.Col > 0 {
		end = n.Pos.Col + len(n.Value)
	}
	msg := fmt.Sprintf("name %s%s differs from the canonical name %s", n.Value, at(n.Pos), canon)
	d := newFinding(c.rule, n.Pos, end, msg, "name: "+canon)
	if ed, ok := c.Env.ReplaceAt(n.Pos, n.Value, canon); ok {
		d.Edits = []finding.Edit{ed}
	}
	return []finding.Diagnostic{d}
}
