package envspec

import "github.com/envguard/envguard/finding"

// RuleEG102 is unknown-key: its documentation; the readers raise its findings.
var RuleEG102 = &finding.Rule{
	Code: "EG102", Name: "unknown-key", Severity: finding.SeverityWarning,
	Title: "unknown top-level key",
	Why: "CEP 24 knows `name`, `channels`, `dependencies`, `variables` and `prefix` (plus the extensions " +
		"`platforms` and `category`); conda ignores anything else, so a misspelt `dependencies` silently " +
		"creates an empty environment. A near miss of a known key (`dependency`, `channel`, `dependecies`, " +
		"`Name`) is therefore an error that names the key meant; any other unknown key is a warning.",
	Fix:    "Correct the key's spelling or remove it.",
	Before: "name: train\ndependency:\n  - pytorch\n",
	After:  "name: train\ndependencies:\n  - pytorch\n",
	Since:  "0.1.0",
}
