package envspec

import (
	"errors"
	"strings"
	"testing"
)

// TestVersionSpecMatch: the expected results are conda's own, from
// tests/models/test_version.py in conda/conda (test_match, test_ver_eval,
// test_not_eq_star, test_compound_versions,
// test_compatible_release_versions), plus envguard cases marked below.
func TestVersionSpecMatch(t *testing.T) {
	tests := []struct {
		spec, version string
		want          bool
	}{
		// test_match, all against 1.7.1
		{"1.7.*", "1.7.1", true},
		{"1.7.1", "1.7.1", true},
		{"1.7.0", "1.7.1", false},
		{"1.7", "1.7.1", false},
		{"1.5.*", "1.7.1", false},
		{">=1.5", "1.7.1", true},
		{"!=1.5", "1.7.1", true},
		{"!=1.7.1", "1.7.1", false},
		{"==1.7.1", "1.7.1", true},
		{"==1.7", "1.7.1", false},
		{"==1.7.2", "1.7.1", false},
		{"==1.7.1.0", "1.7.1", true},
		{"1.7.*|1.8.*", "1.7.1", true},
		{">1.7,<1.8", "1.7.1", true},
		{">1.7.1,<1.8", "1.7.1", false},
		{"^1.7.1$", "1.7.1", true},
		{`^1\.7\.1$`, "1.7.1", true},
		{`^1\.7\.[0-9]+$`, "1.7.1", true},
		{`^1\.8.*$`, "1.7.1", false},
		{`^1\.[5-8]\.1$`, "1.7.1", true},
		{`^[^1].*$`, "1.7.1", false},
		{`^[0-9+]+\.[0-9+]+\.[0-9]+$`, "1.7.1", true},
		{"^$", "1.7.1", false},
		{"^.*$", "1.7.1", true},
		{"1.7.*|^0.*$", "1.7.1", true},
		{"1.6.*|^0.*$", "1.7.1", false},
		{"1.6.*|^0.*$|1.7.1", "1.7.1", true},
		{"^0.*$|1.7.1", "1.7.1", true},
		{`1.6.*|^.*\.7\.1$|0.7.1`, "1.7.1", true},
		{"*", "1.7.1", true},
		{"1.*.1", "1.7.1", true},
		{"1.5.*|>1.7,<1.8", "1.7.1", true},
		{"1.5.*|>1.7,<1.7.1", "1.7.1", false},
		// test_ver_eval
		{"==1.7", "1.7.0", true},
		{"<=1.7", "1.7.0", true},
		{"<1.7", "1.7.0", false},
		{">=1.7", "1.7.0", true},
		{">1.7", "1.7.0", false},
		{">=1.7", "1.6.7", false},
		{">2013b", "2013a", false},
		{">2013b", "2013k", true},
		{">2013b", "3.0.0", false},
		{">1.0.0a", "1.0.0", true},
		{">1.0.0*", "1.0.0", true},
		{"1.0*", "1.0", true},
		{"1.0*", "1.0.0", true},
		{"1.0.0*", "1.0", true},
		{"1.0.0*", "1.0.1", false},
		{"2013a*", "2013a", true},
		{"2013b*", "2013a", false},
		{"2013a*", "2013ab", true},
		{"1.2.4*", "1.3.4", false},
		{"1.2.3*", "1.2.3+4.5.6", true},
		{"1.2.3+4*", "1.2.3+4.5.6", true},
		{"1.2.3+5*", "1.2.3+4.5.6", false},
		{"1.2.4+5*", "1.2.3+4.5.6", false},
		// test_not_eq_star
		{"=3.3", "3.3.1", true},
		{"=3.3", "3.3", true},
		{"=3.3", "3.4", false},
		{"3.3.*", "3.3.1", true},
		{"3.3.*", "3.3", true},
		{"3.3.*", "3.4", false},
		{"=3.3.*", "3.3.1", true},
		{"=3.3.*", "3.3", true},
		{"=3.3.*", "3.4", false},
		{"!=3.3.*", "3.3.1", false},
		{"!=3.3.*", "3.4", true},
		{"!=3.3.*", "3.4.1", true},
		{"!=3.3", "3.3.1", true},
		{"!=3.3", "3.3.0.0", false},
		{"!=3.3.*", "3.3.0.0", false},
		// test_compound_versions
		{">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*", "2.6.8", false},
		{">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*", "2.7.2", true},
		{">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*", "3.3", false},
		{">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*", "3.3.4", false},
		{">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*", "3.4", true},
		{">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*", "3.4a", true},
		// test_compatible_release_versions
		{"~=1.10", "1.11.0", true},
		{"~=1.10.0", "1.11.0", false},
		{"~=3.3.2", "3.4.0", false},
		{"~=3.3.2", "3.3.1", false},
		{"~=3.3.2", "3.3.2.0", true},
		{"~=3.3.2", "3.3.3", true},
		{"~=3.3.2|==2.2", "2.2.0", true},
		{"~=3.3.2|==2.2", "3.3.3", true},
		{"~=3.3.2|==2.2", "2.2.1", false},
		// envguard cases: ML stacks, precedence, parentheses
		{">=1.12,<2", "1.13.1", true},
		{">=1.12,<2", "2.0.0", false},
		{">=1.12,<2", "2.0.0a1", true}, // conda: 2.0.0a1 < 2
		{"1.13.*", "1.13.1+cu117", true},
		{"1.13.*", "1.130", false},
		{"1.13*", "1.13.0", true},
		{"=11.8", "11.8.89", true},
		{"=11.8", "11.80", false},
		{"11.8", "11.8.0", true},
		{"11.8", "11.8.89", false},
		{"2.0.1|2.0.2,<2.0.2", "2.0.2", false}, // ',' binds tighter
		{"2.0.1|2.0.2,<2.0.2", "2.0.1", true},
		{"(2.0.1|2.0.2),<2.0.2", "2.0.2", false},
		{"(2.0.1|2.0.2),>2.0.1", "2.0.2", true},
		{"( (1.5|((1.6|1.7), 1.8), 1.9 |2.0))|2.1", "2.0", true},
		{"( (1.5|((1.6|1.7), 1.8), 1.9 |2.0))|2.1", "1.6", false},
		{">=1.2.*", "1.2.0", true},
		{"<2.*", "1.9", true},
		{"1!1.0", "1.0", false},
		{">=2024.1", "1!0.1", true},
		{"3.10.*", "3.10.12", true},
		{"3.1.*", "3.10.12", false},
		{"3.9.*", "3.9.0rc1", true},
		{"1.0RC1", "1.0rc1", true},
		{"1.0.*", "1.0.0.dev1", true},
		{"<1.0", "1.0.dev1", true},
		{"1.2@foo", "1.2@foo", false}, // not a valid version: MatchString is false
		{">1", "garbage version!", false},
	}
	if len(tests) < 60 {
		t.Fatalf("only %d cases", len(tests))
	}
	for _, tt := range tests {
		s, err := ParseVersionSpec(tt.spec)
		if err != nil {
			t.Errorf("ParseVersionSpec(%q): %v", tt.spec, err)
			continue
		}
		if got := s.MatchString(tt.version); got != tt.want {
			t.Errorf("%q.MatchString(%q) = %v, want %v", tt.spec, tt.version, got, tt.want)
		}
	}
}

