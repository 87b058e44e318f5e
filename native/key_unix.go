//go:build unix

package native

import (
	"io/fs"
	"syscall"
)

func inode(fi fs.FileInfo) (ino, dev uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), uint64(st.Dev), ctimeOf(st) // the field types differ between platforms
	}
	return 0, 0, 0
}
