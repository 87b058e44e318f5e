package envspec

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// docstringOrder is the sorted sequence from the VersionOrder docstring in
// conda/conda conda/models/version.py ("The resulting order is: ..."); each
// inner slice is a group of equal versions. The docstring writes
// "0.4 < 0.4.0", but conda's code pads missing parts with 0 and its own
// test (tests/models/test_version.py) asserts
// VersionOrder("0.4") == VersionOrder("0.4.0"), so they share a group here.
var docstringOrder = [][]string{
	{"0.4", "0.4.0"},
	{"0.4.1.rc", "0.4.1.RC"},
	{"0.4.1"},
	{"0.5a1"},
	{"0.5b3"},
	{"0.5C1"},
	{"0.5"},
	{"0.9.6"},
	{"0.960923"},
	{"1.0"},
	{"1.1dev1"},
	{"1.1_"},
	{"1.1a1"},
	{"1.1.0dev1", "1.1.dev1"},
	{"1.1.a1"},
	{"1.1.0rc1"},
	{"1.1.0", "1.1"},
	{"1.1.0post1", "1.1.post1"},
	{"1.1post1"},
	{"1996.07.12"},
	{"1!0.4.1"},
	{"1!3.1.1.6"},
	{"2!0.4.1"},
}

// testOrder is the sorted list of conda's test_version_order
// (tests/models/test_version.py), extended with the groups conda asserts
// equal there.
var testOrder = [][]string{
	{"0.4", "0.4.0"}, {"0.4.1a.vc11"}, {"0.4.1.rc"}, {"0.4.1.vc11"}, {"0.4.1"},
	{"0.5*"}, {"0.5a1"}, {"0.5b3"}, {"0.5C1"}, {"0.5z"}, {"0.5za"}, {"0.5"},
	{"0.5_5", "0.5-5"}, {"0.9.6"}, {"0.960923"}, {"1.0"}, {"1.0.4a3"},
	{"1.0.4b1"}, {"1.0.4"}, {"1.1dev1"}, {"1.1_"}, {"1.1a1"}, {"1.1.dev1"},
	{"1.1.a1"}, {"1.1"}, {"1.1.post1"}, {"1.1.1dev1"}, {"1.1.1rc1"}, {"1.1.1"},
	{"1.1.1post1"}, {"1.1post1"}, {"2g6"}, {"2.0b1pr0"}, {"2.2be.ta29"},
	{"2.2be5ta29"}, {"2.2beta29"}, {"2.2.0.1"}, {"3.1.1.6"}, {"3.2.p.r0"},
	{"3.2.pr0"}, {"3.2.pr.1"}, {"5.5.kw"}, {"11g"}, {"14.3.1"},
	{"14.3.1.post26.g9d75ca2"}, {"1996.07.12"}, {"1!0.4.1"}, {"1!3.1.1.6"},
	{"2!0.4.1"},
}

// openssl and pep440 orders are conda's test_openssl_convention and
// test_pep440 lists, strictly increasing.
var opensslOrder = []string{
	"1.0.1dev", "1.0.1_", "1.0.1a", "1.0.1b", "1.0.1c", "1.0.1d", "1.0.1r",
	"1.0.1rc", "1.0.1rc1", "1.0.1rc2", "1.0.1s", "1.0.1", "1.0.1post.a",
	"1.0.1post.b", "1.0.1post.z", "1.0.1post.za", "1.0.2",
}

var pep440Order = []string{
	"1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12", "1.0b1.dev456",
	"1.0b2", "1.0b2.post345.dev456", "1.0b2.post345", "1.0c1.dev456", "1.0c1",
	"1.0c3", "1.0rc2", "1.0.dev456", "1.0", "1.0.post456.dev34", "1.0.post456",
	"1.1.dev1", "1.2.r32+123456", "1.2.rev33+123456", "1.2+abc",
	"1.2+abc123def", "1.2+abc123", "1.2+123abc", "1.2+123abc456",
	"1.2+1234.abc", "1.2+123456", "1!1.0a1", "1!1.0a2.dev456",
	"1!1.0a12.dev456", "1!1.0a12", "1!1.0b1.dev456", "1!1.0b2",
	"1!1.0b2.post345.dev456", "1!1.0b2.post345", "1!1.0c1.dev456", "1!1.0c1",
	"1!1.0c3", "1!1.0rc2", "1!1.0.dev456", "1!1.0", "1!1.0.post456.dev34",
	"1!1.0.post456", "1!1.1.dev1", "1!1.2.r32+123456", "1!1.2.rev33+123456",
	"1!1.2+abc", "1!1.2+abc123def", "1!1.2+abc123", "1!1.2+123abc",
	"1!1.2+123abc456", "1!1.2+1234.abc", "1!1.2+123456",
}

