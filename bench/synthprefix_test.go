package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The synthetic venv holds what was asked, and each RECORD lists its
// package's files.
func TestSynthPrefix(t *testing.T) {
	prefix, lib, err := synthPrefix("..", t.TempDir(), 3, 7, 20)
	if err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(prefix, "lib", "python3.12", "site-packages")
	var libs, py int
	_ = filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			t.Error(err)
		case strings.HasSuffix(p, ".so"):
			libs++
		case strings.HasSuffix(p, ".py"):
			py++
		}
		return nil
	})
	if libs != 7 || py != 20 {
		t.Errorf("%d libraries, %d .py files; want 7 and 20", libs, py)
	}
	if _, err := os.Stat(lib); err != nil {
		t.Errorf("the inspect row's library: %v", err)
	}
	rec, err := os.ReadFile(filepath.Join(site, "synthpkg01-1.0.dist-info", "RECORD"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rec), "synthpkg01/lib/libsynth0001.so,,") || strings.Contains(string(rec), "synthpkg00/") {
		t.Errorf("RECORD of synthpkg01:\n%s", rec)
	}
}
