package discover

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/internal/workpool"
)

// record is what validate's search of its directory arguments found
// (the files, and each listed directory's DirFacts), with what that
// answer depends on: each directory listed (its modification time changes
// when an entry is added, removed or renamed), each .gitignore read, each
// file whose content decided whether it is an input, and the .git and
// .gitignore paths looked for above the search. A re-run whose watched
// paths all stat as recorded, and older than the manifest, takes the
// answer instead of listing 10,000 directories again (git's untracked
// cache does the same with directory times).
type record struct {
	files []string
	facts map[string]DirFacts
	watch []watched
}

// watched is one path the answer depends on, as stat saw it.
type watched struct {
	path  string
	kind  byte // 'd' directory, 'f' regular file, 'e' exists (any type), '-' absent
	size  int64
	mtime int64
}

const searchFormat = "envguard-search-v1\n"

// watchPath records p as it is now: a file's size and time (through a
// link, as it is read), or whether it exists at all (the link itself, as
// RepoRoot looks for .git).
func watchPath(p string, kind byte) watched {
	stat := os.Stat
	if kind == 'e' {
		stat = os.Lstat
	}
	st, err := stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return watched{path: p, kind: '-'}
	case err != nil:
		return watched{path: p, kind: '?'} // never holds
	case kind == 'e':
		return watched{path: p, kind: 'e'}
	case st.Mode().IsRegular():
		return watched{path: p, kind: 'f', size: st.Size(), mtime: st.ModTime().UnixNano()}
	}
	return watched{path: p, kind: '?'}
}

// holds reports whether p still stats as w recorded, with a time m can
// trust (older than the manifest's write).
func (w watched) holds(m *cache.Manifest) bool {
	switch w.kind {
	case 'd', 'f':
		st, err := os.Stat(w.path)
		if err != nil || st.ModTime().UnixNano() != w.mtime || !m.Settled(w.mtime) {
			return false
		}
		if w.kind == 'd' {
			return st.IsDir()
		}
		return st.Mode().IsRegular() && st.Size() == w.size
	case 'e':
		_, err := os.Lstat(w.path)
		return err == nil
	case '-':
		_, err := os.Lstat(w.path)
		return errors.Is(err, fs.ErrNotExist)
	}
	return false
}

// holds stats every watched path, on every core.
func (r *record) holds(m *cache.Manifest) bool {
	ok := workpool.Map(len(r.watch), 0, func(i int) bool { return r.watch[i].holds(m) })
	for _, b := range ok {
		if !b {
			return false
		}
	}
	return true
}

func (r *record) encode() []byte {
	b := []byte(searchFormat)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(r.files)))
	for _, f := range r.files {
		str(f)
	}
	b = binary.AppendUvarint(b, uint64(len(r.facts)))
	for d, f := range r.facts {
		str(d)
		var bits byte
		if f.Config {
			bits |= 1
		}
		if f.ConfigLink {
			bits |= 2
		}
		if f.Git {
			bits |= 4
		}
		b = append(b, bits)
	}
	b = binary.AppendUvarint(b, uint64(len(r.watch)))
	for _, w := range r.watch {
		str(w.path)
		b = append(b, w.kind)
		b = binary.AppendVarint(b, w.size)
		b = binary.AppendVarint(b, w.mtime)
	}
	return b
}

// Decode reads what encode wrote; anything else is an error, and
// the search is then done afresh.
func Decode(b []byte) (*record, error) {
	if len(b) < len(searchFormat) || string(b[:len(searchFormat)]) != searchFormat {
		return nil, errors.New("not a search record")
	}
	d := cache.NewFields(b, len(searchFormat))
	r := &record{}
	// Each element takes at least two bytes.
	r.files = make([]string, d.Count(2))
	for i := range r.files {
		r.files[i] = string(d.Bytes())
	}
	n := d.Count(2)
	r.facts = make(map[string]DirFacts, n)
	for range n {
		p := string(d.Bytes())
		bits := d.Byte()
		r.facts[p] = DirFacts{Config: bits&1 != 0, ConfigLink: bits&2 != 0, Git: bits&4 != 0}
	}
	r.watch = make([]watched, d.Count(2))
	for i := range r.watch {
		r.watch[i] = watched{path: string(d.Bytes()), kind: d.Byte(), size: d.Varint(), mtime: d.Varint()}
	}
	if d.Err() != nil {
		return nil, d.Err()
	}
	if d.Left() != 0 {
		return nil, errors.New("bytes after the search record")
	}
	return r, nil
}

// Files returns the input files the recorded search found.
func (r *record) Files() []string { return r.files }