func checkGroups(t *testing.T, groups [][]string) {
	t.Helper()
	type item struct {
		s     string
		group int
		v     Version
	}
	var items []item
	for g, grp := range groups {
		for _, s := range grp {
			v, err := ParseVersion(s)
			if err != nil {
				t.Fatalf("ParseVersion(%q): %v", s, err)
			}
			items = append(items, item{s, g, v})
		}
	}
	for i, a := range items {
		for j, b := range items {
			want := 0
			switch {
			case a.group < b.group:
				want = -1
			case a.group > b.group:
				want = 1
			}
			if got := a.v.Compare(b.v); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d (positions %d, %d)", a.s, b.s, got, want, i, j)
			}
		}
	}
}

func TestVersionOrderDocstring(t *testing.T) {
	n := 0
	for _, g := range docstringOrder {
		n += len(g)
	}
	if n < 28 {
		t.Fatalf("docstring list has %d versions", n)
	}
	checkGroups(t, docstringOrder)
}

func TestVersionOrderCondaTests(t *testing.T) {
	checkGroups(t, testOrder)
	single := func(l []string) [][]string {
		out := make([][]string, len(l))
		for i, s := range l {
			out[i] = []string{s}
		}
		return out
	}
	t.Run("openssl", func(t *testing.T) { checkGroups(t, single(opensslOrder)) })
	t.Run("pep440", func(t *testing.T) { checkGroups(t, single(pep440Order)) })
	t.Run("hexrd", func(t *testing.T) { checkGroups(t, single([]string{"0.3.0.dev", "0.3.3"})) })
}

// dump renders the parsed components in the notation of conda's tests:
// post is inf, dev is 'DEV'.
func dump(v Version) string {
	var b strings.Builder
	b.WriteString("[")
	for i, c := range v.ver {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[")
		for j, p := range c {
			if j > 0 {
				b.WriteString(", ")
			}
			switch p.kind {
			case kNum:
				if p.num == "" {
					b.WriteString("0")
				} else {
					b.WriteString(p.num)
				}
			case kPost:
				b.WriteString("inf")
			case kStr:
				fmt.Fprintf(&b, "'%s'", p.str)
			}
		}
		b.WriteString("]")
	}
	b.WriteString("]")
	return b.String()
}

// TestVersionParts checks the split against the expected lists of conda's
// test_version_order and the VersionOrder docstring examples.
func TestVersionParts(t *testing.T) {
	tests := []struct{ in, want, norm string }{
		{"0.4.1a.vc11", "[[0], [0], [4], [1, 'a'], [0, 'vc', 11]]", "0.4.1a.vc11"},
		{"0.5*", "[[0], [0], [5, '*']]", "0.5*"},
		{"0.5C1", "[[0], [0], [5, 'c', 1]]", "0.5c1"},
		{"0.5-5", "[[0], [0], [5], [5]]", "0.5_5"},
		{"1.1dev1", "[[0], [1], [1, 'DEV', 1]]", "1.1dev1"},
		{"1.1_", "[[0], [1], [1, '_']]", "1.1_"},
		{"1.1.post1", "[[0], [1], [1], [0, inf, 1]]", "1.1.post1"},
		{"2.0b1pr0", "[[0], [2], [0, 'b', 1, 'pr', 0]]", "2.0b1pr0"},
		{"2.2be.ta29", "[[0], [2], [2, 'be'], [0, 'ta', 29]]", "2.2be.ta29"},
		{"14.3.1.post26.g9d75ca2", "[[0], [14], [3], [1], [0, inf, 26], [0, 'g', 9, 'd', 75, 'ca', 2]]", "14.3.1.post26.g9d75ca2"},
		{"1996.07.12", "[[0], [1996], [7], [12]]", "1996.07.12"},
		{"1!3.1.1.6", "[[1], [3], [1], [1], [6]]", "1!3.1.1.6"},
		{"1.2g.beta15.rc", "[[0], [1], [2, 'g'], [0, 'beta', 15], [0, 'rc']]", "1.2g.beta15.rc"},
		{"1!2.15.1_ALPHA", "[[1], [2], [15], [1], [0, 'alpha']]", "1!2.15.1_alpha"},
		{"  0.4.1.RC  ", "[[0], [0], [4], [1], [0, 'rc']]", "0.4.1.rc"},
		{"99999999999999999999999.1", "[[0], [99999999999999999999999], [1]]", "99999999999999999999999.1"},
	}
	for _, tt := range tests {
		v, err := ParseVersion(tt.in)
		if err != nil {
			t.Errorf("ParseVersion(%q): %v", tt.in, err)
			continue
		}
		if got := dump(v); got != tt.want {
			t.Errorf("ParseVersion(%q) parts = %s, want %s", tt.in, got, tt.want)
		}
		if v.Normalized() != tt.norm {
			t.Errorf("ParseVersion(%q).Normalized() = %q, want %q", tt.in, v.Normalized(), tt.norm)
		}
		if v.String() != strings.TrimSpace(tt.in) {
			t.Errorf("ParseVersion(%q).String() = %q", tt.in, v.String())
		}
	}
}

func TestVersionBigNumbers(t *testing.T) {
	a := mustParseVersion("1.99999999999999999999")
	b := mustParseVersion("1.100000000000000000000")
	c := mustParseVersion("1.00099999999999999999999")
	if a.Compare(b) >= 0 || b.Compare(a) <= 0 {
		t.Errorf("big numbers compare wrongly")
	}
	if c.Compare(mustParseVersion("1.99999999999999999999")) != 0 {
		t.Errorf("leading zeros must not count: %s vs %s", c, a)
	}
}

func TestParseVersionErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		// conda's test_version_order and test_invalid_version_specs list
		// these as invalid.
		{"", 0, "empty version"},
		{"  ", 2, "empty version"},
		{"3.5&1", 3, "invalid character '&'"},
		{"5.5++", 4, "duplicated local version separator"},
		{"5.5..mw", 4, "empty component"},
		{"!", 0, "epoch"},
		{"a!1.0", 0, "epoch"},
		{"a!b!1.0", 3, "duplicated epoch separator"},
		{"1.2+", 4, "empty component in local version"},
		{"+1.2", 0, "missing version before local version separator"},
		{"1!", 2, "missing version after epoch separator '!'"},
		{"+1.2+", 4, "duplicated local version separator"},
		{"++", 1, "duplicated local version separator"},
		{"1.2 3", 3, "invalid character ' '"},
		{"1-2_3", 1, "invalid character '-'"},
		{"1.0.", 4, "empty component"},
		{"1!", 2, "missing version"},
		{"é1", 0, "invalid character"},
		{" 1..2", 3, "empty component"},
	}
	for _, tt := range tests {
		_, err := ParseVersion(tt.in)
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("ParseVersion(%q) error = %v, want *SpecError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseVersion(%q) = offset %d %q, want offset %d containing %q", tt.in, se.Offset, se.Msg, tt.offset, tt.msg)
		}
	}
}

