package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiscoveryFromListings: the search answers .gitignore and
// .envguard.yml from each directory's listing; what it finds and which
// configuration governs each file is what git and the upward search say.
// A directory's .gitignore reaches only below it; a directory named
// .envguard.yml is not a configuration; a link to one is followed; .git
// ends the search upward.
func TestDiscoveryFromListings(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		"a/.envguard.yml":     "fail_on: warning\n",
		"a/environment.yml":   warnEnv,
		"a/b/environment.yml": warnEnv,
		"c/.gitignore":        "environment.yml\n",
		"c/environment.yml":   warnEnv,
		"c/env.yml":           warnEnv,
		"d/.envguard.yml/x":   "",
		"d/environment.yml":   warnEnv,
		"e/environment.yml":   warnEnv,
		"z/environment.yml":   warnEnv, // after c: c's .gitignore does not reach it
	}
	for p, src := range files {
		write(t, filepath.Join(root, p), src)
	}
	if err := os.Symlink(filepath.Join("..", "a", ".envguard.yml"), filepath.Join(root, "e", ".envguard.yml")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	// Above the repository root, a configuration that must not apply.
	write(t, filepath.Join(filepath.Dir(root), ".envguard.yml"), "fail_on: info\n")
	defer os.Remove(filepath.Join(filepath.Dir(root), ".envguard.yml"))

	code, out, errOut := runTree(t, nil, "validate", "--show-config", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	cfgA := filepath.Join(root, "a", ".envguard.yml")
	none := "no .envguard.yml from its directory up to the repository root; the defaults apply"
	want := []string{
		filepath.Join(root, "a", "b", "environment.yml") + ": " + cfgA,
		filepath.Join(root, "a", "environment.yml") + ": " + cfgA,
		filepath.Join(root, "c", "env.yml") + ": " + none,
		filepath.Join(root, "d", "environment.yml") + ": " + none,
		filepath.Join(root, "e", "environment.yml") + ": " + filepath.Join(root, "e", ".envguard.yml"),
		filepath.Join(root, "z", "environment.yml") + ": " + none,
	}
	got := strings.Split(out, "\n")
	if len(got) < len(want) || strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") || got[len(want)] != "" {
		t.Errorf("--show-config:\n%s\nwant first\n%s", out, strings.Join(want, "\n"))
	}
	// And validation follows it: a's and e's warnings fail, the others'
	// do not; the same with the search and with the files named.
	code, out, _ = runTree(t, nil, "validate", "--no-cache", root)
	var named []string
	for _, w := range want {
		named = append(named, w[:strings.Index(w, ": ")])
	}
	code2, out2, _ := runTree(t, nil, append([]string{"validate", "--no-cache"}, named...)...)
	if code != 1 || code2 != 1 || out != out2 {
		t.Errorf("searched: exit %d\n%s\nnamed: exit %d\n%s", code, out, code2, out2)
	}
}
