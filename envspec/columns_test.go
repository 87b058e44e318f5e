package envspec

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/timebound"
)

// tokenEndRunes is TokenEnd as it was before Columns: it converts the whole
// line to runes for every question, which made a one-line collection cost
// time quadratic in its length (issue 11). It is the reference the indexed
// version must agree with.
func tokenEndRunes(line string, col int) int {
	if col <= 0 || line == "" {
		return 0
	}
	runes := []rune(line)
	if col > len(runes) {
		return 0
	}
	end := len(runes)
	open := 0
	for _, r := range runes[:col-1] {
		switch r {
		case '[', '{':
			open++
		case ']', '}':
			open--
		}
	}
	quoted := col >= 2 && (runes[col-2] == '"' || runes[col-2] == '\'')
	if quoted && open > 0 {
		for i := col - 1; i < len(runes); i++ {
			if runes[i] == runes[col-2] && (i == 0 || runes[i-1] != '\\') {
				if i <= col-1 {
					return 0
				}
				return i + 1
			}
		}
	}
	for i := col - 1; i < len(runes); i++ {
		if open > 0 && !quoted && (runes[i] == ',' || runes[i] == ']' || runes[i] == '}') {
			end = i
			break
		}
		if runes[i] == '#' && i > col-1 && (runes[i-1] == ' ' || runes[i-1] == '\t') {
			end = i
			break
		}
		if runes[i] == ':' && (i+1 == len(runes) || runes[i+1] == ' ' || runes[i+1] == '\t') {
			end = i
			break
		}
	}
	for end > col-1 && (runes[end-1] == ' ' || runes[end-1] == '\t') {
		end--
	}
	if q := col - 2; q >= 0 && (runes[q] == '"' || runes[q] == '\'') && end > col && runes[end-1] == runes[q] {
		end--
	}
	if end <= col-1 {
		return 0
	}
	return end + 1
}

// oneLineFlow is `dependencies: [p0, p1, ...]` with n items.
func oneLineFlow(n int) string {
	var b strings.Builder
	b.WriteString("dependencies: [")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "p%d", i)
	}
	b.WriteString("]")
	return b.String()
}

