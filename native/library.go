package native

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
)

// Library is what one ELF file says about itself. Every field is plain
// data with a JSON name, so a Library can be cached and read back as is.
type Library struct {
	// Path is the file on disk; for a member of a package, the package.
	Path string `json:"path"`
	// Member is the path inside the package (slash-separated), or empty.
	Member string `json:"member,omitempty"`
	// Size is the ELF file's size in bytes (the member's, inside a package).
	Size int64 `json:"size"`

	Class   string `json:"class"`   // "ELF64" or "ELF32"
	Machine string `json:"machine"` // e_machine as debug/elf spells it: "EM_X86_64", "EM_AARCH64", …
	Type    string `json:"type"`    // "shared", "executable" (a PIE too), "relocatable", "core" or "other"

	SONAME  string   `json:"soname,omitempty"`
	Needed  []string `json:"needed"`            // DT_NEEDED, in the file's order
	RPATH   []string `json:"rpath,omitempty"`   // DT_RPATH split at ':', unexpanded
	RUNPATH []string `json:"runpath,omitempty"` // DT_RUNPATH split at ':', unexpanded

	// Exports and Imports are the dynamic symbols, mangled as the file
	// holds them; read only with Options.Symbols.
	Exports []Symbol `json:"exports,omitempty"`
	Imports []Symbol `json:"imports,omitempty"`

	// Containers counts the fatbin containers; Entries lists every entry
	// of every container, in file order.
	Containers int     `json:"containers"`
	Entries    []Entry `json:"entries"`
}

// Symbol is one dynamic symbol.
type Symbol struct {
	Name    string `json:"name"`              // mangled
	Version string `json:"version,omitempty"` // e.g. "GLIBCXX_3.4.29", "libcudart.so.13"
	Library string `json:"library,omitempty"` // for an import, the library its version names
	Type    string `json:"type,omitempty"`    // "func", "object", "tls", "ifunc" or empty
	Weak    bool   `json:"weak,omitempty"`
}

// Name is how the library is named in messages: the path, and for a
// package member the package and the member joined by '!'.
func (l *Library) Name() string {
	if l.Member != "" {
		return l.Path + "!" + l.Member
	}
	return l.Path
}

// Origin is the directory $ORIGIN stands for: the file's directory, or the
// member's directory inside its package.
func (l *Library) Origin() string {
	if l.Member != "" {
		return path.Dir(l.Member)
	}
	return filepath.Dir(l.Path)
}

// SearchPath is where the dynamic loader looks for this library's
// DT_NEEDED entries before the system's paths: RUNPATH if the file has one
// (the loader then ignores RPATH), else RPATH, with $ORIGIN expanded
// against Origin. See ExpandOrigin for what is and is not expanded.
func (l *Library) SearchPath() []string {
	dirs := l.RUNPATH
	if len(dirs) == 0 {
		dirs = l.RPATH
	}
	return ExpandOrigin(dirs, l.Origin())
}

// Kind is what an entry holds.
type Kind string

// The kinds. An entry of a kind the format has others for (4, 0x10, 0x40
// are seen) is Other; its RawKind says which.
const (
	SASS  Kind = "sass"  // an ELF cubin: machine code for one architecture (kind 2)
	PTX   Kind = "ptx"   // PTX text, compiled by the driver at load (kind 1)
	Other Kind = "other" // anything else
)

// Variant is the suffix of an architecture-specific build.
type Variant string

// The variants.
const (
	// Plain code for sm_XY runs on XY and, for SASS, on later minors of the
	// same major; PTX on every later architecture.
	Plain Variant = ""
	// ArchSpecific ("a", sm_90a) runs only on that exact architecture.
	ArchSpecific Variant = "a"
	// FamilySpecific ("f", sm_100f) runs on the architectures of its family
	// (CUDA 12.9 on); cuobjdump names such a cubin without the f.
	FamilySpecific Variant = "f"
)

// Compression is how an entry's payload is stored.
type Compression string

// The compression kinds, from the entry header's flags.
const (
	Uncompressed Compression = "none"
	LZ           Compression = "lz"   // NVIDIA's LZ4-style block compression (flags 0x1000, 0x2000)
	Zstd         Compression = "zstd" // zstd (flags 0x8000): needs a driver of CUDA 12.4 or later
)

// Arch is a compute capability as the fatbin writes it: 10*major + minor
// (75, 90, 100, 121).
type Arch int

// Major is the compute capability's major number.
func (a Arch) Major() int { return int(a) / 10 }

// Minor is the compute capability's minor number.
func (a Arch) Minor() int { return int(a) % 10 }

// String is the compute capability, "9.0" or "12.1".
func (a Arch) String() string { return strconv.Itoa(a.Major()) + "." + strconv.Itoa(a.Minor()) }

