package native

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
)

// Options say what to read besides the headers every read takes (ELF
// header, section headers, .dynamic and its strings, fatbin entry headers).
// The zero value reads no symbols and applies DefaultLimits.
type Options struct {
	// Symbols reads the dynamic symbol table into Exports and Imports.
	// It costs the whole of .dynsym and .dynstr (tens of MiB for the
	// largest libraries), so a check that needs only device code and
	// DT_NEEDED leaves it off.
	Symbols bool
	// EachSymbol, where set and Symbols is not, is called with each
	// dynamic symbol instead of keeping it in Exports and Imports (see
	// SymbolRef): a check that wants a few of a large library's symbols
	// holds neither the tables nor the rest.
	EachSymbol func(SymbolRef)
	// Limits bound the read; zero fields take DefaultLimits.
	Limits Limits
	// TempDir is where ReadPackage spools members over Limits.MaxInMemory;
	// empty is os.TempDir().
	TempDir string
}

// ReadFile reads the ELF file at path with the zero Options.
func ReadFile(path string) (*Library, error) { return Options{}.ReadFile(path) }

// Read reads an ELF file of size bytes from r with the zero Options; name
// is the path given in the Library and in errors.
func Read(r io.ReaderAt, size int64, name string) (*Library, error) {
	return Options{}.Read(r, size, name)
}

// ReadFile reads the ELF file at path.
func (o Options) ReadFile(path string) (*Library, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, openErr(path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, openErr(path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Path: path, Offset: -1, What: "not a regular file (" + st.Mode().Type().String() + ")", Err: ErrFormat}
	}
	return o.read(f, st.Size(), path, "")
}

// openErr drops the *os.PathError's own copy of the path.
func openErr(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return &Error{Path: path, Offset: -1, What: pe.Op, Err: pe.Err}
	}
	return &Error{Path: path, Offset: -1, What: "open", Err: err}
}

// Read reads an ELF file of size bytes from r; name is the path given in
// the Library and in errors.
func (o Options) Read(r io.ReaderAt, size int64, name string) (*Library, error) {
	return o.read(r, size, name, "")
}

// elfReader holds one read's state.
type elfReader struct {
	r    io.ReaderAt
	size int64
	name string // for errors: path, or path!member
	lim  Limits
	bo   binary.ByteOrder
	is64 bool
	f    *elf.File
}

func (o Options) read(r io.ReaderAt, size int64, path, member string) (*Library, error) {
	name := path
	if member != "" {
		name = path + "!" + member
	}
	er := &elfReader{r: r, size: size, name: name, lim: o.Limits.withDefaults()}
	if err := er.preflight(); err != nil {
		return nil, err
	}
	f, err := elf.NewFile(io.NewSectionReader(r, 0, size))
	if err != nil {
		return nil, er.elfErr(err)
	}
	er.f = f
	lib := &Library{
		Path: path, Member: member, Size: size,
		Class: className(f.Class), Machine: f.Machine.String(), Type: typeName(f.Type),
		Needed: []string{},
	}
	if err := er.dynamic(lib); err != nil {
		return nil, err
	}
	if o.Symbols {
		if err := er.symbols(lib); err != nil {
			return nil, err
		}
	} else if o.EachSymbol != nil {
		if err := er.eachSymbol(o.EachSymbol); err != nil {
			return nil, err
		}
	}
	if err := er.fatbins(lib); err != nil {
		return nil, err
	}
	return lib, nil
}

// elfErr turns debug/elf's errors into this package's.
func (er *elfReader) elfErr(err error) error {
	var fe *elf.FormatError
	if errors.As(err, &fe) {
		return formatErr(er.name, -1, "ELF: %v", fe)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return formatErr(er.name, -1, "ELF: truncated (%v)", err)
	}
	return ioErr(er.name, -1, "ELF", err)
}

func className(c elf.Class) string {
	switch c {
	case elf.ELFCLASS64:
		return "ELF64"
	case elf.ELFCLASS32:
		return "ELF32"
	}
	return c.String()
}

func typeName(t elf.Type) string {
	switch t {
	case elf.ET_DYN:
		return "shared"
	case elf.ET_EXEC:
		return "executable"
	case elf.ET_REL:
		return "relocatable"
	case elf.ET_CORE:
		return "core"
	}
	return "other"
}