// Every column of short and long lines (past the indexing threshold, with
// quotes, comments, colons, brackets and multi-byte characters) gets the
// answer the rune-by-rune reference gives.
func TestColumnsMatchReference(t *testing.T) {
	lines := []string{
		"  - numpy  # comment", `  - "numpy>=1"  # q`, "  - é=1 # x", `channels: ["a,b", 'c\'d', e]`,
		"  A: expandable_segments:True", "{a: [b, {c: d}], e: 'f, g'}", "]]] [[ x, y", "\t- tab\t# c",
		oneLineFlow(400),
		strings.Repeat("é, [ü], 'ß', ", 300) + "# end: x",
	}
	r := rand.New(rand.NewSource(11))
	alphabet := []string{"a", "b", " ", "\t", ",", "[", "]", "{", "}", "'", `"`, `\`, "#", ":", "é", "日本", "-", "="}
	for i := 0; i < 15; i++ {
		var b strings.Builder
		n := r.Intn(3 * shortLine)
		for b.Len() < n {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		lines = append(lines, b.String())
	}
	for li, line := range lines {
		c := NewColumns([]string{"x", line})
		chars := len([]rune(line))
		for col := 0; col <= chars+2; col++ {
			want := tokenEndRunes(line, col)
			if got := c.TokenEnd(2, col); got != want {
				t.Fatalf("line %d (%d bytes) col %d: TokenEnd = %d, reference %d", li, len(line), col, got, want)
			}
			if got := TokenEnd(line, col); got != want {
				t.Fatalf("line %d col %d: TokenEnd(line) = %d, reference %d", li, col, got, want)
			}
		}
	}
}

func TestWindow(t *testing.T) {
	long := strings.Repeat("abcdefghij", 50) // 500 characters
	wide := strings.Repeat("é", 300)
	c := NewColumns([]string{"short line", long, wide})
	for _, tt := range []struct {
		name           string
		line, col, end int
		text           string
		start          int
		cutEnd         bool
	}{
		{"short line whole", 1, 3, 5, "short line", 1, false},
		{"unknown column shows the start", 2, 0, 0, long[:SnippetWidth], 1, true},
		{"near the start", 2, 5, 8, long[:SnippetWidth], 1, true},
		{"middle is centred", 2, 251, 261, long[250-95 : 250-95+SnippetWidth], 156, true},
		{"near the end", 2, 495, 0, long[300:], 301, false},
		{"span wider than the window keeps its start", 2, 101, 400, long[100:300], 101, true},
		{"multi-byte characters count as one", 3, 150, 151, strings.Repeat("é", SnippetWidth), 51, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text, start, cutEnd := c.Window(tt.line, tt.col, tt.end, SnippetWidth)
			if text != tt.text || start != tt.start || cutEnd != tt.cutEnd {
				t.Errorf("Window = %q, %d, %v; want %q, %d, %v", text, start, cutEnd, tt.text, tt.start, tt.cutEnd)
			}
		})
	}
	if s := c.Snippet(2, 251, 261); s != Ellipsis+long[155:355]+Ellipsis {
		t.Errorf("Snippet = %q", s)
	}
	if s := c.Snippet(1, 1, 0); s != "short line" {
		t.Errorf("Snippet of a short line = %q", s)
	}
}

// items returns a call of TokenEnd (through f) for every item of a
// one-line flow list of n items, the list built beforehand.
func items(n int, f func(line string, col int) int) func() {
	line := oneLineFlow(n)
	var cols []int
	for i := 0; i < len(line); i++ {
		if line[i] == 'p' {
			cols = append(cols, i+1)
		}
	}
	return func() {
		f(line, 0) // a fresh index each run
		for _, col := range cols {
			f(line, col)
		}
	}
}

// The cost of answering for every item of a one-line list grows linearly
// with the list: eight times the items may take about eight times as long
// (under 24× is asserted, 3× linear, where quadratic is 64×; at four times
// the items a quadratic loop measured 12–17× against a bound of 10×, too
// close to tell apart under load), and the reference, which
// converts the line for every item, is at least 5× slower at 2,000 items
// (it is hundreds of times slower). Both ratios are measured in the same
// run, so they do not depend on the machine, and measured again before
// they fail (timebound.Check).
func TestTokenEndLinearOnOneLine(t *testing.T) {
	indexed := func() func(string, int) int {
		var c *Columns
		return func(line string, col int) int {
			if col == 0 {
				c = NewColumns([]string{line})
				return 0
			}
			return c.TokenEnd(1, col)
		}
	}
	timebound.Check{What: "TokenEnd over every item of a one-line list, 16,000 items / 2000", Max: 8 * 3}.
		AssertGrowth(t, 2000, 8, func(n int) func() { return items(n, indexed()) })
	timebound.Check{What: "reference / indexed TokenEnd at 2000 items", Min: 5, Rounds: 3}.
		Assert(t, items(2000, indexed()), items(2000, tokenEndRunes))
}

// BenchmarkTokenEndOneLine compares the indexed TokenEnd with the
// reference over every item of a 48 KB one-line list (the size issue 11
// measured at 2.6 s for a whole validation).
func BenchmarkTokenEndOneLine(b *testing.B) {
	line := oneLineFlow(8000)
	var cols []int
	for i := 0; i < len(line); i++ {
		if line[i] == 'p' {
			cols = append(cols, i+1)
		}
	}
	b.Run("indexed", func(b *testing.B) {
		for b.Loop() {
			c := NewColumns([]string{line})
			for _, col := range cols {
				c.TokenEnd(1, col)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			for _, col := range cols {
				tokenEndRunes(line, col)
			}
		}
	})
}