// Entry is one entry of a fatbin container, from its header alone.
type Entry struct {
	Kind    Kind    `json:"kind"`
	RawKind uint16  `json:"raw_kind"`          // the header's kind field: 1 PTX, 2 ELF, others
	Arch    Arch    `json:"arch"`              // 10*major+minor
	Variant Variant `json:"variant,omitempty"` // "", "a" or "f"
	// Compression is from the flags; Flags keeps them all.
	Compression Compression `json:"compression"`
	Flags       uint64      `json:"flags"`
	// Version is the header's code version: the cubin ABI for SASS
	// ([1,8] from CUDA 12.8), the PTX ISA for PTX ([9,0] for CUDA 13.0).
	Version [2]uint16 `json:"version"`

	Section   string `json:"section"`   // ".nv_fatbin" or "__nv_relfatbin"
	Container int    `json:"container"` // index of its container in the file, from 0
	Offset    int64  `json:"offset"`    // file offset of the entry header
	// HeaderSize is the entry header's length, 64 and more from CUDA 12.8;
	// the payload starts at Offset+HeaderSize.
	HeaderSize uint32 `json:"header_size"`
	// Size is the payload's length in the file, padded; CompressedSize and
	// UncompressedSize are the header's own figures (0 when uncompressed).
	Size             int64  `json:"size"`
	CompressedSize   uint32 `json:"compressed_size,omitempty"`
	UncompressedSize uint64 `json:"uncompressed_size,omitempty"`
}

// Loaded reports whether the CUDA runtime loads the entry: one in
// .nv_fatbin is registered with the driver when the library loads; one in
// __nv_relfatbin is relocatable device code kept for a later device link
// (nvcc -dlink against the library), which nothing loads as it is, and
// which cuobjdump --list-elf and --list-ptx do not list.
func (e Entry) Loaded() bool { return e.Section == ".nv_fatbin" }

// Code names the entry's code: sm_90a for SASS, compute_120 for PTX, as
// nvcc's -gencode spells them (with the f variant shown).
func (e Entry) Code() Code { return Code{Kind: e.Kind, Arch: e.Arch, Variant: e.Variant} }

// Code is a kind of code for one architecture: sm_90a, compute_120.
type Code struct {
	Kind    Kind    `json:"kind"`
	Arch    Arch    `json:"arch"`
	Variant Variant `json:"variant,omitempty"`
}

// String is nvcc's spelling: sm_XY[a|f] for SASS, compute_XY[a|f] for PTX,
// kindN_XY for another kind.
func (c Code) String() string {
	switch c.Kind {
	case SASS:
		return "sm_" + strconv.Itoa(int(c.Arch)) + string(c.Variant)
	case PTX:
		return "compute_" + strconv.Itoa(int(c.Arch)) + string(c.Variant)
	}
	return fmt.Sprintf("other_%d%s", c.Arch, c.Variant)
}

func compareCode(a, b Code) int {
	if a.Arch != b.Arch {
		return int(a.Arch) - int(b.Arch)
	}
	if a.Variant != b.Variant {
		if a.Variant < b.Variant {
			return -1
		}
		return 1
	}
	if a.Kind < b.Kind {
		return -1
	}
	if a.Kind > b.Kind {
		return 1
	}
	return 0
}

// The summaries below (SASS, PTX, Variants, HasDeviceCode, Compressions,
// HasZstd) are of the loaded entries (Entry.Loaded): what can run when the
// library is loaded. Entries lists the relocatable ones too.

// codes returns the distinct codes of the loaded entries of kind k, sorted
// by architecture then variant.
//
// A library has thousands of entries (libcublasLt 5,737, libtorch_cuda
// 2,789) and a dozen distinct codes, and check asks each library for its
// codes several times: each entry is matched against the distinct codes
// kept so far (the last one first, as neighbours repeat) rather than all
// of them collected and sorted.
func (l *Library) codes(k Kind) []Code {
	var out []Code
	for i := range l.Entries {
		e := &l.Entries[i]
		if e.Kind != k || !e.Loaded() {
			continue
		}
		c := e.Code()
		if n := len(out); n > 0 && out[n-1] == c || slices.Contains(out, c) {
			continue
		}
		out = append(out, c)
	}
	slices.SortFunc(out, compareCode)
	return out
}

// SASS is the distinct machine code the library carries, sorted.
func (l *Library) SASS() []Code { return l.codes(SASS) }

// PTX is the distinct PTX the library carries, sorted.
func (l *Library) PTX() []Code { return l.codes(PTX) }

// Variants lists the distinct codes, SASS then PTX, that are built for an
// a or f variant.
func (l *Library) Variants() []Code {
	var out []Code
	for _, c := range append(l.SASS(), l.PTX()...) {
		if c.Variant != Plain {
			out = append(out, c)
		}
	}
	return out
}

// HasDeviceCode reports whether the library holds any loaded entry.
func (l *Library) HasDeviceCode() bool { return l.Loaded() > 0 }

// Loaded counts the loaded entries.
func (l *Library) Loaded() int {
	n := 0
	for _, e := range l.Entries {
		if e.Loaded() {
			n++
		}
	}
	return n
}

// Compressions counts the loaded entries by compression kind.
func (l *Library) Compressions() map[Compression]int {
	m := map[Compression]int{}
	for _, e := range l.Entries {
		if e.Loaded() {
			m[e.Compression]++
		}
	}
	return m
}

// HasZstd reports whether any loaded entry is zstd-compressed, which a
// driver older than CUDA 12.4's cannot load.
func (l *Library) HasZstd() bool {
	for _, e := range l.Entries {
		if e.Compression == Zstd && e.Loaded() {
			return true
		}
	}
	return false
}

// Cuobjdump is how NVIDIA's cuobjdump --list-elf and --list-ptx name the
// code, after the file name and entry number: sm_XY, with the a of an
// arch-specific build and without the f of a family-specific one, for SASS
// and PTX alike (NAME.1.sm_90a.cubin, NAME.1.sm_120.ptx).
func (c Code) Cuobjdump() string {
	s := "sm_" + strconv.Itoa(int(c.Arch))
	if c.Variant == ArchSpecific {
		s += "a"
	}
	return s
}
