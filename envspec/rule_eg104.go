package envspec

import "github.com/envguard/envguard/finding"

// RuleEG104 is invalid-pip-line: its documentation; the readers raise its findings.
var RuleEG104 = &finding.Rule{
	Code: "EG104", Name: "invalid-pip-line", Severity: finding.SeverityError,
	Title:  "a pip line is neither a valid requirement nor a pip option",
	Why:    "conda writes the `pip:` list to a requirements file and runs pip on it; one bad line makes pip, and so the environment creation, fail after the conda packages are installed.",
	Fix:    "Write a PEP 508 requirement (`name==1.0`, `name[extra]>=1`, `name @ URL`), `-e PATH`, or an option pip accepts in a requirements file.",
	Before: "dependencies:\n  - pip\n  - pip:\n      - torch=2.1.0\n",
	After:  "dependencies:\n  - pip\n  - pip:\n      - torch==2.1.0\n",
	Since:  "0.1.0",
}
