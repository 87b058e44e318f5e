package native

// Limits bound what one read may take on, whatever a file declares. A
// zero field takes its default (DefaultLimits); a file over a limit gives
// an error wrapping ErrLimit that says which limit and what the file asked.
type Limits struct {
	// ELF.
	MaxSections     int   // section headers (default 1<<16)
	MaxSegments     int   // program headers (default 1<<12)
	MaxShstrtab     int64 // bytes of the section name table (default 4 MiB)
	MaxDynamic      int64 // bytes of .dynamic (default 1 MiB: 65,536 entries)
	MaxString       int   // bytes of one DT_NEEDED, SONAME, RPATH or RUNPATH string (default 64 KiB)
	MaxSymbols      int   // dynamic symbols, with Options.Symbols (default 1<<21)
	MaxSymbolTables int64 // bytes of .dynsym, .dynstr and the version tables together (default 256 MiB)

	// Fatbin.
	MaxContainers  int // fatbin containers in one file (default 1<<20)
	MaxEntries     int // fatbin entries in one file (default 1<<20)
	MaxEntryHeader int // bytes of one entry header (default 4096)
	MaxPadding     int // zero bytes between two containers (default 4096)

	// Packages.
	MaxMembers     int   // members of a zip or tar (default 1<<20)
	MaxMemberBytes int64 // uncompressed bytes of one member read (default 8 GiB)
	MaxTotalBytes  int64 // uncompressed bytes of one package read, all members (default 64 GiB)
	MaxRatio       int64 // uncompressed/compressed bytes, once past RatioFloor (default 1000)
	RatioFloor     int64 // bytes uncompressed before MaxRatio applies (default 16 MiB)
	MaxInMemory    int64 // a member this size or smaller is read into memory; larger ones go to a temporary file (default 64 MiB)
}

// DefaultLimits are the bounds a zero Limits stands for. They are far above
// what real libraries need (libcublasLt: 5,737 entries; libtorch_cuda:
// 2,789) and far below what would exhaust a machine.
var DefaultLimits = Limits{
	MaxSections:     1 << 16,
	MaxSegments:     1 << 12,
	MaxShstrtab:     4 << 20,
	MaxDynamic:      1 << 20,
	MaxString:       64 << 10,
	MaxSymbols:      1 << 21,
	MaxSymbolTables: 256 << 20,

	MaxContainers:  1 << 20,
	MaxEntries:     1 << 20,
	MaxEntryHeader: 4096,
	MaxPadding:     4096,

	MaxMembers:     1 << 20,
	MaxMemberBytes: 8 << 30,
	MaxTotalBytes:  64 << 30,
	MaxRatio:       1000,
	RatioFloor:     16 << 20,
	MaxInMemory:    64 << 20,
}

// withDefaults fills every zero field from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set64 := func(v *int64, def int64) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.MaxSections, d.MaxSections)
	set(&l.MaxSegments, d.MaxSegments)
	set64(&l.MaxShstrtab, d.MaxShstrtab)
	set64(&l.MaxDynamic, d.MaxDynamic)
	set(&l.MaxString, d.MaxString)
	set(&l.MaxSymbols, d.MaxSymbols)
	set64(&l.MaxSymbolTables, d.MaxSymbolTables)
	set(&l.MaxContainers, d.MaxContainers)
	set(&l.MaxEntries, d.MaxEntries)
	set(&l.MaxEntryHeader, d.MaxEntryHeader)
	set(&l.MaxPadding, d.MaxPadding)
	set(&l.MaxMembers, d.MaxMembers)
	set64(&l.MaxMemberBytes, d.MaxMemberBytes)
	set64(&l.MaxTotalBytes, d.MaxTotalBytes)
	set64(&l.MaxRatio, d.MaxRatio)
	set64(&l.RatioFloor, d.RatioFloor)
	set64(&l.MaxInMemory, d.MaxInMemory)
	return l
}
