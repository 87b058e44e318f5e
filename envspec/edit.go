package envspec

import (
	"strings"
	"unicode/utf8"
)

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

// ReplaceAt is the edit that replaces old, found at position at, with new;
// ok is false when line at.Line does not read old at that column (the
// position is unknown, or the scalar is written otherwise than its value,
// as an escaped quoted one is).
func (e *Env) ReplaceAt(at Pos, old, new string) (Edit, bool) {
	if e == nil || e.Kind != KindEnvFile || at.Line < 1 || at.Col < 1 || old == "" || strings.Contains(old, "\n") {
		return Edit{}, false
	}
	line := e.Line(at.Line)
	off, ok := byteOffset(line, at.Col)
	if !ok || !strings.HasPrefix(line[off:], old) {
		return Edit{}, false
	}
	end := at
	end.Col += utf8.RuneCountInString(old)
	return Edit{Pos: at, EndPos: end, Old: old, New: new}, true
}

// DeleteLine is the edit that removes line n whole, with its line end;
// ok is false when the file has no such line.
func (e *Env) DeleteLine(n int) (Edit, bool) {
	if e == nil || e.Kind != KindEnvFile || n < 1 || n > len(e.Lines) {
		return Edit{}, false
	}
	if n == len(e.Lines) && !e.FinalNewline {
		// the last line with no line end after it: take the end of the
		// line before instead, so that the file keeps no empty last line
		if n == 1 {
			return Edit{Pos: Pos{File: e.File, Line: 1, Col: 1}, EndPos: Pos{File: e.File, Line: 1, Col: utf8.RuneCountInString(e.Lines[0]) + 1}, Old: e.Lines[0]}, true
		}
		prev := e.Lines[n-2]
		return Edit{
			Pos:    Pos{File: e.File, Line: n - 1, Col: utf8.RuneCountInString(prev) + 1},
			EndPos: Pos{File: e.File, Line: n, Col: utf8.RuneCountInString(e.Lines[n-1]) + 1},
			Old:    "\n" + e.Lines[n-1],
		}, true
	}
	return Edit{Pos: Pos{File: e.File, Line: n, Col: 1}, EndPos: Pos{File: e.File, Line: n + 1, Col: 1}, Old: e.Lines[n-1] + "\n"}, true
}

// InsertLine is the edit that puts text, as a line of its own, before line n.
func (e *Env) InsertLine(n int, text string) (Edit, bool) {
	if e == nil || e.Kind != KindEnvFile || n < 1 || n > len(e.Lines) || strings.Contains(text, "\n") {
		return Edit{}, false
	}
	p := Pos{File: e.File, Line: n, Col: 1}
	return Edit{Pos: p, EndPos: p, New: text + "\n"}, true
}

// byteOffset is the byte offset of character col (1-based) of line; the
// column just past the last character is allowed.
func byteOffset(line string, col int) (int, bool) {
	off := 0
	for i := 1; i < col; i++ {
		if off >= len(line) {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(line[off:])
		off += size
	}
	return off, true
}
