package cache

import (
	"encoding/binary"
	"errors"
	"unsafe"
)

// Fields reads the varint-framed fields a manifest is written in, which
// callers also use for what they keep in its aux bytes. Its first error
// sticks: every read after it yields zero, so a decoder reads on and
// checks Err once.
type Fields struct {
	b   []byte
	off int
	err error
}

// NewFields reads b from off.
func NewFields(b []byte, off int) *Fields { return &Fields{b: b, off: off} }

var errTruncated = errors.New("truncated or malformed field")

func (f *Fields) fail() {
	if f.err == nil {
		f.err = errTruncated
	}
	f.off = len(f.b)
}

// Err is the first error, or nil.
func (f *Fields) Err() error { return f.err }

// Left is how many bytes are still to read.
func (f *Fields) Left() int { return len(f.b) - f.off }

// Next is the next n bytes, sharing f's memory.
func (f *Fields) Next(n int) []byte {
	if f.err != nil {
		return nil
	}
	if n < 0 || n > f.Left() {
		f.fail()
		return nil
	}
	s := f.b[f.off : f.off+n : f.off+n]
	f.off += n
	return s
}

// Uvarint is the next unsigned varint.
func (f *Fields) Uvarint() uint64 {
	if f.err != nil {
		return 0
	}
	v, n := binary.Uvarint(f.b[f.off:])
	if n <= 0 {
		f.fail()
		return 0
	}
	f.off += n
	return v
}

// Varint is the next signed varint.
func (f *Fields) Varint() int64 {
	if f.err != nil {
		return 0
	}
	v, n := binary.Varint(f.b[f.off:])
	if n <= 0 {
		f.fail()
		return 0
	}
	f.off += n
	return v
}

// Byte is the next byte.
func (f *Fields) Byte() byte {
	if b := f.Next(1); b != nil {
		return b[0]
	}
	return 0
}

// Bytes is the next length-prefixed run of bytes, sharing f's memory.
func (f *Fields) Bytes() []byte {
	n := f.Uvarint()
	if n > uint64(f.Left()) {
		f.fail()
		return nil
	}
	return f.Next(int(n))
}

// String is Bytes as a string that shares f's memory rather than copying
// it: a second run decodes some 100,000 names from a manifest (every
// directory's entries), and a copy of each was a tenth of its decoding.
// It is for bytes that are never written again, as Cache.Load's are (a
// manifest is read once into a buffer of its own, and the entries and aux
// bytes it hands out are slices of it that no caller may modify).
func (f *Fields) String() string {
	b := f.Bytes()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Count is the next count of elements that take at least min bytes each:
// a count the bytes left cannot hold fails, which bounds what a damaged
// count can make a decoder allocate.
func (f *Fields) Count(min int) int {
	n := f.Uvarint()
	if n > uint64(f.Left()/min) {
		f.fail()
		return 0
	}
	return int(n)
}