func TestVersionSpecString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1.7.1*", "1.7.1.*"},
		{"1.7.1.*", "1.7.1.*"},
		{"1.7.1*,1.8.1.*", "1.7.1.*,1.8.1.*"},
		{"=1.8", "=1.8"},
		{" >=1.0 , <2 ", ">=1.0,<2"},
		{"1.5.*|>1.7,<1.8", "1.5.*|>1.7,<1.8"},
		{"(1.2|1.3),<2", "(1.2|1.3),<2"},
		{"((1.2))", "1.2"},
		{"(>=1,<2),!=1.5", ">=1,<2,!=1.5"},
		// conda's test_version_spec_2 expects "1.5|1.6|1.7,1.8,1.9|2.0|2.1",
		// which conda itself would re-read differently ("1.7,1.8,1.9" and
		// the or-group lose their link); envguard keeps the parentheses
		// that make the string mean the same thing again.
		{"( (1.5|((1.6|1.7), 1.8), 1.9 |2.0))|2.1", "1.5|(1.6|1.7),1.8,1.9|2.0|2.1"},
		{"^1\\.(2|3)$", "^1\\.(2|3)$"},
		{"1.*.3", "1.*.3"},
		{"*", "*"},
		{"1.8**", "1.8**"}, // conda writes "1.8*.*", which it reads back as a glob
	}
	for _, tt := range tests {
		s, err := ParseVersionSpec(tt.in)
		if err != nil {
			t.Errorf("ParseVersionSpec(%q): %v", tt.in, err)
			continue
		}
		if got := s.String(); got != tt.want {
			t.Errorf("ParseVersionSpec(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		if s.Raw() != tt.in {
			t.Errorf("Raw() = %q, want %q", s.Raw(), tt.in)
		}
		again, err := ParseVersionSpec(s.String())
		if err != nil || again.String() != s.String() {
			t.Errorf("String() of %q does not re-parse to itself: %v %v", tt.in, again, err)
		}
	}
}

func TestVersionSpecErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		// conda's test_ver_eval_errors, test_version_spec_2 and
		// test_invalid_version_specs
		{"><2.4.5", 0, "invalid operator"},
		{"!!2.4.5", 0, "invalid operator"},
		{"!", 0, "invalid operator"},
		{"(1.5", 0, "unbalanced '('"},
		{"1.5)", 3, "unbalanced ')'"},
		{"1.5||1.6", 4, "missing version between"},
		{"^1.5", 0, "must start with '^' and end with '$'"},
		{"~", 0, "invalid operator"},
		{"^", 0, "must start with '^'"},
		{"1.2+", 4, "empty component"},
		{"+1.2", 0, "missing version before local"},
		{"+1.2+", 4, "duplicated local"},
		{"++", 1, "duplicated local"},
		// a glob with an epoch and no version (fuzz find: "0==*!  0"
		// read back as "0==*!=0", the operator "!=").
		{"*!", 1, "ends with the epoch separator '!'"},
		{"c +, 0/|0 *", 1, "invalid character ' '"},
		{"a[version=)|(", 1, "invalid character '['"},
		{"a=)(=b", 1, "invalid character '='"},
		{"==", 0, "missing version after operator"},
		{"=", 0, "missing version after operator"},
		{">=", 0, "missing version after operator"},
		{"<=", 0, "missing version after operator"},
		{"~=3.3.2.*", 0, "'~=' cannot be combined"},
		{"===3.3.2", 0, "invalid operator"},
		// envguard cases
		{"", 0, "empty version spec"},
		{" , ", 1, "starts with"},
		{"1.2,", 3, "missing version after"},
		{">=1.2,<", 6, "missing version after operator"},
		{"=>1.2", 0, "invalid operator"},
		{">>1", 0, "invalid operator"},
		{">= 1.2", 2, "blank"},
		{"~=1", 0, "at least two components"},
		{"(1.2)(1.3)", 5, "expected ',' or '|'"},
		{"1.2 1.3", 3, "invalid character ' '"},
		{"^1.(2$", 0, "invalid regular expression"},
		{".*", 0, "empty version"},
		{"1.*;3", 3, "invalid character ';'"},
		{">=1.2,<2.0a$", 6, "must start with '^' and end with '$'"},
	}
	for _, tt := range tests {
		_, err := ParseVersionSpec(tt.in)
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("ParseVersionSpec(%q) error = %v, want *SpecError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseVersionSpec(%q) = offset %d %q, want offset %d containing %q", tt.in, se.Offset, se.Msg, tt.offset, tt.msg)
		}
		if !strings.Contains(se.Error(), "at character") {
			t.Errorf("Error() = %q lacks the position", se.Error())
		}
	}
}

func TestVersionSpecExact(t *testing.T) {
	tests := []struct {
		in    string
		want  string
		exact bool
	}{
		{"1.7.1", "1.7.1", true},
		{"==1.2.3", "1.2.3", true},
		{"1.7.1*", "", false},
		{"=1.7", "", false},
		{">=1.7", "", false},
		{"1.7|1.8", "", false},
		{"*", "", false},
		{"!=1.2", "", false},
	}
	for _, tt := range tests {
		s, err := ParseVersionSpec(tt.in)
		if err != nil {
			t.Fatalf("ParseVersionSpec(%q): %v", tt.in, err)
		}
		v, ok := s.Exact()
		if ok != tt.exact || (ok && v.String() != tt.want) {
			t.Errorf("Exact(%q) = %q, %v; want %q, %v", tt.in, v, ok, tt.want, tt.exact)
		}
	}
	var nilSpec *VersionSpec
	if _, ok := nilSpec.Exact(); ok {
		t.Error("nil spec is exact")
	}
}

