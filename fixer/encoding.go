package fixer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
)

// A UTF-16 file (one with a byte-order mark, as Windows editors and
// PowerShell's `>` write it) is validated as the UTF-8 text it decodes to,
// and the findings' positions are in that text. Its fixes are made there
// and the result encoded back, byte order and mark kept: edits placed in
// the UTF-16 bytes would write UTF-8 into the file.

// utf16Order is the byte order of a UTF-16 byte-order mark at the start of
// src, nil where there is none (or it is a UTF-32 mark).
func utf16Order(src []byte) binary.AppendByteOrder {
	switch {
	case bytes.HasPrefix(src, []byte("\xff\xfe\x00\x00")):
		return nil
	case bytes.HasPrefix(src, []byte("\xff\xfe")):
		return binary.LittleEndian
	case bytes.HasPrefix(src, []byte("\xfe\xff")):
		return binary.BigEndian
	}
	return nil
}

// decodeForFix is the text the fixer edits, and the function that turns
// the fixed text back into the file's encoding. A UTF-16 file that does not
// come back byte for byte (an unpaired surrogate, which decodes to U+FFFD)
// is refused: writing it would change bytes no fix touched.
func decodeForFix(file string, src []byte) ([]byte, func([]byte) []byte, error) {
	order := utf16Order(src)
	if order == nil {
		return src, func(b []byte) []byte { return b }, nil
	}
	text, why := envspec.Text(src)
	if why != "" {
		return nil, nil, fmt.Errorf("%s: %w (it is %s)", file, ErrNotEnvFile, why)
	}
	encode := func(b []byte) []byte { return encodeUTF16(b, order) }
	if !bytes.Equal(encode(text), src) {
		return nil, nil, fmt.Errorf("%s: %w: it is UTF-16 that does not decode and encode back to the same bytes (an unpaired surrogate?), so fixing it would change more than the fixes", file, ErrNotEnvFile)
	}
	return text, encode, nil
}

// encodeUTF16 is UTF-8 text b as UTF-16 in order, after a byte-order mark.
func encodeUTF16(b []byte, order binary.AppendByteOrder) []byte {
	out := order.AppendUint16(make([]byte, 0, 2+2*len(b)), 0xfeff)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			out = order.AppendUint16(order.AppendUint16(out, uint16(r1)), uint16(r2))
			continue
		}
		out = order.AppendUint16(out, uint16(r))
	}
	return out
}

// textForDiff is src as the UTF-8 text a diff shows.
func textForDiff(src []byte) []byte {
	if utf16Order(src) == nil {
		return src
	}
	if text, why := envspec.Text(src); why == "" {
		return text
	}
	return src
}
