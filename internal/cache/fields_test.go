package cache

import (
	"encoding/binary"
	"testing"
)

// Fields reads what binary's appenders wrote, its first error sticks, and a
// count the bytes left cannot hold fails instead of being allocated.
func TestFields(t *testing.T) {
	b := binary.AppendUvarint(nil, 2)
	b = binary.AppendVarint(b, -7)
	b = append(b, 'x')
	b = binary.AppendUvarint(b, 3)
	b = append(b, "abc"...)
	f := NewFields(b, 0)
	if n, v, c, s := f.Count(1), f.Varint(), f.Byte(), string(f.Bytes()); n != 2 || v != -7 || c != 'x' || s != "abc" || f.Err() != nil || f.Left() != 0 {
		t.Fatalf("read %d %d %q %q, err %v, %d left", n, v, c, s, f.Err(), f.Left())
	}
	f = NewFields(binary.AppendUvarint(nil, 1000), 0)
	if n := f.Count(2); n != 0 || f.Err() == nil {
		t.Fatalf("a count of 1000 two-byte elements in no bytes: %d, err %v", n, f.Err())
	}
	if f.Uvarint() != 0 || f.Bytes() != nil || f.Byte() != 0 || f.Err() == nil {
		t.Fatal("reads after an error must yield zero and keep the error")
	}
	f = NewFields(binary.AppendUvarint(nil, 5), 0)
	if f.Bytes() != nil || f.Err() == nil {
		t.Fatal("a length past the end must fail")
	}
}

// String reads what Bytes reads, as a string, and fails as Bytes fails.
func TestFieldsString(t *testing.T) {
	b := []byte{3, 'a', 'b', 'c', 0, 5, 'x'}
	f := NewFields(b, 0)
	if s := f.String(); s != "abc" {
		t.Errorf("first: %q", s)
	}
	if s := f.String(); s != "" {
		t.Errorf("empty: %q", s)
	}
	if s := f.String(); s != "" || f.Err() == nil {
		t.Errorf("a length past the end: %q, err %v", s, f.Err())
	}
}
