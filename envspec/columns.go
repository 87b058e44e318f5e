package envspec

import (
	"sync"
	"unicode/utf8"
)

// Columns answers column questions about the lines of one file — where the
// item at a column ends, what part of a line to show under a finding —
// without converting a whole line for every question. A file written as
// one long line (a flow list of thousands of items) raises a finding per
// item; converting the line each time made the cost quadratic in its
// length. Long lines are indexed once, with a checkpoint every colStep
// characters, and each question then costs at most colStep steps plus the
// length of the item it is about.
type Columns struct {
	lines []string
	mu    sync.Mutex
	info  map[int]*lineIndex // by line number, built on first use
	ends  map[[2]int]int     // TokenEnd answers on long lines, by (line, col)
}

const (
	// colStep is the distance, in characters, between two checkpoints.
	colStep = 128
	// shortLine is the length in bytes under which a line is scanned from
	// its start instead of being indexed.
	shortLine = 4 * colStep
)

// lineIndex holds, for every colStep-th character of a line, its byte
// offset and the flow-bracket depth before it.
type lineIndex struct {
	runes int     // characters in the line
	off   []int32 // off[k]: byte offset of character k*colStep
	depth []int32 // depth[k]: open [ and { minus ] and } before it
}

// NewColumns indexes lines (1-based through the methods) lazily.
func NewColumns(lines []string) *Columns { return &Columns{lines: lines} }

func (c *Columns) line(n int) string {
	if n < 1 || n > len(c.lines) {
		return ""
	}
	return c.lines[n-1]
}

// locate returns the byte offset of character col (1-based) of line n and
// the flow depth before it; ok is false when the line has fewer characters.
func (c *Columns) locate(n, col int) (off, depth int, ok bool) {
	line := c.line(n)
	if col <= 0 || line == "" {
		return 0, 0, false
	}
	i, want := 0, col-1
	if len(line) > shortLine {
		ix := c.index(n, line)
		if want >= ix.runes {
			return 0, 0, false
		}
		k := want / colStep
		off, depth, i = int(ix.off[k]), int(ix.depth[k]), k*colStep
	}
	for ; i < want; i++ {
		if off >= len(line) {
			return 0, 0, false
		}
		switch line[off] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
		if line[off] < utf8.RuneSelf {
			off++
		} else {
			_, size := utf8.DecodeRuneInString(line[off:])
			off += size
		}
	}
	if off >= len(line) {
		return 0, 0, false
	}
	return off, depth, true
}

func (c *Columns) index(n int, line string) *lineIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ix := c.info[n]; ix != nil {
		return ix
	}
	ix := &lineIndex{}
	depth := 0
	for off := 0; off < len(line); {
		if ix.runes%colStep == 0 {
			ix.off = append(ix.off, int32(off))
			ix.depth = append(ix.depth, int32(depth))
		}
		b := line[off]
		switch b {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
		if b < utf8.RuneSelf {
			off++
		} else {
			_, size := utf8.DecodeRuneInString(line[off:])
			off += size
		}
		ix.runes++
	}
	if c.info == nil {
		c.info = map[int]*lineIndex{}
	}
	c.info[n] = ix
	return ix
}

// TokenEnd is the column just past the item that starts at column col of
// line n: up to a trailing comment, a key's colon, the end of the line, or
// inside a flow collection the next , ] or } (a quoted scalar there ends
// at its closing quote). It is 0 when the column is unknown, so the caret
// under a finding underlines the item.
func (c *Columns) TokenEnd(n, col int) int {
	line := c.line(n)
	long := len(line) > shortLine
	if long {
		c.mu.Lock()
		v, ok := c.ends[[2]int{n, col}]
		c.mu.Unlock()
		if ok {
			return v
		}
	}
	v := c.tokenEnd(n, col)
	if long {
		c.mu.Lock()
		if c.ends == nil {
			c.ends = map[[2]int]int{}
		}
		c.ends[[2]int{n, col}] = v
		c.mu.Unlock()
	}
	return v
}

// tokenEnd works on bytes: every character it looks for is ASCII, and an
// ASCII byte never occurs inside a multi-byte UTF-8 sequence, so only the
// final answer needs counting in characters.
func (c *Columns) tokenEnd(n, col int) int {
	line := c.line(n)
	s, open, ok := c.locate(n, col)
	if !ok {
		return 0
	}
	var q byte // the opening quote just before the item, if any
	if s > 0 && (line[s-1] == '"' || line[s-1] == '\'') {
		q = line[s-1]
	}
	chars := func(endByte int) int { return col - 1 + utf8.RuneCountInString(line[s:endByte]) }
	if q != 0 && open > 0 {
		// A quoted scalar in a flow list ends at its closing quote.
		for i := s; i < len(line); i++ {
			if line[i] == q && (i == 0 || line[i-1] != '\\') {
				if i <= s {
					return 0
				}
				return chars(i) + 1
			}
		}
	}
	end := len(line)
	for i := s; i < len(line); i++ {
		b := line[i]
		if open > 0 && q == 0 && (b == ',' || b == ']' || b == '}') {
			end = i
			break
		}
		if b == '#' && i > s && (line[i-1] == ' ' || line[i-1] == '\t') {
			end = i
			break
		}
		if b == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			end = i
			break
		}
	}
	for end > s && (line[end-1] == ' ' || line[end-1] == '\t') {
		end--
	}
	if q != 0 && end-1 > s && line[end-1] == q {
		end-- // the closing quote of a quoted scalar
	}
	if end <= s {
		return 0
	}
	return chars(end) + 1
}

// SnippetWidth is how many characters of a line a finding shows at most.
const SnippetWidth = 200

// Ellipsis marks where a snippet was cut from a longer line.
const Ellipsis = "…"

// Window returns at most width characters of line n around columns
// [col, end) — the whole line when it is short enough — the column of the
// line at which the window starts, and whether it stops before the line's
// end. Long lines are cut so that the finding's span sits in the middle; a
// span wider than the window keeps its start. col 0 (unknown) shows the
// start of the line.
func (c *Columns) Window(n, col, end, width int) (text string, start int, cutEnd bool) {
	line := c.line(n)
	if width <= 0 {
		width = SnippetWidth
	}
	if len(line) <= width { // bytes ≥ characters
		return line, 1, false
	}
	total := 0
	if len(line) > shortLine {
		total = c.index(n, line).runes
	} else {
		total = utf8.RuneCountInString(line)
	}
	if total <= width {
		return line, 1, false
	}
	first := 0 // 0-based character where the window starts
	if col > 0 && col <= total {
		span := 1
		if end > col {
			span = end - col
		}
		if span >= width {
			first = col - 1
		} else {
			first = max(0, col-1-(width-span)/2)
		}
	}
	first = min(first, total-width)
	a := c.byteAt(n, first+1, len(line))
	b := c.byteAt(n, first+width+1, len(line))
	return line[a:b], first + 1, b < len(line)
}

// byteAt is the byte offset of character col of line n, or whole when the
// line ends before it.
func (c *Columns) byteAt(n, col, whole int) int {
	if off, _, ok := c.locate(n, col); ok {
		return off
	}
	return whole
}

// Snippet is Window with the cut ends marked by an ellipsis: what a finding
// carries of its line. However long the line, a snippet holds at most
// SnippetWidth characters of it plus the two marks.
func (c *Columns) Snippet(n, col, end int) string {
	text, start, cutEnd := c.Window(n, col, end, SnippetWidth)
	if start > 1 {
		text = Ellipsis + text
	}
	if cutEnd {
		text += Ellipsis
	}
	return text
}
