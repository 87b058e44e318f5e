package native

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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

// MaybeELF reports whether a file of this name may be ELF, so is worth
// opening: its extension is none of skipExt. Names are slash or OS paths.
// A walk opens only such files; a cache of a walk may forget the others.
func MaybeELF(name string) bool { return maybeELF(name) }

func maybeELF(name string) bool {
	return !skipExt[strings.ToLower(path.Ext(filepath.ToSlash(name)))]
}

const elfMagic = "\x7fELF"

// FileKey identifies a file's contents for a cache: the same key, the same
// bytes, as far as the file system tells (Inode and Device are 0 where it
// has none). ChangeTime is the inode's ctime (0 where the platform's stat
// is not read for it): unlike the mtime, no system call sets it, so a
// file rewritten and given its old mtime back (tar, rsync -t, cp -p,
// touch -d) still has a new key.
type FileKey struct {
	Path       string `json:"path"`
	Size       int64  `json:"size"`
	ModTime    int64  `json:"mtime_ns"`
	ChangeTime int64  `json:"ctime_ns,omitempty"`
	Inode      uint64 `json:"inode,omitempty"`
	Device     uint64 `json:"device,omitempty"`
}

// KeyOf returns the key of a file from its FileInfo.
func KeyOf(path string, fi fs.FileInfo) FileKey {
	k := FileKey{Path: path, Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	k.Inode, k.Device, k.ChangeTime = inode(fi)
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
func Walk(root string, fn func(Found) error) error { return WalkCached(root, nil, fn) }

// A WalkCache lets a walk skip what it read in an earlier one: the
// listing of a directory and the first bytes of a file, each given with
// the key (KeyOf) the directory or file has now. The cache alone decides
// when an earlier result may stand for the present (the same key, and a
// key old enough not to be racy: internal/prefixscan says why that is
// sound); the walk still stats every directory and every file that may
// be ELF, and a listing that no longer matches its entries is read again.
type WalkCache interface {
	// Listing returns what dir held when it had key, if that is known
	// and may be trusted.
	Listing(dir string, key FileKey) (Listing, bool)
	// Sniffed returns the ELF type of the file at p when it had key
	// ("" for a file that is not ELF), if that is known and may be
	// trusted.
	Sniffed(p string, key FileKey) (string, bool)
	// Listed and Sniff record what this walk read afresh.
	Listed(dir string, l Listing)
	Sniff(p string, key FileKey, typ string)
}

// Listing is what a walk needs of a directory: its key, and the entries
// it descends into or opens, in lexical order.
type Listing struct {
	Key     FileKey
	Entries []ListEntry
}

// ListEntry is one entry of a Listing: a subdirectory, or a regular file
// whose name MaybeELF.
type ListEntry struct {
	Name string
	Dir  bool
}

// WalkCached is Walk with a cache of earlier walks (nil: none); it finds
// the same libraries in the same order as Walk, and reports the same
// errors. Directories are walked by several goroutines at once (a second
// run is a stat of every directory and candidate file, which a single
// thread does one at a time), so c must be safe for concurrent use; fn is
// called from the calling goroutine only, in lexical order, after the
// tree is read.
func WalkCached(root string, c WalkCache, fn func(Found) error) error {
	st, err := os.Stat(root)
	if err != nil {
		return openErr(root, err)
	}
	if !st.IsDir() {
		return &Error{Path: root, Offset: -1, What: "not a directory", Err: ErrFormat}
	}
	w := &walker{c: c, sem: make(chan struct{}, walkers)}
	root = filepath.Clean(root)
	n := w.dir(root, KeyOf(root, st))
	w.wg.Wait()
	var errs []error
	if err := n.emit(fn, &errs); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// walkers bounds the goroutines that walk at once, besides the caller's:
// one per CPU (at least two, so that one waiting on a cold disk leaves the
// other working). A second run is a stat of every directory and candidate
// file, which scales with the CPUs on a warm dentry cache; the 8 this was
// once capped at left half of the H200 machine's 16 idle.
var walkers = max(2, runtime.GOMAXPROCS(0))

type walker struct {
	c   WalkCache
	sem chan struct{}
	wg  sync.WaitGroup
}

// node is one directory as read: its errors and entries in order, each a
// library found or a subdirectory (filled by its own goroutine).
type node struct {
	items []item
}

type item struct {
	err   error
	found *Found
	sub   *node
}

// emit calls fn for each library under n, and gathers the errors, in the
// walk's order.
func (n *node) emit(fn func(Found) error, errs *[]error) error {
	for _, it := range n.items {
		switch {
		case it.err != nil:
			*errs = append(*errs, it.err)
		case it.found != nil:
			if err := fn(*it.found); err != nil {
				return err
			}
		case it.sub != nil:
			if err := it.sub.emit(fn, errs); err != nil {
				return err
			}
		}
	}
	return nil
}

// entryStat is what the walk needs of an lstat: the key, and the kind.
type entryStat struct {
	key          FileKey
	dir, regular bool
}

// dir reads the directory at p (whose key is key) into a node; its
// subdirectories are read by other goroutines where one is free.
func (w *walker) dir(p string, key FileKey) *node {
	n := &node{}
	if w.c != nil {
		if l, ok := w.c.Listing(p, key); ok {
			if sts, ok := w.stat(n, p, l, true); ok {
				w.entries(n, p, l, sts)
				return n
			}
		}
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		n.items = append(n.items, item{err: openErr(p, err)})
		return n
	}
	l := Listing{Key: key}
	for _, d := range ents { // sorted by name
		if d.IsDir() || d.Type().IsRegular() && maybeELF(d.Name()) {
			l.Entries = append(l.Entries, ListEntry{Name: d.Name(), Dir: d.IsDir()})
		}
	}
	if w.c != nil {
		w.c.Listed(p, l)
	}
	sts, _ := w.stat(n, p, l, false)
	w.entries(n, p, l, sts)
	return n
}

// stat lstats each entry of l. For a cached listing, an entry gone or of
// another kind means the listing is not the directory's (ok false); for
// a fresh one it was removed or replaced since ReadDir: an entry gone is
// an error, as opening it would be, and one of another kind is skipped
// (its stat's path left empty).
func (w *walker) stat(n *node, p string, l Listing, cached bool) ([]entryStat, bool) {
	sts := make([]entryStat, len(l.Entries))
	var errs []item
	// p is clean and a name is one element (ReadDir's, or a cached
	// listing of it), so joining needs no Clean: filepath.Join's was a
	// tenth of a second run's walk outside the lstat itself.
	dir := p
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	for i, e := range l.Entries {
		q := dir + e.Name
		st, err := lstatEntry(q)
		if err == nil && (e.Dir && st.dir || !e.Dir && st.regular) {
			sts[i] = st
			continue
		}
		if cached {
			return nil, false
		}
		if err != nil {
			errs = append(errs, item{err: openErr(q, err)})
		}
	}
	n.items = append(n.items, errs...)
	return sts, true
}

func (w *walker) entries(n *node, p string, l Listing, sts []entryStat) {
	for i, e := range l.Entries {
		if sts[i].key.Path == "" {
			continue
		}
		q, key := sts[i].key.Path, sts[i].key
		if e.Dir {
			sub := &node{}
			n.items = append(n.items, item{sub: sub})
			select {
			case w.sem <- struct{}{}:
				w.wg.Add(1)
				go func() {
					defer w.wg.Done()
					*sub = *w.dir(q, key)
					<-w.sem
				}()
			default:
				*sub = *w.dir(q, key)
			}
			continue
		}
		typ, ok := "", false
		if w.c != nil {
			typ, ok = w.c.Sniffed(q, key)
		}
		if !ok {
			k, t, err := sniffKey(q)
			if err != nil {
				n.items = append(n.items, item{err: err})
				continue
			}
			key, typ = k, t
			if w.c != nil {
				w.c.Sniff(q, key, typ)
			}
		}
		if typ == "shared" {
			n.items = append(n.items, item{found: &Found{Path: q, Key: key, Type: typ}})
		}
	}
}

// sniffKey reads a file's first bytes: its key, and its ELF type ("" for
// a file that is not ELF). An ELF file whose header is cut short is an
// error.
func sniffKey(p string) (FileKey, string, error) {
	f, err := os.Open(p)
	if err != nil {
		return FileKey{}, "", openErr(p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return FileKey{}, "", openErr(p, err)
	}
	k := KeyOf(p, fi)
	var b [18]byte
	n, err := io.ReadFull(f, b[:])
	if n < 4 || string(b[:4]) != elfMagic {
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return FileKey{}, "", ioErr(p, 0, "read", err)
		}
		return k, "", nil
	}
	if n < len(b) {
		return FileKey{}, "", formatErr(p, 0, "ELF header truncated: %d bytes", n)
	}
	return k, headerType(b[:]), nil
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