// header is what preflight reads of the ELF header.
type header struct {
	shoff, phoff         int64
	shnum, phnum         int
	shentsize, phentsize int
	shstrndx             int
}

// preflight reads the ELF header and the section name table's header by
// hand and holds them to the limits before debug/elf, which trusts the
// counts and sizes it reads, sees the file.
func (er *elfReader) preflight() error {
	var h header
	var b [64]byte
	n, err := er.r.ReadAt(b[:], 0)
	if n < 4 || string(b[:4]) != "\x7fELF" {
		if err != nil && !errors.Is(err, io.EOF) {
			return ioErr(er.name, 0, "read", err)
		}
		return &Error{Path: er.name, Offset: -1, Err: ErrNotELF}
	}
	switch elf.Class(b[elf.EI_CLASS]) {
	case elf.ELFCLASS32:
	case elf.ELFCLASS64:
		er.is64 = true
	default:
		return formatErr(er.name, elf.EI_CLASS, "ELF class %d is neither 32- nor 64-bit", b[elf.EI_CLASS])
	}
	switch elf.Data(b[elf.EI_DATA]) {
	case elf.ELFDATA2LSB:
		er.bo = binary.LittleEndian
	case elf.ELFDATA2MSB:
		er.bo = binary.BigEndian
	default:
		return formatErr(er.name, elf.EI_DATA, "ELF byte order %d is neither little- nor big-endian", b[elf.EI_DATA])
	}
	want := 52
	if er.is64 {
		want = 64
	}
	if n < want {
		return formatErr(er.name, 0, "ELF header truncated: %d of its %d bytes", n, want)
	}
	bo := er.bo
	var shentsizeWant int
	if er.is64 {
		h.phoff = int64(bo.Uint64(b[32:]))
		h.shoff = int64(bo.Uint64(b[40:]))
		h.phentsize, h.phnum = int(bo.Uint16(b[54:])), int(bo.Uint16(b[56:]))
		h.shentsize, h.shnum, h.shstrndx = int(bo.Uint16(b[58:])), int(bo.Uint16(b[60:])), int(bo.Uint16(b[62:]))
		shentsizeWant = 64
	} else {
		h.phoff = int64(bo.Uint32(b[28:]))
		h.shoff = int64(bo.Uint32(b[32:]))
		h.phentsize, h.phnum = int(bo.Uint16(b[42:])), int(bo.Uint16(b[44:]))
		h.shentsize, h.shnum, h.shstrndx = int(bo.Uint16(b[46:])), int(bo.Uint16(b[48:])), int(bo.Uint16(b[50:]))
		shentsizeWant = 40
	}
	if h.shoff < 0 || h.phoff < 0 {
		return formatErr(er.name, 0, "ELF header: negative table offset")
	}
	if h.shoff != 0 && h.shentsize < shentsizeWant {
		return formatErr(er.name, 0, "ELF header: section header size %d, under the %d the class needs", h.shentsize, shentsizeWant)
	}
	// Section 0 holds the real counts when they do not fit the header.
	if h.shoff != 0 && (h.shnum == 0 || h.shstrndx == int(elf.SHN_XINDEX) || h.phnum == 0xffff) {
		sh, err := er.sectionHeader(h, 0)
		if err != nil {
			return err
		}
		if h.shnum == 0 {
			if sh.size > uint64(er.lim.MaxSections) {
				return limitErr(er.name, h.shoff, "%d section headers, over the limit of %d", sh.size, er.lim.MaxSections)
			}
			h.shnum = int(sh.size)
		}
		if h.shstrndx == int(elf.SHN_XINDEX) {
			h.shstrndx = int(sh.link)
		}
		if h.phnum == 0xffff {
			h.phnum = int(sh.info)
		}
	}
	if h.shnum > er.lim.MaxSections {
		return limitErr(er.name, 0, "%d section headers, over the limit of %d", h.shnum, er.lim.MaxSections)
	}
	if h.phnum > er.lim.MaxSegments {
		return limitErr(er.name, 0, "%d program headers, over the limit of %d", h.phnum, er.lim.MaxSegments)
	}
	if end := h.shoff + int64(h.shnum)*int64(h.shentsize); h.shnum > 0 && (end > er.size || end < h.shoff) {
		return formatErr(er.name, h.shoff, "%d section headers of %d bytes run past the end of the file (%d bytes)", h.shnum, h.shentsize, er.size)
	}
	if end := h.phoff + int64(h.phnum)*int64(h.phentsize); h.phnum > 0 && (end > er.size || end < h.phoff) {
		return formatErr(er.name, h.phoff, "%d program headers of %d bytes run past the end of the file (%d bytes)", h.phnum, h.phentsize, er.size)
	}
	if h.shnum > 0 && h.shstrndx != 0 {
		if h.shstrndx >= h.shnum {
			return formatErr(er.name, 0, "section name table index %d, but there are %d sections", h.shstrndx, h.shnum)
		}
		sh, err := er.sectionHeader(h, h.shstrndx)
		if err != nil {
			return err
		}
		if sh.flags&uint64(elf.SHF_COMPRESSED) != 0 {
			return formatErr(er.name, sh.at, "the section name table is compressed")
		}
		if sh.size > uint64(er.lim.MaxShstrtab) {
			return limitErr(er.name, sh.at, "section name table of %d bytes, over the limit of %d", sh.size, er.lim.MaxShstrtab)
		}
		if err := er.within(sh.at, "section name table", sh.offset, sh.size); err != nil {
			return err
		}
	}
	return nil
}

