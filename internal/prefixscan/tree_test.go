package prefixscan

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver"
)

// settledClock starts the runs of the test an hour from now, so that what
// the test just wrote is old enough for the walk cache to trust (a file
// written in the test has a ctime of now, which nothing can set back).
func settledClock(t *testing.T) {
	t.Helper()
	old := now
	now = func() time.Time { return time.Now().Add(time.Hour) }
	t.Cleanup(func() { now = old })
}

// treePrefix lays out a venv of three packages: libraries in lib/
// directories, .py files beside them, a RECORD for two of the packages.
func treePrefix(t *testing.T) (dir, sp string) {
	t.Helper()
	dir = t.TempDir()
	sp = filepath.Join(dir, "lib", "python3.12", "site-packages")
	fixtures := []string{"sm80.so", "sm90a.so", "ptx120.so"}
	for i := range 3 {
		pkg := fmt.Sprintf("pkg%d", i)
		var rec bytes.Buffer
		for j := range 3 {
			rel := fmt.Sprintf("%s/lib/lib%d%d.so", pkg, i, j)
			copyFixture(t, fixtures[j], filepath.Join(sp, filepath.FromSlash(rel)))
			fmt.Fprintf(&rec, "%s,,\n", rel)
			py := fmt.Sprintf("%s/sub%d/mod.py", pkg, j)
			write(t, filepath.Join(sp, filepath.FromSlash(py)), "x = 1\n")
			fmt.Fprintf(&rec, "%s,,\n", py)
		}
		write(t, filepath.Join(sp, pkg, "README"), "not ELF\n")
		if i < 2 {
			write(t, filepath.Join(sp, "dist"+pkg+"-1.0.dist-info", "RECORD"), rec.String())
		}
	}
	return dir, sp
}

// agree scans dir with the cache, twice, and with none: all three must
// give the same libraries, owners, code and unread notes. It returns the
// walk cache counts of the first cached run, and checks that the second
// read nothing afresh.
func agree(t *testing.T, dir string, c *cache.Cache, step string) (dirs, files, metas int) {
	t.Helper()
	want := sasses(t, Scan(dir, Options{}))
	first := scan(dir, Options{Cache: c})
	if got := sasses(t, first.b); got != want {
		t.Fatalf("%s: cached run:\n got %s\nwant %s", step, got, want)
	}
	second := scan(dir, Options{Cache: c})
	if got := sasses(t, second.b); got != want {
		t.Fatalf("%s: second cached run:\n got %s\nwant %s", step, got, want)
	}
	if r := second.tree.read; r.dirs+r.files+r.metas != 0 {
		t.Errorf("%s: a second run over an unchanged prefix read %+v afresh", step, r)
	}
	r := first.tree.read
	return r.dirs, r.files, r.metas
}

