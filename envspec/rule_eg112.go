package envspec

import "github.com/envguard/envguard/finding"

// RuleEG112 is channel-near-miss: its documentation; the readers raise its findings.
var RuleEG112 = &finding.Rule{
	Code: "EG112", Name: "channel-near-miss", Severity: finding.SeverityWarning, Fixable: finding.FixUnsafe,
	Title:  "a channel that does not exist as written",
	Why:    "A near miss of a known channel (`default`, `conda_forge`) or a non-conda index (`pypi`) is not found, so packages come from other channels than intended, or not at all.",
	Fix:    "Spell the channel as the hint says; list PyPI packages under `- pip:` instead of adding a `pypi` channel.",
	Before: "channels:\n  - conda_forge\n  - default\n",
	After:  "channels:\n  - conda-forge\n  - defaults\n",
	Since:  "0.1.0",
}
