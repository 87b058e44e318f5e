package finding

// Edit is one change to the source text that a finding's fix makes: the
// text from Pos up to EndPos becomes New. Positions are 1-based lines and
// character columns, as yaml.v3 and every finding count them; EndPos is
// exclusive, and equals Pos for an insertion. Col 1 of the line after the
// last is the end of the file.
//
// Old is the text the rule saw in that span (line ends written "\n"): the
// fixer applies an edit only where the source still reads Old, so a fix
// computed from a position that does not match the bytes (an escaped
// quoted scalar, a file changed in between) is skipped, never half-applied.
// New is written with "\n" line ends too; the fixer writes the file's own.
type Edit struct {
	Pos    Pos
	EndPos Pos
	Old    string
	New    string
}

// Fixability says whether envguard fix may apply a rule's fixes.
type Fixability string

const (
	// FixNone: the rule has no automatic fix ("" reads the same).
	FixNone Fixability = ""
	// FixSafe: the fix keeps the environment's intent; `envguard fix` applies it.
	FixSafe Fixability = "safe"
	// FixUnsafe: the fix changes what gets installed in a way the user should
	// confirm; applied only with --unsafe.
	FixUnsafe Fixability = "unsafe"
)

// String is "safe", "unsafe" or "none".
func (f Fixability) String() string {
	if f == FixNone {
		return "none"
	}
	return string(f)
}

// Sentence says what envguard fix does with a rule's findings, for the
// rule's documentation.
func (f Fixability) Sentence() string {
	switch f {
	case FixSafe:
		return "safe: `envguard fix` applies it where the fix is certain (the finding says what it changes)."
	case FixUnsafe:
		return "unsafe: `envguard fix --unsafe` applies it, since it changes what gets installed; review the diff (`--diff`) first."
	}
	return "none: the fix needs a decision envguard cannot make; the hint says what to do."
}
