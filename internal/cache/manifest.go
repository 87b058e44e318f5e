package cache

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Sum is the SHA-256 of a file's bytes.
type Sum [sha256.Size]byte

// SumOf hashes b.
func SumOf(b []byte) Sum { return sha256.Sum256(b) }

// Entry is what a manifest holds for one path.
type Entry struct {
	Size    int64 // bytes, as stat gave them before the file was read
	ModTime int64 // modification time, nanoseconds since 1970, as stat gave it
	Sum     Sum   // of the bytes that were judged
	Base    Key   // the options they were judged under
	// Value is the caller's bytes; read back, a slice of the manifest's
	// buffer, which no one may write (Fields.String shares it).
	Value []byte
}

// Record is one path's entry, as Save writes it.
type Record struct {
	Path string
	Entry
}

// Manifest is a run's results as a previous run left them.
type Manifest struct {
	written int64 // the manifest file's modification time; 0 for none
	entries map[string]Entry
	aux     []byte
}

// Aux is the bytes saved beside the entries (validate keeps what its
// search of the directories found there); nil for none. Like an entry's
// Value, a slice of the manifest's buffer: read it, never write it.
func (m *Manifest) Aux() []byte { return m.aux }

// Settled reports whether a modification time is old enough, against the
// manifest's own, that whatever has it cannot have changed since without
// changing it; see Fresh.
func (m *Manifest) Settled(mtime int64) bool { return mtime < m.written-int64(RacyWindow) }

// RacyWindow is how much older than the manifest a time must be to be
// trusted. Git trusts any time strictly before its index's, which shares
// the files' filesystem and clock; a cache directory need not. A project
// on a filesystem that keeps times to 2 s (FAT; 1 s: HFS+, ext3) can give
// a file edited after the manifest was written the time it had before,
// and Linux's mix of coarse and fine-grained timestamps was seen here to
// stamp a manifest a clock tick before a directory changed earlier. A
// file changed within the window is hashed on the next run (cheap; its
// result is reused if the bytes are the same) and the manifest rewritten,
// after which its time is settled.
const RacyWindow = 2 * time.Second

// Get returns the entry for path.
func (m *Manifest) Get(path string) (Entry, bool) {
	e, ok := m.entries[path]
	return e, ok
}

// Len is the number of entries.
func (m *Manifest) Len() int { return len(m.entries) }

// Fresh reports whether a file now of size bytes and modification time
// mtime is, without reading it, the one e was made from: the same size and
// time, and a time settled before the manifest was written. A file
// changed about when the manifest was written (or later, with a clock
// that went back) could keep both size and time, so it must be read and
// hashed: git's rule for "racily clean" index entries, with a margin
// (RacyWindow).
func (m *Manifest) Fresh(e Entry, size, mtime int64) bool {
	return e.Size == size && e.ModTime == mtime && m.Settled(mtime)
}

// The checksum is an HMAC-SHA256 under the cache's key file. A CRC-32 (the
// checksum of format v3, 0.6 ms for 13 MB against 8 ms for SHA-256 on
// the 2-core development machine) guards against a torn file but not a
// forger, and anyone can recompute it, or a plain SHA-256: a manifest
// edited to say a failing file passes, its checksum recomputed, turned
// exit 1 into exit 0 (issue 22, N6). Without the key the HMAC cannot be
// made. It costs what SHA-256 does, 8 ms for the 13 MB of a 10,000-file
// run (23 ms with the 2-core machine loaded), against CRC-32's 0.6 ms.

// A manifest is: magic (Format, newline), its key (32 bytes), the number
// of entries (uvarint), each entry as its path (uvarint length, bytes),
// size and time (varints), Sum, Base, value (uvarint length, bytes), then
// the aux bytes (uvarint length, bytes), and last the HMAC of everything
// before it (32 bytes).
const macSize = sha256.Size

