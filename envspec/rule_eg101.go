package envspec

import "github.com/envguard/envguard/finding"

// RuleEG101 is wrong-shape: its documentation; the readers raise its findings.
var RuleEG101 = &finding.Rule{
	Code: "EG101", Name: "wrong-shape", Severity: finding.SeverityError,
	Title: "a key has the wrong shape",
	Why: "conda expects a mapping at the top, a list under `dependencies`, and under it only package specs " +
		"and `pip:` subsections of strings. CEP 24 requires a client to fail on any other subsection, " +
		"so such a file does not create an environment anywhere.",
	Fix:    "Make `dependencies:` a list of `- spec` lines and put PyPI packages in one `- pip:` list of strings.",
	Before: "dependencies:\n  - numpy\n  - npm:\n      - left-pad\n",
	After:  "dependencies:\n  - numpy\n  - nodejs\n",
	Since:  "0.1.0",
}
