package fixer

import (
	"errors"
	"os"
	"syscall"
)

// reserve allocates n bytes for f without changing its size, so that an
// in-place write does not run out of space half way. A file system that
// cannot (EOPNOTSUPP) leaves the temporary copy as the proof of space.
func reserve(f *os.File, n int64) error {
	const keepSize = 0x01 // FALLOC_FL_KEEP_SIZE
	rc, err := f.SyscallConn()
	if err != nil || n == 0 {
		return nil
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = syscall.Fallocate(int(fd), keepSize, 0, n) }); err != nil {
		return nil
	}
	if errors.Is(ferr, syscall.ENOSPC) || errors.Is(ferr, syscall.EDQUOT) {
		return ferr
	}
	return nil
}

// hasACL says whether path carries a POSIX access ACL, which a new file
// renamed over it would not have.
func hasACL(path string) bool {
	n, err := syscall.Getxattr(path, "system.posix_acl_access", nil)
	return err == nil && n > 0
}
