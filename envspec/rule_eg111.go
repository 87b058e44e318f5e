package envspec

import "github.com/envguard/envguard/finding"

// RuleEG111 is duplicate-key: its documentation; the readers raise its findings.
var RuleEG111 = &finding.Rule{
	Code: "EG111", Name: "duplicate-key", Severity: finding.SeverityError,
	Title:  "a key appears twice in one mapping",
	Why:    "YAML forbids it. conda reads environment files with ruamel.yaml's safe loader, which refuses the file (DuplicateKeyError); readers that accept it, PyYAML among them, keep only the last copy, often the second of two exports pasted into one file, so half of what you read is not installed.",
	Fix:    "Merge the two entries into one; of two plain values (name:, prefix:) keep one. Where name: appears twice with two values, the file is two environments one after the other: split it into two files, or keep one.",
	Before: "dependencies:\n  - numpy\ndependencies:\n  - pytorch\n",
	After:  "dependencies:\n  - numpy\n  - pytorch\n",
	Since:  "0.1.0",
}
