package native

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func mustFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "fatbin", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fatbinOf returns a synthetic library whose .nv_fatbin is fb.
func fatbinOf(fb *fatbinBuilder) *virtualFile { return synthELF(fb.section()) }

func readVirtual(v *virtualFile, o Options) (*Library, error) {
	return o.Read(v, v.size, "synthetic.so")
}

// TestHostileFatbin: every broken or oversized structure is an error that
// says what and where, wrapping ErrFormat or ErrLimit.
func TestHostileFatbin(t *testing.T) {
	zeros := func(n int) []byte { return make([]byte, n) }
	hdr := func(magic uint32, version, hs uint16, size uint64) []byte {
		b := make([]byte, 16)
		binary.LittleEndian.PutUint32(b, magic)
		binary.LittleEndian.PutUint16(b[4:], version)
		binary.LittleEndian.PutUint16(b[6:], hs)
		binary.LittleEndian.PutUint64(b[8:], size)
		return b
	}
	tests := []struct {
		name string
		fb   *fatbinBuilder
		lim  Limits
		is   error
		msg  string
	}{
		{"header size 0", newFatbin().container().entry(2, 80, 0x11, 0, 100), Limits{}, ErrFormat, "entry header size 0, under the 64"},
		{"header size 63", newFatbin().container().entry(2, 80, 0x11, 63, 0), Limits{}, ErrFormat, "entry header size 63"},
		{"header size huge", newFatbin().container().entry(2, 80, 0x11, 1<<31, 0), Limits{}, ErrLimit, "entry header of 2147483648 bytes, over the limit of 4096"},
		{"header past container", newFatbin().container().lying(2, 80, 0x11, 4000, 0, 64), Limits{}, ErrFormat, "entry header of 4000 bytes runs past its container"},
		{"payload past container", newFatbin().container().lying(2, 80, 0x11, 64, 1<<62, 72), Limits{}, ErrFormat, "fatbin entry of 4611686018427387904 bytes runs past its container (8 bytes left)"},
		{"payload max", newFatbin().container().lying(2, 80, 0x11, 64, 1<<64-1, 64), Limits{}, ErrFormat, "runs past its container"},
		{"entry truncated", newFatbin().container().raw(zeros(40)), Limits{}, ErrFormat, "fatbin entry header truncated: 40 bytes left"},
		{"container past section", newFatbin().raw(hdr(FatbinMagic, 1, 16, 1<<40)), Limits{}, ErrFormat, "fatbin container of 1099511627776 bytes runs past the end of the section"},
		{"container header 0", newFatbin().raw(hdr(FatbinMagic, 1, 0, 0)), Limits{}, ErrFormat, "fatbin container header of 0 bytes"},
		{"container header huge", newFatbin().raw(hdr(FatbinMagic, 1, 65535, 0)), Limits{}, ErrFormat, "fatbin container header of 65535 bytes"},
		{"container version 2", newFatbin().raw(hdr(FatbinMagic, 2, 16, 0)), Limits{}, ErrFormat, "fatbin container version 2; only version 1 is known"},
		{"bad magic", newFatbin().raw(hdr(0x12345678, 1, 16, 0)), Limits{}, ErrFormat, "no fatbin container here: magic 0x12345678"},
		{"garbage after a container", newFatbin().container().entry(2, 80, 0x11, 64, 8).close2().raw([]byte{1, 2, 3}), Limits{}, ErrFormat, "3 bytes after the last fatbin container"},
		{"too much padding", newFatbin().container().close2().raw(zeros(8192)).raw(hdr(FatbinMagic, 1, 16, 0)), Limits{}, ErrLimit, "more than 4096 zero bytes where a fatbin container should start"},
		{"padding then garbage", newFatbin().container().entry(2, 80, 0x11, 64, 0).close2().raw(zeros(24)).raw(hdr(7, 1, 16, 0)), Limits{}, ErrFormat, "no fatbin container here: magic 0x00000007"},
		{"too many entries", many(newFatbin().container(), 11), Limits{MaxEntries: 10}, ErrLimit, "more than 10 fatbin entries"},
		{"too many containers", manyContainers(newFatbin(), 11), Limits{MaxContainers: 10}, ErrLimit, "more than 10 fatbin containers"},
		{"header over a lower limit", newFatbin().container().entry(2, 100, 0x11, 112, 0), Limits{MaxEntryHeader: 100}, ErrLimit, "over the limit of 100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := fatbinOf(tt.fb)
			_, err := readVirtual(v, Options{Limits: tt.lim})
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v, want %v containing %q", err, tt.is, tt.msg)
			}
			var e *Error
			if !errors.As(err, &e) || e.Path != "synthetic.so" || e.Offset < 64 {
				t.Errorf("error %#v does not say where", err)
			}
			if !strings.HasPrefix(err.Error(), "synthetic.so: offset 0x") || !strings.Contains(err.Error(), ".nv_fatbin: ") {
				t.Errorf("message %q", err)
			}
		})
	}
}

