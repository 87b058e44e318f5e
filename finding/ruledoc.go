package finding

// DocSection is one part of a rule's documentation. `envguard rules CODE`,
// docs/rules.md, SARIF help and the service's /rules/CODE page all render
// the same sections in the same order, so no face can show a rule
// differently from another.
type DocSection struct {
	Heading string // "Why it matters", "How to fix", "Automatic fix", "Fires on", "Fixed"
	Body    string
	// Example marks an environment.yml excerpt, shown as code.
	Example bool
}

// Sections returns the rule's documentation sections that have text, in
// the order every rendering shows them.
func (r *Rule) Sections() []DocSection {
	all := []DocSection{
		{Heading: "Why it matters", Body: r.Why},
		{Heading: "How to fix", Body: r.Fix},
		{Heading: "Automatic fix", Body: r.Fixable.Sentence()},
		{Heading: "Fires on", Body: r.Before, Example: true},
		{Heading: "Fixed", Body: r.After, Example: true},
	}
	out := all[:0]
	for _, s := range all {
		if s.Body != "" {
			out = append(out, s)
		}
	}
	return out
}
