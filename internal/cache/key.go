package cache

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// keyName is the cache's HMAC key file: 32 random bytes, mode 0600, made
// on first use. A manifest whose HMAC does not verify under it is not
// read, so one written by hand (or copied from another cache) cannot be
// made to pass by recomputing a checksum anyone can compute.
const keyName = "key"

const keySize = 32

// loadKey reads dir's key file, making it where there is none. A key file
// another user owns or others can read or write makes the cache unsafe; one
// of the wrong size (damaged) is replaced, which costs every manifest.
func loadKey(dir string) ([]byte, error) {
	p := filepath.Join(dir, keyName)
	for range 3 {
		k, err := readKey(dir, p)
		if err == nil {
			return k, nil
		}
		var unsafe *UnsafeError
		switch {
		case errors.As(err, &unsafe):
			return nil, err
		case errors.Is(err, fs.ErrNotExist):
			// Linked into place: of two runs making it at once, the
			// first link wins and both read it.
			if err := writeKey(dir, func(tmp string) error { return os.Link(tmp, p) }); err != nil && !errors.Is(err, fs.ErrExist) {
				return nil, err
			}
		case errors.Is(err, errKeySize):
			if err := writeKey(dir, func(tmp string) error { return os.Rename(tmp, p) }); err != nil {
				return nil, err
			}
		default:
			return nil, err
		}
	}
	return nil, fmt.Errorf("%s: could not make a key file", p)
}

var errKeySize = errors.New("not a key file")

func readKey(dir, p string) ([]byte, error) {
	f, st, err := openOwn(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if why := checkOwn(st, 0o077); why != "" {
		return nil, &UnsafeError{Dir: dir, Reason: fmt.Sprintf("key file %s is %s", p, why)}
	}
	if st.Size() != keySize {
		return nil, errKeySize
	}
	k := make([]byte, keySize)
	if _, err := io.ReadFull(f, k); err != nil {
		return nil, err
	}
	return k, nil
}

// writeKey writes a fresh key to a temporary file (mode 0600) and puts it
// in place with place.
func writeKey(dir string, place func(tmp string) error) error {
	k := make([]byte, keySize)
	if _, err := rand.Read(k); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-key-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.Write(k)
	if err := errors.Join(werr, f.Close()); err != nil {
		return err
	}
	return place(tmp)
}

// sign is the HMAC-SHA256 of b under the cache's key.
func (c *Cache) sign(b []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write(b)
	return m.Sum(nil)
}