type rawSection struct {
	at                  int64 // where its header is
	flags, offset, size uint64
	link, info          uint32
}

func (er *elfReader) sectionHeader(h header, i int) (rawSection, error) {
	s := rawSection{at: h.shoff + int64(i)*int64(h.shentsize)}
	var b [64]byte
	n := 40
	if er.is64 {
		n = 64
	}
	if err := er.readFull(b[:n], s.at, "section header"); err != nil {
		return s, err
	}
	bo := er.bo
	if er.is64 {
		s.flags, s.offset, s.size = bo.Uint64(b[8:]), bo.Uint64(b[24:]), bo.Uint64(b[32:])
		s.link, s.info = bo.Uint32(b[40:]), bo.Uint32(b[44:])
	} else {
		s.flags, s.offset, s.size = uint64(bo.Uint32(b[8:])), uint64(bo.Uint32(b[16:])), uint64(bo.Uint32(b[20:]))
		s.link, s.info = bo.Uint32(b[24:]), bo.Uint32(b[28:])
	}
	return s, nil
}

// within checks that size bytes at off lie inside the file.
func (er *elfReader) within(at int64, what string, off, size uint64) error {
	if off > uint64(er.size) || size > uint64(er.size)-off {
		return formatErr(er.name, at, "%s (%d bytes at %#x) runs past the end of the file (%d bytes)", what, size, off, er.size)
	}
	return nil
}

// readFull reads len(b) bytes at off; a short read is a truncated file.
func (er *elfReader) readFull(b []byte, off int64, what string) error {
	n, err := er.r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return formatErr(er.name, off, "%s truncated: %d of its %d bytes", what, n, len(b))
	}
	return ioErr(er.name, off, "read "+what, err)
}

