//go:build unix

package envspec

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A prefix whose files are not files — a FIFO in conda-meta/, records and
// metadata that are links to /dev/zero — is read without blocking and
// without reading forever: those files are skipped, the real ones read
// (issue 11: `check --prefix` hung on a FIFO and read /dev/zero forever).
func TestReadPrefixFilesThatAreNotFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	meta := filepath.Join(dir, "conda-meta")
	writeFile(t, filepath.Join(meta, "numpy-1.26.4-py311_0.json"), condaMetaJSON("numpy", "1.26.4", "py311_0", "https://conda.anaconda.org/conda-forge", "linux-64", 3))
	if err := syscall.Mkfifo(filepath.Join(meta, "fifo-1.0-0.json"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	for _, link := range []string{
		filepath.Join(meta, "zero-1.0-0.json"),
		filepath.Join(dir, "pyvenv.cfg"),
	} {
		if err := os.Symlink("/dev/zero", link); err != nil {
			t.Fatal(err)
		}
	}
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	writeFile(t, filepath.Join(sp, "torch", "__init__.py"), "")
	if err := os.Symlink("/dev/zero", filepath.Join(sp, "torch", "version.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(sp, "evil-1.0.dist-info"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"METADATA", "INSTALLER", "direct_url.json"} {
		if err := os.Symlink("/dev/zero", filepath.Join(sp, "evil-1.0.dist-info", f)); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan *Env, 1)
	go func() {
		env, err := ReadPrefix(dir)
		if err != nil {
			t.Error(err)
		}
		done <- env
	}()
	select {
	case env := <-done:
		if env == nil {
			return
		}
		if len(env.Deps) != 1 || env.Deps[0].Installed.Name != "numpy" {
			t.Errorf("read %d conda records, want numpy alone", len(env.Deps))
		}
		if env.Torch != nil || len(env.Pip) != 0 {
			t.Errorf("read torch %v and %d pip records from /dev/zero", env.Torch, len(env.Pip))
		}
		// Each is a note, so that check's verdict says it could not see
		// them (issue 22, N10).
		notes := strings.Join(env.Notes, "\n")
		for _, want := range []string{
			"fifo-1.0-0.json left out: it is a FIFO, not a regular file",
			"zero-1.0-0.json left out: it is a device, not a regular file",
			"pyvenv.cfg left out: it is a device",
			"version.py left out: it is a device",
			"evil-1.0.dist-info left out: its METADATA is a device",
		} {
			if !strings.Contains(notes, want) {
				t.Errorf("no note %q in\n%s", want, notes)
			}
		}
	case <-time.After(time.Minute):
		// A guard against a read that never ends, not a bound on speed.
		t.Fatal("ReadPrefix blocked on a FIFO or read /dev/zero")
	}
}

// readPrefixGuarded is ReadPrefix, failing the test if it has not returned
// in a minute (a guard against a read that blocks, not a speed bound).
func readPrefixGuarded(t *testing.T, dir string) *Env {
	t.Helper()
	type result struct {
		env *Env
		err error
	}
	done := make(chan result, 1)
	go func() { env, err := ReadPrefix(dir); done <- result{env, err} }()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.env
	case <-time.After(time.Minute):
		t.Fatal("ReadPrefix blocked")
	}
	return nil
}

// unreadablePrefix is a venv whose every file envguard reads is there and
// sound: torch from pip with its version.py, a package installed from a
// URL, and a conda-meta record.
func unreadablePrefix(t *testing.T) (dir, sp string) {
	dir = t.TempDir()
	writeFile(t, filepath.Join(dir, "pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.8\n")
	writeFile(t, filepath.Join(dir, "conda-meta", "numpy-1.26.4-py311_0.json"), condaMetaJSON("numpy", "1.26.4", "py311_0", "https://conda.anaconda.org/conda-forge", "linux-64", 3))
	sp = filepath.Join(dir, "lib", "python3.11", "site-packages")
	distInfo(t, sp, "torch", "2.5.1+cu124", "pip", "")
	distInfo(t, sp, "local", "0.1", "pip", "file:///src/local")
	writeFile(t, filepath.Join(sp, "torch", "version.py"), "__version__ = '2.5.1+cu124'\ncuda = '12.4'\n")
	return dir, sp
}

// TestReadPrefixUnreadableIsANote: every file of a prefix that cannot be
// read (permission denied, which tests running as root can only fake
// through openFile and readDir; a FIFO; a directory in a file's place; a
// file over its size bound) is a note naming it and saying why, and
// nothing is taken from it (issue 22, N10: an unreadable site-packages or
// torch/version.py was skipped in silence, and check said OK where the
// readable prefix gives STOP).
func TestReadPrefixUnreadableIsANote(t *testing.T) {
	dir, sp := unreadablePrefix(t)
	if env := readPrefixGuarded(t, dir); len(env.Notes) != 0 || env.Torch == nil || len(env.Pip) != 2 || len(env.Deps) != 1 || env.PythonVersion != "3.11.8" {
		t.Fatalf("the sound prefix: notes %q, torch %v, %d pip, %d conda, python %q", env.Notes, env.Torch, len(env.Pip), len(env.Deps), env.PythonVersion)
	}
	files := map[string]string{
		"site-packages":    sp,
		"torch/version.py": filepath.Join(sp, "torch", "version.py"),
		"METADATA":         filepath.Join(sp, "torch-2.5.1+cu124.dist-info", "METADATA"),
		"INSTALLER":        filepath.Join(sp, "torch-2.5.1+cu124.dist-info", "INSTALLER"),
		"direct_url.json":  filepath.Join(sp, "local-0.1.dist-info", "direct_url.json"),
		"conda-meta":       filepath.Join(dir, "conda-meta", "numpy-1.26.4-py311_0.json"),
		"pyvenv.cfg":       filepath.Join(dir, "pyvenv.cfg"),
	}
	// What is lost with each, besides the note.
	lost := func(what string, env *Env) bool {
		switch what {
		case "site-packages":
			return env.Torch == nil && len(env.Pip) == 0
		case "torch/version.py":
			return env.Torch == nil
		case "METADATA", "INSTALLER":
			return len(env.Pip) == 1 && env.Pip[0].Installed.Name == "local"
		case "direct_url.json":
			return len(env.Pip) == 1 && env.Pip[0].Installed.Name == "torch"
		case "conda-meta":
			return len(env.Deps) == 0
		case "pyvenv.cfg":
			return env.PythonVersion == ""
		}
		return false
	}
	check := func(t *testing.T, what, path, why string) {
		t.Helper()
		env := readPrefixGuarded(t, dir)
		if len(env.Notes) != 1 || !strings.Contains(env.Notes[0], why) {
			t.Errorf("%s: notes %q, want one saying %q", what, env.Notes, why)
		}
		if len(env.Notes) == 1 && !strings.Contains(env.Notes[0], filepath.Dir(path)) {
			t.Errorf("%s: the note does not say where: %q", what, env.Notes[0])
		}
		if !lost(what, env) {
			t.Errorf("%s: something was taken from it: torch %v, %d pip, %d conda, python %q", what, env.Torch, len(env.Pip), len(env.Deps), env.PythonVersion)
		}
	}
	t.Run("permission denied", func(t *testing.T) {
		for what, path := range files {
			deny := func(p string) bool { return p == path }
			open, list := openFile, readDir
			openFile = func(p string) (*os.File, error) {
				if deny(p) {
					return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
				}
				return open(p)
			}
			readDir = func(p string) ([]os.DirEntry, error) {
				if deny(p) {
					return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EACCES}
				}
				return list(p)
			}
			why := "could not be read: permission denied"
			if what == "site-packages" {
				why = "could not be listed: permission denied"
			}
			check(t, what, path, why)
			openFile, readDir = open, list
		}
	})
	// Each shape put in each file's place, and the file put back after.
	shapes := []struct {
		name  string
		plant func(path string) error
		why   string
	}{
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "is a FIFO, not a regular file"},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }, "a directory"},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			for what, path := range files {
				if what == "site-packages" || what == "pyvenv.cfg" {
					continue // not a prefix or not a directory without them
				}
				saved, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				os.Remove(path)
				if err := sh.plant(path); err != nil {
					t.Fatal(err)
				}
				check(t, what, path, sh.why)
				os.Remove(path)
				writeFile(t, path, string(saved))
			}
		})
	}
	t.Run("site-packages a FIFO", func(t *testing.T) {
		if err := os.Rename(sp, sp+".real"); err != nil {
			t.Fatal(err)
		}
		defer os.Rename(sp+".real", sp)
		if err := syscall.Mkfifo(sp, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(sp)
		check(t, "site-packages", sp, "could not be listed: not a directory")
	})
	t.Run("over the size bound", func(t *testing.T) {
		for what, limit := range map[string]int64{"torch/version.py": maxSmallFile, "conda-meta": maxMetaFile, "INSTALLER": maxSmallFile} {
			path := files[what]
			saved, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// Sparse: the size is refused before a byte is read.
			if err := os.Truncate(path, limit+1); err != nil {
				t.Fatal(err)
			}
			check(t, what, path, fmt.Sprintf("is larger than %d bytes", limit))
			writeFile(t, path, string(saved))
		}
	})
}

