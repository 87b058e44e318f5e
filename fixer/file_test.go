//go:build unix

package fixer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// envToFix has one safe fix (EG109: the prefix line goes).
const envToFix = "prefix: /opt/conda/envs/x\nname: x\nchannels:\n  - conda-forge\ndependencies:\n  - numpy\n"
const envFixed = "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - numpy\n"

func fileOptions() FileOptions { return FileOptions{MaxSize: 1 << 20} }

func writeEnv(t *testing.T, mode fs.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "environment.yml")
	if err := os.WriteFile(path, []byte(envToFix), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func setHook(t *testing.T, h func(path string, attempt int)) {
	beforeSwap = h
	t.Cleanup(func() { beforeSwap = nil })
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A writer that takes no lock changes the file between envguard's read and
// its write: the change is seen, and the fixes are made again on the new
// text, so neither the writer's line nor the fix is lost (N4).
func TestFixFileRedoesOnChange(t *testing.T) {
	path := writeEnv(t, 0o644)
	setHook(t, func(p string, attempt int) {
		if attempt == 1 {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Error(err)
				return
			}
			fmt.Fprint(f, "  - scipy=>1.2  # written by another tool\n")
			f.Close()
		}
	})
	res, err := FixFile(context.Background(), path, testOptions(false), fileOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := envFixed + "  - scipy>=1.2  # written by another tool\n"
	if got := readString(t, path); got != want || res.Attempts != 2 || !res.Written {
		t.Errorf("attempts %d, file:\n%s\nwant:\n%s", res.Attempts, got, want)
	}
}

// A file that changes under every attempt is refused, and what the other
// writer wrote last is what the file holds.
func TestFixFileRefusesWhatKeepsChanging(t *testing.T) {
	path := writeEnv(t, 0o644)
	last := ""
	setHook(t, func(p string, attempt int) {
		// a rename over the file, as editors save
		last = envToFix + fmt.Sprintf("# saved by an editor, %d\n", attempt)
		tmp := p + ".editor"
		if err := os.WriteFile(tmp, []byte(last), 0o644); err != nil {
			t.Error(err)
		}
		if err := os.Rename(tmp, p); err != nil {
			t.Error(err)
		}
	})
	_, err := FixFile(context.Background(), path, testOptions(false), fileOptions())
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), path+" changed while it was being fixed") || !strings.Contains(err.Error(), "nothing written") {
		t.Fatalf("err %v", err)
	}
	if got := readString(t, path); got != last {
		t.Errorf("file %q, want the other writer's %q", got, last)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*envguard-fix-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Run as root on another user's file, fix keeps its owner, group and mode,
// setuid, setgid and sticky bits included (N5, N8).
func TestFixFileKeepsOwnerAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the file to another user")
	}
	for _, mode := range []fs.FileMode{0o640, 0o640 | fs.ModeSetgid, 0o750 | fs.ModeSetuid | fs.ModeSetgid, 0o664 | fs.ModeSticky} {
		t.Run(mode.String(), func(t *testing.T) {
			path := writeEnv(t, 0o600)
			if err := os.Chown(path, 1234, 1234); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, mode); err != nil { // after chown, which clears setgid
				t.Fatal(err)
			}
			before, _ := os.Stat(path)
			res, err := FixFile(context.Background(), path, testOptions(false), fileOptions())
			if err != nil || !res.Written || res.InPlace != "" {
				t.Fatalf("err %v, result %+v", err, res)
			}
			after, _ := os.Stat(path)
			uid, gid, _ := ids(after)
			if uid != 1234 || gid != 1234 || after.Mode() != before.Mode() {
				t.Errorf("after the fix: uid %d gid %d mode %v, want 1234 1234 %v", uid, gid, after.Mode(), before.Mode())
			}
			if readString(t, path) != envFixed {
				t.Errorf("not fixed")
			}
		})
	}
}

// A read-only file is refused, unchanged, unless Force; forced, its mode
// stays read-only (N8).
func TestFixFileReadOnly(t *testing.T) {
	path := writeEnv(t, 0o444)
	before, _ := os.Stat(path)
	_, err := FixFile(context.Background(), path, testOptions(false), fileOptions())
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), path+" is read-only (mode 0444)") {
		t.Fatalf("err %v", err)
	}
	after, _ := os.Stat(path)
	if readString(t, path) != envToFix || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("a refused file changed")
	}
	fo := fileOptions()
	fo.Force = true
	if res, err := FixFile(context.Background(), path, testOptions(false), fo); err != nil || !res.Written {
		t.Fatalf("--force: err %v", err)
	}
	after, _ = os.Stat(path)
	if readString(t, path) != envFixed || after.Mode().Perm() != 0o444 {
		t.Errorf("--force: mode %v, file %q", after.Mode(), readString(t, path))
	}
}

