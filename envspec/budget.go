package envspec

import (
	"bytes"
	"fmt"

	"github.com/envguard/envguard/finding"
)

// DefaultMaxItems bounds how many items (list entries, keys, lines) of one
// file are read. The largest real environments (a `conda env export` of a
// full data-science stack) hold a few hundred; a file with tens of
// thousands is generated or hostile, and reading all of it would cost
// memory in proportion to its item count (about two kilobytes an item, the
// YAML tree included), not to its size.
const DefaultMaxItems = 10000

// itemCut is where a file over its item budget is cut.
type itemCut struct {
	src  []byte // the part read, closed into valid YAML
	keep int    // bytes of the original kept for snippets (through the cut line)
	line int    // the line of the first item not read
	col  int    // its column (characters); 0 at the start of a line
}

// cutItems counts the items of src without building a YAML tree — every
// non-blank, non-comment line outside flow collections, and every comma
// inside one — and, past max, cuts src before the first item over: at the
// start of its line, or inside a flow collection at its comma, with the
// open brackets closed so the part read is still the same YAML. ok is false
// when src is within its budget.
func cutItems(src []byte, max int) (cut itemCut, ok bool) {
	// Every item starts a line or follows a comma: a file with fewer lines
	// and commas than the budget is within it, which the vectorised counts
	// tell without walking the bytes one by one.
	if bytes.Count(src, []byte{'\n'})+1+bytes.Count(src, []byte{','}) <= max {
		return itemCut{}, false
	}
	items, line := 0, 1
	var open []byte // the open flow brackets, innermost last
	lineStart := 0
	over := func(i int) bool {
		items++
		return items > max
	}
	closeAt := func(i int) itemCut {
		b := make([]byte, 0, i+len(open)+1)
		b = append(b, src[:i]...)
		for k := len(open) - 1; k >= 0; k-- {
			if open[k] == '[' {
				b = append(b, ']')
			} else {
				b = append(b, '}')
			}
		}
		b = append(b, '\n')
		keep := len(src)
		for j := i; j < len(src); j++ {
			if src[j] == '\n' {
				keep = j
				break
			}
		}
		return itemCut{src: b, keep: keep, line: line, col: 1 + runeCount(src[lineStart:i])}
	}
	atLineStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		if atLineStart {
			atLineStart = false
			j := i
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if len(open) == 0 && j < len(src) && src[j] != '\n' && src[j] != '\r' && src[j] != '#' {
				if over(i) {
					keep := len(src)
					for k := i; k < len(src); k++ {
						if src[k] == '\n' {
							keep = k
							break
						}
					}
					return itemCut{src: src[:i:i], keep: keep, line: line}, true
				}
			}
		}
		switch {
		case c == '\n':
			line++
			lineStart = i + 1
			atLineStart = true
		case c == '#' && (i == 0 || src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n'):
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case (c == '"' || c == '\'') && len(open) > 0:
			for i++; i < len(src) && src[i] != c; i++ {
				if c == '"' && src[i] == '\\' {
					i++
				} else if src[i] == '\n' {
					line++
					lineStart = i + 1
				}
			}
		case c == '[' || c == '{':
			open = append(open, c)
		case (c == ']' || c == '}') && len(open) > 0:
			open = open[:len(open)-1]
		case c == ',' && len(open) > 0:
			if over(i) {
				return closeAt(i), true
			}
		}
	}
	return itemCut{}, false
}

func runeCount(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// itemBudgetFinding says that the file was cut: what was read and what not.
func (p *envParser) itemBudgetFinding(cut itemCut, max int) {
	where := fmt.Sprintf("up to line %d", cut.line-1)
	if cut.col > 0 {
		where = fmt.Sprintf("up to column %d of line %d", cut.col, cut.line)
	}
	p.add(finding.Pos{File: p.env.File, Line: cut.line, Col: cut.col}, RuleEG101,
		fmt.Sprintf("the file holds more than %d items (dependencies, pip lines, keys): envguard checked the first %d, %s, and read nothing after it", max, max, where),
		"no environment needs this many entries: remove the generated or repeated ones, or split the file")
}
