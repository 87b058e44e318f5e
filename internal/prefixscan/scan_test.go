package prefixscan

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/cache"
)

func copyFixture(t *testing.T, name, dst string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "native", "testdata", "fatbin", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A library is its RECORD's package, else its conda record's, else the
// directory it sits in under site-packages.
func TestOwners(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	copyFixture(t, "sm80.so", filepath.Join(sp, "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"))
	write(t, filepath.Join(sp, "flash_attn-2.7.4.post1.dist-info", "RECORD"), "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so,sha256=x,1\n")
	copyFixture(t, "sm90a.so", filepath.Join(sp, "torch", "lib", "libtorch_cuda.so"))
	copyFixture(t, "nocompress.so", filepath.Join(dir, "lib", "libcublas.so.12"))
	write(t, filepath.Join(dir, "conda-meta", "libcublas-12.4.5.8-0.json"), `{"name": "libcublas", "files": ["lib/libcublas.so.12"]}`)
	b := Scan(dir, Options{})
	got := map[string]string{}
	for _, l := range b.Libraries {
		got[l.Rel] = l.Package
	}
	want := map[string]string{
		"lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so": "flash-attn",
		"lib/python3.11/site-packages/torch/lib/libtorch_cuda.so":                        "torch",
		"lib/libcublas.so.12": "libcublas",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: package %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if len(b.Unread) != 0 {
		t.Errorf("unread: %v", b.Unread)
	}
}

// A second scan takes each library from the cache by its key, without
// opening it: one made unreadable after the first scan still reads.
func TestCacheSecondRun(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	lib := filepath.Join(sp, "myext", "_C.so")
	copyFixture(t, "sm80.so", lib)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(lib, old, old); err != nil {
		t.Fatal(err)
	}
	cdir := filepath.Join(t.TempDir(), "cache")
	c, err := cache.Open(cdir)
	if err != nil {
		t.Fatal(err)
	}
	first := Scan(dir, Options{Cache: c})
	if len(first.Libraries) != 1 || len(first.Unread) != 0 {
		t.Fatalf("first scan: %+v", first)
	}
	if err := os.Chmod(lib, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(lib, 0o644) })
	if f, err := os.Open(lib); err == nil {
		f.Close()
		t.Skip("running as root: a file of mode 0 still opens")
	}
	second := Scan(dir, Options{Cache: c})
	if len(second.Libraries) != 1 || len(second.Unread) != 0 {
		t.Fatalf("second scan did not come from the cache: %+v", second)
	}
	if got := second.Libraries[0].Lib.SASS(); len(got) != 1 || got[0].String() != "sm_80" {
		t.Errorf("cached SASS %v", got)
	}
	// A changed file (another size) is read again: here it cannot be.
	if err := os.Chmod(lib, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, []byte("not an ELF"), 0o644); err != nil {
		t.Fatal(err)
	}
	third := Scan(dir, Options{Cache: c})
	if len(third.Libraries) != 0 {
		t.Errorf("a changed file came from the cache: %+v", third.Libraries)
	}
}

// ldCache builds a glibc-ld.so.cache1.1 file of the given entries.
func ldCache(entries [][2]string, flags uint32) []byte {
	var strs bytes.Buffer
	off := newHeaderSize + len(entries)*newEntrySize
	type ent struct{ k, v uint32 }
	var es []ent
	for _, e := range entries {
		k := uint32(off + strs.Len())
		strs.WriteString(e[0] + "\x00")
		v := uint32(off + strs.Len())
		strs.WriteString(e[1] + "\x00")
		es = append(es, ent{k, v})
	}
	var b bytes.Buffer
	b.WriteString(newMagic)
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	le(uint32(len(entries)))
	le(uint32(strs.Len()))
	b.Write(make([]byte, 4+4+12))
	for _, e := range es {
		le(flags)
		le(e.k)
		le(e.v)
		le(uint32(0))
		le(uint64(0))
	}
	b.Write(strs.Bytes())
	return b.Bytes()
}

func TestParseLDCache(t *testing.T) {
	b := ldCache([][2]string{{"libfoo.so.1", "/usr/lib/x86_64-linux-gnu/libfoo.so.1"}, {"libbar.so.2", "/lib64/libbar.so.2"}}, 0x0303)
	es, err := parseLDCache(b)
	if err != nil || len(es) != 2 || es[0].SONAME != "libfoo.so.1" || es[1].Path != "/lib64/libbar.so.2" || es[0].Flags&0xff00 != 0x0300 {
		t.Fatalf("%+v %v", es, err)
	}
	// After an old-format table, 8-aligned.
	old := append([]byte(oldMagic+"\x00"), 1, 0, 0, 0)
	old = append(old, make([]byte, oldEntrySize)...)
	for len(old)%8 != 0 {
		old = append(old, 0)
	}
	if es, err := parseLDCache(append(old, b...)); err != nil || len(es) != 2 {
		t.Errorf("behind the old format: %+v %v", es, err)
	}
	for name, bad := range map[string][]byte{
		"cut header":      b[:30],
		"count too large": append(append([]byte(nil), b[:20]...), append([]byte{0xff, 0xff, 0xff, 0x0f}, b[24:]...)...),
		"string past end": b[:len(b)-5],
		"not a cache":     []byte("hello, world, this is not a cache at all, no no no"),
	} {
		if _, err := parseLDCache(bad); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// This machine's own cache, where it has one, parses.
	if _, err := os.Stat("/etc/ld.so.cache"); err == nil {
		if es, err := readLDCache("/etc/ld.so.cache"); err != nil || len(es) == 0 {
			t.Errorf("/etc/ld.so.cache: %d entries, %v", len(es), err)
		}
	}
}

// A DT_NEEDED found only in ld.so.cache (under the sysroot) resolves.
func TestNeededFromLDCache(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	copyFixture(t, "sm80.so", filepath.Join(sp, "myext", "_C.so")) // needs libcudart.so.13
	root := t.TempDir()
	b := Scan(dir, Options{SysRoot: root})
	if len(b.Libraries) != 1 || len(b.Libraries[0].Missing) == 0 || b.Libraries[0].Missing[0] != "libcudart.so.13" {
		t.Fatalf("an empty sysroot provides nothing: %+v", b.Libraries)
	}
	write(t, filepath.Join(root, "etc", "ld.so.cache"), string(ldCache([][2]string{
		{"libcudart.so.13", "/usr/local/cuda/lib64/libcudart.so.13"}, {"libstdc++.so.6", "/usr/lib/libstdc++.so.6"},
		{"libgcc_s.so.1", "/usr/lib/libgcc_s.so.1"}, {"libc.so.6", "/usr/lib/libc.so.6"}}, 0x0303)))
	b = Scan(dir, Options{SysRoot: root})
	if m := b.Libraries[0].Missing; len(m) != 0 {
		t.Errorf("missing %v with the cache listing them", m)
	}
}
