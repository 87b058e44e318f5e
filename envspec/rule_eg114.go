package envspec

import "github.com/envguard/envguard/finding"

// RuleEG114 is unused-ignore: its documentation; the readers raise its findings.
var RuleEG114 = &finding.Rule{
	Code: "EG114", Name: "unused-ignore", Severity: finding.SeverityWarning,
	Title:  "an ignore comment that silenced nothing",
	Why:    "The problem it silenced has gone, or the comment is on the wrong line; either way it would silently hide the next finding of that code on its line.",
	Fix:    "Remove the comment, or move it to the line of the finding.",
	Before: "dependencies:\n  - numpy  # envguard: ignore EG201 old CUDA pin\n",
	After:  "dependencies:\n  - numpy\n",
	Since:  "0.1.0",
}
