package envspec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/envguard/envguard/finding"
)

// magics are the openings of binary files someone may point envguard at by
// mistake (a conda package, a wheel, a compiled program): named, so the
// finding says what the file is rather than "invalid YAML".
var magics = []struct {
	prefix, what string
}{
	{"\x7fELF", "an ELF binary (a program or shared library)"},
	{"PK\x03\x04", "a zip archive (a .whl, .conda or .zip file)"},
	{"PK\x05\x06", "an empty zip archive"},
	{"\x1f\x8b", "a gzip archive"},
	{"\xfd7zXZ\x00", "an xz archive"},
	{"BZh", "a bzip2 archive"},
	{"\x28\xb5\x2f\xfd", "a zstd archive"},
	{"\xcf\xfa\xed\xfe", "a Mach-O binary"},
	{"MZ", "a Windows executable"},
}

// Text returns src as UTF-8 text the readers can take, and "" — or, where
// it is no such text, nil and what the file is. UTF-16 with a byte-order
// mark is decoded (Windows editors and PowerShell's `>` write it);
// UTF-16 without one, UTF-32 and binary files are named, never parsed: a
// parser would report a baffling syntax error, or worse read nothing and
// pass.
func Text(src []byte) ([]byte, string) {
	switch {
	case bytes.HasPrefix(src, []byte("\xff\xfe\x00\x00")), bytes.HasPrefix(src, []byte("\x00\x00\xfe\xff")):
		return nil, "a UTF-32 text file; envguard reads UTF-8 (or UTF-16 with a byte-order mark)"
	case bytes.HasPrefix(src, []byte("\xff\xfe")):
		return decodeUTF16(src[2:], binary.LittleEndian)
	case bytes.HasPrefix(src, []byte("\xfe\xff")):
		return decodeUTF16(src[2:], binary.BigEndian)
	}
	for _, m := range magics {
		// MZ and BZh are also the start of ordinary words; a text file that
		// begins so has no NUL, while these binaries have NULs early on.
		if bytes.HasPrefix(src, []byte(m.prefix)) && (len(m.prefix) > 3 || bytes.IndexByte(src[:min(len(src), 512)], 0) >= 0) {
			return nil, m.what + ", not a text file"
		}
	}
	i := bytes.IndexByte(src, 0)
	if i < 0 {
		return src, ""
	}
	if end := utf16Guess(src); end != "" {
		return nil, fmt.Sprintf("UTF-16 (%s) text without a byte-order mark; envguard reads UTF-8, or UTF-16 that starts with a byte-order mark", end)
	}
	line := 1 + bytes.Count(src[:i], []byte("\n"))
	return nil, fmt.Sprintf("a binary file, not text: a NUL byte at offset %d (line %d)", i, line)
}

func decodeUTF16(b []byte, order binary.ByteOrder) ([]byte, string) {
	if len(b)%2 != 0 {
		return nil, "UTF-16 text (it starts with a byte-order mark) with an odd number of bytes: the file is cut short or is not UTF-16"
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = order.Uint16(b[2*i:])
	}
	out := make([]byte, 0, len(u))
	for _, r := range utf16.Decode(u) {
		out = utf8.AppendRune(out, r)
	}
	if bytes.IndexByte(out, 0) >= 0 {
		return nil, "UTF-16 text (it starts with a byte-order mark) that holds a NUL character: a binary file, not text"
	}
	return out, ""
}

// utf16Guess says whether src reads as ASCII-range UTF-16 without a BOM:
// every other byte NUL in its first 512 bytes, and names the byte order.
func utf16Guess(src []byte) string {
	n := min(len(src), 512) &^ 1
	if n < 4 {
		return ""
	}
	even, odd := 0, 0
	for i := 0; i < n; i += 2 {
		if src[i] == 0 {
			even++
		}
		if src[i+1] == 0 {
			odd++
		}
	}
	switch half := n / 2; {
	case odd == half && even == 0:
		return "little-endian"
	case even == half && odd == 0:
		return "big-endian"
	}
	return ""
}

// NotText is the Env of an input Text refused: no items, one EG100 that
// says what the file is.
func NotText(file, what string, platform string) *Env {
	hint := "validate the environment, lock or requirements file itself"
	if strings.Contains(what, "UTF-") {
		hint = "save it as UTF-8, e.g. `iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8` (UTF-16LE or UTF-16BE where it has no byte-order mark)"
	}
	return &Env{File: file, Kind: KindUnknown, Platform: platform, Diags: finding.Diagnostics{{
		Pos: finding.Pos{File: file, Line: 1}, Severity: RuleEG100.Severity, Code: RuleEG100.Code,
		Message: "envguard cannot read this file: it is " + what, Hint: hint,
	}}}
}
