package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// synthELF writes a minimal ELF64 x86-64 shared object: section headers
// for .dynstr, .dynsym and .dynamic and nothing loadable, which is all a
// reader of DT_NEEDED and the dynamic symbols (native) looks at. It stands
// for torch's C++ libraries in the synthetic venv, whose symbol tables are
// what a check of torch extensions (EG211) costs: libtorch_cpu exports
// a hundred thousand names, which no nvcc fixture comes near.
func synthELF(soname string, needed, exports, imports []string) []byte {
	var dynstr bytes.Buffer
	dynstr.WriteByte(0)
	str := func(s string) uint32 {
		off := uint32(dynstr.Len())
		dynstr.WriteString(s)
		dynstr.WriteByte(0)
		return off
	}
	var dyn []uint64 // tag, value pairs
	for _, n := range needed {
		dyn = append(dyn, 1, uint64(str(n))) // DT_NEEDED
	}
	if soname != "" {
		dyn = append(dyn, 14, uint64(str(soname))) // DT_SONAME
	}
	dyn = append(dyn, 0, 0) // DT_NULL
	le := binary.LittleEndian
	var dynsym bytes.Buffer
	dynsym.Write(make([]byte, 24)) // the null symbol
	sym := func(name string, defined bool) {
		var e [24]byte
		le.PutUint32(e[0:], str(name))
		e[4] = 1<<4 | 2 // STB_GLOBAL, STT_FUNC
		if defined {
			le.PutUint16(e[6:], 5) // .text
		}
		dynsym.Write(e[:])
	}
	for _, s := range exports {
		sym(s, true)
	}
	for _, s := range imports {
		sym(s, false)
	}
	var dynamic bytes.Buffer
	for _, v := range dyn {
		binary.Write(&dynamic, le, v)
	}
	shstr := []byte("\x00.dynstr\x00.dynsym\x00.dynamic\x00.shstrtab\x00.text\x00")
	text := []byte{0xc3} // ret

	// Layout: header, the sections in order, then the section headers.
	type sec struct {
		name, typ, link, info uint32
		flags, entsize, align uint64
		data                  []byte
	}
	secs := []sec{
		{},
		{name: 1, typ: 3, flags: 2, align: 1, data: dynstr.Bytes()},                                 // .dynstr, SHT_STRTAB, SHF_ALLOC
		{name: 9, typ: 11, flags: 2, link: 1, info: 1, entsize: 24, align: 8, data: dynsym.Bytes()}, // .dynsym
		{name: 17, typ: 6, flags: 3, link: 1, entsize: 16, align: 8, data: dynamic.Bytes()},         // .dynamic, SHF_WRITE|SHF_ALLOC
		{name: 26, typ: 3, align: 1, data: shstr},                                                   // .shstrtab
		{name: 36, typ: 1, flags: 6, align: 16, data: text},                                         // .text, SHT_PROGBITS, SHF_ALLOC|SHF_EXECINSTR
	}
	out := make([]byte, 64)
	offs := make([]uint64, len(secs))
	for i := 1; i < len(secs); i++ {
		for uint64(len(out))%secs[i].align != 0 {
			out = append(out, 0)
		}
		offs[i] = uint64(len(out))
		out = append(out, secs[i].data...)
	}
	for len(out)%8 != 0 {
		out = append(out, 0)
	}
	shoff := uint64(len(out))
	for i, s := range secs {
		var h [64]byte
		le.PutUint32(h[0:], s.name)
		le.PutUint32(h[4:], s.typ)
		le.PutUint64(h[8:], s.flags)
		le.PutUint64(h[16:], offs[i]) // addr: the file offset, as if loaded at 0
		le.PutUint64(h[24:], offs[i])
		le.PutUint64(h[32:], uint64(len(s.data)))
		le.PutUint32(h[40:], s.link)
		le.PutUint32(h[44:], s.info)
		le.PutUint64(h[48:], s.align)
		le.PutUint64(h[56:], s.entsize)
		out = append(out, h[:]...)
	}
	copy(out, "\x7fELF\x02\x01\x01") // ELFCLASS64, little-endian, version 1
	le.PutUint16(out[16:], 3)        // ET_DYN
	le.PutUint16(out[18:], 62)       // EM_X86_64
	le.PutUint32(out[20:], 1)
	le.PutUint64(out[40:], shoff)
	le.PutUint16(out[52:], 64) // e_ehsize
	le.PutUint16(out[54:], 56) // e_phentsize
	le.PutUint16(out[58:], 64) // e_shentsize
	le.PutUint16(out[60:], uint16(len(secs)))
	le.PutUint16(out[62:], 4) // e_shstrndx: .shstrtab
	return out
}

// torchSymbols are n names in torch's C++ namespaces, mangled as the
// compiler spells a function taking two tensors (60 to 70 bytes, as
// libtorch_cpu's are), distinct for each lib.
func torchSymbols(lib string, n int) []string {
	ns := []string{"2at", "3c10", "5torch"}
	out := make([]string, n)
	for i := range out {
		op := fmt.Sprintf("%s_op%d", lib, i)
		out[i] = fmt.Sprintf("_ZN%s6native%d%sERKNS_6TensorES4_", ns[i%len(ns)], len(op), op)
	}
	return out
}
