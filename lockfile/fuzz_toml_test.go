package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/readertest"
)

// refPosAt is how positions were computed before issue 22: the line by a
// search of the line starts, the column by counting the characters from
// the start of the line. The cursor posAt keeps must give the same.
func refPosAt(d *tomlDoc, off int) finding.Pos {
	off = min(max(off, 0), len(d.data))
	line := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off })
	return finding.Pos{File: d.file, Line: line, Col: utf8.RuneCount(d.data[d.lines[line-1]:off]) + 1}
}

func tomlSeeds(f *testing.F) {
	for _, n := range []string{"pixi.toml", "uv.lock", "pylock.toml"} {
		if b, err := os.ReadFile(filepath.Join(lockDir, n)); err == nil {
			f.Add(b)
		}
	}
	for _, n := range []string{"cuda-pins.pixi.toml", "pylock.cpu.toml", "two-majors.uv.lock"} {
		if b, err := os.ReadFile(filepath.Join("testdata/lock/golden", n)); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"a.b.c = 1\n[x.y]\nz = [1, 2, {é = 'ü'}]\n",
		"[" + strings.Repeat("a.", 80) + "a]\n",
		strings.Repeat("a.", 80) + "a = 1\n",
		"x = " + strings.Repeat("[", 80) + strings.Repeat("]", 80) + "\n",
		"s = \"\"\"\r\nmulti\r\nline\"\"\"\nt = '''\nraw'''\n",
		"\"é\".'ü'.\"\\u00e9\" = \"\\xff\"\n",
		"k = \"\xff\xfe\"\n",
		"a = 1\na = 2\n",
	} {
		f.Add([]byte(s))
	}
}

// FuzzParseTOML: whatever the bytes, parseTOML never panics; an error is a
// *TOMLError at a place in the document; every value and key it built lies
// at a line and column of the document, the column the one counted from
// the start of its line; and the reading asks for positions in file order,
// going back at most once, for an error's highlight.
func FuzzParseTOML(f *testing.F) {
	tomlSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := parseTOML("f.toml", src)
		if err != nil {
			var te *TOMLError
			if !errors.As(err, &te) {
				t.Fatalf("%T is no TOMLError: %v", err, err)
			}
			checkTOMLPos(t, doc, te.Pos, "error")
		}
		if doc.rewinds > 1 {
			t.Errorf("positions asked for out of order %d times", doc.rewinds)
		}
		var walk func(n *tomlNode, depth int)
		walk = func(n *tomlNode, depth int) {
			if depth > 3*maxTOMLDepth {
				t.Fatalf("a tree %d deep", depth)
			}
			checkTOMLPos(t, doc, n.pos, "value")
			checkTOMLPos(t, doc, n.key, "key")
			for _, k := range n.keys {
				walk(n.m[k], depth+1)
			}
			for _, c := range n.arr {
				walk(c, depth+1)
			}
		}
		for _, k := range doc.root.keys {
			walk(doc.root.m[k], 1)
		}
	})
}

// checkTOMLPos holds a position to the document: a line it has, a column
// no further than one past the line's characters.
func checkTOMLPos(t *testing.T, d *tomlDoc, ps finding.Pos, what string) {
	t.Helper()
	if ps.Line < 1 || ps.Line > len(d.lines) {
		t.Fatalf("%s at line %d of %d", what, ps.Line, len(d.lines))
	}
	end := len(d.data)
	if ps.Line < len(d.lines) {
		end = d.lines[ps.Line] - 1
	}
	if n := utf8.RuneCount(d.data[d.lines[ps.Line-1]:end]); ps.Col < 1 || ps.Col > n+1 {
		t.Fatalf("%s at %d:%d, a line of %d characters", what, ps.Line, ps.Col, n)
	}
}

