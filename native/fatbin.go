package native

import (
	"debug/elf"
	"encoding/binary"
)

// The fatbin layout; docs/native.md gives each field's public source.
const (
	// FatbinMagic starts every fatbin container (fatBinaryHeader.magic).
	FatbinMagic uint32 = 0xBA55ED50

	containerHeaderSize = 16 // magic u32, version u16, header size u16, entries' size u64
	entryHeaderMin      = 64 // the fields below; CUDA 12.8 and later add more after them

	// Entry header fields, as offsets.
	entKind       = 0  // u16: 1 PTX, 2 ELF
	entHeaderSize = 4  // u32
	entSize       = 8  // u64: the payload's length, padded
	entCompressed = 16 // u32: compressed length
	entVersion    = 24 // u16 minor, u16 major
	entArch       = 28 // u32: 10*major+minor
	entFlags      = 40 // u64
	entUncomp     = 56 // u64: uncompressed length

	kindPTX = 1
	kindELF = 2

	// Entry flags.
	flagCompressLZ       = 0x1000   // FATBIN_FLAG_COMPRESS
	flagCompressLZ2      = 0x2000   // FATBIN_FLAG_COMPRESS2
	flagCompressZstd     = 0x8000   // FATBIN_FLAG_ZCOMPRESS
	flagArchSpecific     = 0x100000 // sm_XYa: seen on every a entry nvcc 13.0 writes
	flagFamilySpecific   = 0x200000 // sm_XYf: seen on every f entry nvcc 13.0 writes
	fatbinContainerLimit = 256      // a container header longer than this is not one we know
)

// The sections that hold fatbin containers (NVIDIA's fatbinary_section.h).
var fatbinSections = map[string]bool{
	".nv_fatbin":     true, // FATBIN_DATA_SECTION_NAME
	"__nv_relfatbin": true, // FATBIN_PRELINK_DATA_SECTION_NAME: relocatable device code
}

var le = binary.LittleEndian

// fatbins lists the entries of every fatbin section, from their headers.
func (er *elfReader) fatbins(lib *Library) error {
	for _, s := range er.f.Sections {
		if !fatbinSections[s.Name] || s.Type == elf.SHT_NOBITS || s.FileSize == 0 {
			continue
		}
		if s.Flags&elf.SHF_COMPRESSED != 0 {
			return formatErr(er.name, int64(s.Offset), "section %s is compressed", s.Name)
		}
		if err := er.within(int64(s.Offset), "section "+s.Name, s.Offset, s.FileSize); err != nil {
			return err
		}
		fr := fatbinReader{er: er, lib: lib, section: s.Name}
		if err := fr.walk(int64(s.Offset), int64(s.FileSize)); err != nil {
			return err
		}
	}
	return nil
}

// fatbinReader walks one section's containers. Each container header costs
// one 16-byte read, each entry one 64-byte read: the payloads are never
// read, however large.
type fatbinReader struct {
	er      *elfReader
	lib     *Library
	section string
	buf     [entryHeaderMin]byte
}

func (fr *fatbinReader) walk(base, size int64) error {
	er, lim := fr.er, fr.er.lim
	for p := int64(0); p < size; {
		rest := size - p
		if rest < containerHeaderSize {
			return fr.padding(base+p, rest)
		}
		h := fr.buf[:containerHeaderSize]
		if err := er.readFull(h, base+p, "fatbin container header"); err != nil {
			return err
		}
		if magic := le.Uint32(h); magic != FatbinMagic {
			if magic == 0 {
				n, err := fr.skipZeros(base+p, rest)
				if err != nil {
					return err
				}
				p += n
				continue
			}
			return formatErr(er.name, base+p, "%s: no fatbin container here: magic %#08x, want %#08x", fr.section, magic, FatbinMagic)
		}
		version, hs, fatSize := le.Uint16(h[4:]), int64(le.Uint16(h[6:])), le.Uint64(h[8:])
		if version != 1 {
			return formatErr(er.name, base+p, "%s: fatbin container version %d; only version 1 is known", fr.section, version)
		}
		if hs < containerHeaderSize || hs > fatbinContainerLimit {
			return formatErr(er.name, base+p, "%s: fatbin container header of %d bytes; it has 16", fr.section, hs)
		}
		if hs > rest || fatSize > uint64(rest-hs) {
			return formatErr(er.name, base+p, "%s: fatbin container of %d bytes runs past the end of the section (%d bytes left)", fr.section, fatSize, rest-min(hs, rest))
		}
		if fr.lib.Containers >= lim.MaxContainers {
			return limitErr(er.name, base+p, "%s: more than %d fatbin containers", fr.section, lim.MaxContainers)
		}
		if err := fr.container(base+p+hs, int64(fatSize), fr.lib.Containers); err != nil {
			return err
		}
		fr.lib.Containers++
		p += hs + int64(fatSize)
	}
	return nil
}