// close2 closes the open container so that what follows is outside it.
func (f *fatbinBuilder) close2() *fatbinBuilder { f.close(); return f }

func many(f *fatbinBuilder, n int) *fatbinBuilder {
	for range n {
		f.entry(2, 80, 0x11, 64, 0)
	}
	return f
}

func manyContainers(f *fatbinBuilder, n int) *fatbinBuilder {
	for range n {
		f.container().entry(2, 80, 0x11, 64, 0)
	}
	return f
}

// TestPaddingBetweenContainers: zeros up to the next 8-byte boundary, or
// at the section's end, are padding, not an error.
func TestPaddingBetweenContainers(t *testing.T) {
	fb := newFatbin().container().entry(2, 80, 0x11, 64, 8).close2().raw(make([]byte, 24)).container().entry(1, 90, 0x11, 80, 16).close2().raw(make([]byte, 12))
	l, err := readVirtual(fatbinOf(fb), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Containers != 2 || len(l.Entries) != 2 || l.Entries[1].Code().String() != "compute_90" || l.Entries[1].Container != 1 {
		t.Errorf("%d containers, entries %+v", l.Containers, l.Entries)
	}
}

// TestOtherKinds: an entry of a kind that is neither ELF nor PTX is kept
// as Other with its raw kind, and counts as neither SASS nor PTX.
func TestOtherKinds(t *testing.T) {
	fb := newFatbin().container().entry(4, 80, 0x11, 64, 0).entry(0x10, 90, 0x11, 64, 0).entry(0x40, 90, 0x11, 64, 0).entry(2, 90, 0x100011, 64, 0)
	l, err := readVirtual(fatbinOf(fb), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 4 || l.Entries[0].Kind != Other || l.Entries[1].RawKind != 0x10 || len(l.SASS()) != 1 || len(l.PTX()) != 0 {
		t.Errorf("entries %+v", l.Entries)
	}
	if got := l.SASS()[0].String(); got != "sm_90a" {
		t.Errorf("SASS %s", got)
	}
}

// TestTruncated: a fixture cut at every 97th byte reads or fails with an
// error; none panics, and a cut inside the fatbin section says so.
func TestTruncated(t *testing.T) {
	b := mustFixture(t, "multi.so")
	ef, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	fat := ef.Section(".nv_fatbin")
	for n := 0; n < len(b); n += 97 {
		_, err := Read(bytes.NewReader(b[:n]), int64(n), "cut.so")
		if err == nil {
			t.Fatalf("cut at %d of %d bytes: no error", n, len(b))
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("cut at %d: %T %v", n, err, err)
		}
	}
	// The section headers come last, so the cut that loses them is what
	// shows: cut the fatbin section itself short by patching its size.
	_ = fat
	patched := bytes.Clone(b)
	patchSectionSize(t, patched, ".nv_fatbin", 1<<40)
	_, err = Read(bytes.NewReader(patched), int64(len(patched)), "big.so")
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "section .nv_fatbin (1099511627776 bytes at 0x2008) runs past the end of the file") {
		t.Errorf("section past the end: %v", err)
	}
}

// patchSectionSize rewrites the size in the header of the named section.
func patchSectionSize(t *testing.T, b []byte, name string, size uint64) {
	t.Helper()
	ef, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	shoff := binary.LittleEndian.Uint64(b[40:])
	for i, s := range ef.Sections {
		if s.Name == name {
			binary.LittleEndian.PutUint64(b[shoff+uint64(i)*64+32:], size)
			return
		}
	}
	t.Fatalf("no section %s", name)
}

// TestHostileELF: the ELF headers' counts and sizes are held to the limits
// before debug/elf reads them.
func TestHostileELF(t *testing.T) {
	base := mustFixture(t, "sm80.so")
	le := binary.LittleEndian
	tests := []struct {
		name  string
		patch func(b []byte)
		lim   Limits
		is    error
		msg   string
	}{
		{"too many sections", func(b []byte) {}, Limits{MaxSections: 10}, ErrLimit, "section headers, over the limit of 10"},
		{"section table past the end", func(b []byte) { le.PutUint64(b[40:], uint64(len(b))-100) }, Limits{}, ErrFormat, "section headers of 64 bytes run past the end of the file"},
		{"shstrtab huge", func(b []byte) { patchSectionSize(t, b, ".shstrtab", 1<<40) }, Limits{}, ErrLimit, "section name table of 1099511627776 bytes, over the limit"},
		{"shstrtab index out of range", func(b []byte) { le.PutUint16(b[62:], 999) }, Limits{}, ErrFormat, "section name table index 999, but there are"},
		{"program headers past the end", func(b []byte) { le.PutUint64(b[32:], uint64(len(b))) }, Limits{}, ErrFormat, "program headers of 56 bytes run past the end of the file"},
		{"section header size 0", func(b []byte) { le.PutUint16(b[58:], 0) }, Limits{}, ErrFormat, "section header size 0, under the 64"},
		{"dynamic huge", func(b []byte) { patchSectionSize(t, b, ".dynamic", 1<<30) }, Limits{}, ErrLimit, ".dynamic of 1073741824 bytes, over the limit"},
		{"dynamic past the end", func(b []byte) { patchSectionSize(t, b, ".dynamic", 1<<19) }, Limits{}, ErrFormat, ".dynamic (524288 bytes at"},
		{"dynstr short", func(b []byte) { patchSectionSize(t, b, ".dynstr", 3) }, Limits{}, ErrFormat, "outside the 3-byte string table"},
		{"class", func(b []byte) { b[4] = 9 }, Limits{}, ErrFormat, "ELF class 9"},
		{"byte order", func(b []byte) { b[5] = 0 }, Limits{}, ErrFormat, "ELF byte order 0"},
		{"needed string too long", func(b []byte) {}, Limits{MaxString: 4}, ErrLimit, "DT_NEEDED of 15 bytes, over the limit of 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytes.Clone(base)
			tt.patch(b)
			_, err := Options{Limits: tt.lim}.Read(bytes.NewReader(b), int64(len(b)), "x.so")
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v, want %v containing %q", err, tt.is, tt.msg)
			}
		})
	}
	// A header cut short is a clear error, and four bytes that are not
	// the magic are not ELF.
	if _, err := Read(bytes.NewReader(base[:40]), 40, "x.so"); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "ELF header truncated: 40 of its 64 bytes") {
		t.Errorf("short header: %v", err)
	}
	if _, err := Read(bytes.NewReader([]byte("\x7fELG")), 4, "x.so"); !errors.Is(err, ErrNotELF) {
		t.Errorf("bad magic: %v", err)
	}
}

