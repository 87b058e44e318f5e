package fixer

import (
	"bytes"

	"github.com/pmezard/go-difflib/difflib"
)

// Diff is the unified diff (three lines of context, a/ and b/ prefixes as
// git writes them) from a to b, "" when they are equal. UTF-16 text is
// shown as the UTF-8 it decodes to.
func Diff(file string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	a, b = textForDiff(a), textForDiff(b)
	// difflib's only errors are its writer's, and it writes to a
	// bytes.Buffer, which never fails
	s, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: splitLines(a), B: splitLines(b),
		FromFile: "a/" + file, ToFile: "b/" + file, Context: 3,
	})
	return s
}

// splitLines keeps each line's end (LF, CRLF, or CR alone, so that a file
// of CR line ends diffs line by line); a last line without one is marked
// as diff(1) marks it.
func splitLines(b []byte) []string {
	var lines []string
	at := 0
	for i := 0; i < len(b); i++ {
		if b[i] == '\n' || b[i] == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			lines = append(lines, string(b[at:i+1]))
			at = i + 1
		}
	}
	if at < len(b) {
		lines = append(lines, string(b[at:])+"\n\\ No newline at end of file\n")
	}
	return lines
}