// skipZeros steps over zero padding between containers (at most
// MaxPadding bytes) and returns how many bytes to skip, to the 8-byte
// boundary below the first non-zero byte.
func (fr *fatbinReader) skipZeros(off, rest int64) (int64, error) {
	n := min(rest, int64(fr.er.lim.MaxPadding))
	b := make([]byte, n)
	if err := fr.er.readFull(b, off, "fatbin padding"); err != nil {
		return 0, err
	}
	for i, c := range b {
		if c != 0 {
			skip := int64(i) &^ 7
			if skip == 0 {
				return 0, formatErr(fr.er.name, off, "%s: no fatbin container here: magic %#08x, want %#08x", fr.section, le.Uint32(b), FatbinMagic)
			}
			return skip, nil
		}
	}
	if n == rest {
		return n, nil
	}
	return 0, limitErr(fr.er.name, off, "%s: more than %d zero bytes where a fatbin container should start", fr.section, fr.er.lim.MaxPadding)
}

// padding checks that the section's last few bytes are zero.
func (fr *fatbinReader) padding(off, n int64) error {
	b := fr.buf[:n]
	if err := fr.er.readFull(b, off, "fatbin padding"); err != nil {
		return err
	}
	for _, c := range b {
		if c != 0 {
			return formatErr(fr.er.name, off, "%s: %d bytes after the last fatbin container, too few for another", fr.section, n)
		}
	}
	return nil
}

// container reads the entry headers of one container's size bytes at off.
func (fr *fatbinReader) container(off, size int64, index int) error {
	er, lim := fr.er, fr.er.lim
	for q := int64(0); q < size; {
		rest := size - q
		at := off + q
		if rest < entryHeaderMin {
			return formatErr(er.name, at, "%s: fatbin entry header truncated: %d bytes left in the container, an entry header has %d", fr.section, rest, entryHeaderMin)
		}
		h := fr.buf[:entryHeaderMin]
		if err := er.readFull(h, at, "fatbin entry header"); err != nil {
			return err
		}
		hs := le.Uint32(h[entHeaderSize:])
		payload := le.Uint64(h[entSize:])
		switch {
		case hs < entryHeaderMin:
			return formatErr(er.name, at, "%s: fatbin entry header size %d, under the %d every entry has", fr.section, hs, entryHeaderMin)
		case int64(hs) > int64(lim.MaxEntryHeader):
			return limitErr(er.name, at, "%s: fatbin entry header of %d bytes, over the limit of %d", fr.section, hs, lim.MaxEntryHeader)
		case int64(hs) > rest:
			return formatErr(er.name, at, "%s: fatbin entry header of %d bytes runs past its container (%d bytes left)", fr.section, hs, rest)
		case payload > uint64(rest-int64(hs)):
			return formatErr(er.name, at, "%s: fatbin entry of %d bytes runs past its container (%d bytes left)", fr.section, payload, rest-int64(hs))
		}
		if len(fr.lib.Entries) >= lim.MaxEntries {
			return limitErr(er.name, at, "%s: more than %d fatbin entries", fr.section, lim.MaxEntries)
		}
		fr.lib.Entries = append(fr.lib.Entries, entry(h, fr.section, index, at, payload))
		q += int64(hs) + int64(payload)
	}
	return nil
}

// entry decodes a 64-byte entry header.
func entry(h []byte, section string, container int, at int64, payload uint64) Entry {
	raw := le.Uint16(h[entKind:])
	flags := le.Uint64(h[entFlags:])
	e := Entry{
		RawKind:    raw,
		Kind:       Other,
		Arch:       Arch(le.Uint32(h[entArch:])),
		Flags:      flags,
		Version:    [2]uint16{le.Uint16(h[entVersion+2:]), le.Uint16(h[entVersion:])},
		Section:    section,
		Container:  container,
		Offset:     at,
		HeaderSize: le.Uint32(h[entHeaderSize:]),
		Size:       int64(payload),
	}
	switch raw {
	case kindPTX:
		e.Kind = PTX
	case kindELF:
		e.Kind = SASS
	}
	switch {
	case flags&flagArchSpecific != 0:
		e.Variant = ArchSpecific
	case flags&flagFamilySpecific != 0:
		e.Variant = FamilySpecific
	}
	switch {
	case flags&flagCompressZstd != 0:
		e.Compression = Zstd
	case flags&(flagCompressLZ|flagCompressLZ2) != 0:
		e.Compression = LZ
	default:
		e.Compression = Uncompressed
	}
	if e.Compression != Uncompressed {
		e.CompressedSize = le.Uint32(h[entCompressed:])
		e.UncompressedSize = le.Uint64(h[entUncomp:])
	}
	return e
}
