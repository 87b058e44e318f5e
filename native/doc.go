// Package native reads what a binary itself says it can run, with no CUDA
// toolkit: the ELF files of an environment (through debug/elf), the
// .nv_fatbin containers in them (SASS sm_XY and PTX compute_XY per entry,
// the a/f architecture variants and the compression kind, all read from the
// entry headers), the shared libraries each needs (DT_NEEDED, RPATH,
// RUNPATH, SONAME) and the dynamic symbols it imports and exports; also these
// files inside wheels and conda packages, and under a directory or prefix.
//
// It reads headers with ReadAt, never whole sections of GPU code: a fatbin
// entry costs one read of its header however large its payload is. Every
// count and size read from a file is bounded (Limits), and a file that
// breaks a bound or its own structure gives an *Error that names the file,
// the offset and what was wrong. docs/native.md gives the byte layouts and
// the public source of each.
//
// A Library is plain data that encodes to JSON and back, so that a checker
// can keep it in a cache keyed by FileKey (path, size, mtime, inode).
//
// The package imports nothing of envguard.
package native
