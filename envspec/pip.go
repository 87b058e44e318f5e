package envspec

import "errors"

// PipLine is one line of a pip requirements list: a requirement or an option.
// STUB: owned by the pip helper, who fills it in.
type PipLine struct {
	Raw string
	// Exactly one of Req and Option is set.
	Req    *PipRequirement
	Option *PipOption
}

// PipRequirement is a PEP 508 requirement (or an editable/URL install).
type PipRequirement struct {
	Name       string // as written
	Normalized string // PEP 503 normalised: lower case, runs of -_. as -
	Extras     []string
	Specifiers []PipSpecifier
	Marker     string
	URL        string // for `name @ url`, a bare URL/VCS line or `-e`
	Editable   bool
	NameSpan   Span
	SpecSpan   Span
}

// PipSpecifier is one PEP 440 clause (`==2.0.1+cu118`).
type PipSpecifier struct {
	Op      string
	Version string
}

// PipOption is a pip option line (`--index-url URL`, `-r file`).
type PipOption struct {
	Name  string // canonical long form: --index-url, --extra-index-url, --find-links, --requirement, ...
	Value string
}

// ParsePipLine parses one pip requirements line (comments already removed).
func ParsePipLine(s string) (*PipLine, error) { return nil, errors.New("not implemented") }
