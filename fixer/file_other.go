//go:build !unix

package fixer

import (
	"fmt"
	"io/fs"
	"os"
	"time"
)

// Without flock(2) and owners, a fix relies on the hash check alone and
// keeps the mode bits the system has.

const openNoFollow = 0

func openLocked(name, path string, _ time.Duration) (*os.File, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, refusedf("%s cannot be read: %v", name, err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, refusedf("%s is not a regular file: envguard fixes files", name)
	}
	return f, st, nil
}

func canWrite(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

func ownerText(fs.FileInfo) string { return "" }

func inPlaceReason(string, fs.FileInfo) string { return "" }

func keepAttrs(tmp *os.File, st fs.FileInfo) string {
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		return fmt.Sprintf("a new file cannot be given its mode %v: %v", st.Mode().Perm(), err)
	}
	return ""
}