func TestVersionRelease(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"1.13.1", "[1 13 1]"},
		{"2.0.1+cu118", "[2 0 1]"},
		{"2.0a1", "[2 0]"},
		{"1.1.dev1", "[1 1]"},
		{"1!2.3", "[2 3]"},
		{"12.1.105", "[12 1 105]"},
		{"rc1", "[]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(mustParseVersion(tt.in).Release()); got != tt.want {
			t.Errorf("Release(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if e := mustParseVersion("3!1.0").Epoch(); e != "3" {
		t.Errorf("Epoch = %q", e)
	}
	if e := mustParseVersion("1.0").Epoch(); e != "0" {
		t.Errorf("Epoch = %q", e)
	}
	v := mustParseVersion("2.0.1+CU118")
	if !v.HasLocal() || v.Local() != "cu118" {
		t.Errorf("Local = %q", v.Local())
	}
}

func TestVersionStartsWith(t *testing.T) {
	// conda test_version_order "check startswith".
	tests := []struct {
		v, p string
		want bool
	}{
		{"0.4.1", "0", true},
		{"0.4.1", "0.4", true},
		{"0.4.1p1", "0.4", true},
		{"0.4.1p1", "0.4.1p", true},
		{"0.4.1p1", "0.4.1q1", false},
		{"0.4", "0.4.1", false},
		{"0.4.1+1.3", "0.4.1", true},
		{"0.4.1+1.3", "0.4.1+1", true},
		{"0.4.1", "0.4.1+1.3", false},
		{"0.4.1+1", "0.4.1+1.3", false},
	}
	for _, tt := range tests {
		if got := mustParseVersion(tt.v).startsWith(mustParseVersion(tt.p)); got != tt.want {
			t.Errorf("%q startswith %q = %v, want %v", tt.v, tt.p, got, tt.want)
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	x := mustParseVersion("1.13.1+cu117")
	y := mustParseVersion("1.13.1.post1")
	for b.Loop() {
		x.Compare(y)
	}
}

func BenchmarkParseVersion(b *testing.B) {
	for b.Loop() {
		_, _ = ParseVersion("14.3.1.post26.g9d75ca2")
	}
}
