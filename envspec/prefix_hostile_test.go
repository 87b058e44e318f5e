//go:build unix

package envspec

import (
	"os"
	"path/filepath"
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
	case <-time.After(5 * time.Second):
		t.Fatal("ReadPrefix blocked on a FIFO or read /dev/zero")
	}
}
