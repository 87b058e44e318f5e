package envspec

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/envguard/envguard/finding"
)

func utf16Bytes(s string, bom, big bool) []byte {
	var b []byte
	if bom {
		if big {
			b = append(b, 0xfe, 0xff)
		} else {
			b = append(b, 0xff, 0xfe)
		}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

func TestText(t *testing.T) {
	env := "name: café\ndependencies:\n  - numpy\n"
	for _, tc := range []struct {
		name string
		src  []byte
		want string // the decoded text, when readable
		why  string // a substring of what the file is, when not
	}{
		{"utf-8", []byte(env), env, ""},
		{"empty", nil, "", ""},
		{"utf-16le bom", utf16Bytes(env, true, false), env, ""},
		{"utf-16be bom", utf16Bytes(env, true, true), env, ""},
		{"utf-16le no bom", utf16Bytes(env, false, false), "", "UTF-16 (little-endian) text without a byte-order mark"},
		{"utf-16be no bom", utf16Bytes(env, false, true), "", "UTF-16 (big-endian) text without a byte-order mark"},
		{"utf-16 odd", append(utf16Bytes("name: x", true, false), 'y'), "", "odd number of bytes"},
		{"utf-32", []byte("\xff\xfe\x00\x00n\x00\x00\x00"), "", "UTF-32"},
		{"elf", []byte("\x7fELF\x02\x01\x01\x00\x00"), "", "ELF binary"},
		{"wheel", []byte("PK\x03\x04\x14\x00\x00\x00"), "", "zip archive"},
		{"gzip", []byte("\x1f\x8b\x08\x00\x00\x00"), "", "gzip archive"},
		{"nul", []byte("name: x\ndependencies:\n  - a\x00b\n"), "", "NUL byte at offset 27 (line 3)"},
		// A text file may begin like a magic number without being binary.
		{"MZ word", []byte("MZ: 1\n"), "MZ: 1\n", ""},
		{"BZh word", []byte("BZhang: 1\n"), "BZhang: 1\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := Text(tc.src)
			if tc.why != "" {
				if got != nil || !strings.Contains(why, tc.why) {
					t.Fatalf("Text = %q, %q; want nil and a reason containing %q", got, why, tc.why)
				}
				return
			}
			if why != "" || string(got) != tc.want {
				t.Fatalf("Text = %q, %q; want %q readable", got, why, tc.want)
			}
		})
	}
}

// NotText's finding is one EG100 error on line 1 saying what the file is.
func TestNotTextFinding(t *testing.T) {
	env := NotText("env.yml", "an ELF binary (a program or shared library), not a text file", "linux-64")
	if len(env.Diags) != 1 || env.Diags[0].Code != "EG100" || env.Diags[0].Severity != finding.SeverityError {
		t.Fatalf("NotText diags = %v; want one EG100 error", env.Diags)
	}
	if got := env.Diags[0].Error(); got != "env.yml:1: envguard cannot read this file: it is an ELF binary (a program or shared library), not a text file [EG100]" {
		t.Errorf("Error() = %q", got)
	}
	if h := NotText("a", "UTF-16 (little-endian) text without a byte-order mark", "").Diags[0].Hint; !strings.Contains(h, "iconv") {
		t.Errorf("UTF-16 hint %q does not say how to convert", h)
	}
}

func FuzzText(f *testing.F) {
	f.Add([]byte("name: x\n"))
	f.Add(utf16Bytes("name: x\n", true, false))
	f.Add(utf16Bytes("name: x\n", true, true))
	f.Add(utf16Bytes("name: x\n", false, false))
	f.Add([]byte("\x7fELF\x00"))
	f.Add([]byte("\xfe\xff\xd8\x00"))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, why := Text(src)
		if (got == nil) == (why == "") && len(src) > 0 {
			t.Fatalf("Text(%q) = %q, %q: exactly one of text and reason must be set", src, got, why)
		}
		if why == "" && bytes.IndexByte(got, 0) >= 0 {
			t.Fatalf("Text(%q) returned text with a NUL", src)
		}
	})
}

// A near miss of a known top-level key is an error that names the key; any
// other unknown key stays a warning.
func TestNearMissTopKeys(t *testing.T) {
	for _, tc := range []struct {
		key, near string
	}{
		{"dependency", "dependencies"},
		{"dependecies", "dependencies"},
		{"Dependencies", "dependencies"},
		{"channel", "channels"},
		{"chanels", "channels"},
		{"platform", "platforms"},
		{"variable", "variables"},
		{"description", ""},
		{"build", ""},
	} {
		src := "name: x\nchannels: [conda-forge]\n" + tc.key + ":\n  - numpy\n"
		env := Parse("e.yml", []byte(src), ParseOptions{Platform: "linux-64"})
		var got *finding.Diagnostic
		for i, d := range env.Diags {
			if d.Code == "EG102" {
				got = &env.Diags[i]
			}
		}
		if got == nil {
			t.Errorf("%s: no EG102 in %v", tc.key, env.Diags)
			continue
		}
		if tc.near == "" {
			if got.Severity != finding.SeverityWarning || strings.Contains(got.Message, "did you mean") {
				t.Errorf("%s: %s %s; want a warning with no suggestion", tc.key, got.Severity, got.Message)
			}
			continue
		}
		if got.Severity != finding.SeverityError || !strings.Contains(got.Message, `did you mean "`+tc.near+`"?`) || got.Pos.Line != 3 {
			t.Errorf("%s: %s at line %d: %s; want an error at line 3 suggesting %q", tc.key, got.Severity, got.Pos.Line, got.Message, tc.near)
		}
	}
}
