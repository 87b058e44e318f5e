package kbstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// DataDir is envguard's data directory: $XDG_DATA_HOME/envguard, else
// ~/.local/share/envguard; "" where neither variable is set. The
// downloaded layer lives in its kb directory, the learned one in learned.
func DataDir(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "envguard")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "envguard")
	}
	return ""
}

// Dir is where the downloaded layer lives: $XDG_DATA_HOME/envguard/kb, else
// ~/.local/share/envguard/kb; "" where neither variable is set.
func Dir(getenv func(string) string) string {
	if d := DataDir(getenv); d != "" {
		return filepath.Join(d, "kb")
	}
	return ""
}

// Store is the downloaded layer under Root. Root/current is a symbolic
// link to the installed bundle's directory; replacing the link by rename
// is what makes an update atomic: a reader resolves either the old bundle
// or the new one, never a mixture.
type Store struct {
	Root string
}

// ErrNotInstalled: no bundle has been installed.
var ErrNotInstalled = errors.New("no downloaded knowledge base installed")

// Installed reads and re-verifies the installed bundle: a file changed or
// damaged on disk since it was installed is an error, never used.
func (s Store) Installed(keys Keys) (*Bundle, string, error) {
	cur := filepath.Join(s.Root, "current")
	target, err := os.Readlink(cur)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", ErrNotInstalled
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", cur, err)
	}
	if strings.ContainsRune(target, '/') {
		return nil, "", fmt.Errorf("%s: points to %q, outside %s", cur, target, s.Root)
	}
	dir := filepath.Join(s.Root, target)
	mj, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, "", err
	}
	sj, err := os.ReadFile(filepath.Join(dir, "manifest.sig"))
	if err != nil {
		return nil, "", err
	}
	b, err := check(mj, sj, keys, func(name string) ([]byte, bool) {
		d, err := os.ReadFile(filepath.Join(dir, "data", name))
		return d, err == nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", dir, err)
	}
	return b, filepath.Join(dir, "data"), nil
}

// RefusedError is an update that was refused; nothing was changed.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

// Install puts b in place of the installed bundle. validate is given the
// new data directory before the switch (the KB's own validation, as --kb
// DIR does). It refuses a bundle whose serial is not larger than the
// installed one's. Concurrent Installs are serialised by a lock file; on
// any error the installed bundle is untouched.
func (s Store) Install(b *Bundle, keys Keys, validate func(dataDir string) error) error {
	if err := os.MkdirAll(s.Root, 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(s.Root, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock %s: %v", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing releases it too

	old, _, err := s.Installed(keys)
	switch {
	case err == nil:
		if b.Manifest.Serial <= old.Manifest.Serial {
			return &RefusedError{fmt.Sprintf("bundle serial %d (%s) is not newer than the installed %d (%s)", b.Manifest.Serial, b.Manifest.Date, old.Manifest.Serial, old.Manifest.Date)}
		}
	case errors.Is(err, ErrNotInstalled):
	default:
		// A damaged installed bundle may be replaced by a good one.
	}
	tmp, err := os.MkdirTemp(s.Root, ".new-")
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := writeSync(filepath.Join(tmp, "manifest.json"), b.ManifestJSON); err != nil {
		return err
	}
	if err := writeSync(filepath.Join(tmp, "manifest.sig"), b.SigJSON); err != nil {
		return err
	}
	data := filepath.Join(tmp, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		return err
	}
	for name, d := range b.Files {
		if err := writeSync(filepath.Join(data, name), d); err != nil {
			return err
		}
	}
	if err := syncDir(data); err != nil {
		return err
	}
	if err := syncDir(tmp); err != nil {
		return err
	}
	if err := validate(data); err != nil {
		return &RefusedError{fmt.Sprintf("the bundle's data does not validate:\n%v", err)}
	}
	final := filepath.Join(s.Root, fmt.Sprintf("bundle-%d", b.Manifest.Serial))
	if err := os.RemoveAll(final); err != nil { // a leftover of a failed run, never the current one (its serial is smaller)
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	committed = true
	link := filepath.Join(s.Root, ".current.new")
	os.Remove(link)
	if err := os.Symlink(filepath.Base(final), link); err != nil {
		os.RemoveAll(final)
		return err
	}
	prev, _ := os.Readlink(filepath.Join(s.Root, "current"))
	if err := os.Rename(link, filepath.Join(s.Root, "current")); err != nil {
		os.RemoveAll(final)
		return err
	}
	if err := syncDir(s.Root); err != nil {
		return err
	}
	// The previous bundle goes only now that the new one is in place.
	if prev != "" && prev != filepath.Base(final) && !strings.ContainsRune(prev, '/') {
		os.RemoveAll(filepath.Join(s.Root, prev))
	}
	return nil
}

func writeSync(path string, d []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(d); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
