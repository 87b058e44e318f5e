package kbstore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestLearnedDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d := LearnedDir(env(map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"})); d != filepath.Join("/x", "envguard", "learned") {
		t.Errorf("XDG_DATA_HOME: %s", d)
	}
	if d := LearnedDir(env(map[string]string{"HOME": "/h"})); d != filepath.Join("/h", ".local", "share", "envguard", "learned") {
		t.Errorf("HOME: %s", d)
	}
	if d := LearnedDir(env(nil)); d != "" {
		t.Errorf("neither: %q", d)
	}
}

// TestPutFileConcurrent: writers of many names at once each leave their
// file whole; writers of one name leave one writer's bytes, never a mix;
// no temporary file is left behind.
func TestPutFileConcurrent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "learned")
	var wg sync.WaitGroup
	contents := map[int][]byte{}
	for i := range 16 {
		contents[i] = bytes.Repeat([]byte{byte('a' + i)}, 64<<10)
	}
	errs := make(chan error, 64)
	for i := range 16 {
		for _, name := range []string{fmt.Sprintf("own-%d.yaml", i), "shared.yaml"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- PutFile(dir, name, contents[i])
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range 16 {
		got, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("own-%d.yaml", i)))
		if err != nil || !bytes.Equal(got, contents[i]) {
			t.Errorf("own-%d.yaml: %v, %d bytes", i, err, len(got))
		}
	}
	shared, _ := os.ReadFile(filepath.Join(dir, "shared.yaml"))
	whole := false
	for _, c := range contents {
		whole = whole || bytes.Equal(shared, c)
	}
	if !whole {
		t.Errorf("shared.yaml is no one writer's bytes (%d bytes)", len(shared))
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 17 {
		t.Errorf("%d entries, want 17 (temporary files left?)", len(ents))
	}
	for _, bad := range []string{"", "../x.yaml", "a/b.yaml", ".hidden"} {
		if err := PutFile(dir, bad, nil); err == nil {
			t.Errorf("PutFile(%q) wrote", bad)
		}
	}
}
