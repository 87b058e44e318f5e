package native

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead: any bytes read as an ELF file, symbols and all, give a Library
// or an *Error, never a panic, and a Library's entries lie inside the file.
func FuzzRead(f *testing.F) {
	libs, _ := filepath.Glob(filepath.Join("testdata", "fatbin", "*.so"))
	for _, p := range append(libs, filepath.Join("testdata", "fatbin", "obj80.o")) {
		f.Add(mustFixture(f, filepath.Base(p)))
	}
	f.Add(headerOnly(2, 3, 16).Bytes())
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Options{Symbols: true, Limits: Limits{MaxEntries: 1 << 12, MaxSymbols: 1 << 14}}.Read(bytes.NewReader(b), int64(len(b)), "fuzz.so")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		for _, e := range l.Entries {
			if e.Offset < 0 || e.Offset+int64(e.HeaderSize)+e.Size > int64(len(b)) {
				t.Fatalf("entry at %#x of %d+%d bytes outside a %d-byte file", e.Offset, e.HeaderSize, e.Size, len(b))
			}
		}
	})
}

// FuzzFatbin: any bytes as the .nv_fatbin section of a library.
func FuzzFatbin(f *testing.F) {
	f.Add(headerOnly(1, 2, 8).Bytes()[64:])
	f.Add(newFatbin().container().entry(2, 80, 0x11, 64, 8).entry(1, 90, 0x108011, 80, 16).section().parts[0].data)
	for _, name := range []string{"mode_size.so", "sm100f.so", "ptx120.so"} {
		l, err := ReadFile(filepath.Join("testdata", "fatbin", name))
		if err != nil || len(l.Entries) == 0 {
			f.Fatal(name, err)
		}
		b := mustFixture(f, name)
		start := l.Entries[0].Offset - 16
		last := l.Entries[len(l.Entries)-1]
		f.Add(b[start : last.Offset+int64(last.HeaderSize)+last.Size])
	}
	f.Fuzz(func(t *testing.T, sec []byte) {
		v := synthELF(synthSection{name: ".nv_fatbin", typ: 1, parts: []part{{0, sec}}, size: int64(len(sec))})
		l, err := Options{Limits: Limits{MaxEntries: 1 << 12}}.Read(v, v.size, "fuzz.so")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (!errors.Is(err, ErrFormat) && !errors.Is(err, ErrLimit)) {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		for _, e := range l.Entries {
			if e.HeaderSize < entryHeaderMin || e.Offset+int64(e.HeaderSize)+e.Size > v.size {
				t.Fatalf("entry %+v outside its section", e)
			}
		}
	})
}

// fuzzLimits keep a fuzzed package small.
var fuzzLimits = Limits{MaxMemberBytes: 1 << 20, MaxTotalBytes: 4 << 20, RatioFloor: 1 << 20, MaxEntries: 1 << 12, MaxMembers: 1 << 10}

func fuzzPackage(t *testing.T, b []byte, format string) {
	pkg, err := Options{Limits: fuzzLimits}.readPackage(bytes.NewReader(b), int64(len(b)), "fuzz."+format, format)
	if pkg == nil {
		t.Fatal("no Package")
	}
	if err != nil {
		for _, e := range unjoin(err) {
			var pe *Error
			if !errors.As(e, &pe) {
				t.Fatalf("%T: %v", e, e)
			}
		}
	}
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

// FuzzWheel: any bytes as a wheel.
func FuzzWheel(f *testing.F) {
	f.Add(makeZip(f, member{name: "eg/lib/libsm80.so", data: mustFixture(f, "sm80.so")}, member{name: "eg/x.so", data: mustFixture(f, "ptx120.so"), store: true}))
	f.Add(makeZip(f, member{name: "lib/libliar.so", data: []byte("\x7fELF\x02\x01"), declare: 4096}))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzPackage(t, b, Wheel) })
}

// FuzzConda: any bytes as a .conda.
func FuzzConda(f *testing.F) {
	f.Add(makeConda(f, makeTar(f, member{name: "lib/libsm80.so", data: mustFixture(f, "sm80.so")}, member{name: "lib/l.so", link: "libsm80.so"})))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzPackage(t, b, Conda) })
}

// FuzzCondaBz2: any bytes as a .tar.bz2.
func FuzzCondaBz2(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "pkg", "eg-cuda-1.0-0.tar.bz2"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { fuzzPackage(t, b, CondaBz2) })
}

// FuzzTar: any bytes as the tar inside a conda package, without the
// decompressor in front (which would reject nearly every input).
func FuzzTar(f *testing.F) {
	f.Add(makeTar(f, member{name: "lib/libsm80.so", data: mustFixture(f, "sm80.so")}, member{name: "lib/l.so", link: "libsm80.so"}, member{name: "a.py", data: []byte("x")}))
	f.Fuzz(func(t *testing.T, b []byte) {
		pr := &pkgReader{lim: fuzzLimits.withDefaults(), pkg: &Package{Path: "fuzz.tar"}}
		in := &countReader{r: bytes.NewReader(b)}
		err := pr.stream(in, in, "none")
		for _, e := range append(pr.errs, err) {
			if e == nil {
				continue
			}
			var pe *Error
			if !errors.As(e, &pe) {
				t.Fatalf("%T: %v", e, e)
			}
		}
	})
}
