package cache

import (
	"path/filepath"
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