// A file with two names is written in place: the same inode, so both
// names see the fix and the link count stays 2 (N8).
func TestFixFileHardLink(t *testing.T) {
	path := writeEnv(t, 0o640)
	other := filepath.Join(filepath.Dir(path), "other-name.yml")
	if err := os.Link(path, other); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	res, err := FixFile(context.Background(), path, testOptions(false), fileOptions())
	if err != nil || !res.Written || !strings.Contains(res.InPlace, "2 hard links") {
		t.Fatalf("err %v, result %+v", err, res)
	}
	after, _ := os.Stat(path)
	_, _, n := ids(after)
	if !os.SameFile(before, after) || n != 2 || after.Mode() != before.Mode() {
		t.Errorf("the inode changed, or its links (%d) or mode (%v)", n, after.Mode())
	}
	if readString(t, path) != envFixed || readString(t, other) != envFixed {
		t.Errorf("not both names see the fix")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*envguard-fix-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// a shorter text in place: nothing of the old one is left past its end
	if err := os.WriteFile(path, []byte(envToFix+"# "+strings.Repeat("x", 4000)+"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := FixFile(context.Background(), path, testOptions(false), fileOptions()); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, other); got != envFixed+"# "+strings.Repeat("x", 4000)+"\n" {
		t.Errorf("in place: %d bytes, want %d", len(got), len(envFixed)+4003)
	}
}

// A link is followed: the file it names is fixed, and the link stays.
func TestFixFileSymlink(t *testing.T) {
	path := writeEnv(t, 0o644)
	link := filepath.Join(t.TempDir(), "link.yml")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if _, err := FixFile(context.Background(), link, testOptions(false), fileOptions()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 || readString(t, path) != envFixed {
		t.Errorf("link replaced or target not fixed")
	}
}

// A FIFO is refused at once, not waited on.
func TestFixFileFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "environment.yml")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip(err)
	}
	_, err := FixFile(context.Background(), path, testOptions(false), fileOptions())
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "a FIFO, not a regular file") {
		t.Errorf("err %v", err)
	}
}

// As a user who is not the file's owner: a file the user cannot write, in
// a directory the user can, is refused unless Force; one the user may
// write through its group is written in place, so its owner stays (N8).
// The test binary runs itself as uid 1234.
func TestFixFileAsAnotherUser(t *testing.T) {
	if name := os.Getenv("ENVGUARD_FIX_CHILD"); name != "" {
		fixAsChild(name)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run as another user")
	}
	dir, err := os.MkdirTemp("", "envguard-fix-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil { // writable by the user
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fixer.test")
	if b, err := os.ReadFile(self); err != nil || os.WriteFile(bin, b, 0o755) != nil {
		t.Fatalf("copying the test binary: %v", err)
	}
	run := func(name string, force bool) string {
		cmd := exec.Command(bin, "-test.run=^TestFixFileAsAnotherUser$")
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GOCOVERDIR=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, "ENVGUARD_FIX_CHILD="+name, fmt.Sprintf("ENVGUARD_FIX_FORCE=%v", force), "HOME="+dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 1234, Gid: 1234}}
		out, err := cmd.CombinedOutput()
		if err != nil && cmd.ProcessState == nil && errors.Is(err, fs.ErrPermission) {
			t.Skipf("cannot run the test binary from %s (mounted noexec?): %v", dir, err)
		}
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return string(out)
	}
	mk := func(name string, uid, gid int, mode fs.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(envToFix), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, uid, gid); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}

	theirs := mk("theirs.yml", 0, 0, 0o644)
	if out := run(theirs, false); !strings.Contains(out, "REFUSED "+theirs+" is not writable by you (mode 0644, owner uid 0, group gid 0; you are uid 1234)") {
		t.Errorf("another's file: %s", out)
	}
	if readString(t, theirs) != envToFix {
		t.Errorf("a refused file changed")
	}
	if out := run(theirs, true); !strings.Contains(out, "WRITTEN") || !strings.Contains(out, "the file is now yours") {
		t.Errorf("--force: %s", out)
	}
	if st, _ := os.Stat(theirs); readString(t, theirs) != envFixed || st.Mode().Perm() != 0o644 {
		t.Errorf("--force: not fixed, or mode %v", st.Mode())
	}

	group := mk("group.yml", 0, 1234, 0o664|fs.ModeSetgid)
	before, _ := os.Stat(group)
	if out := run(group, false); !strings.Contains(out, "WRITTEN in place") {
		t.Errorf("group-writable: %s", out)
	}
	after, _ := os.Stat(group)
	uid, gid, _ := ids(after)
	if readString(t, group) != envFixed || !os.SameFile(before, after) || uid != 0 || gid != 1234 {
		t.Errorf("group-writable: fixed %v, same inode %v, uid %d gid %d", readString(t, group) == envFixed, os.SameFile(before, after), uid, gid)
	}
}

func fixAsChild(name string) {
	fo := fileOptions()
	fo.Force = os.Getenv("ENVGUARD_FIX_FORCE") == "true"
	res, err := FixFile(context.Background(), name, testOptions(false), fo)
	switch {
	case errors.Is(err, ErrRefused):
		fmt.Println("REFUSED", err)
	case err != nil:
		fmt.Println("ERROR", err)
	case res.InPlace != "":
		fmt.Println("WRITTEN in place:", res.InPlace)
	default:
		fmt.Println("WRITTEN", res.Notes)
	}
}
