// Package finding is the model every layer's findings share: a position in a
// file (Pos), a finding (Diagnostic) with its severity and its fix (Edit),
// and the documentation of the rule that raises it (Rule, DocSection). It
// imports nothing of envguard, so the file, stack and machine rules, the
// report and every face speak of findings in the same types.
package finding

import "fmt"

// Pos is a 1-based position in a file. Col 0 means the column is unknown
// (yaml.v3 reports syntax errors by line only).
type Pos struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line"`
	Col  int    `json:"column"`
}

// IsValid reports whether the position points at a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders file:line:col, dropping the parts that are unknown.
func (p Pos) String() string {
	s := p.File
	if s == "" {
		s = "-"
	}
	if p.Line > 0 {
		s += fmt.Sprintf(":%d", p.Line)
		if p.Col > 0 {
			s += fmt.Sprintf(":%d", p.Col)
		}
	}
	return s
}

// Shift returns the position n columns to the right, used to point inside a
// scalar (at the version part of a MatchSpec rather than at its start).
func (p Pos) Shift(n int) Pos {
	if p.Col > 0 {
		p.Col += n
	}
	return p
}
