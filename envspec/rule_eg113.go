package envspec

import "github.com/envguard/envguard/finding"

// RuleEG113 is malformed-ignore: its documentation; the readers raise its findings.
var RuleEG113 = &finding.Rule{
	Code: "EG113", Name: "malformed-ignore", Severity: finding.SeverityWarning,
	Title:  "a malformed ignore comment: no code, a code not of the form EGnnn, or no reason",
	Why:    "An ignore comment that cannot be read silences nothing, and one without a reason hides a problem without telling the next reader why.",
	Fix:    "Write `# envguard: ignore EG201 reason` with the codes separated by commas and a reason after them.",
	Before: "dependencies:\n  - pytorch-cuda=11.8  # envguard: ignore\n",
	After:  "dependencies:\n  - pytorch-cuda=11.8  # envguard: ignore EG201 the driver pins CUDA 11.8 on this cluster\n",
	Since:  "0.1.0",
}
