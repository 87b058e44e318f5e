package native

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Package formats.
const (
	Wheel    = "wheel"   // .whl: a zip
	Conda    = "conda"   // .conda: a zip holding pkg-*.tar.zst
	CondaBz2 = "tar.bz2" // .tar.bz2: conda's older format
)

// PackageFormat reports the package format a file name says, or "".
func PackageFormat(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".whl"):
		return Wheel
	case strings.HasSuffix(n, ".conda"):
		return Conda
	case strings.HasSuffix(n, ".tar.bz2"):
		return CondaBz2
	}
	return ""
}

// Package is a wheel or conda package and the shared libraries in it.
type Package struct {
	Path      string     `json:"path"`
	Format    string     `json:"format"`
	Libraries []*Library `json:"libraries"` // each with Member set, in archive order
}

// maxZstdWindow bounds the window a zstd frame may ask for: conda's
// highest levels use 128 MiB (windowLog 27).
const maxZstdWindow = 128 << 20

// ReadPackage reads the package at path with the zero Options.
func ReadPackage(path string) (*Package, error) { return Options{}.ReadPackage(path) }

// ReadPackage reads every ELF shared library inside the wheel or conda
// package at path (the format from its name, see PackageFormat).
//
// A wheel is a zip, read through its central directory: a stored member
// is read in place, with ReadAt, like a file; a deflated one is inflated
// once, into memory up to Limits.MaxInMemory and into a temporary file
// (removed at once) above that. A conda package's members come one after
// another out of a zstd or bzip2 stream, and each ELF member is spooled
// the same way. Members are refused before they are read when they
// declare more than MaxMemberBytes or a ratio over MaxRatio, and a stream
// stops with an error once it has given MaxTotalBytes or more than
// MaxRatio times the compressed bytes it consumed: a zip bomb costs at
// most RatioFloor plus MaxRatio times its size.
//
// The Package holds every library read; an ELF member that cannot be
// read is an *Error in the returned error (errors joined) and the others
// are still read, while a broken archive or a limit stops the read.
func (o Options) ReadPackage(p string) (*Package, error) {
	format := PackageFormat(p)
	if format == "" {
		return nil, &Error{Path: p, Offset: -1, What: "not a .whl, .conda or .tar.bz2 file", Err: ErrNotPackage}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, openErr(p, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, openErr(p, err)
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Path: p, Offset: -1, What: "not a regular file (" + st.Mode().Type().String() + ")", Err: ErrFormat}
	}
	return o.readPackage(f, st.Size(), p, format)
}

// readPackage reads a package of size bytes from r; name is its path.
func (o Options) readPackage(r io.ReaderAt, size int64, name, format string) (*Package, error) {
	pr := &pkgReader{o: o, lim: o.Limits.withDefaults(), pkg: &Package{Path: name, Format: format, Libraries: []*Library{}}}
	var err error
	switch format {
	case Wheel:
		err = pr.wheel(r, size)
	case Conda:
		err = pr.conda(r, size)
	case CondaBz2:
		cr := &countReader{r: io.NewSectionReader(r, 0, size)}
		err = pr.stream(cr, bzip2.NewReader(cr), "bzip2")
	default:
		err = &Error{Path: name, Offset: -1, What: "unknown package format " + format, Err: ErrNotPackage}
	}
	pr.errs = append(pr.errs, err)
	return pr.pkg, errors.Join(pr.errs...)
}

type pkgReader struct {
	o     Options
	lim   Limits
	pkg   *Package
	errs  []error // members that could not be read
	total int64   // uncompressed bytes of members read
}

func (pr *pkgReader) errAt(member, what string, err error) error {
	return &Error{Path: pr.pkg.Path + "!" + member, Offset: -1, What: what, Err: err}
}

func (pr *pkgReader) zip(r io.ReaderAt, size int64) (*zip.Reader, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, &Error{Path: pr.pkg.Path, Offset: -1, What: zipWhat(err), Err: ErrFormat}
	}
	if len(zr.File) > pr.lim.MaxMembers {
		return nil, limitErr(pr.pkg.Path, -1, "%d zip members, over the limit of %d", len(zr.File), pr.lim.MaxMembers)
	}
	return zr, nil
}

