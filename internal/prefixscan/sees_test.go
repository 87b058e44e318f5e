package prefixscan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWalkCacheSeesChanges: each change a second run must see, on a
// prefix whose first run filled the cache, is seen, and the cached runs
// agree with an uncached one (agree). The cache skips re-reading a
// directory whose key (mtime, ctime, inode, device) is unchanged, and
// still lstats every candidate file: so a file rewritten in place, which
// leaves its directory's key alone, is seen by its own key, and a
// directory whose mtime was put back after an entry was added is seen by
// its ctime.
func TestWalkCacheSeesChanges(t *testing.T) {
	settledClock(t)
	pad := func(t *testing.T, name string, n int) []byte {
		b := mustRead(t, filepath.Join("..", "..", "native", "testdata", "fatbin", name))
		if len(b) > n {
			t.Fatalf("%s is %d bytes, over %d", name, len(b), n)
		}
		return append(b, make([]byte, n-len(b))...) // zeros after an ELF file change nothing it says
	}
	lib := "lib/python3.12/site-packages/pkg0/lib/"
	cases := []struct {
		name   string
		change func(t *testing.T, sp string)
		// want are "rel SASS" lines that must be in the second run's
		// libraries, gone rels that must not.
		want []string
		gone []string
	}{
		{"library added", func(t *testing.T, sp string) {
			copyFixture(t, "sm121.so", filepath.Join(sp, "pkg0", "lib", "libadded.so"))
		}, []string{lib + "libadded.so [sm_121]"}, nil},
		{"library removed", func(t *testing.T, sp string) {
			must(t, os.Remove(filepath.Join(sp, "pkg0", "lib", "lib00.so")))
		}, nil, []string{lib + "lib00.so"}},
		{"library renamed in its directory", func(t *testing.T, sp string) {
			must(t, os.Rename(filepath.Join(sp, "pkg0", "lib", "lib00.so"), filepath.Join(sp, "pkg0", "lib", "libmoved.so")))
		}, []string{lib + "libmoved.so [sm_80]"}, []string{lib + "lib00.so"}},
		{"library rewritten in place, same size and mtime", func(t *testing.T, sp string) {
			p := filepath.Join(sp, "pkg0", "lib", "lib00.so")
			st, err := os.Stat(p)
			must(t, err)
			must(t, os.WriteFile(p, pad(t, "sm90a.so", 1<<16), 0o644))
			must(t, os.Chtimes(p, st.ModTime(), st.ModTime()))
		}, []string{lib + "lib00.so [sm_90a]"}, nil},
		{"new subdirectories with a library", func(t *testing.T, sp string) {
			copyFixture(t, "sm121.so", filepath.Join(sp, "pkg0", "lib", "new", "deeper", "libdeep.so"))
		}, []string{lib + "new/deeper/libdeep.so [sm_121]"}, nil},
		{"library added, its directory's mtime put back", func(t *testing.T, sp string) {
			d := filepath.Join(sp, "pkg0", "lib")
			st, err := os.Stat(d)
			must(t, err)
			copyFixture(t, "sm121.so", filepath.Join(d, "libhidden.so"))
			must(t, os.Chtimes(d, st.ModTime(), st.ModTime()))
		}, []string{lib + "libhidden.so [sm_121]"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, sp := treePrefix(t)
			// lib00.so starts padded, so that the rewrite keeps its size.
			must(t, os.WriteFile(filepath.Join(sp, "pkg0", "lib", "lib00.so"), pad(t, "sm80.so", 1<<16), 0o644))
			c := openCache(t)
			agree(t, dir, c, "before")
			tc.change(t, sp)
			agree(t, dir, c, tc.name)
			got := map[string]string{}
			for _, l := range Scan(dir, Options{Cache: c}).Libraries {
				var sass []string
				for _, s := range l.Lib.SASS() {
					sass = append(sass, s.String())
				}
				got[l.Rel] = l.Rel + " [" + strings.Join(sass, " ") + "]"
			}
			for _, w := range tc.want {
				rel, _, _ := strings.Cut(w, " ")
				if got[rel] != w {
					t.Errorf("got %q, want %q", got[rel], w)
				}
			}
			for _, g := range tc.gone {
				if _, ok := got[g]; ok {
					t.Errorf("%s still found", g)
				}
			}
			// The saved walk cache holds no record of what is gone.
			m, err := c.Load(manifestKey(dir))
			must(t, err)
			st, err := decodeTree(m.Aux())
			must(t, err)
			for _, g := range tc.gone {
				if _, ok := st.files[g]; ok {
					t.Errorf("the walk cache still records %s", g)
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestUnreadOrder: the owners are read while the tree is walked, and an
// unreadable RECORD's note still comes before the walk's, as when the two
// ran one after the other.
func TestUnreadOrder(t *testing.T) {
	dir, sp := treePrefix(t)
	must(t, os.MkdirAll(filepath.Join(sp, "bad-1.0.dist-info", "RECORD"), 0o755)) // a RECORD that cannot be read
	write(t, filepath.Join(sp, "pkg0", "lib", "libcut.so"), "\x7fELF\x02")        // an ELF header cut short
	for _, c := range []bool{false, true} {
		o := Options{}
		if c {
			o.Cache = openCache(t)
		}
		b := Scan(dir, o)
		if len(b.Unread) != 2 || !strings.Contains(b.Unread[0], "bad-1.0.dist-info") || !strings.Contains(b.Unread[1], "libcut.so") {
			t.Errorf("cache %v: unread %q; want the RECORD's note, then the library's", c, b.Unread)
		}
	}
}
