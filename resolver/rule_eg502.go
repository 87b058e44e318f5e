package resolver

import (
	"fmt"

	"github.com/envguard/envguard/envspec"
)

// RuleEG502 reports a framework version not pinned to one release: an open
// spec, a series (`=2.0`, `2.0.*`) or none at all.
var RuleEG502 = &Rule{
	Rule: envspec.Rule{
		Code:     "EG502",
		Name:     "framework-not-pinned",
		Severity: envspec.SeverityWarning,
		Title:    "the framework version is not pinned to a release",
		Why: "An open framework version gives a different environment each time it is built, and there is no " +
			"canonical name for it: the run that worked last month cannot be rebuilt.",
		Fix:    "Pin one release (pytorch=2.0.1, torch==2.0.1+cu118).",
		Before: "dependencies:\n  - pytorch>=2.0\n",
		After:  "dependencies:\n  - pytorch=2.0.1\n",
		Since:  "0.1.0",
	},
}

func init() { RuleEG502.Run = runEG502 }

func runEG502(c *Context) []envspec.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Framework.Version != "" {
		return nil
	}
	f := st.Framework
	admits := ""
	if len(f.Candidates) > 0 {
		admits = " (admits " + rangeOf(f.Candidates) + ")"
	}
	hint := "pin one release"
	if n := len(f.Candidates); n > 0 {
		if f.From == envspec.ProviderPip {
			hint = fmt.Sprintf("pin one release, e.g. %s==%s", pipName(f.Name), f.Candidates[n-1])
		} else {
			hint = fmt.Sprintf("pin one release, e.g. %s=%s", f.Name, f.Candidates[n-1])
		}
	}
	msg := fmt.Sprintf("%s%s is not pinned to a release%s: the environment is not reproducible and has no canonical name", f.Item, at(f.Pos), admits)
	return []envspec.Diagnostic{finding(RuleEG502, f.VersionPos, f.VersionEnd, msg, hint)}
}

func pipName(fw string) string {
	if fw == "pytorch" {
		return "torch"
	}
	return fw
}
