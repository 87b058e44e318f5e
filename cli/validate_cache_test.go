package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/internal/discover"
)

// runTree runs envguard with no --config, so that each file's
// .envguard.yml governs it (runCLI names an empty one for every run).
func runTree(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv:    func(k string) string { return vars[k] },
		lookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		local:     fakeNoDriver,
	}
	code = run(args, e)
	return code, out.String(), errb.String()
}

// manifests lists the manifest files in a cache directory.
func manifests(t *testing.T, dir string) []string {
	t.Helper()
	ms, err := filepath.Glob(filepath.Join(dir, "*.manifest"))
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// onlyManifest opens the one manifest in dir.
func onlyManifest(t *testing.T, dir string) (*cache.Cache, cache.Key, *cache.Manifest, os.FileInfo) {
	t.Helper()
	ms := manifests(t, dir)
	if len(ms) != 1 {
		t.Fatalf("cache holds manifests %v, want one", ms)
	}
	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var k cache.Key
	if b, err := hex.DecodeString(strings.TrimSuffix(filepath.Base(ms[0]), ".manifest")); err != nil || len(b) != len(k) {
		t.Fatalf("%s: not named by a key (%v)", ms[0], err)
	} else {
		k = cache.Key(b)
	}
	m, err := c.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(ms[0])
	if err != nil {
		t.Fatal(err)
	}
	return c, k, m, st
}

func write(t *testing.T, p, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ago sets p's modification time d before now, as a file written then.
func ago(t *testing.T, p string, d time.Duration) {
	t.Helper()
	when := time.Now().Add(-d)
	if err := os.Chtimes(p, when, when); err != nil {
		t.Fatal(err)
	}
}

// settle sets the times of paths to a moment long enough ago to be
// trusted, and different at each call, so that a change is seen by its
// time and not merely for being recent (cache.RacyWindow).
func settle(t *testing.T, paths ...string) {
	t.Helper()
	settled++
	when := time.Now().Add(-2*time.Hour + time.Duration(settled)*time.Second)
	for _, p := range paths {
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
}

var settled int

// settleTree settles every file and directory under root.
func settleTree(t *testing.T, root string) {
	t.Helper()
	var all []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		all = append(all, p)
		return nil
	})
	settle(t, all...)
}

// TestValidateCacheMatchesNoCache: over a tree of files, through a cold
// run, a warm one, and edited, touched, deleted and added files, an edited
// .gitignore, a changed .envguard.yml and other targets, a run with the
// cache prints what --no-cache prints, byte for byte, on both streams,
// with its exit code. Each change is given a settled time, so that it is
// seen by its size or time, not for being recent.
func TestValidateCacheMatchesNoCache(t *testing.T) {
	root := t.TempDir()
	// .git stops the .envguard.yml search at the tree.
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cacheHome := t.TempDir()
	cacheDir := filepath.Join(cacheHome, "envguard")
	vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
	files := map[string]string{
		"a/environment.yml":  cleanEnv,
		"b/environment.yml":  warnEnv,
		"c/environment.yml":  errEnv,
		"c/d/env.yml":        errEnv,
		"c/.gitignore":       "/d/env-*.yml\n",
		"c/d/env-old.yml":    errEnv,
		"e/environment.yml":  "name: [unclosed\n",
		"f/requirements.txt": "torch==2.0.1+cu118\nnumpy\n",
		"g/.envguard.yml":    "fail_on: warning\n",
		"g/environment.yml":  warnEnv,
	}
	for p, src := range files {
		write(t, filepath.Join(root, p), src)
	}
	targets := filepath.Join(t.TempDir(), "targets.yml")
	write(t, targets, targetsFile)
	settleTree(t, root)
	at := func(p string) string { return filepath.Join(root, p) }

	same := func(step string, args ...string) {
		t.Helper()
		args = append([]string{"validate"}, args...)
		code, out, errOut := runTree(t, vars, append(args, root)...)
		wcode, wout, werr := runTree(t, vars, append(append(args, "--no-cache"), root)...)
		if code != wcode || out != wout || errOut != werr {
			t.Fatalf("%s: with the cache exit %d\n%s\n%s\nwith --no-cache exit %d\n%s\n%s", step, code, out, errOut, wcode, wout, werr)
		}
		if code != 1 || !strings.Contains(out, "EG201") {
			t.Fatalf("%s: exit %d, and no EG201 in\n%s", step, code, out)
		}
	}
	unwritten := func(step string, before os.FileInfo) os.FileInfo {
		t.Helper()
		_, _, _, after := onlyManifest(t, cacheDir)
		if !after.ModTime().Equal(before.ModTime()) {
			t.Errorf("%s: a warm run over unchanged files rewrote the manifest", step)
		}
		return after
	}

	same("cold")
	_, _, m, st := onlyManifest(t, cacheDir)
	if m.Len() != 6 { // not the requirements file, the ignored one or the config
		t.Errorf("cold run kept %d entries, want 6", m.Len())
	}
	same("warm")
	unwritten("warm", st)

	// Edited: the pins agree now, and c's EG201 is gone (d's remains).
	write(t, at("c/environment.yml"), cleanEnv)
	settle(t, at("c/environment.yml"))
	same("edited")
	// Touched, bytes unchanged.
	settle(t, at("b/environment.yml"))
	same("touched")
	// Deleted and added.
	if err := os.Remove(at("a/environment.yml")); err != nil {
		t.Fatal(err)
	}
	settle(t, at("a"))
	same("deleted")
	if _, _, m, _ := onlyManifest(t, cacheDir); m.Len() != 5 {
		t.Errorf("after a file went, the manifest holds %d entries, want 5", m.Len())
	}
	write(t, at("h/environment.yml"), warnEnv)
	settle(t, at("h/environment.yml"), at("h"), root)
	same("added")
	// c's .gitignore no longer ignores env-old.yml.
	write(t, at("c/.gitignore"), "/d/env-*.txt\n")
	settle(t, at("c/.gitignore"))
	same("gitignore edited")
	if _, out, _ := runTree(t, vars, "validate", root); !strings.Contains(out, "env-old.yml") {
		t.Errorf("after the .gitignore changed, env-old.yml is not validated:\n%s", out)
	}
	// The configuration governing g changes what g's warning does.
	write(t, at("g/.envguard.yml"), "fail_on: error\nrules:\n  EG107: 'off'\n")
	settle(t, at("g/.envguard.yml"))
	same("config changed")
	// Other targets, and other formats: manifests of their own.
	same("targets", "--targets", targets, "--target", "old")
	write(t, targets, strings.Replace(targetsFile, "418.39", "550.54.15", 1))
	same("targets file changed", "--targets", targets, "--target", "old")
	same("json", "--format", "json")
	same("github", "--format", "github")
	same("fail-on", "--fail-on", "warning")
	same("select", "--select", "EG2")
	// A directory given twice: each file printed twice, one entry each,
	// and nothing said about the cache.
	same("twice", root)
	ms := manifests(t, cacheDir)
	if len(ms) != 7 {
		t.Errorf("seven kinds of run left %d manifests", len(ms))
	}
	// SARIF and code quality are one document over all files: no manifest.
	same("sarif", "--format", "sarif")
	same("codequality", "--format", "codequality")
	if n := len(manifests(t, cacheDir)); n != 7 {
		t.Errorf("SARIF and code quality runs left manifests: %d", n)
	}
}

// TestValidateCacheSearchKept: a warm run over an unchanged tree takes the
// last search's answer without listing the directories: a file added with
// its directory's time put back is not found (so the answer is the
// record's), while --no-cache, which searches, finds it.
func TestValidateCacheSearchKept(t *testing.T) {
	root := t.TempDir()
	cacheHome := t.TempDir()
	vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
	write(t, filepath.Join(root, "a", "environment.yml"), warnEnv)
	settleTree(t, root)
	runCLI(t, fakeNoDriver, vars, "validate", root)
	_, _, m, _ := onlyManifest(t, filepath.Join(cacheHome, "envguard"))
	if rec, err := discover.Decode(m.Aux()); err != nil || len(rec.Files()) != 1 {
		t.Fatalf("the manifest's search record: %+v, %v", rec, err)
	}
	dirSt, err := os.Stat(filepath.Join(root, "a"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "a", "env.yml"), errEnv)
	settle(t, filepath.Join(root, "a", "env.yml"))
	if err := os.Chtimes(filepath.Join(root, "a"), dirSt.ModTime(), dirSt.ModTime()); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, fakeNoDriver, vars, "validate", root); code != 0 || strings.Contains(out, "env.yml:") {
		t.Errorf("with the directory's time put back: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", root); code != 1 || !strings.Contains(out, "env.yml:") {
		t.Errorf("--no-cache: exit %d\n%s", code, out)
	}
	// A .gitignore that is a link (some repositories share one) is
	// watched through it: a warm run over it keeps the manifest.
	shared := filepath.Join(t.TempDir(), "gitignore")
	write(t, shared, "*.bak\n")
	if err := os.Symlink(shared, filepath.Join(root, ".gitignore")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	settle(t, shared, root)
	runCLI(t, fakeNoDriver, vars, "validate", root)
	_, _, _, before := onlyManifest(t, filepath.Join(cacheHome, "envguard"))
	runCLI(t, fakeNoDriver, vars, "validate", root)
	if _, _, _, after := onlyManifest(t, filepath.Join(cacheHome, "envguard")); !after.ModTime().Equal(before.ModTime()) {
		t.Error("with a linked .gitignore, a warm run searched again and rewrote the manifest")
	}
	// A directory changed within the racy window is listed again.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(root, "a"), now, now); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, fakeNoDriver, vars, "validate", root); code != 1 || !strings.Contains(out, "env.yml:") {
		t.Errorf("with a recent directory time: exit %d\n%s", code, out)
	}
}

// TestValidateCacheStatOnly: a file whose size and time match its entry,
// safely older than the manifest, is not read (so an edit that keeps both,
// which only a tool resetting the time makes, is not seen: the trade git
// and ruff make); one whose time is as new as the manifest's is read.
func TestValidateCacheStatOnly(t *testing.T) {
	dir := t.TempDir()
	cacheHome := t.TempDir()
	vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
	p := filepath.Join(dir, "environment.yml")
	write(t, p, errEnv)
	ago(t, p, time.Hour)
	st, _ := os.Stat(p)
	_, want, _ := runCLI(t, fakeNoDriver, vars, "validate", p)

	// The same number of bytes, the EG201 pin made to agree, the time
	// put back.
	sameSize := strings.Replace(errEnv, "pytorch-cuda=11.7", "pytorch-cuda=11.8", 1)
	write(t, p, sameSize)
	if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", p); code != 1 || got != want {
		t.Fatalf("size and time kept: exit %d\n%s\nwant the entry's result\n%s", code, got, want)
	}

	// A time no older than the manifest's write (the same clock tick) is
	// not trusted: the file is read, hashed, and judged again.
	_, _, _, mst := onlyManifest(t, filepath.Join(cacheHome, "envguard"))
	if err := os.Chtimes(p, mst.ModTime(), mst.ModTime()); err != nil {
		t.Fatal(err)
	}
	_, fresh, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", p)
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", p); code != 1 || got != fresh || got == want {
		t.Fatalf("racy time: exit %d\n%s\nwant\n%s", code, got, fresh)
	}
}

