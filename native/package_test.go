package native

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

type member struct {
	name    string
	data    []byte
	store   bool   // zip: stored, not deflated
	link    string // tar: a symbolic link to this
	declare uint64 // zip: declared uncompressed size, when it lies
}

// makeZip writes a zip of the members.
func makeZip(t testing.TB, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range ms {
		if m.declare != 0 {
			var c bytes.Buffer
			fw, _ := flate.NewWriter(&c, flate.BestCompression)
			fw.Write(m.data)
			fw.Close()
			w, err := zw.CreateRaw(&zip.FileHeader{Name: m.name, Method: zip.Deflate, CompressedSize64: uint64(c.Len()), UncompressedSize64: m.declare})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(c.Bytes())
			continue
		}
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate}
		if m.store {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(m.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// makeTar writes a tar of the members.
func makeTar(t testing.TB, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o755, Size: int64(len(m.data)), Typeflag: tar.TypeReg}
		if m.link != "" {
			h = &tar.Header{Name: m.name, Linkname: m.link, Typeflag: tar.TypeSymlink}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(m.data)
	}
	tw.Close()
	return buf.Bytes()
}

func zstdOf(t testing.TB, b []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

// makeConda writes a .conda: a zip of metadata.json, info-*.tar.zst and
// pkg-*.tar.zst (stored, as conda writes them).
func makeConda(t testing.TB, pkgTar []byte) []byte {
	t.Helper()
	return makeZip(t,
		member{name: "metadata.json", data: []byte(`{"conda_pkg_format_version": 2}`)},
		member{name: "info-eg-cuda-1.0-0.tar.zst", data: zstdOf(t, makeTar(t, member{name: "info/index.json", data: []byte("{}")})), store: true},
		member{name: "pkg-eg-cuda-1.0-0.tar.zst", data: zstdOf(t, pkgTar), store: true},
	)
}

func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// summary is what a package test compares: member, SASS and PTX.
func summary(p *Package) []string {
	var out []string
	for _, l := range p.Libraries {
		out = append(out, l.Member+" "+codeList(l.SASS())+" / "+codeList(l.PTX()))
	}
	return out
}

func codeList(cs []Code) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	return strings.Join(s, ",")
}

var pkgWant = []string{"lib/libmulti.so.1 sm_75,sm_80,sm_90 / compute_90", "lib/libsm80.so sm_80 / "}

func TestWheel(t *testing.T) {
	p := writeTemp(t, "eg_cuda-1.0-cp312-cp312-manylinux_2_28_x86_64.whl", makeZip(t,
		member{name: "eg/__init__.py", data: []byte("from ._C import *\n")},
		member{name: "eg/lib/libmulti.so.1", data: mustFixture(t, "multi.so")},
		member{name: "eg/lib/libsm80.so", data: mustFixture(t, "sm80.so"), store: true},
		member{name: "eg/lib/libc.so", data: []byte("GROUP ( libc.so.6 )")},
		member{name: "eg/lib/obj80.o", data: mustFixture(t, "obj80.o")},
		member{name: "eg/data.bin", data: bytes.Repeat([]byte{7}, 1000)},
		member{name: "eg-1.0.dist-info/RECORD", data: []byte("eg/__init__.py,,\n")},
	))
	pkg, err := ReadPackage(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"eg/lib/libmulti.so.1 sm_75,sm_80,sm_90 / compute_90", "eg/lib/libsm80.so sm_80 / "}
	if got := summary(pkg); !slices.Equal(got, want) || pkg.Format != Wheel {
		t.Errorf("%s: %q", pkg.Format, got)
	}
	// Inside a package a library reads as it does on disk.
	direct, _ := ReadFile(filepath.Join("testdata", "fatbin", "multi.so"))
	inside := pkg.Libraries[0]
	if inside.Path != p || inside.Name() != p+"!eg/lib/libmulti.so.1" || inside.Origin() != "eg/lib" ||
		len(inside.Entries) != len(direct.Entries) || inside.Entries[3] != direct.Entries[3] || !slices.Equal(inside.Needed, direct.Needed) {
		t.Errorf("in the wheel %+v\non disk %+v", inside, direct)
	}
}

func TestConda(t *testing.T) {
	p := writeTemp(t, "eg-cuda-1.0-0.conda", makeConda(t, makeTar(t,
		member{name: "info/index.json", data: []byte("{}")},
		member{name: "lib/libmulti.so.1", data: mustFixture(t, "multi.so")},
		member{name: "lib/libmulti.so", link: "libmulti.so.1"},
		member{name: "lib/libsm80.so", data: mustFixture(t, "sm80.so")},
		member{name: "lib/python3.12/site-packages/eg/__init__.py", data: []byte("")},
	)))
	pkg, err := ReadPackage(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(pkg); !slices.Equal(got, pkgWant) || pkg.Format != Conda {
		t.Errorf("%s: %q", pkg.Format, got)
	}
}

func TestCondaBz2(t *testing.T) {
	pkg, err := ReadPackage(filepath.Join("testdata", "pkg", "eg-cuda-1.0-0.tar.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(pkg); !slices.Equal(got, pkgWant) || pkg.Format != CondaBz2 {
		t.Errorf("%s: %q", pkg.Format, got)
	}
}

// TestPackageSpoolsLargeMembers: a member over MaxInMemory goes through a
// temporary file, which is gone afterwards.
func TestPackageSpoolsLargeMembers(t *testing.T) {
	tmp := t.TempDir()
	p := writeTemp(t, "eg.whl", makeZip(t, member{name: "lib/libmulti.so.1", data: mustFixture(t, "multi.so")}))
	pkg, err := Options{TempDir: tmp, Limits: Limits{MaxInMemory: 1024}}.ReadPackage(p)
	if err != nil || len(pkg.Libraries) != 1 || len(pkg.Libraries[0].Entries) != 7 {
		t.Fatalf("%v %v", pkg, err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	p = writeTemp(t, "eg.conda", makeConda(t, makeTar(t, member{name: "lib/libmulti.so.1", data: mustFixture(t, "multi.so")})))
	pkg, err = Options{TempDir: tmp, Limits: Limits{MaxInMemory: 1024}}.ReadPackage(p)
	if err != nil || len(pkg.Libraries) != 1 {
		t.Fatalf("%v %v", pkg, err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestPackageMemberErrors: a broken library inside a package is an error
// that names the package and the member; the others are still read.
func TestPackageMemberErrors(t *testing.T) {
	broken := bytes.Clone(mustFixture(t, "sm80.so"))
	patchSectionSize(t, broken, ".nv_fatbin", 1<<40)
	p := writeTemp(t, "eg.whl", makeZip(t,
		member{name: "lib/libbroken.so", data: broken},
		member{name: "lib/libsm80.so", data: mustFixture(t, "sm80.so")},
	))
	pkg, err := ReadPackage(p)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), p+"!lib/libbroken.so: offset 0x") {
		t.Fatalf("got %v", err)
	}
	if got := summary(pkg); len(got) != 1 || !strings.HasPrefix(got[0], "lib/libsm80.so") {
		t.Errorf("the good member: %q", got)
	}
}

// TestHostilePackages: bombs, lies and huge declarations are refused with
// a clear error, in bounded memory.
func TestHostilePackages(t *testing.T) {
	elfZeros := func(n int) []byte { b := make([]byte, n); copy(b, elfMagic); return b }
	hugeTar := func() []byte {
		// A tar header that declares a terabyte for an ELF-named member.
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		tw.WriteHeader(&tar.Header{Name: "lib/libhuge.so", Mode: 0o755, Size: 1 << 40, Typeflag: tar.TypeReg})
		tw.Write(elfZeros(4096))
		return buf.Bytes()
	}
	tests := []struct {
		name, file string
		data       func() []byte
		lim        Limits
		is         error
		msg        string
	}{
		{"zip bomb by ratio", "bomb.whl", func() []byte {
			return makeZip(t, member{name: "lib/libbomb.so", data: elfZeros(64 << 20)})
		}, Limits{}, ErrLimit, "!lib/libbomb.so: member declares 67108864 bytes from"},
		{"zip member over its declared size", "liar.whl", func() []byte {
			return makeZip(t, member{name: "lib/libliar.so", data: elfZeros(8 << 20), declare: 4096})
		}, Limits{}, ErrFormat, "!lib/libliar.so: member gives more than its declared size, or is corrupt: zip: not a valid zip file"},
		{"zip member of a petabyte", "huge.whl", func() []byte {
			return makeZip(t, member{name: "lib/libhuge.so", data: elfZeros(100), declare: 1 << 50})
		}, Limits{}, ErrLimit, "member declares 1125899906842624 bytes, over the limit of 8589934592"},
		{"conda with a petabyte pkg member", "huge.conda", func() []byte {
			return makeZip(t, member{name: "pkg-huge-1.0-0.tar.zst", data: zstdOf(t, makeTar(t)), declare: 1 << 50})
		}, Limits{}, ErrLimit, "!pkg-huge-1.0-0.tar.zst: member declares 1125899906842624 bytes"},
		{"conda member declaring a terabyte", "huge.conda", func() []byte { return makeConda(t, hugeTar()) },
			Limits{}, ErrLimit, "!lib/libhuge.so: member declares 1099511627776 bytes, over the limit"},
		{"conda zstd bomb", "bomb.conda", func() []byte {
			return makeConda(t, makeTar(t, member{name: "lib/libbomb.so", data: elfZeros(256 << 20)}))
		}, Limits{}, ErrLimit, "zstd stream gives"},
		{"conda zstd bomb, lower limits", "bomb.conda", func() []byte {
			return makeConda(t, makeTar(t, member{name: "lib/libbomb.so", data: elfZeros(8 << 20)}))
		}, Limits{RatioFloor: 1 << 20, MaxRatio: 50}, ErrLimit, "a ratio over the limit of 50 (a decompression bomb?)"},
		{"tar.bz2 bomb", "bomb-1.0-0.tar.bz2", func() []byte {
			b, _ := os.ReadFile(filepath.Join("testdata", "pkg", "bomb-1.0-0.tar.bz2"))
			return b
		}, Limits{}, ErrLimit, "bzip2 stream gives"},
		{"conda truncated", "cut.conda", func() []byte {
			b := makeConda(t, makeTar(t, member{name: "lib/libsm80.so", data: mustFixture(t, "sm80.so")}))
			return b[:len(b)/2]
		}, Limits{}, ErrFormat, "zip: "},
		{"conda without pkg", "nopkg.conda", func() []byte { return makeZip(t, member{name: "metadata.json", data: []byte("{}")}) },
			Limits{}, ErrNotPackage, "no pkg-*.tar.zst member"},
		{"not a zip", "text.whl", func() []byte { return []byte("not a zip") }, Limits{}, ErrFormat, "zip: "},
		{"too many members", "many.whl", func() []byte {
			var ms []member
			for i := range 20 {
				ms = append(ms, member{name: strings.Repeat("x", i+1) + ".py"})
			}
			return makeZip(t, ms...)
		}, Limits{MaxMembers: 10}, ErrLimit, "20 zip members, over the limit of 10"},
		{"corrupt bzip2", "cut-1.0-0.tar.bz2", func() []byte { return []byte("BZh91AY&SY garbage") }, Limits{}, ErrFormat, "bzip2 tar: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeTemp(t, tt.file, tt.data())
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Options{Limits: tt.lim}.ReadPackage(p)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v, want %v containing %q", err, tt.is, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), p) {
				t.Errorf("%q does not start with the package's path", err)
			}
			// The bombs inflate to hundreds of MiB; reading them stops
			// at the ratio floor, 16 MiB, and allocates about that.
			if got := after.TotalAlloc - before.TotalAlloc; got > 48<<20 {
				t.Errorf("allocated %d MiB", got>>20)
			}
		})
	}
	if _, err := ReadPackage(writeTemp(t, "x.tar.gz", nil)); !errors.Is(err, ErrNotPackage) {
		t.Errorf("a .tar.gz: %v", err)
	}
}

// TestRatioReader: the ratio is held against the compressed bytes the
// decompressor consumed, once past the floor.
func TestRatioReader(t *testing.T) {
	pr := &pkgReader{lim: Limits{RatioFloor: 100, MaxRatio: 10}.withDefaults(), pkg: &Package{Path: "x"}}
	in := &countReader{r: strings.NewReader(strings.Repeat("a", 20))}
	io.ReadAll(in)
	r := &ratioReader{r: bytes.NewReader(make([]byte, 200)), in: in, pr: pr, codec: "test"}
	if _, err := io.ReadAll(r); err != nil {
		t.Errorf("200 from 20 is a ratio of 10: %v", err)
	}
	r = &ratioReader{r: bytes.NewReader(make([]byte, 300)), in: in, pr: pr, codec: "test"}
	if _, err := io.ReadAll(r); !errors.Is(err, ErrLimit) {
		t.Errorf("300 from 20: %v", err)
	}
}