func TestDisjoint(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"==1.2", "==1.3", true},
		{"1.2", "1.3", true},
		{"==1.2", "==1.2.0", false},
		{"=1.2", "==1.3.0", true},
		{"1.2.*", "==1.2.5", false},
		{"1.2.*", "1.20.*", true},
		{"1.2.*", "1.2.1.*", false},
		{">=2", "<1.5", true},
		{">=2", "<=2", false},
		{">2", "<=2", true},
		{">=2", "<2", true},
		{">=1.12,<2", "2.0.*", false}, // 2.0a1 starts with 2.0 and is < 2
		{">=1.12,<2", "2.1.*", true},
		{">=1.12,<2.0a0", "2.0.*", false},  // 2.0.*: 2.0dev < 2.0a0
		{">=1.12,<2.0dev", "2.0.*", false}, // "2.0*" sorts before 2.0dev
		{">=1.12,<2.0*", "2.0.*", false},   // "2.0*.*" starts with 2.0 and sorts below "2.0*"
		{">=1.12,<2", "1.13.*", false},
		{"1.13.*|2.0.*", "2.1.*|1.12.*", true},
		{"1.13.*|2.0.*", "2.0.1", false},
		{"!=1.2", "==1.2", true},
		{"!=1.2", "==1.2.0.0", true},
		{"!=1.2", "1.2.*", false},
		{"!=1.2.*", "1.2.5", true},
		{"!=1.2.*", "1.3", false},
		{"~=1.4.5", "1.4.4", true},
		{"~=1.4.5", "1.5.0", true},
		{"~=1.4.5", "1.4.9", false},
		{"11.8.*", "12.*", true},
		{"=11.8", ">=11.8.89", false},
		{"3.9.*", "3.10.*", true},
		{"3.9.*", "3.9.0rc1", false},
		{"1.2a*", "1.2b1", true},
		{"1.2a*", "1.2alpha1", false},
		{"1.2a*", "1.2", true},
		{"^1\\.2.*$", "==1.3", false}, // regexes are never proven disjoint
		{"1.*.3", "2.0", false},
		{"*", "==1.0", false},
		{">2,<1", "*", true}, // the left side admits nothing
		{"1.0+cu118", "1.0+cpu", true},
		{"1.0+cu118*", "1.0+cpu", false}, // local prefixes are not modelled
		{"1!1.0", "1.0", true},
	}
	for _, tt := range tests {
		a, err := ParseVersionSpec(tt.a)
		if err != nil {
			t.Fatalf("ParseVersionSpec(%q): %v", tt.a, err)
		}
		b, err := ParseVersionSpec(tt.b)
		if err != nil {
			t.Fatalf("ParseVersionSpec(%q): %v", tt.b, err)
		}
		if got := Disjoint(a, b); got != tt.want {
			t.Errorf("Disjoint(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Disjoint(b, a); got != tt.want {
			t.Errorf("Disjoint(%q, %q) = %v, want %v (swapped)", tt.b, tt.a, got, tt.want)
		}
	}
	if Disjoint(nil, nil) {
		t.Error("nil specs admit everything")
	}
}

// TestDisjointSound checks Disjoint against Match on a grid of versions:
// whenever Disjoint says true, no version may match both.
func TestDisjointSound(t *testing.T) {
	specs := []string{
		"==1.2", "1.2.*", "=1.2", ">=1.2", "<1.2", ">1.2", "<=1.2", "!=1.2",
		"!=1.2.*", "~=1.2.3", "1.2a*", "1.3.*", ">=1.12,<2", "1.2|1.3",
		"(1.2|1.3),>1.2.5", "1.2.0.*", "1.2dev*", "1.2post*", "1!1.2.*", "*",
	}
	versions := []string{
		"1.1", "1.1.9", "1.2dev", "1.2.dev1", "1.2a", "1.2a1", "1.2alpha",
		"1.2b1", "1.2rc1", "1.2", "1.2.0", "1.2.0.1", "1.2.1", "1.2.3", "1.2.5",
		"1.2.6", "1.2post1", "1.2.post1", "1.2_", "1.3", "1.3.0", "1.3a1",
		"1.12", "1.13.1", "2.0", "2.0a1", "1!1.2", "1!1.2.3", "1.20", "0.9",
	}
	for _, as := range specs {
		a, _ := ParseVersionSpec(as)
		for _, bs := range specs {
			b, _ := ParseVersionSpec(bs)
			if !Disjoint(a, b) {
				continue
			}
			for _, vs := range versions {
				if a.MatchString(vs) && b.MatchString(vs) {
					t.Errorf("Disjoint(%q, %q) but %q matches both", as, bs, vs)
				}
			}
		}
	}
}

// TestVersionSpecLimits: untrusted specs cannot make parsing recurse or
// Disjoint multiply without bound.
func TestVersionSpecLimits(t *testing.T) {
	deep := strings.Repeat("(", 100) + "1.2" + strings.Repeat(")", 100)
	if _, err := ParseVersionSpec(deep); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep nesting: err = %v", err)
	}
	ok := strings.Repeat("(", 60) + "1.2" + strings.Repeat(")", 60)
	if _, err := ParseVersionSpec(ok); err != nil {
		t.Errorf("60 levels: %v", err)
	}
	group := "(>=1.1|>=1.2|>=1.3|>=1.4)" // overlapping: intersections multiply
	wide := group
	for i := 0; i < 40; i++ {
		wide += "," + group
	}
	a, err := ParseVersionSpec(wide)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseVersionSpec("==1.2")
	if Disjoint(a, b) {
		t.Errorf("Disjoint(%q, ==1.2) = true, but 1.2 matches both", wide)
	}
	if !a.MatchString("1.2") {
		t.Errorf("%q does not match 1.2", wide)
	}
}

func BenchmarkVersionSpecMatch(b *testing.B) {
	s, _ := ParseVersionSpec(">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*")
	v := mustParseVersion("3.4.1")
	for b.Loop() {
		s.Match(v)
	}
}
