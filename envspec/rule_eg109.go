package envspec

import "github.com/envguard/envguard/finding"

// RuleEG109 is prefix-line: its documentation; the readers raise its findings.
var RuleEG109 = &finding.Rule{
	Code: "EG109", Name: "prefix-line", Severity: finding.SeverityInfo, Fixable: finding.FixSafe,
	Title: "a `prefix:` line (a machine-specific path left by `conda env export`)",
	Why: "The path belongs to the machine that exported the file. `conda env create` does not read it: the environment goes where `name:`, -n or -p says " +
		"(conda/conda#13061, #15205), so the line only tells readers a location that is not used and leaks that machine's directory layout.",
	Fix:    "Delete the `prefix:` line; choose the location with `-n NAME` or `-p DIR` when creating.",
	Before: "name: train\nprefix: /home/alice/miniconda3/envs/train\n",
	After:  "name: train\n",
	Since:  "0.1.0",
}
