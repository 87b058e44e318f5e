package envspec

import "github.com/envguard/envguard/finding"

// RuleEG106 is duplicate-package: its documentation; the readers raise its findings.
var RuleEG106 = &finding.Rule{
	Code: "EG106", Name: "duplicate-package", Severity: finding.SeverityWarning,
	Title: "the same package listed twice among conda dependencies",
	Why: "The solver must satisfy both entries; readers see only one. When the two constraints exclude " +
		"each other (it is then an error) no environment can be solved at all.",
	Fix:    "Keep one entry per package and merge the constraints into it.",
	Before: "dependencies:\n  - numpy=1.24\n  - pandas\n  - numpy=1.26\n",
	After:  "dependencies:\n  - numpy=1.26\n  - pandas\n",
	Since:  "0.1.0",
}
