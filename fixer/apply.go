// Package fixer repairs what envguard finds: it applies the edits that
// fixable rules attach to their findings, as byte edits of the source at
// the positions the findings carry, so that comments, order, quoting,
// indentation and line ends survive outside the edited spans. It validates
// through report/, as the builder does, and iterates, since one fix can
// change another's hint (aligning the CUDA pin changes the canonical name).
package fixer

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// Change is one finding's fix: its edits, all applied or none.
type Change struct {
	Edits []finding.Edit
}

// span is an edit placed in the source's bytes.
type span struct {
	start, end int
	new        string
	change     int // index of its Change
}

// Outcome says what became of one Change.
type Outcome struct {
	Applied bool
	// Reason says why a change was skipped ("" when applied).
	Reason string
}

// Apply applies changes to src in order of preference: a change whose
// edits do not all read their Old text, or that overlaps a change applied
// before it, is skipped whole, with the reason. Two changes with the same
// edits are one fix (both count as applied). New text's "\n" becomes the
// file's own line end (that of its first line: "\r\n", "\r" or "\n").
func Apply(src []byte, changes []Change) ([]byte, []Outcome) {
	idx := newLineIndex(src)
	eol := lineEnd(src)
	out := make([]Outcome, len(changes))
	var taken []span
	seen := map[string]int{}
	for ci, ch := range changes {
		if len(ch.Edits) == 0 {
			out[ci] = Outcome{Reason: "the finding carries no edit"}
			continue
		}
		key := changeKey(ch)
		if j, ok := seen[key]; ok {
			out[ci] = out[j]
			continue
		}
		seen[key] = ci
		spans, reason := place(src, idx, ch, ci, eol)
		if reason == "" {
			reason = conflict(spans, taken)
		}
		if reason != "" {
			out[ci] = Outcome{Reason: reason}
			continue
		}
		taken = append(taken, spans...)
		out[ci] = Outcome{Applied: true}
	}
	if len(taken) == 0 {
		return append([]byte(nil), src...), out
	}
	// insertions at one point keep the order their changes were taken in
	sort.SliceStable(taken, func(i, j int) bool {
		a, b := taken[i], taken[j]
		if a.start != b.start {
			return a.start < b.start
		}
		// an insertion at the start of a replaced range goes before it
		return a.start == a.end && b.start != b.end
	})
	var b bytes.Buffer
	b.Grow(len(src))
	at := 0
	for _, s := range taken {
		b.Write(src[at:s.start])
		b.WriteString(s.new)
		at = s.end
	}
	b.Write(src[at:])
	return b.Bytes(), out
}

func changeKey(ch Change) string {
	var b strings.Builder
	for _, e := range ch.Edits {
		fmt.Fprintf(&b, "%d:%d-%d:%d %q>%q;", e.Pos.Line, e.Pos.Col, e.EndPos.Line, e.EndPos.Col, e.Old, e.New)
	}
	return b.String()
}

// place turns a change's edits into byte spans, checking each against the
// source; the reason is "" when every edit fits.
func place(src []byte, idx lineIndex, ch Change, ci int, eol string) ([]span, string) {
	var out []span
	for _, e := range ch.Edits {
		s, ok1 := idx.offset(src, e.Pos)
		t, ok2 := idx.offset(src, e.EndPos)
		if !ok1 || !ok2 || t < s {
			return nil, fmt.Sprintf("line %d, column %d is not in the file", e.Pos.Line, e.Pos.Col)
		}
		if got := normBreaks(src[s:t]); got != e.Old {
			return nil, fmt.Sprintf("line %d no longer reads %q at column %d", e.Pos.Line, e.Old, e.Pos.Col)
		}
		out = append(out, span{start: s, end: t, new: strings.ReplaceAll(e.New, "\n", eol), change: ci})
	}
	for i := 1; i < len(out); i++ {
		if conflict(out[i:i+1], out[:i]) != "" {
			return nil, "its own edits overlap"
		}
	}
	return out, ""
}

// conflict says why spans cannot join taken: two replaced ranges overlap,
// or an insertion falls strictly inside a replaced range. Insertions at
// one point, or at the edge of a range, do not conflict.
func conflict(spans, taken []span) string {
	for _, a := range spans {
		for _, b := range taken {
			if overlaps(a, b) {
				return fmt.Sprintf("it overlaps another fix (bytes %d–%d and %d–%d)", a.start, a.end, b.start, b.end)
			}
		}
	}
	return ""
}

func overlaps(a, b span) bool {
	switch {
	case a.start == a.end && b.start == b.end:
		return false
	case a.start == a.end:
		return b.start < a.start && a.start < b.end
	case b.start == b.end:
		return a.start < b.start && b.start < a.end
	}
	return a.start < b.end && b.start < a.end
}

// lineIndex holds where each line's text starts and ends (where its
// break starts), lines counted as yaml.v3 counts them (envspec.LineBreak).
// Line 1 starts after a byte-order mark, which yaml.v3 does not count in
// columns: an edit at 1:1 goes after the mark, which stays first.
type lineIndex struct{ start, end []int }

func newLineIndex(src []byte) lineIndex {
	start, end := envspec.LineSpans(src)
	return lineIndex{start, end}
}

// offset is the byte offset of a 1-based line and character column. The
// column just past a line's last character (before its line end) is
// allowed, and so is column 1 of the line after the last, the end of the
// file.
func (idx lineIndex) offset(src []byte, p finding.Pos) (int, bool) {
	if p.Line < 1 || p.Col < 1 || p.Line > len(idx.start) {
		return 0, false
	}
	off, end := idx.start[p.Line-1], idx.end[p.Line-1]
	for c := 1; c < p.Col; c++ {
		if off >= end {
			return 0, false
		}
		_, size := utf8.DecodeRune(src[off:end])
		off += size
	}
	return off, true
}

// normBreaks is b with every line break written "\n", as Edit.Old is.
func normBreaks(b []byte) string {
	var out strings.Builder
	at := 0
	for i := 0; i < len(b); {
		w := envspec.LineBreak(b, i)
		if w == 0 {
			i++
			continue
		}
		out.Write(b[at:i])
		out.WriteByte('\n')
		i += w
		at = i
	}
	if at == 0 {
		return string(b)
	}
	out.Write(b[at:])
	return out.String()
}

// lineEnd is the file's line end, that of its first CR or LF break: new
// lines are written with it. NEL, LS and PS break lines for yaml.v3 but no
// editor writes them as line ends, so they do not count.
func lineEnd(src []byte) string {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			return string(src[i : i+envspec.LineBreak(src, i)])
		case '\n':
			return "\n"
		}
	}
	return "\n"
}
