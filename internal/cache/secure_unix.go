//go:build unix

package cache

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// openOwn opens path for reading as a file the cache itself wrote: never
// through a link (O_NOFOLLOW), and without blocking (O_NONBLOCK), so that a
// FIFO put in a manifest's place is opened and refused at once instead of
// waiting for a writer forever. It must be a regular file; the caller
// checks its owner and mode (checkOwn).
func openOwn(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	return regularOrClose(f, path)
}

// checkOwn refuses a file that another user owns or whose mode has any of
// the bits in forbid (0o022: writable by group or others).
func checkOwn(st fs.FileInfo, forbid fs.FileMode) string {
	if uid, ok := owner(st); ok && uid != os.Geteuid() {
		return fmt.Sprintf("owned by uid %d", uid)
	}
	if m := st.Mode().Perm() & forbid; m&0o022 != 0 {
		return "writable by group or others"
	} else if m != 0 {
		return "readable by group or others"
	}
	return ""
}

func owner(st fs.FileInfo) (int, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid), true
	}
	return 0, false
}

// othersCanWrite reports whether a directory is writable by anyone but
// its owner. Writable by its group is harmless where the group is the
// owner's private one (Debian's rule for ssh, user-group-modes): Debian
// and Ubuntu give users a umask of 002, so a ~/.cache that pip or
// another tool made is 0775, and refusing it would turn the cache off for
// most of their users.
func othersCanWrite(st fs.FileInfo) bool {
	m := st.Mode().Perm()
	if m&0o002 != 0 {
		return true
	}
	if m&0o020 == 0 {
		return false
	}
	s, ok := st.Sys().(*syscall.Stat_t)
	return !ok || !privateGroup(int(s.Gid), int(s.Uid))
}

// The account files privateGroup reads; variables for the tests.
var etcPasswd, etcGroup = "/etc/passwd", "/etc/group"

// privateGroup reports whether gid has uid as its only member, both as a
// primary group (/etc/passwd) and as a listed one (/etc/group). Where the
// files do not say (accounts from LDAP, say), it is not.
func privateGroup(gid, uid int) bool {
	passwd, err := os.ReadFile(etcPasswd)
	if err != nil {
		return false
	}
	name, members := "", 0
	for _, line := range strings.Split(string(passwd), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 4 {
			continue
		}
		u, err1 := strconv.Atoi(f[2])
		g, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil {
			continue
		}
		if u == uid {
			name = f[0]
		}
		if g == gid {
			if u != uid {
				return false
			}
			members++
		}
	}
	group, err := os.ReadFile(etcGroup)
	if err != nil || name == "" {
		return false
	}
	found := false
	for _, line := range strings.Split(string(group), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 4 || f[2] != strconv.Itoa(gid) {
			continue
		}
		found = true
		for _, m := range strings.Split(f[3], ",") {
			if m = strings.TrimSpace(m); m == "" {
				continue
			}
			if m != name {
				return false
			}
			members++
		}
	}
	return found && members > 0
}

// checkDir holds dir to what ssh asks of ~/.ssh: the user owns it and no
// one else can write it (othersCanWrite). Its parents, both along the path
// as given and along the one its links lead to, must be the user's or
// root's and writable by no one else, unless sticky (/tmp): whoever can
// rename an entry in a parent can put a directory of their own in the
// cache's place.
func checkDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	if err != nil {
		return err
	}
	if uid, ok := owner(st); ok && uid != os.Geteuid() {
		return &UnsafeError{Dir: dir, Reason: fmt.Sprintf("owned by uid %d", uid)}
	}
	if othersCanWrite(st) {
		return &UnsafeError{Dir: dir, Reason: "writable by group or others"}
	}
	me := os.Geteuid()
	seen := map[string]bool{}
	for _, start := range []string{abs, real} {
		for p := filepath.Dir(start); !seen[p]; p = filepath.Dir(p) {
			seen[p] = true
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			if uid, ok := owner(st); ok && uid != me && uid != 0 {
				return &UnsafeError{Dir: dir, Reason: fmt.Sprintf("%s is owned by uid %d", p, uid)}
			}
			if othersCanWrite(st) && st.Mode()&fs.ModeSticky == 0 {
				return &UnsafeError{Dir: dir, Reason: p + " is writable by group or others"}
			}
		}
	}
	return nil
}
