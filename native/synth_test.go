package native

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"io"
	"slices"
	"sync/atomic"
)

// part is bytes at an offset of a virtual file; the rest of it reads as
// zeros.
type part struct {
	off  int64
	data []byte
}

// virtualFile is a sparse file: a library of a terabyte costs the test
// only its headers.
type virtualFile struct {
	size  int64
	parts []part // sorted by off, not overlapping
}

func (v *virtualFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if off >= v.size {
		return 0, io.EOF
	}
	n := len(p)
	var err error
	if int64(n) > v.size-off {
		n = int(v.size - off)
		err = io.EOF
	}
	clear(p[:n])
	// The first part that ends after off; parts are sorted and disjoint.
	i, _ := slices.BinarySearchFunc(v.parts, off, func(pt part, off int64) int {
		if pt.off+int64(len(pt.data)) <= off {
			return -1
		}
		return 1
	})
	for _, pt := range v.parts[i:] {
		if pt.off >= off+int64(n) {
			break
		}
		lo, hi := max(pt.off, off), min(pt.off+int64(len(pt.data)), off+int64(n))
		if lo < hi {
			copy(p[lo-off:hi-off], pt.data[lo-pt.off:hi-pt.off])
		}
	}
	return n, err
}

// Bytes materialises a small virtual file.
func (v *virtualFile) Bytes() []byte {
	b := make([]byte, v.size)
	v.ReadAt(b, 0)
	return b
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r     io.ReaderAt
	bytes atomic.Int64
	reads atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.bytes.Add(int64(n))
	c.reads.Add(1)
	return n, err
}

// synthSection is a section of a synthetic ELF file: its contents are
// parts relative to its start, size bytes in all.
type synthSection struct {
	name  string
	typ   elf.SectionType
	flags elf.SectionFlag
	parts []part
	size  int64
	link  uint32
	ent   uint64
}

// synthELF lays out a little-endian ELF64 shared library of x86-64 with
// the given sections (after a null section, before .shstrtab), each at an
// 8-aligned offset after the ELF header, and the section headers last.
func synthELF(secs ...synthSection) *virtualFile {
	v := &virtualFile{}
	var shstr bytes.Buffer
	shstr.WriteByte(0)
	nameOff := make([]uint32, len(secs)+1)
	for i, s := range secs {
		nameOff[i] = uint32(shstr.Len())
		shstr.WriteString(s.name)
		shstr.WriteByte(0)
	}
	nameOff[len(secs)] = uint32(shstr.Len())
	shstr.WriteString(".shstrtab\x00")
	all := append(slices.Clone(secs), synthSection{name: ".shstrtab", typ: elf.SHT_STRTAB, parts: []part{{0, shstr.Bytes()}}, size: int64(shstr.Len())})

	off := int64(64)
	offs := make([]int64, len(all))
	for i, s := range all {
		off = (off + 7) &^ 7
		offs[i] = off
		for _, p := range s.parts {
			v.parts = append(v.parts, part{off + p.off, p.data})
		}
		off += s.size
	}
	shoff := (off + 7) &^ 7
	sh := make([]byte, 64*(len(all)+1))
	for i, s := range all {
		b := sh[64*(i+1):]
		le := binary.LittleEndian
		le.PutUint32(b[0:], nameOff[i])
		le.PutUint32(b[4:], uint32(s.typ))
		le.PutUint64(b[8:], uint64(s.flags))
		le.PutUint64(b[24:], uint64(offs[i]))
		le.PutUint64(b[32:], uint64(s.size))
		le.PutUint32(b[40:], s.link)
		le.PutUint64(b[48:], 8)
		le.PutUint64(b[56:], s.ent)
	}
	v.parts = append(v.parts, part{shoff, sh})
	h := make([]byte, 64)
	copy(h, "\x7fELF\x02\x01\x01")
	le := binary.LittleEndian
	le.PutUint16(h[16:], uint16(elf.ET_DYN))
	le.PutUint16(h[18:], uint16(elf.EM_X86_64))
	le.PutUint32(h[20:], 1)
	le.PutUint64(h[40:], uint64(shoff))
	le.PutUint16(h[52:], 64)
	le.PutUint16(h[58:], 64)
	le.PutUint16(h[60:], uint16(len(all)+1))
	le.PutUint16(h[62:], uint16(len(all)))
	v.parts = append([]part{{0, h}}, v.parts...)
	v.size = shoff + int64(len(sh))
	slices.SortFunc(v.parts, func(a, b part) int { return int(a.off - b.off) })
	return v
}

// fatbinBuilder writes a .nv_fatbin section: containers of entries whose
// payloads are left as zeros (virtual).
type fatbinBuilder struct {
	parts []part
	size  int64
	open  int64 // offset of the open container's header, or -1
}

func newFatbin() *fatbinBuilder { return &fatbinBuilder{open: -1} }

// container opens a container; its size is written when the next opens or
// the section is taken.
func (f *fatbinBuilder) container() *fatbinBuilder {
	f.close()
	h := make([]byte, 16)
	binary.LittleEndian.PutUint32(h, FatbinMagic)
	binary.LittleEndian.PutUint16(h[4:], 1)
	binary.LittleEndian.PutUint16(h[6:], 16)
	f.parts = append(f.parts, part{f.size, h})
	f.open = f.size
	f.size += 16
	return f
}

func (f *fatbinBuilder) close() {
	if f.open < 0 {
		return
	}
	for _, p := range f.parts {
		if p.off == f.open {
			binary.LittleEndian.PutUint64(p.data[8:], uint64(f.size-f.open-16))
		}
	}
	f.open = -1
}

// entry adds an entry header of hs bytes and a payload of payload bytes.
func (f *fatbinBuilder) entry(kind uint16, arch uint32, flags uint64, hs uint32, payload uint64) *fatbinBuilder {
	return f.lying(kind, arch, flags, hs, payload, int64(max(hs, 64))+int64(payload))
}

// lying adds an entry header that declares hs and payload but takes only
// length bytes of the section (at least 64).
func (f *fatbinBuilder) lying(kind uint16, arch uint32, flags uint64, hs uint32, payload uint64, length int64) *fatbinBuilder {
	h := make([]byte, max(min(int64(hs), length), 64))
	le := binary.LittleEndian
	le.PutUint16(h[0:], kind)
	le.PutUint16(h[2:], 0x0101)
	le.PutUint32(h[4:], hs)
	le.PutUint64(h[8:], payload)
	le.PutUint32(h[28:], arch)
	le.PutUint64(h[40:], flags)
	f.parts = append(f.parts, part{f.size, h})
	f.size += max(length, int64(len(h)))
	return f
}

// raw appends bytes as they are.
func (f *fatbinBuilder) raw(b []byte) *fatbinBuilder {
	f.parts = append(f.parts, part{f.size, b})
	f.size += int64(len(b))
	return f
}

func (f *fatbinBuilder) section() synthSection {
	f.close()
	return synthSection{name: ".nv_fatbin", typ: elf.SHT_PROGBITS, flags: elf.SHF_ALLOC, parts: f.parts, size: f.size}
}