// TestValidateCacheContentHit: a file touched but unchanged is known by
// its hash, and its entry's result printed without judging it again; the
// entry's time is brought up to date.
func TestValidateCacheContentHit(t *testing.T) {
	dir := t.TempDir()
	cacheHome := t.TempDir()
	cacheDir := filepath.Join(cacheHome, "envguard")
	vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
	p := filepath.Join(dir, "environment.yml")
	write(t, p, errEnv)
	ago(t, p, time.Hour)
	runCLI(t, fakeNoDriver, vars, "validate", p)

	// Plant a result under the file's hash, then touch the file: a run
	// that prints the planted result did not validate it.
	c, k, m, _ := onlyManifest(t, cacheDir)
	e, ok := m.Get(p)
	if !ok || e.Sum != cache.SumOf([]byte(errEnv)) {
		t.Fatalf("entry for %s: %+v, %v", p, e, ok)
	}
	e.Value = []byte("0planted\n")
	if err := c.Save(k, []cache.Record{{Path: p, Entry: e}}, m.Aux()); err != nil {
		t.Fatal(err)
	}
	ago(t, p, time.Minute)
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", p); code != 0 || got != "planted\n" {
		t.Fatalf("touched, same bytes: exit %d, %q", code, got)
	}
	_, _, m, _ = onlyManifest(t, cacheDir)
	st, _ := os.Stat(p)
	if e, _ := m.Get(p); e.ModTime != st.ModTime().UnixNano() {
		t.Errorf("the entry's time was not brought up to date: %d, the file's %d", e.ModTime, st.ModTime().UnixNano())
	}
	// --no-cache validates afresh.
	if code, got, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", p); code != 1 || !strings.Contains(got, "EG201") {
		t.Fatalf("--no-cache: exit %d\n%s", code, got)
	}
}

