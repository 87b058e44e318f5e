package envspec

import "github.com/envguard/envguard/finding"

// RuleEG103 is invalid-matchspec: its documentation; the readers raise its findings.
var RuleEG103 = &finding.Rule{
	Code: "EG103", Name: "invalid-matchspec", Severity: finding.SeverityError, Fixable: finding.FixSafe,
	Title:  "a dependency is not a valid conda MatchSpec, or its version spec does not parse",
	Why:    "conda rejects the whole file when one spec does not parse, typically after the job was queued.",
	Fix:    "Write `name`, `name=1.2`, `name>=1.2,<2`, `name=1.2=build` or `channel::name=1.2`; pip-style `==` pins with extras belong under `pip:`.",
	Before: "dependencies:\n  - numpy>=>1.2\n",
	After:  "dependencies:\n  - numpy>=1.2\n",
	Since:  "0.1.0",
}
