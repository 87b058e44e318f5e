package prefixscan

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver"
)

// A cached native.Library is written in cache.Fields' framing rather than
// JSON: a second run decodes every library's entry, and JSON's decoding
// (field names matched by reflection, every string a fresh allocation)
// was a sixth of that run. Strings that repeat across entries and
// libraries (the kinds, sections, machines, symbol versions) are read
// back as one shared string each, not a copy per use.
//
// The layout, every field in order: strings as a uvarint length and bytes;
// integers as varints (uvarints where unsigned); a list as a uvarint count
// and its elements, the count written one more than it is so that 0 says
// nil (a list read back is nil or empty as it was written). Library: Path, Member, Size, Class, Machine, Type,
// SONAME, Needed, RPATH, RUNPATH, Exports, Imports, Containers, Entries.
// Symbol: Name, Version, Library, Type, Weak (a byte). Entry, against
// the entry before it (the zero Entry for the first): a uvarint whose bit
// i (entrySame) says field i is the previous entry's and is not written,
// then the offset's difference from the previous entry's offset (a
// varint), then each field not the same, in order: Kind, RawKind, Arch,
// Variant, Compression, Flags, Version[0], Version[1], Section,
// Container, HeaderSize, Size, CompressedSize, UncompressedSize. A
// library's thousands of entries differ mostly in their architecture,
// offset and sizes, so an entry is a third of the bytes it took written
// whole (v2), and reading it copies the previous entry and a few fields.
// After the library, the hashes of its torch exports
// (resolver.TorchExports): a count, and 8 bytes each, little-endian.

