package envspec

import "github.com/envguard/envguard/finding"

// RuleEG105 is pip-without-pip: its documentation; the readers raise its findings.
var RuleEG105 = &finding.Rule{
	Code: "EG105", Name: "pip-without-pip", Severity: finding.SeverityWarning, Fixable: finding.FixSafe,
	Title:  "a `pip:` subsection without `pip` among the conda dependencies",
	Why:    "conda then uses whatever pip it finds, which may install into another Python, or fails because there is none.",
	Fix:    "Add `- pip` to the conda dependencies.",
	Before: "dependencies:\n  - python=3.11\n  - pip:\n      - wandb\n",
	After:  "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n      - wandb\n",
	Since:  "0.1.0",
}
