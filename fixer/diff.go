package fixer

import (
	"bytes"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Diff is the unified diff (three lines of context, a/ and b/ prefixes as
// git writes them) from a to b, "" when they are equal.
func Diff(file string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	// difflib's only errors are its writer's, and it writes to a
	// bytes.Buffer, which never fails
	s, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: splitLines(a), B: splitLines(b),
		FromFile: "a/" + file, ToFile: "b/" + file, Context: 3,
	})
	return s
}

// splitLines keeps each line's end; a last line without one is marked as
// diff(1) marks it.
func splitLines(b []byte) []string {
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	}
	return lines
}
