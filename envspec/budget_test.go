package envspec

import (
	"strings"
	"testing"
)

func TestCutItems(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		max       int
		over      bool
		read      string
		line, col int
	}{
		{"within", "a: 1\nb: [x, y]\n", 4, false, "", 0, 0},
		{"comments and blank lines do not count", "# c\n\na: 1\n  # d\nb: 2\n", 2, false, "", 0, 0},
		{"block cut at a line start", "a:\n- x\n- y\n- z\n", 3, true, "a:\n- x\n- y\n", 4, 0},
		{"flow cut closes the brackets", "a: [x, {k: v, l: w}, y]\n", 2, true, "a: [x, {k: v}]\n", 1, 13},
		{"commas in quotes do not count", "a: ['x,y,z', b]\n", 2, false, "", 0, 0},
		{"a flow list over lines", "a: [x,\n  y,\n  z]\nb: 1\n", 2, true, "a: [x,\n  y]\n", 2, 4},
		{"commas in block scalars do not count", "a: x, y, z\n", 1, false, "", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cut, over := cutItems([]byte(tt.src), tt.max)
			if over != tt.over {
				t.Fatalf("over = %v, want %v", over, tt.over)
			}
			if !over {
				return
			}
			if string(cut.src) != tt.read || cut.line != tt.line || cut.col != tt.col {
				t.Errorf("read %q up to %d:%d; want %q up to %d:%d", cut.src, cut.line, cut.col, tt.read, tt.line, tt.col)
			}
		})
	}
}

// Parse stops at its item budget with one EG101 that says where, and reads
// the part before it as it would read a short file.
func TestParseItemBudget(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n" + strings.Repeat("  - numpy\n", 50) + "name: late\n"
	env := Parse("b.yml", []byte(src), ParseOptions{Platform: "linux-64", MaxItems: 20})
	if len(env.Deps) != 18 {
		t.Errorf("%d dependencies read, want 18", len(env.Deps))
	}
	var got []string
	for _, d := range env.Diags {
		if d.Code == "EG101" {
			got = append(got, d.Error())
		}
	}
	want := "b.yml:21: the file holds more than 20 items (dependencies, pip lines, keys): envguard checked the first 20, up to line 20, and read nothing after it [EG101]"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if env.Name != nil {
		t.Errorf("read %q past the budget", env.Name.Value)
	}
	if len(env.Lines) != 21 {
		t.Errorf("kept %d lines, want 21 (through the cut line)", len(env.Lines))
	}
	// The default budget leaves a real file alone.
	env = Parse("b.yml", []byte(src), ParseOptions{Platform: "linux-64"})
	for _, d := range env.Diags {
		if d.Code == "EG101" {
			t.Errorf("default budget: %v", d)
		}
	}
}

// A file of more than one YAML document is refused with EG100, as conda
// refuses it; a lone leading `---` or a trailing `...` is one document.
func TestMultiDocument(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		line      int // of the EG100; 0 for none
	}{
		{"one document", "dependencies: [numpy]\n", 0},
		{"leading marker", "---\ndependencies: [numpy]\n", 0},
		{"end marker", "dependencies: [numpy]\n...\n", 0},
		{"second document", "dependencies: [numpy]\n---\ndependencies: [scipy]\n", 2},
		{"empty second document", "dependencies: [numpy]\n---\n", 2},
		{"garbage second document", "dependencies: [numpy]\n---\n: : [\n", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := Parse("m.yml", []byte(tt.src), ParseOptions{Platform: "linux-64"})
			line := 0
			for _, d := range env.Diags {
				if d.Code == "EG100" {
					line = d.Pos.Line
				}
			}
			if line != tt.line {
				t.Errorf("EG100 at line %d, want %d: %v", line, tt.line, env.Diags)
			}
		})
	}
}