// condaRecord writes a record in conda's layout (sorted keys, two-space
// indent).
func condaRecord(fields map[string]any) string {
	b, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// allocatedBy is the bytes f allocates on the Go heap.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadPrefixHostileStrings: records whose strings are megabytes long
// (a conda-meta record of 30 MB strings cost 7.6 s and 370 MB; a 1 MB
// __version__ reached the verdict, issue 22 N11) are left out with a
// short note, at the cost of reading them: allocations stay within a small
// multiple of the file (the buffer it is read into), never a copy per
// string.
func TestReadPrefixHostileStrings(t *testing.T) {
	big := strings.Repeat("x", 30<<20)
	cf := "https://conda.anaconda.org/conda-forge"
	cases := []struct {
		name, file string
		content    func() string
		why        string
	}{
		{"conda-meta name of 30 MB", "conda-meta/p-1.0-0.json", func() string { return condaRecord(map[string]any{"name": "p" + big, "version": "1.0", "build": "0"}) }, "its name is longer than 214 bytes"},
		{"conda-meta version and build of 30 MB", "conda-meta/p-1.0-0.json", func() string { return condaRecord(map[string]any{"name": "p", "version": "1." + big, "build": big}) }, "is longer than"},
		{"conda-meta url of 30 MB, escaped", "conda-meta/p-1.0-0.json", func() string {
			return "{\n  \"name\": \"p\",\n  \"url\": \"" + strings.Repeat("\\u0041", 5<<20) + "\",\n  \"version\": \"1.0\"\n}\n"
		}, "its url is longer than 2048 bytes"},
		{"conda-meta minified, 30 MB", "conda-meta/p-1.0-0.json", func() string { return `{"name":"p","version":"1.0","build":"` + big + `"}` }, "not in conda's layout"},
		{"conda-meta version just over", "conda-meta/p-1.0-0.json", func() string {
			return condaMetaJSON("p", "1."+strings.Repeat("9", maxVersionBytes-1), "0", cf, "linux-64", 1)
		}, "its version is 129 bytes, over the limit of 128"},
		{"conda-meta minified version just over", "conda-meta/p-1.0-0.json", func() string { return `{"name":"p","version":"1.` + strings.Repeat("9", maxVersionBytes-1) + `"}` }, "its version is 129 bytes, over the limit of 128"},
		{"METADATA Name of 1 MB", "lib/python3.11/site-packages/p-1.0.dist-info/METADATA", func() string { return "Metadata-Version: 2.1\nName: " + big[:1<<20-100] + "\nVersion: 1.0\n\n" }, "over the limit of 214"},
		{"METADATA Version of 1 MB", "lib/python3.11/site-packages/p-1.0.dist-info/METADATA", func() string { return "Metadata-Version: 2.1\nName: p\nVersion: 1." + big[:1<<20-100] + "\n\n" }, "over the limit of 128"},
		{"METADATA header of 30 MB", "lib/python3.11/site-packages/p-1.0.dist-info/METADATA", func() string {
			return strings.Repeat("Classifier: "+big[:1000]+"\n", 30<<10) + "Name: p\nVersion: 1.0\n\n"
		}, "names no package in its header"},
		{"METADATA line of 30 MB", "lib/python3.11/site-packages/p-1.0.dist-info/METADATA", func() string { return "Summary: " + big + "\nName: p\n\n" }, "could not be read"},
		{"torch __version__ of 1 MB", "lib/python3.11/site-packages/torch/version.py", func() string { return "__version__ = '2.5.1+" + big[:1<<20-100] + "'\ncuda = '12.4'\n" }, "gives a __version__ of"},
		{"pyvenv.cfg version of 1 MB", "pyvenv.cfg", func() string { return "version = 3." + strings.Repeat("1", 1<<20-100) + "\n" }, "gives a version of"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.file != "pyvenv.cfg" {
				writeFile(t, filepath.Join(dir, "pyvenv.cfg"), "version = 3.11.8\n")
			}
			content := tt.content()
			writeFile(t, filepath.Join(dir, filepath.FromSlash(tt.file)), content)
			var env *Env
			grew := allocatedBy(func() { env = readPrefixGuarded(t, dir) })
			if len(env.Notes) != 1 || !strings.Contains(env.Notes[0], tt.why) {
				t.Fatalf("notes %.300q, want one saying %q", env.Notes, tt.why)
			}
			if n := len(env.Notes[0]); n > maxNoteBytes {
				t.Errorf("a note of %d bytes", n)
			}
			if len(env.Deps) != 0 || len(env.Pip) != 0 || env.Torch != nil {
				t.Errorf("the record was taken: %d conda, %d pip, torch %v", len(env.Deps), len(env.Pip), env.Torch)
			}
			// The read buffer is the file and a quarter; anything near a
			// copy of each string on top of it is over.
			if limit := uint64(len(content))*3/2 + 4<<20; grew > limit {
				t.Errorf("allocated %d bytes for a file of %d (limit %d)", grew, len(content), limit)
			}
			t.Logf("a file of %d bytes: %d allocated, notes %d bytes", len(content), grew, len(env.Notes[0]))
		})
	}
	// At the bounds, a record is taken.
	dir := t.TempDir()
	name, version := "p"+strings.Repeat("q", maxNameBytes-1), "1."+strings.Repeat("9", maxVersionBytes-2)
	writeFile(t, filepath.Join(dir, "conda-meta", "p-1.0-0.json"), condaMetaJSON(name, version, "0", cf, "linux-64", 1))
	if env := readPrefixGuarded(t, dir); len(env.Notes) != 0 || len(env.Deps) != 1 || env.Deps[0].Installed.Version != version {
		t.Errorf("a record at the bounds: notes %q, %d records", env.Notes, len(env.Deps))
	}
}

