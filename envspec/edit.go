package envspec

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/envguard/envguard/finding"
)

// ReplaceAt is the edit that replaces old, found at position at, with new;
// ok is false when line at.Line does not read old at that column (the
// position is unknown, or the scalar is written otherwise than its value,
// as an escaped quoted one is).
func (e *Env) ReplaceAt(at finding.Pos, old, new string) (finding.Edit, bool) {
	if !e.Editable() || at.Line < 1 || at.Col < 1 || old == "" || strings.Contains(old, "\n") {
		return finding.Edit{}, false
	}
	line := e.Line(at.Line)
	off, ok := byteOffset(line, at.Col)
	if !ok || !strings.HasPrefix(line[off:], old) {
		return finding.Edit{}, false
	}
	end := at
	end.Col += utf8.RuneCountInString(old)
	return finding.Edit{Pos: at, EndPos: end, Old: old, New: new}, true
}

// DeleteLine is the edit that removes line n whole, with its line end;
// ok is false when the file has no such line.
func (e *Env) DeleteLine(n int) (finding.Edit, bool) {
	if !e.Editable() || n < 1 || n > len(e.Lines) {
		return finding.Edit{}, false
	}
	if n == len(e.Lines) && !e.FinalNewline {
		// the last line with no line end after it: take the end of the
		// line before instead, so that the file keeps no empty last line
		if n == 1 {
			return finding.Edit{Pos: finding.Pos{File: e.File, Line: 1, Col: 1}, EndPos: finding.Pos{File: e.File, Line: 1, Col: utf8.RuneCountInString(e.Lines[0]) + 1}, Old: e.Lines[0]}, true
		}
		prev := e.Lines[n-2]
		return finding.Edit{
			Pos:    finding.Pos{File: e.File, Line: n - 1, Col: utf8.RuneCountInString(prev) + 1},
			EndPos: finding.Pos{File: e.File, Line: n, Col: utf8.RuneCountInString(e.Lines[n-1]) + 1},
			Old:    "\n" + e.Lines[n-1],
		}, true
	}
	return finding.Edit{Pos: finding.Pos{File: e.File, Line: n, Col: 1}, EndPos: finding.Pos{File: e.File, Line: n + 1, Col: 1}, Old: e.Lines[n-1] + "\n"}, true
}

// InsertLine is the edit that puts text, as a line of its own, before line n.
func (e *Env) InsertLine(n int, text string) (finding.Edit, bool) {
	if !e.Editable() || n < 1 || n > len(e.Lines) || strings.Contains(text, "\n") {
		return finding.Edit{}, false
	}
	p := finding.Pos{File: e.File, Line: n, Col: 1}
	return finding.Edit{Pos: p, EndPos: p, New: text + "\n"}, true
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

// LineBreak is the width in bytes of the line break that starts at s[i],
// 0 where none does. These are the breaks yaml.v3 counts lines by (CRLF,
// LF, CR alone, NEL, LS and PS), so that Env.Lines and the fixer number
// lines as the positions of findings do: a file of CR line ends (old Mac
// editors) is many lines to yaml.v3, not one.
func LineBreak(s []byte, i int) int {
	switch s[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xc2: // U+0085 NEL
		if i+1 < len(s) && s[i+1] == 0x85 {
			return 2
		}
	case 0xe2: // U+2028 LS, U+2029 PS
		if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
			return 3
		}
	}
	return 0
}

// BOM is the UTF-8 byte-order mark. yaml.v3 skips it without counting it
// in line 1's columns, so neither Env.Lines nor the fixer counts it either.
const BOM = "\ufeff"

// LineSpans says where each line of src starts and where its text ends
// (where its break begins), lines broken as yaml.v3 breaks them
// (LineBreak), line 1 starting after a byte-order mark. After a final
// break comes one more, empty, line: the end of the file.
func LineSpans(src []byte) (start, end []int) {
	first := 0
	if bytes.HasPrefix(src, []byte(BOM)) {
		first = len(BOM)
	}
	n := bytes.Count(src, []byte{'\n'}) + 1
	start, end = append(make([]int, 0, n), first), make([]int, 0, n)
	if onlyLF(src) {
		// the common file: the vectorised search, as strings.Split does
		for i := first; ; {
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				break
			}
			end = append(end, i+j)
			i += j + 1
			start = append(start, i)
		}
	} else {
		for i := first; i < len(src); {
			w := LineBreak(src, i)
			if w == 0 {
				i++
				continue
			}
			end = append(end, i)
			i += w
			start = append(start, i)
		}
	}
	return start, append(end, len(src))
}

// onlyLF says that LF is the only line break in src: no CR, NEL, LS or PS.
func onlyLF(src []byte) bool {
	if bytes.IndexByte(src, '\r') >= 0 {
		return false
	}
	for _, b := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(src, []byte(b)) {
			return false
		}
	}
	return true
}

// envLines splits an environment file into its lines as yaml.v3 counts
// them, without their breaks and without a leading byte-order mark, and
// says whether the last line ended with a break.
func envLines(src []byte) ([]string, bool) {
	if len(src) == 0 {
		return nil, false
	}
	s := string(src)
	start, end := LineSpans(src)
	n := len(start)
	final := n > 1 && start[n-1] == len(s)
	if final {
		n--
	}
	lines := make([]string, n)
	for i := range lines {
		lines[i] = s[start[i]:end[i]]
	}
	return lines, final
}
