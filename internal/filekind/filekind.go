// Package filekind names what a file that is not a regular one is, for the
// messages of every reader that refuses such files ("x is a FIFO, not a
// regular file"): the CLI's inputs, the prefix reader, the cache and the
// fixer say it the same way.
package filekind

import "io/fs"

// Of names the kind of a file of mode m with its article: "a FIFO".
func Of(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsRegular():
		return "a regular file"
	}
	return "of another kind (" + m.Type().String() + ")"
}