// dynamic reads .dynamic and the strings it names: DT_NEEDED, DT_SONAME,
// DT_RPATH and DT_RUNPATH, each string by a bounded read at its offset in
// the dynamic string table rather than the whole table.
func (er *elfReader) dynamic(lib *Library) error {
	var dynOff, dynSize, strOff, strSize uint64
	found := false
	for _, s := range er.f.Sections {
		if s.Type != elf.SHT_DYNAMIC {
			continue
		}
		dynOff, dynSize = s.Offset, s.FileSize
		if int(s.Link) <= 0 || int(s.Link) >= len(er.f.Sections) {
			return formatErr(er.name, int64(s.Offset), ".dynamic links to section %d, which does not exist", s.Link)
		}
		st := er.f.Sections[s.Link]
		if st.Type != elf.SHT_STRTAB {
			return formatErr(er.name, int64(s.Offset), ".dynamic links to section %q, which is not a string table", st.Name)
		}
		strOff, strSize = st.Offset, st.FileSize
		found = true
		break
	}
	if !found {
		// A file without section headers still has its PT_DYNAMIC.
		for _, p := range er.f.Progs {
			if p.Type == elf.PT_DYNAMIC {
				dynOff, dynSize = p.Off, p.Filesz
				found = true
				break
			}
		}
	}
	if !found {
		return nil
	}
	if dynSize > uint64(er.lim.MaxDynamic) {
		return limitErr(er.name, int64(dynOff), ".dynamic of %d bytes, over the limit of %d", dynSize, er.lim.MaxDynamic)
	}
	if err := er.within(int64(dynOff), ".dynamic", dynOff, dynSize); err != nil {
		return err
	}
	d := make([]byte, dynSize)
	if err := er.readFull(d, int64(dynOff), ".dynamic"); err != nil {
		return err
	}
	entSize := 8
	if er.is64 {
		entSize = 16
	}
	type dyn struct {
		tag elf.DynTag
		val uint64
	}
	var tags []dyn
	var strtabAddr uint64
	for i := 0; i+entSize <= len(d); i += entSize {
		var t dyn
		if er.is64 {
			t = dyn{elf.DynTag(er.bo.Uint64(d[i:])), er.bo.Uint64(d[i+8:])}
		} else {
			t = dyn{elf.DynTag(int32(er.bo.Uint32(d[i:]))), uint64(er.bo.Uint32(d[i+4:]))}
		}
		if t.tag == elf.DT_NULL {
			break
		}
		switch t.tag {
		case elf.DT_NEEDED, elf.DT_SONAME, elf.DT_RPATH, elf.DT_RUNPATH:
			tags = append(tags, t)
		case elf.DT_STRTAB:
			strtabAddr = t.val
		case elf.DT_STRSZ:
			if strSize == 0 {
				strSize = t.val
			}
		case elf.DT_FLAGS_1:
			if t.val&dfPIE != 0 {
				lib.Type = "executable" // a position-independent one: ET_DYN too
			}
		}
	}
	if len(tags) == 0 {
		return nil
	}
	if strOff == 0 && strSize == 0 {
		return formatErr(er.name, int64(dynOff), ".dynamic names strings but the file has no dynamic string table")
	}
	if strOff == 0 {
		off, ok := er.vaddrToOffset(strtabAddr)
		if !ok {
			return formatErr(er.name, int64(dynOff), "DT_STRTAB %#x is in no loaded segment", strtabAddr)
		}
		strOff = off
	}
	if err := er.within(int64(dynOff), "dynamic string table", strOff, strSize); err != nil {
		return err
	}
	for _, t := range tags {
		s, err := er.str(strOff, strSize, t.val, t.tag.String())
		if err != nil {
			return err
		}
		switch t.tag {
		case elf.DT_NEEDED:
			lib.Needed = append(lib.Needed, s)
		case elf.DT_SONAME:
			lib.SONAME = s
		case elf.DT_RPATH:
			lib.RPATH = append(lib.RPATH, splitPath(s)...)
		case elf.DT_RUNPATH:
			lib.RUNPATH = append(lib.RUNPATH, splitPath(s)...)
		}
	}
	return nil
}

// dfPIE is DF_1_PIE in DT_FLAGS_1: an executable built position-independent,
// which is ET_DYN like a shared library.
const dfPIE = 0x08000000

func splitPath(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ":")
}

func (er *elfReader) vaddrToOffset(addr uint64) (uint64, bool) {
	for _, p := range er.f.Progs {
		if p.Type == elf.PT_LOAD && addr >= p.Vaddr && addr-p.Vaddr < p.Filesz {
			return p.Off + (addr - p.Vaddr), true
		}
	}
	return 0, false
}

// str reads the NUL-terminated string at off in the string table at
// [base, base+size), at most MaxString bytes, in small reads.
func (er *elfReader) str(base, size, off uint64, what string) (string, error) {
	if off >= size {
		return "", formatErr(er.name, int64(base), "%s at %d is outside the %d-byte string table", what, off, size)
	}
	var out []byte
	var chunk [256]byte
	for pos := base + off; ; {
		left := base + size - pos
		if left == 0 {
			return "", formatErr(er.name, int64(base+off), "%s runs past the end of its string table", what)
		}
		b := chunk[:min(uint64(len(chunk)), left)]
		if err := er.readFull(b, int64(pos), what); err != nil {
			return "", err
		}
		for i, c := range b {
			if c == 0 {
				if len(out)+i > er.lim.MaxString {
					return "", limitErr(er.name, int64(base+off), "%s of %d bytes, over the limit of %d", what, len(out)+i, er.lim.MaxString)
				}
				return string(append(out, b[:i]...)), nil
			}
		}
		out = append(out, b...)
		if len(out) > er.lim.MaxString {
			return "", limitErr(er.name, int64(base+off), "%s longer than the limit of %d bytes", what, er.lim.MaxString)
		}
		pos += uint64(len(b))
	}
}
