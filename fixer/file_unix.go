//go:build unix

package fixer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/envguard/envguard/internal/filekind"
)

const openNoFollow = syscall.O_NOFOLLOW

// openLocked opens path for reading and takes its exclusive flock, waiting
// up to wait for another envguard fix to let go. A fix that waited for a
// file since replaced (another fix renamed its new text over it) opens
// and locks the file now there. The stat is taken under the lock.
func openLocked(name, path string, wait time.Duration) (*os.File, fs.FileInfo, error) {
	deadline := time.Now().Add(wait)
	for {
		// O_NONBLOCK: a FIFO put in the file's place must not hang the open
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		switch {
		case errors.Is(err, syscall.ELOOP):
			return nil, nil, errChanged // became a link: resolve it again
		case errors.Is(err, fs.ErrNotExist):
			return nil, nil, refusedf("%s: no such file or directory", name)
		case err != nil:
			return nil, nil, refusedf("%s cannot be read: %v", name, err)
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, nil, refusedf("%s cannot be read: %v", name, err)
		}
		if !st.Mode().IsRegular() {
			f.Close()
			if st.IsDir() {
				return nil, nil, refusedf("%s is a directory: name the environment files to fix (envguard validate %s finds them)", name, name)
			}
			return nil, nil, refusedf("%s is %s, not a regular file: envguard fixes files", name, filekind.Of(st.Mode()))
		}
		if err := flock(f, deadline); err != nil {
			f.Close()
			return nil, nil, refusedf("%s is being fixed by another process, which has held its lock (flock) for over %v: nothing written", name, wait)
		}
		now, err := os.Lstat(path)
		if err == nil && os.SameFile(now, st) {
			if st, err = f.Stat(); err != nil {
				f.Close()
				return nil, nil, refusedf("%s cannot be read: %v", name, err)
			}
			return f, st, nil
		}
		f.Close()
		if time.Now().After(deadline) {
			return nil, nil, refusedf("%s was replaced again and again for over %v while envguard waited to fix it: nothing written", name, wait)
		}
	}
}

var errLockWait = errors.New("lock wait ran out")

// flock takes f's exclusive lock, polling until deadline. A file system
// without flock (some network ones) is fixed without it: the hash check
// still stands.
func flock(f *os.File, deadline time.Time) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	for d := time.Millisecond; ; d = min(2*d, 20*time.Millisecond) {
		var lerr error
		if err := rc.Control(func(fd uintptr) { lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB) }); err != nil {
			return nil
		}
		switch {
		case lerr == nil:
			return nil
		case lerr != syscall.EWOULDBLOCK && lerr != syscall.EINTR:
			return nil // ENOLCK, EOPNOTSUPP: no locks here
		case time.Now().After(deadline):
			return errLockWait
		}
		time.Sleep(d)
	}
}

// canWrite asks the system whether the user may write path (permission
// bits, ACLs, a read-only mount), without opening it for writing.
func canWrite(path string) error {
	const wOK = 2
	return syscall.Access(path, wOK)
}

func ids(st fs.FileInfo) (uid, gid int, nlink uint64) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid), int(s.Gid), uint64(s.Nlink)
	}
	return -1, -1, 1
}

func ownerText(st fs.FileInfo) string {
	uid, gid, _ := ids(st)
	return fmt.Sprintf(", owner uid %d, group gid %d; you are uid %d", uid, gid, os.Geteuid())
}

// inPlaceReason says why the new text must go into the file itself rather
// than a new file renamed over it: a rename would split its hard links, or
// drop its ACL.
func inPlaceReason(path string, st fs.FileInfo) string {
	if _, _, n := ids(st); n > 1 {
		return fmt.Sprintf("it has %d hard links", n)
	}
	if hasACL(path) {
		return "it has an access ACL"
	}
	return ""
}

// keepAttrs gives tmp the owner, group and mode bits (setuid, setgid,
// sticky) of the file st describes, and says why it could not ("" when it
// could). The mode comes after the owner: chown clears setuid and setgid.
func keepAttrs(tmp *os.File, st fs.FileInfo) string {
	uid, gid, _ := ids(st)
	tst, err := tmp.Stat()
	if err != nil {
		return err.Error()
	}
	why := ""
	if tuid, tgid, _ := ids(tst); uid >= 0 && (tuid != uid || tgid != gid) {
		if err := tmp.Chown(uid, gid); err != nil {
			// the mode is still set: --force may rename this file in
			why = fmt.Sprintf("a new file cannot be given its owner and group (uid %d, gid %d): %v", uid, gid, err)
		}
	}
	mode := st.Mode() & keptMode
	if err := tmp.Chmod(mode); err != nil && why == "" {
		why = fmt.Sprintf("a new file cannot be given its mode %v: %v", mode, err)
	}
	if why != "" {
		return why
	}
	// a user not in the file's group may not set setgid: chmod drops it
	// without an error
	if tst, err := tmp.Stat(); err != nil || tst.Mode()&keptMode != mode {
		return fmt.Sprintf("a new file cannot be given its mode %v", mode)
	}
	return ""
}

const keptMode = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky
