package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/cache"
)

// cacheEntries lists the entry files under dir.
func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// entryKey reads the key an entry file repeats after its format line.
func entryKey(t *testing.T, p string) cache.Key {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var k cache.Key
	if len(b) < len(cache.Format)+1+len(k) {
		t.Fatalf("%s is not an entry", p)
	}
	copy(k[:], b[len(cache.Format)+1:])
	return k
}

func TestValidateCache(t *testing.T) {
	dir := t.TempDir()
	cacheHome := t.TempDir()
	vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
	bad := filepath.Join(dir, "environment.yml")
	if err := os.WriteFile(bad, []byte(errEnv), 0o644); err != nil {
		t.Fatal(err)
	}
	code, want, _ := runCLI(t, fakeNoDriver, vars, "validate", bad)
	if code != 1 || !strings.Contains(want, "EG201") {
		t.Fatalf("first run: exit %d\n%s", code, want)
	}
	entries := cacheEntries(t, filepath.Join(cacheHome, "envguard"))
	if len(entries) != 1 {
		t.Fatalf("after one file the cache holds %v", entries)
	}

	// A second run gives the same bytes and exit code.
	code2, got, _ := runCLI(t, fakeNoDriver, vars, "validate", bad)
	if code2 != code || got != want {
		t.Fatalf("second run: exit %d\n%s\nwant exit %d\n%s", code2, got, code, want)
	}

	// The second run read the entry: one planted under the same key is
	// what a run prints (and its exit code follows the entry), while
	// --no-cache validates afresh.
	c, err := cache.Open(filepath.Join(cacheHome, "envguard"))
	if err != nil {
		t.Fatal(err)
	}
	k := entryKey(t, entries[0])
	if err := c.Put(k, []byte("0planted\n")); err != nil {
		t.Fatal(err)
	}
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", bad); code != 0 || got != "planted\n" {
		t.Fatalf("with a planted entry: exit %d, %q", code, got)
	}
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", bad); code != 1 || got != want {
		t.Fatalf("--no-cache: exit %d\n%s", code, got)
	}

	// A corrupt entry is ignored and rewritten.
	if err := os.WriteFile(entries[0], []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", bad); code != 1 || got != want {
		t.Fatalf("corrupt entry: exit %d\n%s", code, got)
	}
	if v, ok := c.Get(k); !ok || !strings.HasPrefix(string(v), "1") {
		t.Fatalf("corrupt entry not rewritten: %q, %v", v, ok)
	}

	// What the result depends on is in the key: the bytes, the fail
	// level, the format, the targets.
	if err := os.WriteFile(bad, []byte(cleanEnv), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", bad); code != 0 || got == want {
		t.Fatalf("changed file: exit %d\n%s", code, got)
	}
	targets := egWrite(t, "targets.yml", targetsFile)
	runCLI(t, fakeNoDriver, vars, "validate", "--fail-on", "warning", bad)
	runCLI(t, fakeNoDriver, vars, "validate", "--format", "json", bad)
	runCLI(t, fakeNoDriver, vars, "validate", "--targets", targets, "--target", "old", bad)
	if n := len(cacheEntries(t, filepath.Join(cacheHome, "envguard"))); n != 5 {
		t.Errorf("5 distinct runs left %d entries", n)
	}

	// SARIF and code quality are one document over all files and are not
	// cached.
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", "--format", "codequality", bad); code != 0 || !strings.HasPrefix(got, "[") {
		t.Errorf("codequality: exit %d\n%s", code, got)
	}
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", "--format", "sarif", bad); code != 0 || !strings.Contains(got, `"version": "2.1.0"`) {
		t.Errorf("sarif: exit %d\n%s", code, got)
	}
	if n := len(cacheEntries(t, filepath.Join(cacheHome, "envguard"))); n != 5 {
		t.Errorf("a SARIF run added entries: %d", n)
	}
}

// TestValidateNoCacheDir: with neither XDG_CACHE_HOME nor HOME set there is
// no cache, and validation works as ever.
func TestValidateNoCacheDir(t *testing.T) {
	f := egWrite(t, "environment.yml", errEnv)
	code, out, errOut := runCLI(t, fakeNoDriver, map[string]string{}, "validate", f)
	if code != 1 || !strings.Contains(out, "EG201") || errOut != "" {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestValidateUnwritableCache: a cache that cannot be made is said once,
// and the results are the same.
func TestValidateUnwritableCache(t *testing.T) {
	f := egWrite(t, "environment.yml", errEnv)
	blocker := egWrite(t, "file", "not a directory")
	code, out, errOut := runCLI(t, fakeNoDriver, map[string]string{"XDG_CACHE_HOME": blocker}, "validate", f)
	if code != 1 || !strings.Contains(out, "EG201") || strings.Count(errOut, "envguard: cache") != 1 {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestValidateManyFilesInOrder: files validated on every core print in
// the order given, the same with and without the cache.
func TestValidateManyFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"XDG_CACHE_HOME": t.TempDir()}
	var files []string
	var want strings.Builder
	for i := range 40 {
		src := []string{cleanEnv, warnEnv, errEnv}[i%3]
		p := filepath.Join(dir, fmt.Sprintf("env-%02d.yml", i))
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		_, out, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", p)
		want.WriteString(out)
	}
	for _, args := range [][]string{{"--no-cache"}, nil, nil} {
		code, got, _ := runCLI(t, fakeNoDriver, vars, append(append([]string{"validate"}, args...), files...)...)
		if code != 1 || got != want.String() {
			t.Errorf("validate %v: exit %d; output differs from the files one by one:\n%s", args, code, got)
		}
	}
	// With targets, each file is also held against machines, on every core.
	targets := egWrite(t, "targets.yml", targetsFile)
	var wantT strings.Builder
	for _, p := range files[:6] {
		_, out, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", "--targets", targets, "--target", "old", "--target", "h100", p)
		wantT.WriteString(out)
	}
	if _, got, _ := runCLI(t, fakeNoDriver, vars, append([]string{"validate", "--targets", targets, "--target", "old", "--target", "h100"}, files[:6]...)...); got != wantT.String() {
		t.Errorf("with targets, output differs from the files one by one:\n%s", got)
	}
	code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", "--format", "json", dir)
	if code != 1 || strings.Count(got, `"file": `) != 40 || strings.Index(got, "env-00.yml") > strings.Index(got, "env-39.yml") {
		t.Errorf("json over a directory: exit %d\n%.500s", code, got)
	}
}
