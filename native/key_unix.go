//go:build unix

package native

import (
	"io/fs"
	"syscall"
)

func inode(fi fs.FileInfo) (ino, dev uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return statIDs(st)
	}
	return 0, 0, 0
}

// statIDs are a stat's inode, device and change time as a FileKey holds
// them; the field types differ between platforms (mips's Dev is uint32).
func statIDs(st *syscall.Stat_t) (ino, dev uint64, ctime int64) {
	return uint64(st.Ino), uint64(st.Dev), ctimeOf(st)
}
