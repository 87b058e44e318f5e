// Package cache is envguard's content cache: results stored under a key
// made from everything they depend on (the input's bytes, the project
// configuration, the targets, the knowledge base's version, the program's
// build), so that a re-run over unchanged files costs little more than
// hashing them. It lives in ~/.cache/envguard (XDG_CACHE_HOME honoured).
//
// An entry is written to a temporary file and renamed into place, so a
// reader sees a whole entry or none. Every entry repeats its key and
// carries a checksum of its value; one that is truncated, corrupt, written
// by another format version or filed under the wrong name is a miss, never
// trusted, and the next Put replaces it.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
)

// Format is the version of the entry layout and of the key derivation; a
// change to either must change it, so that old entries are misses.
const Format = "envguard-cache-v1"

// Key names an entry: a SHA-256 over Format and the parts given to a
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

// Cache is a directory of entries. Its methods are safe for concurrent use,
// also by several processes sharing the directory.
type Cache struct{ dir string }

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

// Open uses dir, creating it if need be.
func Open(dir string) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("no cache directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// Dir is where the entries are.
func (c *Cache) Dir() string { return c.dir }

func (c *Cache) path(k Key) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s[2:])
}

// An entry is: magic (Format, newline), the key (32 bytes), the value's
// length (8 bytes, big-endian), the value, and the SHA-256 of everything
// before it.
const trailer = sha256.Size

// Get returns the value stored under k; ok is false where there is none or
// the entry is not sound.
func (c *Cache) Get(k Key) (value []byte, ok bool) {
	b, err := os.ReadFile(c.path(k))
	if err != nil {
		return nil, false
	}
	return decode(b, k)
}

func decode(b []byte, k Key) ([]byte, bool) {
	head := len(Format) + 1 + len(k) + 8
	if len(b) < head+trailer || string(b[:len(Format)]) != Format || b[len(Format)] != '\n' {
		return nil, false
	}
	if !bytes.Equal(b[len(Format)+1:len(Format)+1+len(k)], k[:]) {
		return nil, false // another key's entry under this name
	}
	n := binary.BigEndian.Uint64(b[head-8 : head])
	if n != uint64(len(b)-head-trailer) {
		return nil, false
	}
	sum := sha256.Sum256(b[:len(b)-trailer])
	if !bytes.Equal(sum[:], b[len(b)-trailer:]) {
		return nil, false
	}
	return b[head : len(b)-trailer], true
}

func encode(k Key, value []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(Format) + 1 + len(k) + 8 + len(value) + trailer)
	b.WriteString(Format)
	b.WriteByte('\n')
	b.Write(k[:])
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(value)))
	b.Write(n[:])
	b.Write(value)
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// Put stores value under k: written to a temporary file beside the entry
// and renamed over it, so that readers never see half an entry.
func (c *Cache) Put(k Key, value []byte) error {
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(encode(k, value))
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cache: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