// TestValidateCacheDamaged: a damaged or unreadable manifest is a miss,
// said nowhere, and the run's results are the same; the run replaces it.
func TestValidateCacheDamaged(t *testing.T) {
	dir := t.TempDir()
	cacheHome := t.TempDir()
	cacheDir := filepath.Join(cacheHome, "envguard")
	vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
	p := filepath.Join(dir, "environment.yml")
	write(t, p, errEnv)
	ago(t, p, time.Hour)
	wcode, want, _ := runCLI(t, fakeNoDriver, vars, "validate", p)
	path := manifests(t, cacheDir)[0]
	for _, damage := range []string{"", "envguard-cache-v2\ngarbage", "not a manifest"} {
		if err := os.WriteFile(path, []byte(damage), 0o644); err != nil {
			t.Fatal(err)
		}
		code, got, errOut := runCLI(t, fakeNoDriver, vars, "validate", p)
		if code != wcode || got != want || errOut != "" {
			t.Fatalf("manifest %q: exit %d\n%s\n%s", damage, code, got, errOut)
		}
		if _, _, m, _ := onlyManifest(t, cacheDir); m.Len() != 1 {
			t.Errorf("manifest %q not rewritten", damage)
		}
	}
}

// TestValidateCacheConcurrentRuns: runs sharing a cache at once each print
// what --no-cache prints, and leave a sound manifest.
func TestValidateCacheConcurrentRuns(t *testing.T) {
	dir := t.TempDir()
	cacheHome := t.TempDir()
	vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
	for i := range 30 {
		write(t, filepath.Join(dir, fmt.Sprintf("p%02d/environment.yml", i)), []string{cleanEnv, warnEnv, errEnv}[i%3])
	}
	_, want, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", dir)
	var wg sync.WaitGroup
	errs := make(chan string, 12)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				var out, errb bytes.Buffer
				e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
					getenv:    func(k string) string { return vars[k] },
					lookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
					local:     fakeNoDriver}
				if code := run([]string{"validate", dir}, e); code != 1 || out.String() != want || errb.Len() != 0 {
					errs <- fmt.Sprintf("exit %d\n%s\n%s", code, out.String(), errb.String())
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if _, _, m, _ := onlyManifest(t, filepath.Join(cacheHome, "envguard")); m.Len() != 30 {
		t.Errorf("manifest holds %d entries, want 30", m.Len())
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

// TestValidateCacheUnsafeDir: a cache directory that group or others can
// write, or that another user owns, is not used: one line on standard
// error says so, as ssh does, and the output and exit code are those of
// --no-cache; nothing is written there (issue 22, N6).
func TestValidateCacheUnsafeDir(t *testing.T) {
	p := filepath.Join(t.TempDir(), "environment.yml")
	write(t, p, errEnv)
	ago(t, p, time.Hour)
	cases := []struct {
		name   string
		spoil  func(dir string) error
		reason string
	}{
		{"writable by others", func(dir string) error { return os.Chmod(dir, 0o777) }, "writable by group or others"},
	}
	if os.Geteuid() == 0 {
		cases = append(cases, []struct {
			name   string
			spoil  func(dir string) error
			reason string
		}{
			// A group of no account: not the user's private group, which
			// may write (internal/cache).
			{"writable by group", func(dir string) error {
				if err := os.Chown(dir, -1, 4242); err != nil {
					return err
				}
				return os.Chmod(dir, 0o770)
			}, "writable by group or others"},
			{"owned by another user", func(dir string) error { return os.Chown(dir, 4242, 4242) }, "owned by uid 4242"},
		}...)
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			cacheHome := t.TempDir()
			dir := filepath.Join(cacheHome, "envguard")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := tt.spoil(dir); err != nil {
				t.Fatal(err)
			}
			vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
			wcode, want, _ := runCLI(t, fakeNoDriver, vars, "validate", "--no-cache", p)
			for range 2 {
				code, got, errOut := runCLI(t, fakeNoDriver, vars, "validate", p)
				if code != wcode || code != 1 || got != want {
					t.Fatalf("exit %d (want %d)\n%s\nwant\n%s", code, wcode, got, want)
				}
				if line := "envguard: not using cache " + dir + ": " + tt.reason + "\n"; errOut != line {
					t.Fatalf("stderr %q, want %q", errOut, line)
				}
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("the unsafe cache was written: %v", ents)
			}
		})
	}
}

