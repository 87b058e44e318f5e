package envspec

import "github.com/envguard/envguard/finding"

// RuleEG111 is duplicate-key: its documentation; the readers raise its findings.
var RuleEG111 = &finding.Rule{
	Code: "EG111", Name: "duplicate-key", Severity: finding.SeverityError,
	Title:  "a key appears twice in one mapping",
	Why:    "YAML forbids it and tools silently keep one copy, often the second of two exports pasted into one file: half of what you read is not installed.",
	Fix:    "Merge the two entries into one.",
	Before: "dependencies:\n  - numpy\ndependencies:\n  - pytorch\n",
	After:  "dependencies:\n  - numpy\n  - pytorch\n",
	Since:  "0.1.0",
}
