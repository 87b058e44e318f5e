//go:build unix && !linux && !darwin

package native

import "syscall"

// ctimeOf is 0 where the platform's Stat_t is not read here: a key then
// rests on size, mtime and inode alone.
func ctimeOf(*syscall.Stat_t) int64 { return 0 }