// TestStringWithoutNUL: a DT_NEEDED string that runs to the end of its
// table is malformed.
func TestStringWithoutNUL(t *testing.T) {
	dynstr := []byte("\x00libfoo.so")
	dyn := make([]byte, 32)
	binary.LittleEndian.PutUint64(dyn[0:], uint64(elf.DT_NEEDED))
	binary.LittleEndian.PutUint64(dyn[8:], 1)
	v := synthELF(
		synthSection{name: ".dynstr", typ: elf.SHT_STRTAB, parts: []part{{0, dynstr}}, size: int64(len(dynstr))},
		synthSection{name: ".dynamic", typ: elf.SHT_DYNAMIC, parts: []part{{0, dyn}}, size: 32, link: 1, ent: 16},
	)
	_, err := readVirtual(v, Options{})
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "DT_NEEDED runs past the end of its string table") {
		t.Fatalf("got %v", err)
	}
	dynstr = append(dynstr, 0)
	v = synthELF(
		synthSection{name: ".dynstr", typ: elf.SHT_STRTAB, parts: []part{{0, dynstr}}, size: int64(len(dynstr))},
		synthSection{name: ".dynamic", typ: elf.SHT_DYNAMIC, parts: []part{{0, dyn}}, size: 32, link: 1, ent: 16},
	)
	l, err := readVirtual(v, Options{})
	if err != nil || len(l.Needed) != 1 || l.Needed[0] != "libfoo.so" {
		t.Fatalf("%v %v", l, err)
	}
}

// headerOnly is a library shaped like libtorch_cuda.so: many containers of
// many entries, each with a large payload, a gigabyte and more in all,
// that exists only as its headers.
func headerOnly(containers, perContainer int, payload uint64) *virtualFile {
	fb := newFatbin()
	for c := range containers {
		fb.container()
		for i := range perContainer {
			hs := uint32(64)
			if i%3 == 2 {
				hs = 112
			}
			fb.entry(2, uint32(75+5*((c+i)%6)), 0x8011, hs, payload)
		}
	}
	return fatbinOf(fb)
}

