// Package golden holds tests' output against the golden files under their
// testdata, and rewrites those files when the tests run with -update:
//
//	go test ./envspec/ ./resolver/ ./gpucheck/ ./report/ ./fixer/ -update
//
// Every test binary that imports golden accepts the one -update flag; each
// golden test calls Check (byte for byte) or CheckLines (a line per finding,
// a want line written /regexp/ being a pattern).
package golden

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Update is the -update flag: rewrite the golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Check compares got with the golden file at path, or writes got there when
// -update is set.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run go test with -update to create it)", err)
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (rerun with -update if the change is intended)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// CheckLines holds got, one line each, against the non-empty lines of the
// golden file at path, where a want line written /regexp/ matches any line
// the expression matches. With -update it writes got, a line each, ending
// in a newline unless got is empty.
func CheckLines(t testing.TB, path string, got []string) {
	t.Helper()
	if *Update {
		text := strings.Join(got, "\n")
		if text != "" {
			text += "\n"
		}
		write(t, path, []byte(text))
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run go test with -update to create it)", err)
		return
	}
	want := Lines(string(b))
	if !MatchLines(got, want) {
		t.Errorf("%s: findings differ\n--- got\n%s\n--- want\n%s", path, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Lines returns the lines of s that are not blank.
func Lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// MatchLines reports whether got and want have as many lines and each got
// line matches its want line (see Match).
func MatchLines(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !Match(want[i], got[i]) {
			return false
		}
	}
	return true
}

// Match compares one line; a want line written /regexp/ is a pattern.
func Match(want, got string) bool {
	if len(want) > 2 && strings.HasPrefix(want, "/") && strings.HasSuffix(want, "/") {
		re, err := regexp.Compile(want[1 : len(want)-1])
		return err == nil && re.MatchString(got)
	}
	return want == got
}

func write(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
