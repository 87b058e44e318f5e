package envspec

import "github.com/envguard/envguard/finding"

// RuleEG107 is no-channels: its documentation; the readers raise its findings.
var RuleEG107 = &finding.Rule{
	Code: "EG107", Name: "no-channels", Severity: finding.SeverityWarning,
	Title:  "no `channels:` — the result depends on each machine's `.condarc`",
	Why:    "Without channels conda uses each machine's configuration, so the same file solves to different packages (and CUDA builds) on a laptop, a CI runner and a GPU node.",
	Fix:    "List the channels the file was written for, and `nodefaults` when it should not use the defaults channels.",
	Before: "name: train\ndependencies:\n  - pytorch\n",
	After:  "name: train\nchannels:\n  - conda-forge\n  - nodefaults\ndependencies:\n  - pytorch\n",
	Since:  "0.1.0",
}