// MaxManifest is the largest manifest read or written: about 200,000
// files' results (a warm run over 10,000 files reads 13 MB). A manifest
// is read whole into memory, so a larger file (or a sparse one of 3 GB,
// which cost 3.1 GB before this cap, issue 22 N7) is not read at all, and
// a run whose results would pass it keeps none.
var MaxManifest int64 = 256 << 20

func (c *Cache) manifestPath(k Key) string {
	return filepath.Join(c.dir, k.String()+".manifest")
}

// Load reads the manifest stored under k. None stored is an empty manifest
// and no error; one that cannot be read or is not sound is an empty
// manifest and an error saying why, so that a caller can say so when asked
// to and otherwise carry on: every file is then a miss, and Save replaces it.
// Only a regular file, not a link, the user's own, writable by no one
// else and at most MaxManifest bytes is read.
func (c *Cache) Load(k Key) (*Manifest, error) {
	empty := &Manifest{}
	f, st, err := openOwn(c.manifestPath(k))
	if errors.Is(err, fs.ErrNotExist) {
		return empty, nil
	}
	if err != nil {
		return empty, err
	}
	defer f.Close()
	if why := checkOwn(st, 0o022); why != "" {
		return empty, fmt.Errorf("%s is %s", f.Name(), why)
	}
	if st.Size() > MaxManifest {
		return empty, fmt.Errorf("%s is %d bytes, over the limit of %d", f.Name(), st.Size(), MaxManifest)
	}
	b := manifestBuffer(st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return empty, fmt.Errorf("%s: %w", f.Name(), err)
	}
	entries, aux, err := c.decodeManifest(b, k)
	if err != nil {
		return empty, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return &Manifest{written: st.ModTime().UnixNano(), entries: entries, aux: aux}, nil
}

// decodeManifest reads b; the values in the entries and aux share b's
// memory. Nothing after the magic line is looked at before the HMAC
// verifies.
func (c *Cache) decodeManifest(b []byte, k Key) (map[string]Entry, []byte, error) {
	head := len(Format) + 1 + len(k)
	if len(b) < head+1+macSize || string(b[:len(Format)]) != Format || b[len(Format)] != '\n' {
		if v, _, ok := strings.Cut(string(b[:min(len(b), 64)]), "\n"); ok && strings.HasPrefix(v, formatPrefix) && v != Format {
			return nil, nil, fmt.Errorf("written by another version of the cache (%q, this is %q)", v, Format)
		}
		return nil, nil, errors.New("not a manifest of this format")
	}
	body := b[:len(b)-macSize]
	if !hmac.Equal(c.sign(body), b[len(body):]) {
		return nil, nil, errors.New("its HMAC does not verify under this cache's key (truncated, damaged or not written here)")
	}
	if Key(b[len(Format)+1:head]) != k {
		return nil, nil, errors.New("another key's manifest under this name")
	}
	r := NewFields(body, head)
	// Each entry takes at least 68 bytes.
	n := r.Count(2*sha256.Size + 4)
	if r.Err() != nil {
		return nil, nil, errors.New("bad entry count")
	}
	entries := make(map[string]Entry, n)
	for range n {
		path := r.String()
		var e Entry
		e.Size = r.Varint()
		e.ModTime = r.Varint()
		copy(e.Sum[:], r.Next(len(e.Sum)))
		copy(e.Base[:], r.Next(len(e.Base)))
		e.Value = r.Bytes()
		if r.Err() != nil {
			return nil, nil, r.Err()
		}
		if _, dup := entries[path]; dup {
			return nil, nil, fmt.Errorf("%q listed twice", path)
		}
		entries[path] = e
	}
	aux := r.Bytes()
	if r.Err() != nil {
		return nil, nil, r.Err()
	}
	if r.Left() != 0 {
		return nil, nil, errors.New("bytes after the last entry")
	}
	return entries, aux, nil
}

func (c *Cache) encodeManifest(k Key, recs []Record, aux []byte) []byte {
	var b bytes.Buffer
	b.Grow(int(manifestSize(k, recs, aux)))
	_ = c.writeManifest(&b, k, recs, aux) // a bytes.Buffer takes every write
	return b.Bytes()
}

// manifestSize is the exact size writeManifest writes.
func manifestSize(k Key, recs []Record, aux []byte) int64 {
	var tmp [binary.MaxVarintLen64]byte
	uv := func(v uint64) int64 { return int64(binary.PutUvarint(tmp[:], v)) }
	v := func(x int64) int64 { return int64(binary.PutVarint(tmp[:], x)) }
	n := int64(len(Format)+1+len(k)) + uv(uint64(len(recs)))
	for _, rec := range recs {
		n += uv(uint64(len(rec.Path))) + int64(len(rec.Path)) + v(rec.Size) + v(rec.ModTime) +
			2*sha256.Size + uv(uint64(len(rec.Value))) + int64(len(rec.Value))
	}
	return n + uv(uint64(len(aux))) + int64(len(aux)) + macSize
}

// writeManifest streams the manifest to w, its HMAC computed as it goes:
// a manifest is never held whole in memory a second time beside the
// values it is made of (on the H200 venv, check's first run peaked there).
func (c *Cache) writeManifest(w io.Writer, k Key, recs []Record, aux []byte) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	mac := hmac.New(sha256.New, c.key)
	out := io.MultiWriter(bw, mac)
	var tmp [binary.MaxVarintLen64]byte
	var err error
	put := func(b []byte) {
		if err == nil {
			_, err = out.Write(b)
		}
	}
	uv := func(v uint64) { put(tmp[:binary.PutUvarint(tmp[:], v)]) }
	put([]byte(Format + "\n"))
	put(k[:])
	uv(uint64(len(recs)))
	for _, rec := range recs {
		uv(uint64(len(rec.Path)))
		put([]byte(rec.Path))
		put(tmp[:binary.PutVarint(tmp[:], rec.Size)])
		put(tmp[:binary.PutVarint(tmp[:], rec.ModTime)])
		put(rec.Sum[:])
		put(rec.Base[:])
		uv(uint64(len(rec.Value)))
		put(rec.Value)
	}
	uv(uint64(len(aux)))
	put(aux)
	if err != nil {
		return err
	}
	if _, err := bw.Write(mac.Sum(nil)); err != nil {
		return err
	}
	return bw.Flush()
}

