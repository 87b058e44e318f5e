package finding

// Rule documents one finding code. Rules are defined once, beside the code
// that raises them; `envguard rules` and docs/rules.md are generated from
// these values, so the documentation cannot drift from the behaviour.
type Rule struct {
	Code     string   // EGxxx, fixed by RULES.md
	Name     string   // kebab-case slug, unique
	Severity Severity // the default; .envguard.yml may change it
	Title    string   // one line, as RULES.md states the rule
	Why      string   // why it matters to a job on a GPU machine
	Fix      string   // how to fix it
	Before   string   // an environment.yml excerpt that fires the rule
	After    string   // the same excerpt, fixed
	Since    string   // envguard version that introduced it
	// Fixable says whether `envguard fix` repairs the findings (safe),
	// repairs them only with --unsafe, or leaves them to the user (none).
	// A fixable rule attaches Edits to the findings whose fix is certain.
	Fixable Fixability
}