// forge rewrites the manifest at path as a forger without the key can: the
// fail bit of the entry whose rendering is out turned from '1' to '0', and
// the trailer recomputed over the rest with sum (as long as the old one).
func forge(t *testing.T, path, out string, size int, sum func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("1"+out))
	if i < 0 {
		t.Fatalf("the rendering is not in %s", path)
	}
	b[i] = '0'
	body := b[:len(b)-size]
	if err := os.WriteFile(path, append(bytes.Clone(body), sum(body)...), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestValidateCacheForged: a manifest edited to say a failing file passes,
// its checksum recomputed (CRC-32, which format v3 trusted, or SHA-256),
// is not read: the run exits 1 as --no-cache does, not 0 (issue 22, N6).
func TestValidateCacheForged(t *testing.T) {
	p := filepath.Join(t.TempDir(), "environment.yml")
	write(t, p, errEnv)
	ago(t, p, time.Hour)
	sums := map[string]func([]byte) []byte{
		"sha256": func(b []byte) []byte { s := sha256.Sum256(b); return s[:] },
		"crc32":  func(b []byte) []byte { return binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b)) },
	}
	// Over the trailer as long as v3's CRC (4 bytes) or as this format's
	// HMAC (32).
	for name, sum := range sums {
		for _, size := range []int{4, 32} {
			t.Run(fmt.Sprintf("%s over %d bytes", name, size), func(t *testing.T) {
				cacheHome := t.TempDir()
				vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
				wcode, want, _ := runCLI(t, fakeNoDriver, vars, "validate", p)
				if wcode != 1 {
					t.Fatalf("cold run: exit %d", wcode)
				}
				m := manifests(t, filepath.Join(cacheHome, "envguard"))[0]
				forge(t, m, want, size, sum)
				code, got, errOut := runCLI(t, fakeNoDriver, vars, "validate", p)
				if code != 1 || got != want || errOut != "" {
					t.Fatalf("forged with %s: exit %d, stderr %q\n%s", name, code, errOut, got)
				}
			})
		}
	}
}

