//go:build !unix

package native

import "io/fs"

func inode(fs.FileInfo) (ino, dev uint64, ctime int64) { return 0, 0, 0 }
