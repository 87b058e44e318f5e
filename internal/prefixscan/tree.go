package prefixscan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/native"
)

// The walk cache: what a second run over an unchanged prefix would read
// again is kept in the prefix's manifest beside the libraries' entries
// (its aux bytes, signed with them and written with them in one rename):
//
//   - each directory walked, by its key (KeyOf: mtime, ctime, inode,
//     device), with the names it holds that the walk descends into or
//     opens;
//   - each file that may be ELF by its name, by its key (size too), with
//     what its first bytes said (not ELF, or its ELF type);
//   - each RECORD and conda-meta record, by its key, with the files it
//     lists that may be ELF (the only ones a library's owner is asked of).
//
// A second run stats every directory and every such file, and reads again
// only what has a new key: one changed directory or RECORD costs its own
// read, not the prefix's.
//
// Why a key stands for the contents. Adding, removing or renaming an
// entry of a directory sets the directory's mtime and ctime to the time of
// the change (POSIX, for every file system envguard runs on); writing a
// file sets its mtime and ctime; a directory renamed or replaced is
// another path's entry or another inode. The ctime is in the key because
// no system call sets it: a tool that restores an old mtime after writing
// (tar, rsync -t, cp -p) cannot make a changed file look unchanged. What
// a key cannot show is a change within the clock tick the key was read in
// (one second on ext3 and HFS+, two on FAT; a jiffy with Linux's coarse
// timestamps): the directory listed, then changed in the same tick, keeps
// its time. That is git's "racy" index entry, and the rule is git's, with
// a margin: each record keeps the time its run started, taken before it
// read anything, and is trusted only while its key's mtime and ctime are
// more than cache.RacyWindow before that time. Anything changed after the
// read is stamped after the start (less a tick), so it is never trusted
// from the old read; a record too young to trust is read again on the next
// run, and settles once a run starts RacyWindow after the change. The
// clock compared is this machine's with the file system's own stamps,
// which on a local file system are the same kernel clock; a network file
// system whose server's clock runs behind by more than the window is the
// case it does not cover, as it would not cover git's.

// fileStamp is a FileKey without its path, and the start of the run that
// read the file or directory with it.
type fileStamp struct {
	size, mtime, ctime int64
	ino, dev           uint64
	at                 int64 // ns since 1970, the run's start
}

func stampOf(k native.FileKey, at int64) fileStamp {
	return fileStamp{size: k.Size, mtime: k.ModTime, ctime: k.ChangeTime, ino: k.Inode, dev: k.Device, at: at}
}

// holds reports whether a record made with s may stand for a file or
// directory that now has key k: the same key, settled before the run that
// read it started.
func (s fileStamp) holds(k native.FileKey) bool {
	now := stampOf(k, s.at)
	if now != s {
		return false
	}
	limit := s.at - int64(cache.RacyWindow)
	return s.mtime < limit && s.ctime < limit
}

// A record's used is set when a run trusts it (the record of the
// manifest it loaded, never written otherwise): each path is asked of
// once a run, by one goroutine, and the flags are read after the walk.
type dirRec struct {
	st      fileStamp
	entries []native.ListEntry
	used    bool
}

type fileRec struct {
	st   fileStamp
	typ  string // ELF type, "" for not ELF
	used bool
}

// metaRec is one RECORD or conda-meta record: the package it names and
// the files it lists (relative to the prefix, slash-separated) that may
// be ELF.
type metaRec struct {
	st    fileStamp
	name  string
	files []string
	used  bool
}

type treeState struct {
	dirs  map[string]*dirRec
	files map[string]*fileRec
	metas map[string]*metaRec
}

func newTreeState() treeState {
	return treeState{dirs: map[string]*dirRec{}, files: map[string]*fileRec{}, metas: map[string]*metaRec{}}
}

// treeCache is the walk cache of one run: old is what the manifest held
// (each record marked used when this run trusts it), fresh what this run
// read afresh. The run saves the used records and the fresh ones, so a
// record of something gone is dropped. A trusted record is only marked,
// never copied: on a second run over an unchanged prefix every one of some
// 12,000 records is trusted, and the walk's goroutines then share no lock
// and insert into no map (they had done both, for a copy of old that the
// run then did not write, being unchanged).
type treeCache struct {
	mu    sync.Mutex // guards fresh, from the walk's goroutines
	base  string     // the prefix and a separator; records are named below it
	now   int64
	old   treeState
	fresh treeState
	// aux is the bytes old was read from.
	aux []byte
	// read counts what this run read afresh: directories listed, files
	// sniffed, records parsed.
	read treeCounts
}