// TestValidateCacheNotAFile: a FIFO in the manifest's place does not hang
// validate (issue 22, N7), and a sparse manifest of 3 GB is not read: the
// run prints what --no-cache prints and puts a manifest back.
func TestValidateCacheNotAFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "environment.yml")
	write(t, p, errEnv)
	ago(t, p, time.Hour)
	for _, tt := range []struct {
		name  string
		plant func(path string) error
	}{
		{"fifo", func(path string) error { return syscall.Mkfifo(path, 0o600) }},
		{"sparse 3 GB", func(path string) error {
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				return err
			}
			return os.Truncate(path, 3<<30)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cacheHome := t.TempDir()
			vars := map[string]string{"XDG_CACHE_HOME": cacheHome}
			wcode, want, _ := runCLI(t, fakeNoDriver, vars, "validate", p)
			m := manifests(t, filepath.Join(cacheHome, "envguard"))[0]
			if err := os.Remove(m); err != nil {
				t.Fatal(err)
			}
			if err := tt.plant(m); err != nil {
				t.Skipf("cannot make one here: %v", err)
			}
			type result struct {
				code        int
				out, errOut string
			}
			done := make(chan result, 1)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			go func() {
				code, out, errOut := runCLI(t, fakeNoDriver, vars, "validate", p)
				done <- result{code, out, errOut}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(2 * time.Minute):
				// A guard against a run that never ends, not a speed bound.
				t.Fatal("validate blocked on the manifest")
			}
			runtime.ReadMemStats(&after)
			if r.code != wcode || r.out != want || r.errOut != "" {
				t.Fatalf("exit %d, stderr %q\n%s", r.code, r.errOut, r.out)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("the run allocated %d bytes", grew)
			}
			if st, err := os.Stat(m); err != nil || !st.Mode().IsRegular() || st.Size() > 1<<20 {
				t.Errorf("the manifest was not put back: %v, %v", st, err)
			}
		})
	}
}