// FuzzTOMLPosAt: for any text and any walk of offsets through it — mostly
// forward, at times back, into the middle of a character or past the end —
// the cursor gives the position counting from the start of the line gives.
func FuzzTOMLPosAt(f *testing.F) {
	f.Add([]byte("ab\ncé\n\nü€x\n"), []byte{1, 3, 4, 5, 6, 200, 2, 9, 12, 13})
	f.Add([]byte("\xff\xe2\x82\nx\xf0\x9f"), []byte{1, 2, 3, 4, 5, 6, 7, 0, 8})
	f.Fuzz(func(t *testing.T, src, walk []byte) {
		d, _ := parseTOML("f.toml", nil) // a doc with no tree; its text is set below
		d.data = src
		d.lines = []int{0}
		for i, c := range src {
			if c == '\n' {
				d.lines = append(d.lines, i+1)
			}
		}
		d.cur = tomlCursor{line: 1, col: 1}
		off := 0
		for _, w := range walk {
			if w >= 128 {
				off -= int(w - 128) // back
			} else {
				off += int(w)
			}
			off = min(max(off, -1), len(src)+1)
			if got, want := d.posAt(off), refPosAt(d, off); got != want {
				t.Fatalf("offset %d of %q: %v, want %v", off, src, got, want)
			}
		}
	})
}

// The lock files and manifests of the test data, and the hostile shapes,
// are read in one pass: no position is asked for behind the last one.
func TestTOMLPositionsInFileOrder(t *testing.T) {
	inputs := map[string][]byte{}
	for _, dir := range []string{lockDir, "testdata/lock/golden"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if n := e.Name(); strings.HasSuffix(n, ".toml") || strings.HasSuffix(n, "uv.lock") {
				b, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				inputs[n] = b
			}
		}
	}
	if len(inputs) < 4 {
		t.Fatalf("only %d TOML files in the test data", len(inputs))
	}
	inputs["long line"] = []byte("x = [" + strings.Repeat("1, ", 5000) + "{a = 'é', b = [\"ü\"]}]\n")
	inputs["inline tables"] = []byte("y = {" + readertest.Seq(2000, "k%d = {v = 'é'}, ") + "z = 1}\n")
	for name, src := range inputs {
		doc, err := parseTOML(name, src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if doc.rewinds != 0 {
			t.Errorf("%s: positions asked for out of order %d times", name, doc.rewinds)
		}
	}
}

// A key or a table header of more parts than any manifest has, and values
// nested deeper, are refused at the key's first part, before the tree is
// built (issue 22: a 100,000-part key cost 86 MB).
func TestTOMLDepthBounds(t *testing.T) {
	deep := strings.Repeat("a.", maxTOMLDepth) + "a"
	tests := []struct{ src, want string }{
		{"x = 1\n" + deep + " = 1\n", "f.toml:2:1: a key of more than 64 parts"},
		{"x = 1\n[" + deep + "]\n", "f.toml:2:2: a key of more than 64 parts"},
		{"[[" + deep + "]]\n", "f.toml:1:3: a key of more than 64 parts"},
		{"x = " + strings.Repeat("[", maxTOMLDepth+1) + strings.Repeat("]", maxTOMLDepth+1) + "\n", "arrays and inline tables nested more than 64 deep"},
		{"x = " + strings.Repeat("{a = ", maxTOMLDepth+1) + "1" + strings.Repeat("}", maxTOMLDepth+1) + "\n", "arrays and inline tables nested more than 64 deep"},
	}
	for _, tt := range tests {
		_, err := parseTOML("f.toml", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%.40q…: err %v, want %q", tt.src, err, tt.want)
		}
	}
	// At the bound itself, all is read.
	ok := strings.Repeat("a.", maxTOMLDepth-1) + "a = 1\nx = " + strings.Repeat("[", maxTOMLDepth) + strings.Repeat("]", maxTOMLDepth) + "\n"
	if _, err := parseTOML("f.toml", []byte(ok)); err != nil {
		t.Errorf("a key of %d parts and arrays %d deep: %v", maxTOMLDepth, maxTOMLDepth, err)
	}
}
