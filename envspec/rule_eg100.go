package envspec

import "github.com/envguard/envguard/finding"

// RuleEG100 is invalid-yaml: its documentation; the readers raise its findings.
var RuleEG100 = &finding.Rule{
	Code: "EG100", Name: "invalid-yaml", Severity: finding.SeverityError,
	Title: "the file is not valid YAML",
	Why: "conda stops at the first syntax error, so nothing of the environment is created; " +
		"a document nested deeper than any environment file needs, or built from aliases that expand " +
		"without bound, is refused for the same reason.",
	Fix:    "Fix the syntax at the line given: indent with spaces, not tabs, and quote values that contain `: ` or start with `*`, `&`, `!` or `%`.",
	Before: "dependencies:\n  - numpy\n\t- scipy\n",
	After:  "dependencies:\n  - numpy\n  - scipy\n",
	Since:  "0.1.0",
}
