package native

import (
	"debug/elf"
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
