package envspec

import (
	"strings"

	"github.com/envguard/envguard/finding"
)

// The fixes of the file rules (EG103's operators, EG105, EG108, EG109,
// EG112). Each is made only where the text is laid out as the fix expects
// (a block list item on a line of its own, a key at the start of its
// line); anywhere else the finding keeps its hint and no edit.

// blockItemPrefix returns the text before column col of line n when it is
// only an indented "- " (the item is a block sequence entry), and whether
// it is.
func (e *Env) blockItemPrefix(n, col int) (string, bool) {
	line := e.Line(n)
	off, ok := byteOffset(line, col)
	if !ok {
		return "", false
	}
	pre := line[:off]
	t := strings.TrimLeft(pre, " ")
	if !strings.HasPrefix(t, "-") || strings.TrimLeft(t[1:], " ") != "" || len(t) < 2 {
		return "", false
	}
	return pre, true
}

// aloneOnLine reports whether s, at its position, is the last thing on
// its line but for spaces and a comment.
func (e *Env) aloneOnLine(s String) bool {
	line := e.Line(s.Pos.Line)
	off, ok := byteOffset(line, s.Pos.Col)
	if !ok || !strings.HasPrefix(line[off:], s.Value) {
		return false
	}
	rest := strings.TrimLeft(line[off+len(s.Value):], " \t")
	return rest == "" || rest[0] == '#'
}

// DeleteItem removes a block list item that stands alone on its line.
func (e *Env) DeleteItem(s String) (finding.Edit, bool) {
	if _, ok := e.blockItemPrefix(s.Pos.Line, s.Pos.Col); !ok || !e.aloneOnLine(s) {
		return finding.Edit{}, false
	}
	return e.DeleteLine(s.Pos.Line)
}

// addPipEdit inserts "- pip" before the `- pip:` item, indented like it.
func (e *Env) addPipEdit(key finding.Pos) (finding.Edit, bool) { return e.InsertItemBefore(key, "pip") }

// InsertItemBefore inserts a block list item, indented like the item that
// starts at position at, on a line of its own before that item's line.
func (e *Env) InsertItemBefore(at finding.Pos, text string) (finding.Edit, bool) {
	pre, ok := e.blockItemPrefix(at.Line, at.Col)
	if !ok {
		return finding.Edit{}, false
	}
	return e.InsertLine(at.Line, pre+text)
}

// Text is the text of line at.Line from column at.Col up to column end
// (exclusive); ok is false when the line has no such columns.
func (e *Env) Text(at finding.Pos, end int) (string, bool) {
	line := e.Line(at.Line)
	a, ok1 := byteOffset(line, at.Col)
	b, ok2 := byteOffset(line, end)
	if at.Col < 1 || !ok1 || !ok2 || b < a {
		return "", false
	}
	return line[a:b], true
}

// prefixEdit deletes a `prefix:` line: a top-level key at the start of its
// line whose value ends on it (the next line starts a key, a comment or
// nothing).
func (e *Env) prefixEdit(s String) (finding.Edit, bool) {
	line := e.Line(s.Pos.Line)
	if !strings.HasPrefix(line, "prefix:") {
		return finding.Edit{}, false
	}
	if next := e.Line(s.Pos.Line + 1); s.Pos.Line < len(e.Lines) && next != "" && (next[0] == ' ' || next[0] == '\t') {
		return finding.Edit{}, false
	}
	return e.DeleteLine(s.Pos.Line)
}

// channelRename renames a channel written exactly as its value.
func (e *Env) channelRename(c String, to string) (finding.Edit, bool) {
	return e.ReplaceAt(c.Pos, c.Value, to)
}

// defaultsEdits replaces the first defaults-like channel with `nodefaults`
// (or drops it where `nodefaults` is listed already) and drops the others:
// conda-forge alone is what EG108's hint asks for. ok is false unless every
// one of them can be edited.
func (e *Env) defaultsEdits() ([]finding.Edit, bool) {
	has := false
	for _, c := range e.Channels {
		if strings.TrimSpace(c.Value) == "nodefaults" {
			has = true
		}
	}
	var out []finding.Edit
	for _, c := range e.Channels {
		v := strings.TrimSpace(c.Value)
		if isDefaultsMirror(v) {
			// defaults' own builds again (mixHint says why)
			ed, ok := e.DeleteItem(c)
			if !ok {
				return nil, false
			}
			out = append(out, ed)
			continue
		}
		if !isDefaultsChannel(v) {
			continue
		}
		var ed finding.Edit
		ok := false
		if !has {
			ed, ok = e.ReplaceAt(c.Pos, c.Value, "nodefaults")
			has = true
		} else {
			ed, ok = e.DeleteItem(c)
		}
		if !ok {
			return nil, false
		}
		out = append(out, ed)
	}
	return out, len(out) > 0
}