// appendLen writes a list's count: 0 for nil, else one more than its
// length.
func appendLen(b []byte, n int, isNil bool) []byte {
	if isNil {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

// readLen reads what appendLen wrote, for elements that take at least min
// bytes each: a count the bytes left cannot hold fails the fields.
func readLen(f *cache.Fields, min int) (int, bool) {
	v := f.Uvarint()
	if v == 0 {
		return 0, true
	}
	if v-1 > uint64(f.Left()/min) {
		f.Next(-1) // fails the fields
		return 0, true
	}
	return int(v - 1), false
}

func appendStrings(b []byte, ss []string) []byte {
	b = appendLen(b, len(ss), ss == nil)
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

func appendSymbols(b []byte, syms []native.Symbol) []byte {
	b = appendLen(b, len(syms), syms == nil)
	for _, s := range syms {
		b = appendString(b, s.Name)
		b = appendString(b, s.Version)
		b = appendString(b, s.Library)
		b = appendString(b, s.Type)
		if s.Weak {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// encodeLibrary is l and its export hashes in the layout above.
func encodeLibrary(l *native.Library, exports resolver.SymbolHashes) []byte {
	b := make([]byte, 0, 256+64*len(l.Entries)+len(exports))
	b = appendString(b, l.Path)
	b = appendString(b, l.Member)
	b = binary.AppendVarint(b, l.Size)
	b = appendString(b, l.Class)
	b = appendString(b, l.Machine)
	b = appendString(b, l.Type)
	b = appendString(b, l.SONAME)
	b = appendStrings(b, l.Needed)
	b = appendStrings(b, l.RPATH)
	b = appendStrings(b, l.RUNPATH)
	b = appendSymbols(b, l.Exports)
	b = appendSymbols(b, l.Imports)
	b = binary.AppendVarint(b, int64(l.Containers))
	b = appendLen(b, len(l.Entries), l.Entries == nil)
	var prev native.Entry
	for _, e := range l.Entries {
		same := sameFields(&e, &prev)
		b = binary.AppendUvarint(b, same)
		b = binary.AppendVarint(b, e.Offset-prev.Offset)
		w := func(f int) bool { return same&(1<<f) == 0 }
		if w(sameKind) {
			b = appendString(b, string(e.Kind))
		}
		if w(sameRawKind) {
			b = binary.AppendUvarint(b, uint64(e.RawKind))
		}
		if w(sameArch) {
			b = binary.AppendVarint(b, int64(e.Arch))
		}
		if w(sameVariant) {
			b = appendString(b, string(e.Variant))
		}
		if w(sameCompression) {
			b = appendString(b, string(e.Compression))
		}
		if w(sameFlags) {
			b = binary.AppendUvarint(b, e.Flags)
		}
		if w(sameVersion) {
			b = binary.AppendUvarint(b, uint64(e.Version[0]))
			b = binary.AppendUvarint(b, uint64(e.Version[1]))
		}
		if w(sameSection) {
			b = appendString(b, e.Section)
		}
		if w(sameContainer) {
			b = binary.AppendVarint(b, int64(e.Container))
		}
		if w(sameHeaderSize) {
			b = binary.AppendUvarint(b, uint64(e.HeaderSize))
		}
		if w(sameSize) {
			b = binary.AppendVarint(b, e.Size)
		}
		if w(sameCompressedSize) {
			b = binary.AppendUvarint(b, uint64(e.CompressedSize))
		}
		if w(sameUncompressedSize) {
			b = binary.AppendUvarint(b, e.UncompressedSize)
		}
		prev = e
	}
	b = appendLen(b, exports.Len(), exports == nil)
	return append(b, exports[:8*exports.Len()]...)
}

// The bits of an entry's "same as the previous entry" mask.
const (
	sameKind = iota
	sameRawKind
	sameArch
	sameVariant
	sameCompression
	sameFlags
	sameVersion
	sameSection
	sameContainer
	sameHeaderSize
	sameSize
	sameCompressedSize
	sameUncompressedSize
	sameAll = 1<<(sameUncompressedSize+1) - 1
)

// sameFields is the mask of e's fields (other than the offset) equal to
// prev's.
func sameFields(e, prev *native.Entry) uint64 {
	var m uint64
	set := func(f int, eq bool) {
		if eq {
			m |= 1 << f
		}
	}
	set(sameKind, e.Kind == prev.Kind)
	set(sameRawKind, e.RawKind == prev.RawKind)
	set(sameArch, e.Arch == prev.Arch)
	set(sameVariant, e.Variant == prev.Variant)
	set(sameCompression, e.Compression == prev.Compression)
	set(sameFlags, e.Flags == prev.Flags)
	set(sameVersion, e.Version == prev.Version)
	set(sameSection, e.Section == prev.Section)
	set(sameContainer, e.Container == prev.Container)
	set(sameHeaderSize, e.HeaderSize == prev.HeaderSize)
	set(sameSize, e.Size == prev.Size)
	set(sameCompressedSize, e.CompressedSize == prev.CompressedSize)
	set(sameUncompressedSize, e.UncompressedSize == prev.UncompressedSize)
	return m
}

// interner hands out one string per distinct value read.
type interner map[string]string

func (in interner) str(b []byte) string {
	if s, ok := in[string(b)]; ok { // the lookup does not copy b
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// decoder reads entries of one manifest; the interner is shared by them.
type decoder struct{ in interner }

func newDecoder() *decoder { return &decoder{in: interner{}} }

func (d *decoder) strings(f *cache.Fields, intern bool) []string {
	n, isNil := readLen(f, 1)
	if isNil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		if intern {
			out[i] = d.in.str(f.Bytes())
		} else {
			out[i] = f.String()
		}
	}
	return out
}

func (d *decoder) symbols(f *cache.Fields) []native.Symbol {
	n, isNil := readLen(f, 5)
	if isNil {
		return nil
	}
	out := make([]native.Symbol, n)
	for i := range out {
		out[i] = native.Symbol{Name: f.String(), Version: d.in.str(f.Bytes()), Library: d.in.str(f.Bytes()),
			Type: d.in.str(f.Bytes())}
		switch f.Byte() {
		case 0:
		case 1:
			out[i].Weak = true
		default:
			f.Next(-1) // fails the fields
		}
	}
	return out
}

var errTrailing = errors.New("bytes after the library")

// decodeLibrary reads what encodeLibrary wrote; anything else is an error
// (the entry is then a miss, and the library read again). Its strings
// share b's memory (a manifest's entry, never written: cache.Fields.String).
func (d *decoder) decodeLibrary(b []byte) (*native.Library, resolver.SymbolHashes, error) {
	f := cache.NewFields(b, 0)
	l := &native.Library{
		Path: f.String(), Member: f.String(), Size: f.Varint(),
		Class: d.in.str(f.Bytes()), Machine: d.in.str(f.Bytes()), Type: d.in.str(f.Bytes()),
		SONAME: f.String(),
	}
	l.Needed = d.strings(f, true)
	l.RPATH = d.strings(f, false)
	l.RUNPATH = d.strings(f, false)
	l.Exports = d.symbols(f)
	l.Imports = d.symbols(f)
	l.Containers = int(f.Varint())
	// An entry takes at least 2 bytes (its mask and offset).
	if n, isNil := readLen(f, 2); !isNil {
		l.Entries = make([]native.Entry, n)
		var prev native.Entry
		for i := range l.Entries {
			e := &l.Entries[i]
			*e = prev
			same := f.Uvarint()
			if same&^sameAll != 0 {
				f.Next(-1) // fails the fields
				break
			}
			e.Offset = prev.Offset + f.Varint()
			r := func(b int) bool { return same&(1<<b) == 0 }
			if r(sameKind) {
				e.Kind = native.Kind(d.in.str(f.Bytes()))
			}
			if r(sameRawKind) {
				e.RawKind = uint16(f.Uvarint())
			}
			if r(sameArch) {
				e.Arch = native.Arch(f.Varint())
			}
			if r(sameVariant) {
				e.Variant = native.Variant(d.in.str(f.Bytes()))
			}
			if r(sameCompression) {
				e.Compression = native.Compression(d.in.str(f.Bytes()))
			}
			if r(sameFlags) {
				e.Flags = f.Uvarint()
			}
			if r(sameVersion) {
				e.Version = [2]uint16{uint16(f.Uvarint()), uint16(f.Uvarint())}
			}
			if r(sameSection) {
				e.Section = d.in.str(f.Bytes())
			}
			if r(sameContainer) {
				e.Container = int(f.Varint())
			}
			if r(sameHeaderSize) {
				e.HeaderSize = uint32(f.Uvarint())
			}
			if r(sameSize) {
				e.Size = f.Varint()
			}
			if r(sameCompressedSize) {
				e.CompressedSize = uint32(f.Uvarint())
			}
			if r(sameUncompressedSize) {
				e.UncompressedSize = f.Uvarint()
			}
			prev = *e
		}
	}
	// The hashes are handed over as the entry's bytes, in the layout
	// SymbolHashes reads.
	var exports resolver.SymbolHashes
	if n, isNil := readLen(f, 8); !isNil {
		exports = resolver.SymbolHashes(f.Next(8 * n))
		if exports == nil {
			exports = resolver.SymbolHashes{} // n is 0, or f has failed
		}
	}
	if f.Err() != nil {
		return nil, nil, fmt.Errorf("cached library: %w", f.Err())
	}
	if f.Left() != 0 {
		return nil, nil, errTrailing
	}
	return l, exports, nil
}