// declared holds a member's declared sizes to the limits.
func (pr *pkgReader) declared(member string, size, compressed uint64) error {
	if size > uint64(pr.lim.MaxMemberBytes) {
		return pr.errAt(member, fmt.Sprintf("member declares %d bytes, over the limit of %d", size, pr.lim.MaxMemberBytes), ErrLimit)
	}
	if size > uint64(pr.lim.RatioFloor) && size/max(compressed, 1) > uint64(pr.lim.MaxRatio) {
		return pr.errAt(member, fmt.Sprintf("member declares %d bytes from %d compressed, a ratio over the limit of %d (a zip bomb?)", size, compressed, pr.lim.MaxRatio), ErrLimit)
	}
	if int64(size) > pr.lim.MaxTotalBytes-pr.total {
		return pr.errAt(member, fmt.Sprintf("members of more than %d bytes in all, over the limit", pr.lim.MaxTotalBytes), ErrLimit)
	}
	return nil
}

func (pr *pkgReader) wheel(r io.ReaderAt, size int64) error {
	zr, err := pr.zip(r, size)
	if err != nil {
		return err
	}
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() || zf.Mode()&fs.ModeSymlink != 0 || !maybeELF(zf.Name) {
			continue
		}
		if err := pr.declared(zf.Name, zf.UncompressedSize64, zf.CompressedSize64); err != nil {
			return err
		}
		if zf.Method == zip.Store {
			if zf.CompressedSize64 != zf.UncompressedSize64 {
				return pr.errAt(zf.Name, fmt.Sprintf("stored member of %d bytes declares %d uncompressed", zf.CompressedSize64, zf.UncompressedSize64), ErrFormat)
			}
			off, err := zf.DataOffset()
			if err != nil {
				return pr.errAt(zf.Name, zipWhat(err), ErrFormat)
			}
			if off < 0 || off > size || int64(zf.UncompressedSize64) > size-off {
				return pr.errAt(zf.Name, "stored member runs past the end of the archive", ErrFormat)
			}
			pr.total += int64(zf.UncompressedSize64)
			pr.readAt(io.NewSectionReader(r, off, int64(zf.UncompressedSize64)), int64(zf.UncompressedSize64), zf.Name)
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return pr.errAt(zf.Name, zipWhat(err), ErrFormat)
		}
		err = pr.member(rc, int64(zf.UncompressedSize64), zf.Name)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func (pr *pkgReader) conda(r io.ReaderAt, size int64) error {
	zr, err := pr.zip(r, size)
	if err != nil {
		return err
	}
	found := false
	for _, zf := range zr.File {
		base := path.Base(zf.Name)
		if !strings.HasPrefix(base, "pkg-") || !strings.HasSuffix(base, ".tar.zst") {
			continue
		}
		found = true
		if zf.UncompressedSize64 > uint64(pr.lim.MaxTotalBytes) {
			return pr.errAt(zf.Name, fmt.Sprintf("member declares %d bytes, over the limit of %d", zf.UncompressedSize64, pr.lim.MaxTotalBytes), ErrLimit)
		}
		rc, err := zf.Open()
		if err != nil {
			return pr.errAt(zf.Name, zipWhat(err), ErrFormat)
		}
		cr := &countReader{r: rc}
		zd, err := zstd.NewReader(cr, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderMaxMemory(uint64(pr.lim.MaxTotalBytes)))
		if err != nil {
			rc.Close()
			return pr.errAt(zf.Name, "zstd: "+err.Error(), ErrFormat)
		}
		err = pr.stream(cr, zd, "zstd")
		zd.Close()
		rc.Close()
		if err != nil {
			return err
		}
	}
	if !found {
		return &Error{Path: pr.pkg.Path, Offset: -1, What: "no pkg-*.tar.zst member: not a conda package", Err: ErrNotPackage}
	}
	return nil
}

// stream reads a tar that comes out of a decompressor; in counts the
// compressed bytes the decompressor consumed.
func (pr *pkgReader) stream(in *countReader, dec io.Reader, codec string) error {
	out := &ratioReader{r: dec, in: in, pr: pr, codec: codec}
	tr := tar.NewReader(out)
	for n := 0; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return err
			}
			return &Error{Path: pr.pkg.Path, Offset: -1, What: fmt.Sprintf("%s tar: %v", codec, err), Err: ErrFormat}
		}
		if n >= pr.lim.MaxMembers {
			return limitErr(pr.pkg.Path, -1, "more than %d tar members", pr.lim.MaxMembers)
		}
		if h.Typeflag != tar.TypeReg || !maybeELF(h.Name) {
			continue
		}
		name := strings.TrimPrefix(path.Clean("/"+h.Name), "/")
		if h.Size < 0 || h.Size > pr.lim.MaxMemberBytes {
			return pr.errAt(name, fmt.Sprintf("member declares %d bytes, over the limit of %d", h.Size, pr.lim.MaxMemberBytes), ErrLimit)
		}
		if err := pr.member(tr, h.Size, name); err != nil {
			return err
		}
	}
}

