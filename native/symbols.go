package native

import (
	"bytes"
	"cmp"
	"debug/elf"
	"slices"
)

// symbols reads the dynamic symbol table, once its tables are held to the
// limits (debug/elf reads each whole, and walks the version definitions as
// often as they say).
func (er *elfReader) symbols(lib *Library) error {
	var total uint64
	var dynsym *elf.Section
	for _, s := range er.f.Sections {
		switch s.Type {
		case elf.SHT_DYNSYM, elf.SHT_GNU_VERSYM, elf.SHT_GNU_VERNEED, elf.SHT_GNU_VERDEF:
		default:
			continue
		}
		if s.Type == elf.SHT_DYNSYM {
			dynsym = s
		}
		if err := er.symbolTable(s, &total); err != nil {
			return err
		}
		if s.Type == elf.SHT_DYNSYM || s.Type == elf.SHT_GNU_VERNEED || s.Type == elf.SHT_GNU_VERDEF {
			if int(s.Link) <= 0 || int(s.Link) >= len(er.f.Sections) {
				return formatErr(er.name, int64(s.Offset), "section %s links to section %d, which does not exist", s.Name, s.Link)
			}
			if err := er.symbolTable(er.f.Sections[s.Link], &total); err != nil {
				return err
			}
		}
	}
	if dynsym == nil {
		return nil
	}
	ent := uint64(elf.Sym32Size)
	if er.is64 {
		ent = elf.Sym64Size
	}
	if n := dynsym.FileSize / ent; n > uint64(er.lim.MaxSymbols) {
		return limitErr(er.name, int64(dynsym.Offset), "%d dynamic symbols, over the limit of %d", n, er.lim.MaxSymbols)
	}
	if vd := er.f.SectionByType(elf.SHT_GNU_VERDEF); vd != nil {
		if err := er.checkVerdef(vd); err != nil {
			return err
		}
	}
	syms, err := er.f.DynamicSymbols()
	if err != nil {
		return er.elfErr(err)
	}
	for _, s := range syms {
		if s.Name == "" {
			continue
		}
		bind, typ := elf.ST_BIND(s.Info), elf.ST_TYPE(s.Info)
		if typ == elf.STT_SECTION || typ == elf.STT_FILE || bind == elf.STB_LOCAL {
			continue
		}
		sym := Symbol{Name: s.Name, Type: symType(typ), Weak: bind == elf.STB_WEAK}
		if s.HasVersion {
			sym.Version = s.Version
		}
		if s.Section == elf.SHN_UNDEF {
			sym.Library = s.Library
			lib.Imports = append(lib.Imports, sym)
			continue
		}
		switch elf.ST_VISIBILITY(s.Other) {
		case elf.STV_DEFAULT, elf.STV_PROTECTED:
			lib.Exports = append(lib.Exports, sym)
		}
	}
	return nil
}

func (er *elfReader) symbolTable(s *elf.Section, total *uint64) error {
	if s.Flags&elf.SHF_COMPRESSED != 0 {
		return formatErr(er.name, int64(s.Offset), "section %s is compressed", s.Name)
	}
	if err := er.within(int64(s.Offset), "section "+s.Name, s.Offset, s.FileSize); err != nil {
		return err
	}
	*total += s.FileSize
	if *total > uint64(er.lim.MaxSymbolTables) {
		return limitErr(er.name, int64(s.Offset), "symbol tables of %d bytes and more, over the limit of %d", *total, er.lim.MaxSymbolTables)
	}
	return nil
}

// checkVerdef walks the version definitions as debug/elf will and refuses
// a table that would have it take more steps than MaxSymbols (an entry's
// aux chain whose next is 0 repeats the same name cnt times).
func (er *elfReader) checkVerdef(vd *elf.Section) error {
	d := make([]byte, vd.FileSize)
	if err := er.readFull(d, int64(vd.Offset), "section "+vd.Name); err != nil {
		return err
	}
	steps := 0
	for i := 0; i+20 <= len(d); {
		cnt := int(er.bo.Uint16(d[i+6:]))
		next := int(er.bo.Uint32(d[i+16:]))
		steps += cnt + 1
		if steps > er.lim.MaxSymbols {
			return limitErr(er.name, int64(vd.Offset)+int64(i), "version definitions of more than %d names", er.lim.MaxSymbols)
		}
		if next == 0 {
			break
		}
		i += next
	}
	return nil
}

func symType(t elf.SymType) string {
	switch t {
	case elf.STT_FUNC:
		return "func"
	case elf.STT_OBJECT:
		return "object"
	case elf.STT_TLS:
		return "tls"
	case elf.STT_GNU_IFUNC:
		return "ifunc"
	}
	return ""
}

// SymbolRef is one dynamic symbol as Options.EachSymbol gives it: those
// that Exports and Imports would hold (not local ones, sections or files;
// an export only with default or protected visibility), without the
// version. Name is the mangled name, and is valid only during the call.
type SymbolRef struct {
	Name   []byte
	Import bool // undefined here: taken from another library
	Weak   bool
}

