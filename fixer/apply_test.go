package fixer

import (
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
)

func pos(l, c int) finding.Pos { return finding.Pos{Line: l, Col: c} }

func TestApply(t *testing.T) {
	src := "name: train  # é\r\ndeps:\r\n  - 日本=1.0\r\n  - b\r\n"
	tests := []struct {
		name    string
		changes []Change
		want    string
		applied []bool
		reason  string
	}{
		{
			name:    "multi-byte columns and CRLF kept",
			changes: []Change{{Edits: []finding.Edit{{Pos: pos(3, 7), EndPos: pos(3, 11), Old: "=1.0", New: "=2.0"}}}},
			want:    "name: train  # é\r\ndeps:\r\n  - 日本=2.0\r\n  - b\r\n",
			applied: []bool{true},
		},
		{
			name:    "inserted lines take the file's line end",
			changes: []Change{{Edits: []finding.Edit{{Pos: pos(4, 1), EndPos: pos(4, 1), New: "  - pip\n"}}}},
			want:    "name: train  # é\r\ndeps:\r\n  - 日本=1.0\r\n  - pip\r\n  - b\r\n",
			applied: []bool{true},
		},
		{
			name:    "a deleted line takes its CRLF",
			changes: []Change{{Edits: []finding.Edit{{Pos: pos(4, 1), EndPos: pos(5, 1), Old: "  - b\n"}}}},
			want:    "name: train  # é\r\ndeps:\r\n  - 日本=1.0\r\n",
			applied: []bool{true},
		},
		{
			name: "overlapping fixes: the first wins, the second is skipped",
			changes: []Change{
				{Edits: []finding.Edit{{Pos: pos(1, 7), EndPos: pos(1, 12), Old: "train", New: "pt20_cu118"}}},
				{Edits: []finding.Edit{{Pos: pos(1, 9), EndPos: pos(1, 12), Old: "ain", New: "x"}}},
			},
			want:    "name: pt20_cu118  # é\r\ndeps:\r\n  - 日本=1.0\r\n  - b\r\n",
			applied: []bool{true, false},
			reason:  "overlaps another fix",
		},
		{
			name:    "text that moved on is not touched",
			changes: []Change{{Edits: []finding.Edit{{Pos: pos(1, 7), EndPos: pos(1, 12), Old: "trian", New: "x"}}}},
			want:    src,
			applied: []bool{false},
			reason:  "no longer reads",
		},
		{
			name: "a fix is whole or nothing",
			changes: []Change{{Edits: []finding.Edit{
				{Pos: pos(1, 7), EndPos: pos(1, 12), Old: "train", New: "x"},
				{Pos: pos(9, 1), EndPos: pos(9, 2), Old: "z", New: "y"},
			}}},
			want:    src,
			applied: []bool{false},
			reason:  "not in the file",
		},
		{
			name: "the same fix from two findings is made once",
			changes: []Change{
				{Edits: []finding.Edit{{Pos: pos(4, 5), EndPos: pos(4, 6), Old: "b", New: "c"}}},
				{Edits: []finding.Edit{{Pos: pos(4, 5), EndPos: pos(4, 6), Old: "b", New: "c"}}},
			},
			want:    "name: train  # é\r\ndeps:\r\n  - 日本=1.0\r\n  - c\r\n",
			applied: []bool{true, true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, outs := Apply([]byte(src), tt.changes)
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			for i, o := range outs {
				if o.Applied != tt.applied[i] {
					t.Errorf("change %d applied=%v, want %v (%s)", i, o.Applied, tt.applied[i], o.Reason)
				}
				if !o.Applied && !strings.Contains(o.Reason, tt.reason) {
					t.Errorf("change %d: reason %q does not say %q", i, o.Reason, tt.reason)
				}
			}
		})
	}
}

// FuzzApply places random edits in random text: Apply never panics, skips
// what does not match, and the result is the source with exactly the
// applied spans replaced, every other byte unchanged.
func FuzzApply(f *testing.F) {
	f.Add([]byte("name: train\r\n  - a=1\n"), 1, 7, 1, 12, "x", 2, 3, 2, 3, "y\n")
	f.Add([]byte("é日本\n\n"), 1, 2, 2, 1, "", 1, 1, 1, 1, "z")
	f.Add([]byte("\ufeffname: a\rb: c\r"), 1, 7, 1, 8, "x", 2, 1, 3, 1, "")
	f.Add([]byte("a: b\u2028c: d\xc2\x85e\r\n"), 2, 1, 3, 1, "z\n", 1, 1, 1, 1, "y")
	f.Fuzz(func(t *testing.T, src []byte, l1, c1, l2, c2 int, n1 string, l3, c3, l4, c4 int, n2 string) {
		idx := newLineIndex(src)
		var changes []Change
		for _, e := range [][4]int{{l1, c1, l2, c2}, {l3, c3, l4, c4}} {
			ed := finding.Edit{Pos: pos(e[0], e[1]), EndPos: pos(e[2], e[3]), New: n1}
			if s, ok := idx.offset(src, ed.Pos); ok {
				if t2, ok := idx.offset(src, ed.EndPos); ok && t2 >= s {
					ed.Old = normBreaks(src[s:t2])
				}
			}
			changes = append(changes, Change{Edits: []finding.Edit{ed}})
			n1 = n2
		}
		got, outs := Apply(src, changes)
		eol := lineEnd(src)
		// rebuild from the applied spans alone
		type sp struct {
			s, e int
			new  string
		}
		var spans []sp
		for i, o := range outs {
			if !o.Applied {
				continue
			}
			ed := changes[i].Edits[0]
			s, ok1 := idx.offset(src, ed.Pos)
			e, ok2 := idx.offset(src, ed.EndPos)
			if !ok1 || !ok2 || e < s {
				t.Fatalf("applied an edit outside the file: %+v", ed)
			}
			if i == 1 && outs[0].Applied && changeKey(changes[0]) == changeKey(changes[1]) {
				continue // one fix
			}
			spans = append(spans, sp{s, e, strings.ReplaceAll(ed.New, "\n", eol)})
		}
		sort.SliceStable(spans, func(i, j int) bool {
			if spans[i].s != spans[j].s {
				return spans[i].s < spans[j].s
			}
			return spans[i].s == spans[i].e && spans[j].s != spans[j].e
		})
		var want []byte
		at := 0
		for _, s := range spans {
			if s.s < at {
				t.Fatalf("applied overlapping spans %+v", spans)
			}
			want = append(want, src[at:s.s]...)
			want = append(want, s.new...)
			at = s.e
		}
		want = append(want, src[at:]...)
		if !bytes.Equal(got, want) {
			t.Fatalf("Apply gave %q, the applied spans give %q", got, want)
		}
	})
}