// TestReadsHeadersOnly: reading a library costs its headers, not its
// payloads: the bytes read through a counting ReaderAt stay under 64 per
// entry plus 16 per container plus the ELF headers, for 2,800 entries of
// 400 KiB each (1.1 GB of payload).
func TestReadsHeadersOnly(t *testing.T) {
	const containers, per, payload = 400, 7, 400 << 10
	v := headerOnly(containers, per, payload)
	c := &countingReaderAt{r: v}
	l, err := Options{}.Read(c, v.size, "big.so")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != containers*per || l.Containers != containers {
		t.Fatalf("%d entries in %d containers", len(l.Entries), l.Containers)
	}
	if v.size < containers*per*payload {
		t.Fatalf("the synthetic file has only %d bytes", v.size)
	}
	elfHeaders := int64(64 + 4*64 + 64) // ELF header, section headers, .shstrtab
	limit := int64(containers*per*entryHeaderMin+containers*containerHeaderSize) + elfHeaders + 4096
	if got := c.bytes.Load(); got > limit {
		t.Errorf("read %d bytes of a %d-byte file, over the %d its headers take", got, v.size, limit)
	}
	t.Logf("%d entries, %d bytes in %d reads of a %d-byte file", len(l.Entries), c.bytes.Load(), c.reads.Load(), v.size)
}

// TestMemoryBounded: the memory a read takes follows the entries, not the
// payloads: a library with 100 entries of 10 GiB each (a terabyte) costs
// what 100 entries of 0 bytes cost, within a small margin.
func TestMemoryBounded(t *testing.T) {
	alloc := func(payload uint64) uint64 {
		v := headerOnly(10, 10, payload)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := (Options{}).Read(v, v.size, "x.so"); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, huge := alloc(0), alloc(10<<30)
	if huge > small+64<<10 {
		t.Errorf("a terabyte of payload took %d bytes, an empty one %d", huge, small)
	}
	t.Logf("allocated: %d bytes (0-byte payloads), %d (10 GiB payloads)", small, huge)
}

// BenchmarkReadLibtorchShaped reads a synthetic library shaped like
// libtorch_cuda.so (2,800 entries of 160 KiB): the time and allocations of
// the header walk, and the bytes read per entry.
func BenchmarkReadLibtorchShaped(b *testing.B) {
	v := headerOnly(400, 7, 160<<10)
	c := &countingReaderAt{r: v}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Options{}).Read(c, v.size, "x.so"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.bytes.Load())/float64(b.N)/2800, "bytes-read/entry")
}

// BenchmarkReadFixture reads a real nvcc fixture from memory.
func BenchmarkReadFixture(b *testing.B) {
	data := mustFixture(b, "mode_size.so")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), int64(len(data)), "mode_size.so"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRelocatable: entries of __nv_relfatbin are listed but left out of
// the summaries: device-link input that nothing loads (and cuobjdump does
// not list, as libnccl.so.2 and libnvshmem_host.so.3 showed on the H200).
func TestRelocatable(t *testing.T) {
	loaded := newFatbin().container().entry(2, 80, 0x11, 64, 8).section()
	rel := newFatbin().container().entry(2, 90, 0x108011, 64, 8).entry(1, 90, 0x8011, 80, 8).section()
	rel.name = "__nv_relfatbin"
	l, err := readVirtual(synthELF(loaded, rel), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 3 || l.Loaded() != 1 || l.Containers != 2 || l.Entries[2].Section != "__nv_relfatbin" || l.Entries[2].Loaded() {
		t.Fatalf("%d entries, %d loaded: %+v", len(l.Entries), l.Loaded(), l.Entries)
	}
	if got := codeList(l.SASS()); got != "sm_80" || len(l.PTX()) != 0 || len(l.Variants()) != 0 || l.HasZstd() || !l.HasDeviceCode() {
		t.Errorf("SASS %s, PTX %v, variants %v, zstd %v", got, l.PTX(), l.Variants(), l.HasZstd())
	}
	if c := l.Compressions(); len(c) != 1 || c[Uncompressed] != 1 {
		t.Errorf("compressions %v", c)
	}
	l, err = readVirtual(synthELF(rel), Options{})
	if err != nil || l.HasDeviceCode() || len(l.Entries) != 2 {
		t.Errorf("relocatable only: %v, %d entries", err, len(l.Entries))
	}
}