type treeCounts struct{ dirs, files, metas int }

func newTreeCache(dir string, now int64, aux []byte) *treeCache {
	base := filepath.Clean(dir)
	if !strings.HasSuffix(base, string(filepath.Separator)) {
		base += string(filepath.Separator)
	}
	t := &treeCache{base: base, now: now, old: newTreeState(), fresh: newTreeState()}
	if st, err := decodeTree(aux); err == nil {
		t.old, t.aux = st, aux
	}
	return t
}

func (t *treeCache) name(p string) string {
	if r, ok := strings.CutPrefix(p, t.base); ok {
		return filepath.ToSlash(r)
	}
	return p
}

// Listing, Sniffed, Listed and Sniff make a treeCache a native.WalkCache.
// The lookups read old, which nothing writes during the walk, so they
// take no lock.
func (t *treeCache) Listing(dir string, key native.FileKey) (native.Listing, bool) {
	r, ok := t.old.dirs[t.name(dir)]
	if !ok || !r.st.holds(key) {
		return native.Listing{}, false
	}
	r.used = true
	return native.Listing{Key: key, Entries: r.entries}, true
}

func (t *treeCache) Listed(dir string, l native.Listing) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.read.dirs++
	t.fresh.dirs[t.name(dir)] = &dirRec{st: stampOf(l.Key, t.now), entries: l.Entries}
}

func (t *treeCache) Sniffed(p string, key native.FileKey) (string, bool) {
	r, ok := t.old.files[t.name(p)]
	if !ok || !r.st.holds(key) {
		return "", false
	}
	r.used = true
	return r.typ, true
}

func (t *treeCache) Sniff(p string, key native.FileKey, typ string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.read.files++
	t.fresh.files[t.name(p)] = &fileRec{st: stampOf(key, t.now), typ: typ}
}

// meta returns what the record at p listed, if its key still holds.
func (t *treeCache) meta(p string, key native.FileKey) (*metaRec, bool) {
	r, ok := t.old.metas[t.name(p)]
	if !ok || !r.st.holds(key) {
		return nil, false
	}
	r.used = true
	return r, true
}

func (t *treeCache) keepMeta(p string, key native.FileKey, name string, files []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.read.metas++
	t.fresh.metas[t.name(p)] = &metaRec{st: stampOf(key, t.now), name: name, files: files}
}

// The aux bytes: the three tables, each a count and its records sorted by
// name, in cache.Fields' framing.

func appendStamp(b []byte, s fileStamp) []byte {
	b = binary.AppendVarint(b, s.size)
	b = binary.AppendVarint(b, s.mtime)
	b = binary.AppendVarint(b, s.ctime)
	b = binary.AppendUvarint(b, s.ino)
	b = binary.AppendUvarint(b, s.dev)
	return binary.AppendVarint(b, s.at)
}

