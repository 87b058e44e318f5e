package kbstore

import (
	"fmt"
	"os"
	"path/filepath"
)

// LearnedDir is where `envguard kb learn` keeps the builds it read:
// $XDG_DATA_HOME/envguard/learned, else ~/.local/share/envguard/learned,
// beside the downloaded layer; "" where neither variable is set.
func LearnedDir(getenv func(string) string) string {
	d := Dir(getenv)
	if d == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(d), "learned")
}

// PutFile writes data as dir/name atomically: into a new temporary file
// of dir (created exclusively, so that no other writer's file is ever
// opened), synced, then renamed into place, and the directory synced. A
// reader sees the old file or the new one, never a part. dir is made
// (0755) where it does not exist. Two writers of one name both succeed,
// the later rename winning: callers name a file by what it holds (a
// learned build's sha256), so that both write the same facts, and a
// writer of another name never touches it.
func PutFile(dir, name string, data []byte) error {
	if name == "" || filepath.Base(name) != name || name[0] == '.' {
		return fmt.Errorf("kbstore: %q is not a plain file name", name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var tmp string
	for i := 0; ; i++ {
		tmp = filepath.Join(dir, fmt.Sprintf(".%s.%d.%d.tmp", name, os.Getpid(), i))
		err := writeSync(tmp, data)
		if err == nil {
			break
		}
		if !os.IsExist(err) || i >= 100 {
			return err
		}
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}
