package prefixscan

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver"
)

// codecLibraries are the nvcc fixtures read with their symbols, and a
// library with every field set.
func codecLibraries(t testing.TB) []*native.Library {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "native", "testdata", "fatbin", "*.so"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []*native.Library
	for _, p := range paths {
		l, err := native.Options{Symbols: true}.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	full := &native.Library{
		Path: "/p/lib.so", Member: "lib/x.so", Size: 1 << 40, Class: "ELF64", Machine: "EM_AARCH64", Type: "shared",
		SONAME: "libx.so.1", Needed: []string{"libc.so.6", "libcudart.so.13"}, RPATH: []string{"$ORIGIN"}, RUNPATH: []string{},
		Exports:    []native.Symbol{{Name: "_ZN2at3addEv", Version: "V1", Type: "func"}, {Name: "w", Weak: true}},
		Imports:    []native.Symbol{{Name: "_ZN3c104initEv", Library: "libc10.so", Type: "object"}},
		Containers: 2,
		Entries: []native.Entry{{Kind: native.SASS, RawKind: 2, Arch: 121, Variant: native.ArchSpecific, Compression: native.Zstd,
			Flags: 0x8011, Version: [2]uint16{1, 8}, Section: ".nv_fatbin", Container: 1, Offset: -5, HeaderSize: 72, Size: 1 << 33,
			CompressedSize: 99, UncompressedSize: 1 << 35},
			// Written against the one before: only the arch and sizes
			// differ; then one the same but for its offset (behind);
			// then one that differs in every field.
			{Kind: native.SASS, RawKind: 2, Arch: 90, Variant: native.ArchSpecific, Compression: native.Zstd,
				Flags: 0x8011, Version: [2]uint16{1, 8}, Section: ".nv_fatbin", Container: 1, Offset: 1 << 40, HeaderSize: 72, Size: 64,
				CompressedSize: 7, UncompressedSize: 9},
			{Kind: native.SASS, RawKind: 2, Arch: 90, Variant: native.ArchSpecific, Compression: native.Zstd,
				Flags: 0x8011, Version: [2]uint16{1, 8}, Section: ".nv_fatbin", Container: 1, Offset: 3, HeaderSize: 72, Size: 64,
				CompressedSize: 7, UncompressedSize: 9},
			{Kind: native.PTX, RawKind: 1, Arch: 120, Compression: native.Uncompressed, Flags: 0x11, Version: [2]uint16{9, 0},
				Section: "__nv_relfatbin", Container: 2, Offset: 4, HeaderSize: 64, Size: 128}},
	}
	return append(out, full, &native.Library{})
}

// TestCodecRoundTrip: a library read back is the library written, field
// for field (nil lists nil, empty ones empty).
func TestCodecRoundTrip(t *testing.T) {
	d := newDecoder()
	for i, l := range codecLibraries(t) {
		for _, hs := range [][]uint64{nil, {}, {1, uint64(i) << 60, 1<<64 - 1}} {
			ex := resolver.HashesOf(hs)
			got, gotEx, err := d.decodeLibrary(encodeLibrary(l, ex))
			if err != nil {
				t.Fatalf("%s: %v", l.Path, err)
			}
			if !reflect.DeepEqual(got, l) || !reflect.DeepEqual(gotEx, ex) {
				t.Errorf("%s: read back\n %+v %v\nwant %+v %v", l.Path, got, gotEx, l, ex)
			}
		}
	}
	b := encodeLibrary(codecLibraries(t)[0], resolver.HashesOf([]uint64{7}))
	for _, bad := range [][]byte{b[:len(b)-1], append(b[:len(b):len(b)], 0), {}} {
		if _, _, err := d.decodeLibrary(bad); err == nil {
			t.Errorf("%d bytes of a damaged entry decoded", len(bad))
		}
	}
}

// TestTreeRoundTrip: the walk cache's records read back as written, and
// damaged bytes are refused whole.
func TestTreeRoundTrip(t *testing.T) {
	st := sampleTree()
	b := encodeTree(st)
	got, err := decodeTree(b)
	if err != nil || !reflect.DeepEqual(got, st) {
		t.Fatalf("read back %+v, %v\nwant %+v", got, err, st)
	}
	for _, bad := range [][]byte{b[:len(b)-1], append(b[:len(b):len(b)], 0), []byte("prefixscan-tree-v0\n"), nil} {
		if got, err := decodeTree(bad); err == nil || len(got.dirs)+len(got.files)+len(got.metas) != 0 {
			t.Errorf("%d damaged bytes: %d records, %v", len(bad), len(got.dirs)+len(got.files)+len(got.metas), err)
		}
	}
}

func sampleTree() treeState {
	st := newTreeState()
	st.dirs["lib/python3.12/site-packages"] = &dirRec{st: fileStamp{size: 4096, mtime: 1, ctime: 2, ino: 3, dev: 4, at: 5},
		entries: []native.ListEntry{{Name: "torch", Dir: true}, {Name: "x.so"}}}
	st.dirs["empty"] = &dirRec{st: fileStamp{mtime: -1}, entries: []native.ListEntry{}}
	st.files["lib/x.so"] = &fileRec{st: fileStamp{size: 10}, typ: "shared"}
	st.files["lib/README"] = &fileRec{}
	st.metas["lib/a.dist-info/RECORD"] = &metaRec{name: "a", files: []string{"lib/x.so"}}
	st.metas["conda-meta/b.json"] = &metaRec{name: "b", files: []string{}}
	return st
}

// FuzzDecodeLibrary: any bytes decode to a library or an error, in
// bounded memory; what decodes encodes to bytes that decode to it again.
func FuzzDecodeLibrary(f *testing.F) {
	for _, l := range codecLibraries(f) {
		f.Add(encodeLibrary(l, resolver.HashesOf([]uint64{3, 1 << 40})))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := newDecoder()
		l, ex, err := d.decodeLibrary(b)
		if err != nil {
			return
		}
		again, againEx, err := d.decodeLibrary(encodeLibrary(l, ex))
		if err != nil || !reflect.DeepEqual(again, l) || !reflect.DeepEqual(againEx, ex) {
			t.Fatalf("re-encoded library: %v\n %+v\nwant %+v", err, again, l)
		}
	})
}

// FuzzDecodeTree: the same for the walk cache's bytes.
func FuzzDecodeTree(f *testing.F) {
	f.Add(encodeTree(sampleTree()))
	f.Add([]byte(treeMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeTree(b)
		if err != nil {
			return
		}
		again, err := decodeTree(encodeTree(st))
		if err != nil || !reflect.DeepEqual(again, st) {
			t.Fatalf("re-encoded records: %v", err)
		}
	})
}