func readStamp(f *cache.Fields) fileStamp {
	return fileStamp{size: f.Varint(), mtime: f.Varint(), ctime: f.Varint(), ino: f.Uvarint(), dev: f.Uvarint(), at: f.Varint()}
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// treeMagic starts the aux bytes; another layout is read as empty.
const treeMagic = "prefixscan-tree-v1\n"

// encode is what this run saves: old's bytes as they were when every old
// record was trusted and none read afresh, else the used records and the
// fresh ones (a fresh record replaces a used one of its name: a listing
// trusted, then found stale by the walk, is read again).
func (t *treeCache) encode() []byte {
	fresh := len(t.fresh.dirs)+len(t.fresh.files)+len(t.fresh.metas) > 0
	if !fresh && t.aux != nil && allUsed(t.old.dirs, func(r *dirRec) bool { return r.used }) &&
		allUsed(t.old.files, func(r *fileRec) bool { return r.used }) && allUsed(t.old.metas, func(r *metaRec) bool { return r.used }) {
		return t.aux // every record carried over as it was
	}
	return encodeTree(treeState{
		dirs:  merged(t.old.dirs, t.fresh.dirs, func(r *dirRec) bool { return r.used }),
		files: merged(t.old.files, t.fresh.files, func(r *fileRec) bool { return r.used }),
		metas: merged(t.old.metas, t.fresh.metas, func(r *metaRec) bool { return r.used }),
	})
}

func allUsed[R any](m map[string]*R, used func(*R) bool) bool {
	for _, r := range m {
		if !used(r) {
			return false
		}
	}
	return true
}

// merged is old's used records and fresh's, fresh winning.
func merged[R any](old, fresh map[string]*R, used func(*R) bool) map[string]*R {
	out := make(map[string]*R, len(old)+len(fresh))
	for n, r := range old {
		if used(r) {
			out[n] = r
		}
	}
	for n, r := range fresh {
		out[n] = r
	}
	return out
}

func encodeTree(st treeState) []byte {
	b := []byte(treeMagic)
	b = binary.AppendUvarint(b, uint64(len(st.dirs)))
	for _, n := range sortedKeys(st.dirs) {
		r := st.dirs[n]
		b = appendString(b, n)
		b = appendStamp(b, r.st)
		b = binary.AppendUvarint(b, uint64(len(r.entries)))
		for _, e := range r.entries {
			b = appendString(b, e.Name)
			if e.Dir {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(st.files)))
	for _, n := range sortedKeys(st.files) {
		r := st.files[n]
		b = appendString(b, n)
		b = appendStamp(b, r.st)
		b = appendString(b, r.typ)
	}
	b = binary.AppendUvarint(b, uint64(len(st.metas)))
	for _, n := range sortedKeys(st.metas) {
		r := st.metas[n]
		b = appendString(b, n)
		b = appendStamp(b, r.st)
		b = appendString(b, r.name)
		b = binary.AppendUvarint(b, uint64(len(r.files)))
		for _, f := range r.files {
			b = appendString(b, f)
		}
	}
	return b
}

var errTree = errors.New("not a walk cache of this layout")

// decodeTree reads aux bytes that encode wrote; anything else is an
// error, and the run reads everything afresh. The names share aux's
// memory (cache.Fields.String): the treeCache keeps aux anyway, to write
// it back unchanged, and a second run decodes some 100,000 of them.
func decodeTree(b []byte) (treeState, error) {
	if !bytes.HasPrefix(b, []byte(treeMagic)) {
		return newTreeState(), errTree
	}
	f := cache.NewFields(b, len(treeMagic))
	// A record takes at least 8 bytes (a name's length, six varints and a
	// count or a type's length). Each table is sized by its count, as
	// rehashing a growing map was a tenth of a second run.
	// The records of a table are one allocation, the map's values point
	// into it.
	n := f.Count(8)
	st := treeState{dirs: make(map[string]*dirRec, n)}
	dirs := make([]dirRec, n)
	for i := range n {
		name := f.String()
		r := &dirs[i]
		r.st = readStamp(f)
		m := f.Count(2)
		r.entries = make([]native.ListEntry, 0, m)
		for range m {
			e := f.String()
			r.entries = append(r.entries, native.ListEntry{Name: e, Dir: f.Byte() == 1})
		}
		st.dirs[name] = r
	}
	n = f.Count(8)
	st.files = make(map[string]*fileRec, n)
	files := make([]fileRec, n)
	for i := range n {
		name := f.String()
		files[i] = fileRec{st: readStamp(f), typ: internType(f.Bytes())}
		st.files[name] = &files[i]
	}
	n = f.Count(9)
	st.metas = make(map[string]*metaRec, n)
	for range n {
		name := f.String()
		r := &metaRec{st: readStamp(f), name: f.String()}
		m := f.Count(1)
		r.files = make([]string, 0, m)
		for range m {
			r.files = append(r.files, f.String())
		}
		st.metas[name] = r
	}
	if f.Err() != nil {
		return newTreeState(), f.Err()
	}
	if f.Left() != 0 {
		return newTreeState(), errTree
	}
	return st, nil
}

// internType returns the ELF type names without a copy of each.
func internType(b []byte) string {
	for _, t := range []string{"", "shared", "executable", "relocatable", "core", "other"} {
		if string(b) == t {
			return t
		}
	}
	return string(b)
}

// statKey stats p, following a link as reading it does.
func statKey(p string) (native.FileKey, error) {
	st, err := os.Stat(p)
	if err != nil {
		return native.FileKey{}, err
	}
	return native.KeyOf(p, st), nil
}
