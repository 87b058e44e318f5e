package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/native"
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
	// 7 libraries asked for, torch's 4 and an extension in each of the 3
	// packages.
	if libs != 14 || py != 20 {
		t.Errorf("%d libraries, %d .py files; want 14 and 20", libs, py)
	}
	// torch's libraries read as ELF with their symbols, and an
	// extension's imports are among their exports.
	c10, err := native.Options{Symbols: true}.ReadFile(filepath.Join(site, "torch", "lib", "libc10.so"))
	if err != nil {
		t.Fatal(err)
	}
	if c10.Type != "shared" || c10.SONAME != "libc10.so" || len(c10.Exports) != 20000 || len(c10.Imports) != 0 {
		t.Errorf("libc10.so: %s, SONAME %q, %d exports, %d imports", c10.Type, c10.SONAME, len(c10.Exports), len(c10.Imports))
	}
	ext, err := native.Options{Symbols: true}.ReadFile(filepath.Join(site, "synthpkg01", "_C.cpython-312-x86_64-linux-gnu.so"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ext.Imports) != 2000 || ext.Needed[0] != "libtorch_cpu.so" || !strings.HasPrefix(ext.Imports[0].Name, "_ZN") {
		t.Errorf("extension: %d imports (%v…), needs %v", len(ext.Imports), ext.Imports[:min(1, len(ext.Imports))], ext.Needed)
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
