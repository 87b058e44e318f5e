package envspec

import "github.com/envguard/envguard/finding"

// RuleEG108 is defaults-with-conda-forge: its documentation; the readers raise its findings.
var RuleEG108 = &finding.Rule{
	Code: "EG108", Name: "defaults-with-conda-forge", Severity: finding.SeverityWarning, Fixable: finding.FixUnsafe,
	Title:  "`defaults` (or an Anaconda main/r channel) mixed with `conda-forge`",
	Why:    "The two channels build against different versions of common libraries; mixing them gives environments that solve slowly and break at import time with symbol errors.",
	Fix:    "Use conda-forge alone and add `nodefaults`, or use defaults alone.",
	Before: "channels:\n  - conda-forge\n  - defaults\n",
	After:  "channels:\n  - conda-forge\n  - nodefaults\n",
	Since:  "0.1.0",
}
