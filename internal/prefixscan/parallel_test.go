package prefixscan

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/resolver"
)

// sasses is each library's package and SASS list, in the scan's order: what
// the verdict is made of.
func sasses(t *testing.T, b *resolver.Binaries) string {
	t.Helper()
	type one struct{ Rel, Package, SASS string }
	var out []one
	for _, l := range b.Libraries {
		out = append(out, one{l.Rel, l.Package, fmt.Sprint(l.Lib.SASS(), l.Lib.PTX())})
	}
	j, err := json.Marshal(struct {
		Libs   []one
		Unread []string
	}{out, b.Unread})
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}

// TestReadPoolAndCacheAgree: more libraries than readers, read by the pool,
// give what a scan with no cache gives, in the walk's order; and each
// change to the prefix (a library added, removed, rewritten, replaced by
// another file of the same size and mtime, a RECORD changed) shows in the
// cached scan exactly as in an uncached one.
func TestReadPoolAndCacheAgree(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	fixtures := []string{"sm80.so", "sm90a.so", "ptx120.so", "multi.so", "sm121.so"}
	var record string
	for i := range 4 * readers {
		rel := fmt.Sprintf("pkg%d/lib/lib%02d.so", i%3, i)
		copyFixture(t, fixtures[i%len(fixtures)], filepath.Join(sp, filepath.FromSlash(rel)))
		if i%2 == 0 {
			record += rel + ",,\n"
		}
	}
	rec := filepath.Join(sp, "owned-1.0.dist-info", "RECORD")
	write(t, rec, record)
	c, err := cache.Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	same := func(step string) {
		t.Helper()
		want := sasses(t, Scan(dir, Options{}))
		for run := range 2 { // a refill, then a hit
			if got := sasses(t, Scan(dir, Options{Cache: c})); got != want {
				t.Fatalf("%s, cached run %d:\n got %s\nwant %s", step, run, got, want)
			}
		}
	}
	same("first")
	if b := Scan(dir, Options{}); len(b.Libraries) != 4*readers || len(b.Unread) != 0 {
		t.Fatalf("%d libraries, unread %v", len(b.Libraries), b.Unread)
	}

	copyFixture(t, "sm100a.so", filepath.Join(sp, "pkg9", "libnew.so"))
	same("library added")
	if err := os.Remove(filepath.Join(sp, "pkg0", "lib", "lib00.so")); err != nil {
		t.Fatal(err)
	}
	same("library removed")
	copyFixture(t, "ptx120.so", filepath.Join(sp, "pkg1", "lib", "lib01.so")) // another size
	same("library rewritten")

	// Same size and mtime, another inode: a reinstall of another build.
	a, b := filepath.Join(sp, "pkg0", "lib", "lib06.so"), filepath.Join(sp, "repl.tmp")
	st, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	copyFixture(t, "sm80.so", b) // sm80.so and sm90a.so are the same size
	if fi, _ := os.Stat(b); fi.Size() != st.Size() {
		t.Fatalf("fixtures differ in size (%d, %d): the test needs two of one size", fi.Size(), st.Size())
	}
	if err := os.Chtimes(b, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	before := sasses(t, Scan(dir, Options{Cache: c}))
	if err := os.Rename(b, a); err != nil {
		t.Fatal(err)
	}
	same("library replaced with the same size and mtime")
	if after := sasses(t, Scan(dir, Options{Cache: c})); after == before {
		t.Error("a file replaced (same size and mtime, another inode) kept its cached result")
	}

	write(t, rec, "pkg1/lib/lib01.so,,\n")
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(rec, later, later); err != nil {
		t.Fatal(err)
	}
	same("RECORD changed")
}