// TestReadPrefixNotesBounded: a prefix of hundreds of unreadable records
// says so in a bounded number of notes, the last counting the rest.
func TestReadPrefixNotesBounded(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "conda-meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if err := os.Mkdir(filepath.Join(dir, "conda-meta", fmt.Sprintf("p%d-1.0-0.json", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := readPrefixGuarded(t, dir)
	if len(env.Notes) != maxNotes || env.Notes[maxNotes-1] != fmt.Sprintf("and %d more left out", 300-(maxNotes-1)) {
		t.Errorf("%d notes, the last %q", len(env.Notes), env.Notes[len(env.Notes)-1])
	}
}

// FuzzReadPrefixFiles puts the same bytes in every file of a prefix that
// ReadPrefix reads: it never fails on what they hold, what it takes stays
// within its bounds, and what it leaves out is a short note.
func FuzzReadPrefixFiles(f *testing.F) {
	f.Add([]byte(condaMetaJSON("numpy", "1.26.4", "py311_0", "https://conda.anaconda.org/conda-forge", "linux-64", 2)))
	f.Add([]byte(`{"name":"x","version":"1","build":"0"}`))
	f.Add([]byte("Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu124\n\nbody\n"))
	f.Add([]byte("__version__ = '2.5.1+cu124'\ncuda: Optional[str] = '12.4'\n"))
	f.Add([]byte("home = /usr/bin\nversion = 3.11.4\n"))
	f.Add([]byte("{\n  \"name\": \"a\\u0041\",\n  \"version\": \"1\\\"\"\n}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
		for _, p := range []string{
			filepath.Join(dir, "pyvenv.cfg"),
			filepath.Join(dir, "conda-meta", "p-1.0-0.json"),
			filepath.Join(sp, "p-1.0.dist-info", "METADATA"),
			filepath.Join(sp, "p-1.0.dist-info", "INSTALLER"),
			filepath.Join(sp, "p-1.0.dist-info", "direct_url.json"),
			filepath.Join(sp, "torch", "version.py"),
		} {
			writeFile(t, p, string(b))
		}
		env, err := ReadPrefix(dir)
		if err != nil {
			t.Fatalf("ReadPrefix: %v", err)
		}
		if len(env.Notes) > maxNotes {
			t.Errorf("%d notes", len(env.Notes))
		}
		for _, n := range env.Notes {
			if len(n) > maxNoteBytes {
				t.Errorf("a note of %d bytes", len(n))
			}
		}
		for _, d := range env.Deps {
			in := d.Installed
			if len(in.Name) > maxNameBytes || len(in.Version) > maxVersionBytes || len(in.Build) > maxBuildBytes || len(in.Subdir) > maxSubdirBytes || len(in.Channel) > maxURLBytes {
				t.Errorf("a record past the bounds: %.100q", in.Name)
			}
		}
		for _, d := range env.Pip {
			in := d.Installed
			if len(in.Name) > maxNameBytes || len(in.Version) > maxVersionBytes || len(in.Installer) > maxInstallerBytes || len(in.DirectURL) > maxURLBytes {
				t.Errorf("a distribution past the bounds: %.100q", in.Name)
			}
		}
		if env.Torch != nil && (len(env.Torch.Version) > maxVersionBytes || len(env.Torch.CUDA) > maxVersionBytes) {
			t.Errorf("torch past the bounds: %.100q", env.Torch.Version)
		}
		if len(env.PythonVersion) > maxVersionBytes {
			t.Errorf("python %.100q", env.PythonVersion)
		}
	})
}
