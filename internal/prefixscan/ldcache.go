package prefixscan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// The dynamic loader's cache, /etc/ld.so.cache, as glibc's ldconfig writes
// it (sysdeps/generic/dl-cache.h): the "new" format, magic
// "glibc-ld.so.cache" and version "1.1", either alone (glibc 2.32 and
// later) or after an old-format ("ld.so-1.7.0") table whose entries it
// skips. The new header is 48 bytes: magic and version (20), nlibs and
// len_strings (uint32 each), flags (uint8) and 3 bytes of padding,
// extension_offset (uint32) and 3 unused uint32. Each entry is 24 bytes:
// flags (int32), key and value (uint32 offsets of NUL-terminated strings,
// from the new header's start), osversion (uint32), hwcap (uint64). The
// key is a SONAME, the value the path ldconfig found it at; flags' low
// byte is the kind (FLAG_ELF_LIBC6 = 3) and the next the architecture
// (FLAG_X8664_LIB64 = 0x0300, FLAG_AARCH64_LIB64 = 0x0a00).
const (
	oldMagic      = "ld.so-1.7.0"
	newMagic      = "glibc-ld.so.cache1.1"
	newHeaderSize = 48
	newEntrySize  = 24
	oldEntrySize  = 12
	// maxLDCache bounds the file read: a real one is tens of KiB.
	maxLDCache = 16 << 20
)

// ldEntry is one library the cache lists.
type ldEntry struct {
	SONAME string
	Path   string
	Flags  uint32
}

// archFlag is the cache's architecture flag for an e_machine, 0 where
// any entry will do.
func archFlag(machine string) uint32 {
	switch machine {
	case "EM_X86_64":
		return 0x0300
	case "EM_AARCH64":
		return 0x0a00
	}
	return 0
}

// readLDCache parses the loader's cache at path. A missing file is no
// entries and no error (a container without ldconfig run).
func readLDCache(path string) ([]ldEntry, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLDCache+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxLDCache {
		return nil, fmt.Errorf("%s: more than %d bytes", path, maxLDCache)
	}
	return parseLDCache(b)
}

func parseLDCache(b []byte) ([]ldEntry, error) {
	start := 0
	if bytes.HasPrefix(b, []byte(oldMagic)) {
		// struct cache_file: magic[11], padding to 12, nlibs, then entries
		// of three int32; the new cache follows, 8-aligned.
		if len(b) < 16 {
			return nil, errors.New("ld.so.cache: old header cut short")
		}
		n := int(binary.LittleEndian.Uint32(b[12:16]))
		if n < 0 || n > len(b)/oldEntrySize {
			return nil, fmt.Errorf("ld.so.cache: %d old entries do not fit in %d bytes", n, len(b))
		}
		start = 16 + n*oldEntrySize
		start = (start + 7) &^ 7
		if start >= len(b) {
			return nil, errors.New("ld.so.cache: old format only, which is not read")
		}
	}
	c := b[start:]
	if !bytes.HasPrefix(c, []byte(newMagic)) {
		return nil, errors.New("ld.so.cache: not the glibc-ld.so.cache1.1 format")
	}
	if len(c) < newHeaderSize {
		return nil, errors.New("ld.so.cache: header cut short")
	}
	n := int(binary.LittleEndian.Uint32(c[20:24]))
	if n < 0 || n > (len(c)-newHeaderSize)/newEntrySize {
		return nil, fmt.Errorf("ld.so.cache: %d entries do not fit in %d bytes", n, len(c))
	}
	str := func(off uint32) (string, bool) {
		if int64(off) >= int64(len(c)) {
			return "", false
		}
		end := bytes.IndexByte(c[off:], 0)
		if end < 0 {
			return "", false
		}
		return string(c[off : int(off)+end]), true
	}
	out := make([]ldEntry, 0, n)
	for i := 0; i < n; i++ {
		e := c[newHeaderSize+i*newEntrySize:]
		flags := binary.LittleEndian.Uint32(e[0:4])
		k, ok1 := str(binary.LittleEndian.Uint32(e[4:8]))
		v, ok2 := str(binary.LittleEndian.Uint32(e[8:12]))
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("ld.so.cache: entry %d points past the file", i)
		}
		out = append(out, ldEntry{SONAME: k, Path: v, Flags: flags})
	}
	return out, nil
}
