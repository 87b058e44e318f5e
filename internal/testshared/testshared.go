// Package testshared finds ../shared (the real-world corpus and the cited
// facts) beside the module root for tests. In a user's clone it is absent and
// tests that need it skip with a clear message; CI sets
// ENVGUARD_REQUIRE_SHARED=1 so that they fail instead of skipping.
package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of ../shared/<sub> beside the module root.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	root, err := moduleRoot()
	if err == nil {
		dir := filepath.Join(filepath.Dir(root), "shared", sub)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	msg := "../shared/" + sub + " is not beside the module root (it exists in the developers' checkout and in CI, not in a user's clone)"
	if os.Getenv("ENVGUARD_REQUIRE_SHARED") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Corpus returns the paths of the real-world environment files.
func Corpus(t testing.TB) []string {
	t.Helper()
	dir := Dir(t, "corpus/realworld")
	files, err := filepath.Glob(filepath.Join(dir, "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.yml files in %s", dir)
	}
	return files
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
