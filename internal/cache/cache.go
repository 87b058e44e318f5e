// Package cache keeps envguard's results between runs, as ruff keeps
// its: one manifest per run (the paths given, the working directory, the
// flags), holding for each file its size, modification time, the SHA-256
// of its bytes, the key of the options it was judged under, and its
// result. A re-run stats each file and reads only those whose size or
// time changed, or whose time is too close to the manifest's own to be
// trusted (git's "racy" entries); a file touched but unchanged is known by
// its hash and not judged again. It lives in ~/.cache/envguard
// (XDG_CACHE_HOME honoured).
//
// A manifest is written to a temporary file and renamed into place, once
// per run, so a reader sees a whole manifest or none. It starts with its
// format's version, repeats its key and ends with an HMAC-SHA256 under the
// cache's own key file; one that is truncated, corrupt, forged, written by
// another format version, filed under the wrong name, not a regular file
// or over MaxManifest bytes is read as empty (every file a miss), never
// trusted, and the run's Save replaces it.
//
// What the cache says decides what validate prints and its exit code, so
// it trusts nothing it did not write: as ssh does with ~/.ssh, it is used
// only in a directory the user owns that no one else can write, under
// parents no one else can write either (Open).
package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/envguard/envguard/internal/filekind"
)

// Format is the version of the entry layout and of the key derivation; a
// change to either must change it, so that old entries are misses.
// v4: the checksum became an HMAC under the key file, and the manifest
// a file read only when it is regular, the user's own and small enough.
const Format = "envguard-cache-v4"

// formatPrefix starts every version's magic line, so that a manifest of
// another version is told from something that is no manifest at all.
const formatPrefix = "envguard-cache-v"

// Key names a manifest, or the options an entry was judged under: a SHA-256 over Format and the parts given to a
// KeyBuilder.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// KeyBuilder hashes the parts of a key. Each part is framed by its length,
// so ("ab", "c") and ("a", "bc") give different keys.
type KeyBuilder struct{ h hash.Hash }

// NewKey starts a key.
func NewKey() *KeyBuilder {
	b := &KeyBuilder{h: sha256.New()}
	b.Add([]byte(Format))
	return b
}

// Add appends one part.
func (b *KeyBuilder) Add(part []byte) *KeyBuilder {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(part)))
	b.h.Write(n[:])
	b.h.Write(part)
	return b
}

// AddString appends one part.
func (b *KeyBuilder) AddString(part string) *KeyBuilder { return b.Add([]byte(part)) }

// Key returns the key of the parts added so far.
func (b *KeyBuilder) Key() Key {
	var k Key
	copy(k[:], b.h.Sum(nil))
	return k
}

// Cache is a directory of manifests. Its methods are safe for concurrent use,
// also by several processes sharing the directory.
type Cache struct {
	dir string
	key []byte // the HMAC key every manifest here is signed with
}

// Dir returns the cache directory: $XDG_CACHE_HOME/envguard, else
// $HOME/.cache/envguard; "" when neither variable is set (no cache).
func Dir(getenv func(string) string) string {
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "envguard")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "envguard")
	}
	return ""
}

// Open uses dir, creating it (mode 0700) if need be, with its key file.
// A directory that another user owns or that group or others can write,
// or that lies under such a parent (short of a sticky one, as /tmp is), is
// refused with an *UnsafeError: whoever can write there could plant a
// manifest that says a failing file passes, so it is never read.
func Open(dir string) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("no cache directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	key, err := loadKey(dir)
	if err != nil {
		return nil, err
	}
	return &Cache{dir: dir, key: key}, nil
}

// UnsafeError says why a cache directory is not used.
type UnsafeError struct {
	Dir    string
	Reason string // "owned by uid 1001", "writable by group or others", ...
}

func (e *UnsafeError) Error() string { return "not using cache " + e.Dir + ": " + e.Reason }

// Dir is where the manifests are.
func (c *Cache) Dir() string { return c.dir }

// regularOrClose returns f with its FileInfo when it is a regular file, and
// otherwise closes it and says what it is: both platforms' openOwn end so.
func regularOrClose(f *os.File, path string) (*os.File, fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is %s, not a regular file", path, filekind.Of(st.Mode()))
	}
	return f, st, nil
}
