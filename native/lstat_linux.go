package native

import (
	"io/fs"
	"syscall"
)

// lstatEntry lstats p into an entryStat without os.Lstat's FileInfo (two
// allocations a call: a second run of check lstats every directory and
// candidate file of a prefix, 8,000 and more, and those allocations were a
// tenth of it). The key is the one KeyOf gives for the same file.
func lstatEntry(p string) (entryStat, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(p, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return entryStat{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
		}
	}
	ino, dev, ctime := statIDs(&st)
	return entryStat{
		key: FileKey{Path: p, Size: int64(st.Size), ModTime: st.Mtim.Nano(), ChangeTime: ctime, Inode: ino, Device: dev},
		dir: st.Mode&syscall.S_IFMT == syscall.S_IFDIR, regular: st.Mode&syscall.S_IFMT == syscall.S_IFREG,
	}, nil
}
