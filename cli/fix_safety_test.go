//go:build unix

package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// lockedWrite runs write on path's file under its exclusive flock, as a
// writer that cooperates with envguard fix does: it locks the file the
// path names once it holds the lock, not one renamed away meanwhile.
func lockedWrite(t *testing.T, path string, write func(f *os.File) error) {
	t.Helper()
	for {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Error(err)
			return
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			t.Error(err)
			return
		}
		st, err1 := f.Stat()
		now, err2 := os.Lstat(path)
		if err1 == nil && err2 == nil && os.SameFile(st, now) {
			if err := write(f); err != nil {
				t.Error(err)
			}
			f.Close()
			return
		}
		f.Close()
	}
}

// TestFixConcurrentWritersLoseNothing runs 20 envguard fixes of one file
// at once with 20 writers that each add their own lines (half read the
// file and write it back whole, half append), three times each. No
// writer's line is lost, and no fix: every line a fix reports fixed is
// fixed in the final file. Before, the fix renamed its text over the file
// unchecked and unlocked: 16 of 40 concurrent edits were lost (N4).
func TestFixConcurrentWritersLoseNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "environment.yml")
	const head = "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - numpy=>1.0  # the first\n"
	if err := os.WriteFile(path, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	const fixers, writers, rounds = 20, 20, 3
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		fixed = map[string]bool{} // packages a fix reported fixed
		start = make(chan struct{})
	)
	reported := regexp.MustCompile(`fixed EG103: conda MatchSpec "(pkg\d+|numpy)=>`)
	for i := range fixers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range rounds {
				code, out, errOut := runFix(t, "", "--platform", "linux-64", path)
				if code != ExitOK && code != ExitFindings {
					t.Errorf("fixer %d: exit %d: %s", i, code, errOut)
					return
				}
				mu.Lock()
				for _, m := range reported.FindAllStringSubmatch(out, -1) {
					fixed[m[1]] = true
				}
				mu.Unlock()
			}
		}()
	}
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for r := range rounds {
				line := fmt.Sprintf("  - pkg%d=>1.%d  # writer %d, round %d\n", i*rounds+r, r, i, r)
				lockedWrite(t, path, func(f *os.File) error {
					if i%2 == 0 {
						_, err := f.Seek(0, io.SeekEnd)
						if err == nil {
							_, err = f.WriteString(line)
						}
						return err
					}
					b, err := io.ReadAll(f)
					if err != nil {
						return err
					}
					return os.WriteFile(path, append(b, line...), 0o644)
				})
			}
		}()
	}
	close(start)
	wg.Wait()

	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	final := string(got)
	if !strings.HasPrefix(final, "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - numpy") {
		t.Fatalf("the file lost its head:\n%s", final)
	}
	for n := range writers * rounds {
		if c := strings.Count(final, fmt.Sprintf("  - pkg%d=>", n)) + strings.Count(final, fmt.Sprintf("  - pkg%d>=", n)); c != 1 {
			t.Errorf("pkg%d is in the file %d times, want once", n, c)
		}
	}
	t.Logf("%d lines fixed by the concurrent fixes", len(fixed))
	if len(fixed) == 0 {
		t.Errorf("no fixer fixed anything: the test tested nothing")
	}
	for name := range fixed {
		if !strings.Contains(final, "  - "+name+">=") {
			t.Errorf("a fix of %s was reported, but the file has lost it", name)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*envguard-fix-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// and what is left unfixed (lines written after the last fix) is
	// fixed by one more run, whole
	if code, _, errOut := runFix(t, "", "--platform", "linux-64", path); code != ExitOK {
		t.Errorf("last fix: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "=>") || strings.Count(string(b), "\n") != 5+writers*rounds {
		t.Errorf("after the last fix:\n%s", b)
	}
}

// A read-only file is refused with exit 2, a message that says what and
// where, and the file unchanged; --force writes it and keeps its mode (N8).
func TestFixRefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "environment.yml")
	const src = "prefix: /opt/conda/envs/x\nname: x\nchannels: [conda-forge]\ndependencies: [numpy]\n"
	if err := os.WriteFile(path, []byte(src), 0o444); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runFix(t, "", path)
	if code != ExitUsage || !strings.Contains(errOut, path+" is read-only (mode 0444): nothing written") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Errorf("a refused file changed: %q", b)
	}
	if code, _, errOut := runFix(t, "", "--force", path); code != ExitOK {
		t.Errorf("--force: exit %d: %s", code, errOut)
	}
	st, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "prefix:") || st.Mode().Perm() != 0o444 {
		t.Errorf("--force: mode %v, %q", st.Mode(), b)
	}
}

// Run as root on another user's 0640 file, fix leaves it that user's,
// with its group and mode; a setgid bit stays too (N5).
func TestFixKeepsOwnerGroupMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give the file to another user")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "environment.yml")
	if err := os.WriteFile(path, []byte("prefix: /opt/conda/envs/x\nname: x\nchannels: [conda-forge]\ndependencies: [numpy]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o640, 0o640 | os.ModeSetgid} {
		if err := os.Chown(path, 1234, 1234); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("prefix: /opt/conda/envs/x\nname: x\nchannels: [conda-forge]\ndependencies: [numpy]\n"), 0); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runFix(t, "", path); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		st, _ := os.Stat(path)
		s := st.Sys().(*syscall.Stat_t)
		if s.Uid != 1234 || s.Gid != 1234 || st.Mode() != mode {
			t.Errorf("after the fix: uid %d gid %d mode %v, want 1234 1234 %v", s.Uid, s.Gid, st.Mode(), mode)
		}
		if b, _ := os.ReadFile(path); strings.Contains(string(b), "prefix:") {
			t.Errorf("not fixed: %q", b)
		}
	}
}

// The files: a BOM before a name to fix (EG501), and a CR-only
// file with an EG201 fix on line 7. Both are fixed (the rename under
// --unsafe), BOM and CRs kept (N9).
func TestFixBOMAndCROnly(t *testing.T) {
	dir := t.TempDir()
	const body = "name: train\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0\n  - pytorch-cuda=11.7\n"
	const fixed = "name: pt20_cu118\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0\n  - pytorch-cuda=11.8\n"
	for name, tt := range map[string][2]string{
		"bom.yml": {"\ufeff" + body, "\ufeff" + fixed},
		"cr.yml":  {strings.ReplaceAll(body, "\n", "\r"), strings.ReplaceAll(fixed, "\n", "\r")},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(tt[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		code, errOut, _ := runFix(t, "", "--unsafe", "--platform", "linux-64", path) // the report is on stdout
		if b, _ := os.ReadFile(path); code != ExitOK || string(b) != tt[1] || !strings.Contains(errOut, "fixed EG501") || !strings.Contains(errOut, "fixed EG201") {
			t.Errorf("%s: exit %d, %q\n%s", name, code, b, errOut)
		}
	}
}
