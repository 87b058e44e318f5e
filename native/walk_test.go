package native

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func copyFixture(t *testing.T, name, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, mustFixture(t, name), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestWalk: shared libraries are found by their magic and their ELF type,
// under any name; links are not followed, so a loop is harmless; a file
// that cannot be read is an error and the walk goes on.
func TestWalk(t *testing.T) {
	root := t.TempDir()
	copyFixture(t, "sm80.so", filepath.Join(root, "lib", "libsm80.so"))
	copyFixture(t, "multi.so", filepath.Join(root, "lib", "python3.12", "site-packages", "pkg", "_C.cpython-312-x86_64-linux-gnu.so"))
	copyFixture(t, "ptx120.so", filepath.Join(root, "lib", "noextension"))
	copyFixture(t, "obj80.o", filepath.Join(root, "lib", "obj80.o"))     // relocatable: not a shared library
	copyFixture(t, "sm90a.so", filepath.Join(root, "lib", "kernels.py")) // never opened: .py
	os.WriteFile(filepath.Join(root, "lib", "libc.so"), []byte("/* GNU ld script */\nGROUP ( libc.so.6 )\n"), 0o644)
	os.WriteFile(filepath.Join(root, "lib", "empty.so"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "lib", "cut.so.1"), []byte("\x7fELF\x02\x01"), 0o644)
	os.Symlink("libsm80.so", filepath.Join(root, "lib", "libsm80.so.1"))
	os.Symlink("..", filepath.Join(root, "lib", "loop"))
	os.Symlink("/nonexistent", filepath.Join(root, "lib", "dangling.so"))
	if os.Geteuid() != 0 {
		locked := filepath.Join(root, "lib", "locked")
		copyFixture(t, "sm80.so", filepath.Join(locked, "libhidden.so"))
		os.Chmod(locked, 0)
		t.Cleanup(func() { os.Chmod(locked, 0o755) })
	}

	var got []string
	err := Walk(root, func(f Found) error {
		rel, _ := filepath.Rel(root, f.Path)
		got = append(got, rel)
		if f.Type != "shared" || f.Key.Size == 0 || f.Key.ModTime == 0 || f.Key.Path != f.Path {
			t.Errorf("%s: %+v", rel, f)
		}
		return nil
	})
	want := []string{"lib/libsm80.so", "lib/noextension", "lib/python3.12/site-packages/pkg/_C.cpython-312-x86_64-linux-gnu.so"}
	if !slices.Equal(got, want) {
		t.Errorf("found %q\nwant %q", got, want)
	}
	if err == nil || !strings.Contains(err.Error(), "cut.so.1: offset 0x0: ELF header truncated: 6 bytes") {
		t.Errorf("the cut ELF file is not reported: %v", err)
	}
	if os.Geteuid() != 0 && !errors.Is(err, os.ErrPermission) {
		t.Errorf("the unreadable directory is not reported: %v", err)
	}
	if os.Geteuid() == 0 {
		t.Log("running as root: the unreadable-directory case is not tried (root reads everything)")
	}

	// A walk through a link to the root keeps the link's name.
	link := filepath.Join(t.TempDir(), "prefix")
	os.Symlink(root, link)
	var viaLink []string
	Walk(link, func(f Found) error { viaLink = append(viaLink, f.Path); return nil })
	if len(viaLink) != 3 || !strings.HasPrefix(viaLink[0], link+string(filepath.Separator)) {
		t.Errorf("through a link: %q", viaLink)
	}

	// fn's error stops the walk.
	stop := errors.New("enough")
	n := 0
	if err := Walk(root, func(Found) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("stop: %v after %d", err, n)
	}
	if err := Walk(filepath.Join(root, "missing"), func(Found) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing root: %v", err)
	}
	if err := Walk(filepath.Join(root, "lib", "libsm80.so"), func(Found) error { return nil }); !errors.Is(err, ErrFormat) {
		t.Errorf("a file as root: %v", err)
	}
}

// TestFileKey: the key changes when the file is replaced.
func TestFileKey(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lib.so")
	copyFixture(t, "sm80.so", p)
	st, _ := os.Stat(p)
	k1 := KeyOf(p, st)
	if k1.Inode == 0 || k1.Size != st.Size() {
		t.Errorf("key %+v", k1)
	}
	os.Remove(p)
	copyFixture(t, "multi.so", p)
	st, _ = os.Stat(p)
	if k2 := KeyOf(p, st); k2 == k1 {
		t.Errorf("replaced file, same key %+v", k2)
	}
}

// TestReadPath: a directory, a package and a file each read as what they
// are; a library that cannot be read is named and the others are kept.
func TestReadPath(t *testing.T) {
	root := t.TempDir()
	for i, name := range []string{"sm80.so", "multi.so", "ptx120.so", "sm90a.so", "sm100f.so", "sm121.so", "mode_size.so", "mode_speed.so", "nocompress.so", "compressall.so"} {
		copyFixture(t, name, filepath.Join(root, "lib", string(rune('a'+i))+"-"+name))
	}
	broken := bytes.Clone(mustFixture(t, "sm80.so"))
	patchSectionSize(t, broken, ".nv_fatbin", 1<<40)
	os.WriteFile(filepath.Join(root, "lib", "broken.so"), broken, 0o644)
	libs, err := ReadPath(root)
	if len(libs) != 10 || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "broken.so: offset 0x") {
		t.Fatalf("%d libraries, %v", len(libs), err)
	}
	for i, l := range libs {
		if i > 0 && libs[i-1].Path >= l.Path {
			t.Errorf("out of order: %s before %s", libs[i-1].Path, l.Path)
		}
	}
	if libs[0].SASS()[0].String() != "sm_80" || libs[4].SASS()[0].String() != "sm_100f" {
		t.Errorf("%v %v", libs[0].SASS(), libs[4].SASS())
	}

	libs, err = ReadPath(filepath.Join("testdata", "pkg", "eg-cuda-1.0-0.tar.bz2"))
	if err != nil || len(libs) != 2 || libs[0].Member != "lib/libmulti.so.1" {
		t.Errorf("package: %d libraries, %v", len(libs), err)
	}
	libs, err = ReadPath(filepath.Join("testdata", "fatbin", "obj80.o"))
	if err != nil || len(libs) != 1 || libs[0].Type != "relocatable" {
		t.Errorf("an object file named: %v %v", libs, err)
	}
	if _, err := ReadPath(filepath.Join(root, "nothing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// TestWalkOrderParallel: a tree wider and deeper than the walkers, walked
// by several goroutines, gives its libraries in filepath.WalkDir's order.
func TestWalkOrderParallel(t *testing.T) {
	root := t.TempDir()
	for i := range 6 {
		for j := range 5 {
			for k := range 3 {
				dir := filepath.Join(root, fmt.Sprintf("p%d", i), fmt.Sprintf("q%d", j))
				if k > 0 {
					dir = filepath.Join(dir, fmt.Sprintf("r%d", k))
				}
				copyFixture(t, "sm80.so", filepath.Join(dir, fmt.Sprintf("lib%d.so", k)))
			}
		}
	}
	var want []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			want = append(want, p)
		}
		return nil
	})
	var got []string
	if err := Walk(root, func(f Found) error { got = append(got, f.Path); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || len(want) != 90 {
		t.Errorf("walk order:\n got %v\nwant %v", got, want)
	}
}

// TestLstatEntry: the walk's own lstat gives, for a file, a directory, a
// link and the root, the key KeyOf gives from os.Lstat and the same kind;
// a path that is gone is os.Lstat's error, naming the path.
func TestLstatEntry(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.so")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(sub, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, sub, link, dir} {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		st, err := lstatEntry(p)
		if err != nil {
			t.Fatalf("lstatEntry(%s): %v", p, err)
		}
		if want := KeyOf(p, fi); st.key != want {
			t.Errorf("lstatEntry(%s).key = %+v, KeyOf = %+v", p, st.key, want)
		}
		if st.dir != fi.IsDir() || st.regular != fi.Mode().IsRegular() {
			t.Errorf("lstatEntry(%s): dir %v regular %v, os.Lstat's mode %v", p, st.dir, st.regular, fi.Mode())
		}
	}
	gone := filepath.Join(dir, "gone")
	_, want := os.Lstat(gone)
	_, err := lstatEntry(gone)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != gone || !errors.Is(err, fs.ErrNotExist) || err.Error() != want.Error() {
		t.Errorf("lstatEntry(gone) = %v, want os.Lstat's %v", err, want)
	}
}
