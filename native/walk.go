package native

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// skipExt are the extensions of files that are never ELF, which a walk
// does not open. Every other regular file is opened and its first four
// bytes decide: a library named without .so is found, and a .so that is a
// linker script (libc.so) is not.
var skipExt = map[string]bool{
	".py": true, ".pyc": true, ".pyi": true, ".pyx": true, ".pxd": true, ".pth": true,
	".txt": true, ".md": true, ".rst": true, ".html": true, ".htm": true, ".css": true, ".js": true, ".map": true,
	".json": true, ".yaml": true, ".yml": true, ".toml": true, ".cfg": true, ".ini": true, ".xml": true, ".csv": true,
	".h": true, ".hpp": true, ".hh": true, ".cuh": true, ".c": true, ".cc": true, ".cpp": true, ".cu": true, ".inl": true,
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".ico": true,
	".pem": true, ".typed": true, ".cmake": true, ".pc": true, ".la": true, ".mo": true, ".po": true,
	".npy": true, ".npz": true, ".pt": true, ".pkl": true, ".whl": true, ".zip": true, ".gz": true, ".bz2": true, ".xz": true, ".zst": true,
}

// maybeELF reports whether a file of this name may be ELF, so is worth
// opening: its extension is none of skipExt. Names are slash or OS paths.
func maybeELF(name string) bool {
	return !skipExt[strings.ToLower(path.Ext(filepath.ToSlash(name)))]
}

const elfMagic = "\x7fELF"

// FileKey identifies a file's contents for a cache: the same key, the same
// bytes, as far as the file system tells (Inode and Device are 0 where it
// has none).
type FileKey struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime_ns"`
	Inode   uint64 `json:"inode,omitempty"`
	Device  uint64 `json:"device,omitempty"`
}

// KeyOf returns the key of a file from its FileInfo.
func KeyOf(path string, fi fs.FileInfo) FileKey {
	k := FileKey{Path: path, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	k.Inode, k.Device = inode(fi)
	return k
}

// Found is an ELF file a walk found.
type Found struct {
	Path string
	Key  FileKey
	// Type is the ELF file type from its header's e_type: "shared" for
	// ET_DYN (a PIE too), "executable", "relocatable", "core" or "other".
	Type string
}

// Walk calls fn for every ELF shared object under root (ELF by its magic
// and ET_DYN by its header: shared libraries, and executables built as PIE,
// which ReadFile then names "executable"), in lexical order, and returns the errors it
// met on the way (unreadable directories and files, ELF headers too short),
// each an *Error, joined. Symbolic links are not followed, neither to
// files (an alias of a library found under its own name) nor to
// directories, so a link loop cannot trap it; root itself may be a link.
// fn returning an error stops the walk with that error.
func Walk(root string, fn func(Found) error) error {
	var errs []error
	st, err := os.Stat(root)
	if err != nil {
		return openErr(root, err)
	}
	if !st.IsDir() {
		return &Error{Path: root, Offset: -1, What: "not a directory", Err: ErrFormat}
	}
	// Walk below the link, if root is one, so the paths keep root's name.
	walkRoot := root
	if lst, err := os.Lstat(root); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		walkRoot = root + string(filepath.Separator)
	}
	stop := errors.New("stop")
	var stopErr error
	err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, openErr(p, err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == walkRoot && walkRoot != root {
			return nil
		}
		p = filepath.Clean(p)
		if !d.Type().IsRegular() || !maybeELF(p) {
			return nil
		}
		f, ok, err := sniff(p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if !ok || f.Type != "shared" {
			return nil
		}
		if err := fn(f); err != nil {
			stopErr = err
			return stop
		}
		return nil
	})
	if stopErr != nil {
		return stopErr
	}
	if err != nil {
		errs = append(errs, openErr(root, err))
	}
	return errors.Join(errs...)
}

// sniff reads a file's first bytes: ok is false for a file that is not
// ELF. An ELF file whose header is cut short is an error.
func sniff(p string) (Found, bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return Found{}, false, openErr(p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Found{}, false, openErr(p, err)
	}
	var b [18]byte
	n, err := io.ReadFull(f, b[:])
	if n < 4 || string(b[:4]) != elfMagic {
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return Found{}, false, ioErr(p, 0, "read", err)
		}
		return Found{}, false, nil
	}
	if n < len(b) {
		return Found{}, false, formatErr(p, 0, "ELF header truncated: %d bytes", n)
	}
	return Found{Path: p, Key: KeyOf(p, fi), Type: headerType(b[:])}, true, nil
}

// headerType reads e_type from an ELF header's first 18 bytes.
func headerType(b []byte) string {
	t := uint16(b[16]) | uint16(b[17])<<8
	if b[5] == 2 { // ELFDATA2MSB
		t = uint16(b[16])<<8 | uint16(b[17])
	}
	switch t {
	case 1:
		return "relocatable"
	case 2:
		return "executable"
	case 3:
		return "shared"
	case 4:
		return "core"
	}
	return "other"
}
