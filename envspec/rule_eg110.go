package envspec

import "github.com/envguard/envguard/finding"

// RuleEG110 is invalid-env-name: its documentation; the readers raise its findings.
var RuleEG110 = &finding.Rule{
	Code: "EG110", Name: "invalid-env-name", Severity: finding.SeverityError,
	Title:  "the environment name is invalid",
	Why:    "CEP 24 forbids `/`, spaces, `:` and `#` in names and the names `base` and `root`; conda refuses to create such an environment, or would overwrite its own base.",
	Fix:    "Use letters, digits, `-`, `_` and `.` only.",
	Before: "name: my env\n",
	After:  "name: my-env\n",
	Since:  "0.1.0",
}