// symWindow is how much of the string table eachSymbol holds at once.
var symWindow = 1 << 20 // a variable for the tests

// eachSymbol reads .dynsym in pieces and calls fn for each symbol it
// keeps, in the order of their names in .dynstr: it holds 16 bytes a
// symbol and one window of the string table, where debug/elf's
// DynamicSymbols holds both tables whole and a Go string and struct for
// every symbol (libtorch_cpu's exports alone are tens of MiB of them).
func (er *elfReader) eachSymbol(fn func(SymbolRef)) error {
	var dynsym *elf.Section
	for _, s := range er.f.Sections {
		if s.Type == elf.SHT_DYNSYM {
			dynsym = s
			break
		}
	}
	if dynsym == nil {
		return nil
	}
	var total uint64
	if err := er.symbolTable(dynsym, &total); err != nil {
		return err
	}
	if int(dynsym.Link) <= 0 || int(dynsym.Link) >= len(er.f.Sections) {
		return formatErr(er.name, int64(dynsym.Offset), "section %s links to section %d, which does not exist", dynsym.Name, dynsym.Link)
	}
	strtab := er.f.Sections[dynsym.Link]
	if err := er.symbolTable(strtab, &total); err != nil {
		return err
	}
	ent := uint64(elf.Sym32Size)
	if er.is64 {
		ent = elf.Sym64Size
	}
	n := dynsym.FileSize / ent
	if n > uint64(er.lim.MaxSymbols) {
		return limitErr(er.name, int64(dynsym.Offset), "%d dynamic symbols, over the limit of %d", n, er.lim.MaxSymbols)
	}
	// The symbols kept, by their name's offset: bit 0 weak, bit 1 import.
	type kept struct {
		name  uint64
		flags uint8
	}
	var syms []kept
	buf := make([]byte, 0, 64<<10)
	for i := uint64(1); i < n; { // entry 0 is the null symbol
		m := min(n-i, uint64(cap(buf))/ent)
		b := buf[:m*ent]
		if err := er.readFull(b, int64(dynsym.Offset+i*ent), "section "+dynsym.Name); err != nil {
			return err
		}
		for j := uint64(0); j < m; j++ {
			e := b[j*ent : (j+1)*ent]
			var name uint64
			var info, other uint8
			var shndx uint16
			if er.is64 {
				name, info, other, shndx = uint64(er.bo.Uint32(e[0:])), e[4], e[5], er.bo.Uint16(e[6:])
			} else {
				name, info, other, shndx = uint64(er.bo.Uint32(e[0:])), e[12], e[13], er.bo.Uint16(e[14:])
			}
			bind, typ := elf.ST_BIND(info), elf.ST_TYPE(info)
			if name == 0 || typ == elf.STT_SECTION || typ == elf.STT_FILE || bind == elf.STB_LOCAL {
				continue
			}
			k := kept{name: name}
			if bind == elf.STB_WEAK {
				k.flags |= 1
			}
			if elf.SectionIndex(shndx) == elf.SHN_UNDEF {
				k.flags |= 2
			} else if v := elf.ST_VISIBILITY(other); v != elf.STV_DEFAULT && v != elf.STV_PROTECTED {
				continue
			}
			if name >= strtab.FileSize {
				return formatErr(er.name, int64(dynsym.Offset+(i+j)*ent), "symbol name at %d is outside the %d-byte string table", name, strtab.FileSize)
			}
			syms = append(syms, k)
		}
		i += m
	}
	slices.SortFunc(syms, func(a, b kept) int { return cmp.Compare(a.name, b.name) })
	// One pass over the string table, a window at a time; a name that
	// runs past the window's end starts the next window.
	var win []byte
	winOff := uint64(0) // offset in the table of win[0]
	for _, k := range syms {
		for {
			if k.name >= winOff && k.name < winOff+uint64(len(win)) {
				if end := bytes.IndexByte(win[k.name-winOff:], 0); end >= 0 {
					if end > er.lim.MaxString {
						return limitErr(er.name, int64(strtab.Offset+k.name), "symbol name of %d bytes, over the limit of %d", end, er.lim.MaxString)
					}
					fn(SymbolRef{Name: win[k.name-winOff : k.name-winOff+uint64(end)], Import: k.flags&2 != 0, Weak: k.flags&1 != 0})
					break
				}
				if winOff+uint64(len(win)) == strtab.FileSize {
					return formatErr(er.name, int64(strtab.Offset+k.name), "symbol name runs past the end of its string table")
				}
				if k.name == winOff { // a name longer than the window
					return limitErr(er.name, int64(strtab.Offset+k.name), "symbol name longer than %d bytes", len(win))
				}
			}
			winOff = k.name
			size := min(strtab.FileSize-winOff, uint64(symWindow))
			if cap(win) < int(size) {
				win = make([]byte, size)
			}
			win = win[:size]
			if err := er.readFull(win, int64(strtab.Offset+winOff), "section "+strtab.Name); err != nil {
				return err
			}
		}
	}
	return nil
}