func openCache(t *testing.T) *cache.Cache {
	t.Helper()
	c, err := cache.Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestWalkCache: after a first run, a change reads again only what it
// touched, and every cached run agrees with an uncached one.
func TestWalkCache(t *testing.T) {
	settledClock(t)
	dir, sp := treePrefix(t)
	c := openCache(t)
	if d, f, m := agree(t, dir, c, "first"); d == 0 || f == 0 || m != 2 {
		t.Fatalf("first run read %d directories, %d files, %d records", d, f, m)
	}

	// A library added: its directory is listed again, and the new file
	// sniffed; nothing else.
	copyFixture(t, "sm121.so", filepath.Join(sp, "pkg1", "lib", "libnew.so"))
	if d, f, m := agree(t, dir, c, "library added"); d != 1 || f != 1 || m != 0 {
		t.Errorf("library added: read %d directories, %d files, %d records; want 1, 1, 0", d, f, m)
	}

	if err := os.Remove(filepath.Join(sp, "pkg0", "lib", "lib01.so")); err != nil {
		t.Fatal(err)
	}
	if d, f, m := agree(t, dir, c, "library removed"); d != 1 || f != 0 || m != 0 {
		t.Errorf("library removed: read %d directories, %d files, %d records; want 1, 0, 0", d, f, m)
	}

	// A RECORD replaced by another of the same size with its mtime put
	// back: the ctime tells, and only that record is read (and sniffed:
	// a file without an extension may be ELF).
	rec := filepath.Join(sp, "distpkg0-1.0.dist-info", "RECORD")
	st, err := os.Stat(rec)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(rec)
	repl := bytes.ReplaceAll(old, []byte("pkg0/lib/lib00.so"), []byte("pkg2/lib/lib20.so"))
	if len(repl) != len(old) || bytes.Equal(repl, old) {
		t.Fatal("the replacement RECORD must differ and be of the same size")
	}
	if err := os.WriteFile(rec, repl, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(rec, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if d, f, m := agree(t, dir, c, "RECORD replaced, same size and mtime"); d != 0 || f != 1 || m != 1 {
		t.Errorf("RECORD replaced: read %d directories, %d files, %d records; want 0, 1, 1", d, f, m)
	}
	if b := Scan(dir, Options{Cache: c}); ownerOfRel(b.Libraries, "lib/python3.12/site-packages/pkg2/lib/lib20.so") != "distpkg0" {
		t.Errorf("the replaced RECORD's owner was not taken")
	}

	// A file that was not ELF made a library in place, same size and
	// mtime: found.
	readme := filepath.Join(sp, "pkg2", "README")
	lib := mustRead(t, filepath.Join("..", "..", "native", "testdata", "fatbin", "sm80.so"))
	write(t, readme, string(bytes.Repeat([]byte{'x'}, len(lib))))
	agree(t, dir, c, "README padded")
	st, _ = os.Stat(readme)
	if err := os.WriteFile(readme, lib, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(readme, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if d, f, m := agree(t, dir, c, "README became ELF, same size and mtime"); d != 0 || f != 1 || m != 0 {
		t.Errorf("README became ELF: read %d directories, %d files, %d records; want 0, 1, 0", d, f, m)
	}
	if b := Scan(dir, Options{Cache: c}); ownerOfRel(b.Libraries, "lib/python3.12/site-packages/pkg2/README") != "pkg2" {
		t.Errorf("the library made in place of README was not found")
	}

	// A directory renamed: found under its new name, with the owner its
	// name now gives.
	if err := os.Rename(filepath.Join(sp, "pkg2"), filepath.Join(sp, "renamed")); err != nil {
		t.Fatal(err)
	}
	agree(t, dir, c, "directory renamed")
	b := Scan(dir, Options{Cache: c})
	if ownerOfRel(b.Libraries, "lib/python3.12/site-packages/renamed/lib/lib21.so") != "renamed" ||
		ownerOfRel(b.Libraries, "lib/python3.12/site-packages/pkg2/lib/lib21.so") != "" {
		t.Errorf("renamed directory: %v", sasses(t, b))
	}
	// A package removed whole, its dist-info too.
	for _, p := range []string{filepath.Join(sp, "pkg1"), filepath.Join(sp, "distpkg1-1.0.dist-info")} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	agree(t, dir, c, "package removed")
}

func ownerOfRel(libs []resolver.BinaryLibrary, rel string) string {
	for _, l := range libs {
		if l.Rel == rel {
			if l.Package == "" {
				return "(none)"
			}
			return l.Package
		}
	}
	return ""
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWalkCacheRacy: a record read about when what it records last
// changed is not trusted (the change could have come after the read in
// the same clock tick), so the next run reads it again; one read long
// after is.
func TestWalkCacheRacy(t *testing.T) {
	dir, _ := treePrefix(t)
	c := openCache(t)
	agreeRacy := func() treeCounts {
		first := scan(dir, Options{Cache: c})
		return first.tree.read
	}
	agreeRacy()
	if r := agreeRacy(); r.dirs == 0 || r.files == 0 || r.metas == 0 {
		t.Errorf("a run just after the prefix was written trusted its records: read %+v", r)
	}

	k := native.FileKey{Size: 10, ModTime: 1000, ChangeTime: 2000, Inode: 7, Device: 8}
	at := int64(2000) + int64(cache.RacyWindow)
	if stampOf(k, at).holds(k) {
		t.Error("a ctime RacyWindow before the run's start is not old enough")
	}
	if !stampOf(k, at+1).holds(k) {
		t.Error("a key settled before the run's start did not hold")
	}
	for _, k2 := range []native.FileKey{
		{Size: 11, ModTime: 1000, ChangeTime: 2000, Inode: 7, Device: 8},
		{Size: 10, ModTime: 1001, ChangeTime: 2000, Inode: 7, Device: 8},
		{Size: 10, ModTime: 1000, ChangeTime: 2001, Inode: 7, Device: 8},
		{Size: 10, ModTime: 1000, ChangeTime: 2000, Inode: 9, Device: 8},
		{Size: 10, ModTime: 1000, ChangeTime: 2000, Inode: 7, Device: 9},
	} {
		if stampOf(k, at+1).holds(k2) {
			t.Errorf("record of %+v held for %+v", k, k2)
		}
	}
}

// TestScansInParallel: runs sharing a cache directory, each with the
// cache opened on its own as a process would, leave a manifest that is
// whole and right: each run's answer is an uncached run's of the same
// prefix, and so is the run after them.
func TestScansInParallel(t *testing.T) {
	settledClock(t)
	dir, sp := treePrefix(t)
	cdir := filepath.Join(t.TempDir(), "cache")
	c, err := cache.Open(cdir)
	if err != nil {
		t.Fatal(err)
	}
	want := sasses(t, Scan(dir, Options{}))
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := cache.Open(cdir)
			if err != nil {
				errs <- err.Error()
				return
			}
			for range 5 {
				if got := sasses(t, Scan(dir, Options{Cache: c})); got != want {
					errs <- got
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a parallel run gave\n %s\nwant %s", e, want)
	}
	if m, err := c.Load(manifestKey(dir)); err != nil || m.Len() == 0 {
		t.Fatalf("manifest after parallel runs: %d entries, %v", m.Len(), err)
	}
	copyFixture(t, "sm121.so", filepath.Join(sp, "pkg0", "lib", "libafter.so"))
	agree(t, dir, c, "after parallel runs")
}
