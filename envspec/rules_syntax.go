package envspec

import "github.com/envguard/envguard/finding"

// SyntaxRules are the EG1xx rules: problems of the file itself. Parse,
// the readers of package lockfile and the ignore-comment readers raise
// them; report's suppression code raises EG114 and the missing-reason
// case of EG113. Each is one definition in its own file (rule_egNNN.go),
// a variable RuleEGNNN whose code, severity and documentation the
// findings take, wherever they are raised; this is their registry, in
// code order.
var SyntaxRules = []*finding.Rule{
	RuleEG100, RuleEG101, RuleEG102, RuleEG103, RuleEG104,
	RuleEG105, RuleEG106, RuleEG107, RuleEG108, RuleEG109,
	RuleEG110, RuleEG111, RuleEG112, RuleEG113, RuleEG114,
}
