package envspec

import "github.com/envguard/envguard/finding"

// SyntaxRules are the EG1xx rules: problems of the file itself. Parse,
// ReadExplicit and the ignore-comment reader raise them; the resolver's
// suppression code raises EG114 and the missing-reason case of EG113.
// Each is one definition in its own file (rule_egNNN.go), a variable
// ruleEGNNN whose code, severity and documentation the findings take;
// this is their registry, in code order.
var SyntaxRules = []*finding.Rule{
	ruleEG100, ruleEG101, ruleEG102, ruleEG103, ruleEG104,
	ruleEG105, ruleEG106, ruleEG107, ruleEG108, ruleEG109,
	ruleEG110, ruleEG111, ruleEG112, ruleEG113, ruleEG114,
}
