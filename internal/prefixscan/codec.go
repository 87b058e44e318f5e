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
// Symbol: Name, Version, Library, Type, Weak (a byte). Entry: Kind,
// RawKind, Arch, Variant, Compression, Flags, Version[0], Version[1],
// Section, Container, Offset, HeaderSize, Size, CompressedSize,
// UncompressedSize. After the library, the hashes of its torch exports
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
	for _, e := range l.Entries {
		b = appendString(b, string(e.Kind))
		b = binary.AppendUvarint(b, uint64(e.RawKind))
		b = binary.AppendVarint(b, int64(e.Arch))
		b = appendString(b, string(e.Variant))
		b = appendString(b, string(e.Compression))
		b = binary.AppendUvarint(b, e.Flags)
		b = binary.AppendUvarint(b, uint64(e.Version[0]))
		b = binary.AppendUvarint(b, uint64(e.Version[1]))
		b = appendString(b, e.Section)
		b = binary.AppendVarint(b, int64(e.Container))
		b = binary.AppendVarint(b, e.Offset)
		b = binary.AppendUvarint(b, uint64(e.HeaderSize))
		b = binary.AppendVarint(b, e.Size)
		b = binary.AppendUvarint(b, uint64(e.CompressedSize))
		b = binary.AppendUvarint(b, e.UncompressedSize)
	}
	b = appendLen(b, exports.Len(), exports == nil)
	return append(b, exports[:8*exports.Len()]...)
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

// again is prev when b spells it, else b interned: the strings of a
// library's entries repeat from one entry to the next.
func (d *decoder) again(b []byte, prev string) string {
	if string(b) == prev { // the comparison does not copy b
		return prev
	}
	return d.in.str(b)
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
	// An entry takes at least 17 bytes (four empty strings, eleven numbers).
	if n, isNil := readLen(f, 17); !isNil {
		l.Entries = make([]native.Entry, n)
		// An entry's strings are nearly always its neighbour's: compared
		// with those first, the interner's map is asked only on a change
		// (libcublasLt has 5,737 entries, the H200 venv 21,000).
		var prev native.Entry
		for i := range l.Entries {
			e := &l.Entries[i]
			e.Kind = native.Kind(d.again(f.Bytes(), string(prev.Kind)))
			e.RawKind = uint16(f.Uvarint())
			e.Arch = native.Arch(f.Varint())
			e.Variant = native.Variant(d.again(f.Bytes(), string(prev.Variant)))
			e.Compression = native.Compression(d.again(f.Bytes(), string(prev.Compression)))
			e.Flags = f.Uvarint()
			e.Version = [2]uint16{uint16(f.Uvarint()), uint16(f.Uvarint())}
			e.Section = d.again(f.Bytes(), prev.Section)
			e.Container = int(f.Varint())
			e.Offset = f.Varint()
			e.HeaderSize = uint32(f.Uvarint())
			e.Size = f.Varint()
			e.CompressedSize = uint32(f.Uvarint())
			e.UncompressedSize = f.Uvarint()
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