// staleTemp is how old a temporary file must be before Save takes it for
// the leftover of a killed run rather than another run's write in progress.
const staleTemp = time.Hour

// Save writes recs (each path once), and aux beside them, as the manifest
// under k, replacing
// the one there: written to a temporary file and renamed over it, so that
// a concurrent reader sees the old manifest or the new, and a run killed
// while writing leaves the old one. Of two runs saving at once, the last
// rename wins, and each manifest is whole.
func (c *Cache) Save(k Key, recs []Record, aux []byte) error {
	seen := make(map[string]bool, len(recs))
	for _, rec := range recs {
		if seen[rec.Path] {
			return fmt.Errorf("cache: %q given twice", rec.Path)
		}
		seen[rec.Path] = true
	}
	if n := manifestSize(k, recs, aux); n > MaxManifest {
		return fmt.Errorf("cache: the manifest would be %d bytes, over the limit of %d", n, MaxManifest)
	}
	f, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	werr := c.writeManifest(f, k, recs, aux)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cache: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, c.manifestPath(k)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cache: %w", err)
	}
	c.removeStaleTemps()
	return nil
}

// removeStaleTemps deletes the temporary files of runs killed while
// saving; writes are once a run, so the directory's listing is cheap here.
func (c *Cache) removeStaleTemps() {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, d := range ents {
		if !strings.HasPrefix(d.Name(), ".tmp-") {
			continue
		}
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(c.dir, d.Name()))
		}
	}
}
