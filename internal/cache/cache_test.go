package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func open(t *testing.T) *Cache {
	t.Helper()
	c, err := Open(filepath.Join(t.TempDir(), "envguard"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRoundTrip(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("environment.yml").Add([]byte("name: x\n")).Key()
	if _, ok := c.Get(k); ok {
		t.Fatal("hit in an empty cache")
	}
	for _, v := range [][]byte{[]byte("report\n"), {}, bytes.Repeat([]byte{0, 1, 2}, 10000)} {
		if err := c.Put(k, v); err != nil {
			t.Fatal(err)
		}
		got, ok := c.Get(k)
		if !ok || !bytes.Equal(got, v) {
			t.Fatalf("Get = %d bytes, %v; want %d bytes", len(got), ok, len(v))
		}
	}
	// No temporary file is left behind.
	var files []string
	filepath.WalkDir(c.Dir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, filepath.Base(p))
		}
		return nil
	})
	if len(files) != 1 {
		t.Errorf("cache holds %v, want one entry", files)
	}
}

func TestKeyFramesParts(t *testing.T) {
	a := NewKey().AddString("ab").AddString("c").Key()
	b := NewKey().AddString("a").AddString("bc").Key()
	if a == b {
		t.Error(`("ab","c") and ("a","bc") share a key`)
	}
	if a != NewKey().AddString("ab").AddString("c").Key() {
		t.Error("the same parts gave two keys")
	}
}

// TestUnsoundEntriesMiss: whatever is under an entry's name that is not
// the whole entry Put wrote for that key is a miss, and Put repairs it.
func TestUnsoundEntriesMiss(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("k").Key()
	other := NewKey().AddString("other").Key()
	good := encode(k, []byte("value"))
	flipped := bytes.Clone(good)
	flipped[len(Format)+1+len(k)+8] ^= 1 // a bit of the value
	cases := map[string][]byte{
		"empty":          {},
		"truncated":      good[:len(good)-1],
		"value flipped":  flipped,
		"another key":    encode(other, []byte("value")),
		"other format":   append([]byte("envguard-cache-v0\n"), good[len(Format)+1:]...),
		"garbage":        []byte("not an entry at all"),
		"longer":         append(bytes.Clone(good), 'x'),
		"length too big": func() []byte { b := bytes.Clone(good); b[len(Format)+1+len(k)] = 0xff; return b }(),
	}
	for name, b := range cases {
		if err := os.MkdirAll(filepath.Dir(c.path(k)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c.path(k), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if v, ok := c.Get(k); ok {
			t.Errorf("%s: Get trusted it: %q", name, v)
		}
		if err := c.Put(k, []byte("fresh")); err != nil {
			t.Fatal(err)
		}
		if v, ok := c.Get(k); !ok || string(v) != "fresh" {
			t.Errorf("%s: after Put, Get = %q, %v", name, v, ok)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	c := open(t)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := NewKey().AddString(fmt.Sprint(i % 5)).Key()
				want := fmt.Sprintf("value %d", i%5)
				if v, ok := c.Get(k); ok && string(v) != want {
					t.Errorf("worker %d: Get = %q, want %q", w, v, want)
				}
				if err := c.Put(k, []byte(want)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tt := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/envguard"},
		{map[string]string{"HOME": "/h"}, "/h/.cache/envguard"},
		// The XDG specification ignores a relative path.
		{map[string]string{"XDG_CACHE_HOME": "rel", "HOME": "/h"}, "/h/.cache/envguard"},
		{map[string]string{}, ""},
	} {
		if got := Dir(env(tt.vars)); got != filepath.FromSlash(tt.want) {
			t.Errorf("Dir(%v) = %q, want %q", tt.vars, got, tt.want)
		}
	}
	if _, err := Open(""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func FuzzDecode(f *testing.F) {
	k := NewKey().AddString("k").Key()
	f.Add(encode(k, []byte("value")))
	f.Add([]byte(Format + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, ok := decode(b, k)
		if ok && !bytes.Equal(encode(k, v), b) {
			t.Errorf("decode accepted %q, which encode would not write", b)
		}
	})
}
