package fixer

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
)

// TestLineEndsAndEncodings fixes every golden case written with a UTF-8
// byte-order mark, with CR-only line ends (and both), with CRLF, and as
// UTF-16 of either byte order: each gets the fixes its LF form gets, at
// the same lines and columns, and comes back with its mark, line ends and
// encoding. Before, a BOM hid line 1 from EG501 and CR-only line ends made
// the file one line to envspec though many to yaml.v3, so the EG201 fix
// below the first line was not made (N9).
func TestLineEndsAndEncodings(t *testing.T) {
	dirs, err := filepath.Glob("testdata/fix/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases under testdata/fix: %v", err)
	}
	crOnly := func(s string) string { return strings.ReplaceAll(s, "\n", "\r") }
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	variants := []struct {
		name string
		to   func(string) string
	}{
		{"bom", func(s string) string { return envspec.BOM + s }},
		{"cr", crOnly},
		{"bom_cr", func(s string) string { return envspec.BOM + crOnly(s) }},
		{"bom_crlf", func(s string) string { return envspec.BOM + crlf(s) }},
		{"utf16le", func(s string) string { return string(encodeUTF16([]byte(s), binary.LittleEndian)) }},
		{"utf16be_crlf", func(s string) string { return string(encodeUTF16([]byte(crlf(s)), binary.BigEndian)) }},
	}
	for _, dir := range dirs {
		raw, err := os.ReadFile(filepath.Join(dir, "before.yml"))
		if err != nil {
			t.Fatal(err)
		}
		opt := caseOptions(t, dir)
		lf := strings.ReplaceAll(string(raw), "\r\n", "\n")
		base, err := Fix(context.Background(), "environment.yml", []byte(lf), opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(base.Applied) == 0 && !strings.Contains(dir, "safe_only") && !strings.Contains(dir, "none_fits") {
			t.Fatalf("%s: no fix in its LF form", dir)
		}
		for _, v := range variants {
			t.Run(filepath.Base(dir)+"/"+v.name, func(t *testing.T) {
				res, err := Fix(context.Background(), "environment.yml", []byte(v.to(lf)), opt)
				if err != nil {
					t.Fatal(err)
				}
				if want := v.to(string(base.Fixed)); string(res.Fixed) != want {
					t.Errorf("fixed:\n%q\nwant (the LF fix, written the same way):\n%q", res.Fixed, want)
				}
				if len(res.Applied) != len(base.Applied) {
					t.Fatalf("applied %v, the LF form %v", res.Applied, base.Applied)
				}
				for i, a := range res.Applied {
					if b := base.Applied[i]; a.Code != b.Code || a.Line != b.Line || a.Column != b.Column {
						t.Errorf("fix %d: %s at %d:%d, the LF form %s at %d:%d", i, a.Code, a.Line, a.Column, b.Code, b.Line, b.Column)
					}
				}
			})
		}
	}
}

// The two files: a BOM before a name to fix, and an EG201 fix on
// line 7 of a CR-only file.
func TestBOMAndCROnly(t *testing.T) {
	const body = "name: train\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0\n  - pytorch-cuda=11.7\n"
	const fixed = "name: pt20_cu118\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0\n  - pytorch-cuda=11.8\n"
	for _, tt := range []struct{ name, src, want string }{
		{"bom", "\ufeff" + body, "\ufeff" + fixed},
		{"cr", strings.ReplaceAll(body, "\n", "\r"), strings.ReplaceAll(fixed, "\n", "\r")},
	} {
		// --unsafe, for EG501's rename: the column after the BOM is what is tested
		res, err := Fix(context.Background(), "environment.yml", []byte(tt.src), testOptions(true))
		if err != nil {
			t.Fatal(err)
		}
		codes := map[string]bool{}
		for _, a := range res.Applied {
			codes[a.Code] = true
		}
		if string(res.Fixed) != tt.want || !codes["EG501"] || !codes["EG201"] {
			t.Errorf("%s: applied %v\n%q\nwant\n%q", tt.name, res.Applied, res.Fixed, tt.want)
		}
	}
}

// Env.Lines holds the lines yaml.v3 counts, so that a finding's line and
// column find its text: CR alone, NEL, LS and PS break lines, and the BOM
// is not in line 1.
func TestEnvLinesAsYAMLCounts(t *testing.T) {
	src := "\ufeffname: a\rchannels: [b]\u2028dependencies:\r\n  - c # x\u0085  - d\n"
	e := envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	want := []string{"name: a", "channels: [b]", "dependencies:", "  - c # x", "  - d"}
	if strings.Join(e.Lines, "|") != strings.Join(want, "|") || !e.FinalNewline {
		t.Errorf("lines %q (final newline %v), want %q", e.Lines, e.FinalNewline, want)
	}
	for _, d := range e.Deps {
		if got := e.Line(d.Raw.Pos.Line)[d.Raw.Pos.Col-1:]; !strings.HasPrefix(got, d.Raw.Value) {
			t.Errorf("%s at %d:%d reads %q there", d.Raw.Value, d.Raw.Pos.Line, d.Raw.Pos.Col, got)
		}
	}
	if len(e.Deps) != 2 {
		t.Errorf("deps %v", e.Deps)
	}
}

func TestDiffCROnly(t *testing.T) {
	got := Diff("f", []byte("a\rb\rc\r"), []byte("a\rB\rc\r"))
	if !strings.Contains(got, "-b\r+B\r") {
		t.Errorf("diff of CR-only lines:\n%q", got)
	}
}

// FuzzLinesAgree: the fixer's line index and envspec's Env.Lines split any
// text at the same places, so that an edit built from Env.Lines lands on
// the bytes it names.
func FuzzLinesAgree(f *testing.F) {
	f.Add([]byte("\ufeffname: a\rb: c\r\n\u2028d\u0085e\n\n"))
	f.Add([]byte("a\r\r\n\rb"))
	f.Add([]byte("\ufeff"))
	f.Fuzz(func(t *testing.T, src []byte) {
		e := envspec.Parse("environment.yml", src, envspec.ParseOptions{Platform: "linux-64"})
		idx := newLineIndex(src)
		n := len(idx.start)
		if n > 1 && idx.start[n-1] == len(src) {
			n-- // the end of the file after a final break is no line
		}
		if len(src) == 0 {
			n = 0
		}
		if len(e.Lines) != n {
			t.Fatalf("%d lines in Env.Lines, %d in the index: %q", len(e.Lines), n, e.Lines)
		}
		for i, l := range e.Lines {
			if got := string(src[idx.start[i]:idx.end[i]]); got != l {
				t.Fatalf("line %d: %q in the index, %q in Env.Lines", i+1, got, l)
			}
		}
	})
}