// member reads one member of size bytes that can only be read in order:
// its first four bytes say whether it is ELF; an ELF member is spooled and
// read.
func (pr *pkgReader) member(r io.Reader, size int64, name string) error {
	if size < 4 {
		return nil
	}
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return pr.streamErr(name, err)
	}
	if string(head[:]) != elfMagic {
		return nil
	}
	pr.total += size
	if size <= pr.lim.MaxInMemory {
		b := make([]byte, size)
		copy(b, head[:])
		if _, err := io.ReadFull(r, b[4:]); err != nil {
			return pr.streamErr(name, err)
		}
		if err := pr.noMore(r, name); err != nil {
			return err
		}
		pr.readAt(bytes.NewReader(b), size, name)
		return nil
	}
	tmp, err := os.CreateTemp(pr.o.tempDir(), "envguard-native-*")
	if err != nil {
		return pr.errAt(name, "temporary file", err)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if _, err := tmp.Write(head[:]); err != nil {
		return pr.errAt(name, "temporary file", err)
	}
	n, err := io.Copy(tmp, io.LimitReader(r, size-4))
	if err != nil {
		return pr.streamErr(name, err)
	}
	if n != size-4 {
		return pr.errAt(name, fmt.Sprintf("member ends after %d of its %d bytes", n+4, size), ErrFormat)
	}
	if err := pr.noMore(r, name); err != nil {
		return err
	}
	pr.readAt(tmp, size, name)
	return nil
}

// noMore checks that a member gives no byte past its declared size (zip
// checks its checksum there).
func (pr *pkgReader) noMore(r io.Reader, name string) error {
	var b [1]byte
	n, err := r.Read(b[:])
	if n > 0 {
		return pr.errAt(name, "member inflates past its declared size", ErrFormat)
	}
	if err != nil && err != io.EOF {
		return pr.errAt(name, "member gives more than its declared size, or is corrupt: "+err.Error(), ErrFormat)
	}
	return nil
}

// zipWhat words an archive/zip error, which starts with "zip: " already.
func zipWhat(err error) string {
	if s := err.Error(); strings.HasPrefix(s, "zip: ") {
		return s
	}
	return "zip: " + err.Error()
}

func (pr *pkgReader) streamErr(name string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return pr.errAt(name, "member truncated", ErrFormat)
	}
	return pr.errAt(name, err.Error(), ErrFormat)
}

// readAt reads one ELF member; a member that is not a shared library is
// left out, one that cannot be read is kept as an error.
func (pr *pkgReader) readAt(r io.ReaderAt, size int64, name string) {
	var b [18]byte
	if n, _ := r.ReadAt(b[:], 0); n < len(b) || string(b[:4]) != elfMagic {
		if n >= 4 && string(b[:4]) == elfMagic {
			pr.errs = append(pr.errs, formatErr(pr.pkg.Path+"!"+name, 0, "ELF header truncated: %d bytes", n))
		}
		return
	}
	if headerType(b[:]) != "shared" {
		return
	}
	lib, err := pr.o.read(r, size, pr.pkg.Path, name)
	if err != nil {
		pr.errs = append(pr.errs, err)
		return
	}
	pr.pkg.Libraries = append(pr.pkg.Libraries, lib)
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioReader passes a decompressor's output and stops it at
// MaxTotalBytes, or once past RatioFloor at more than MaxRatio times the
// compressed bytes consumed.
type ratioReader struct {
	r     io.Reader
	in    *countReader
	pr    *pkgReader
	codec string
	n     int64
}

func (r *ratioReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.n += int64(n)
	lim := r.pr.lim
	if r.n > lim.MaxTotalBytes {
		return n, limitErr(r.pr.pkg.Path, -1, "%s stream gives more than %d bytes, over the limit", r.codec, lim.MaxTotalBytes)
	}
	if r.n > lim.RatioFloor && r.n/max(r.in.n, 1) > lim.MaxRatio {
		return n, limitErr(r.pr.pkg.Path, -1, "%s stream gives %d bytes from %d, a ratio over the limit of %d (a decompression bomb?)", r.codec, r.n, r.in.n, lim.MaxRatio)
	}
	return n, err
}

// tempDir is where members too large for memory are spooled.
func (o Options) tempDir() string { return o.TempDir }
