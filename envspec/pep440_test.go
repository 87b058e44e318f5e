package envspec

import (
	"errors"
	"slices"
	"testing"
)

func TestParsePEP440(t *testing.T) {
	tests := []struct {
		in      string
		want    string // normalised String(); "" when in is invalid
		public  string
		local   string
		release []int
		pre     bool
	}{
		{in: "2.0.1+cu118", want: "2.0.1+cu118", public: "2.0.1", local: "cu118", release: []int{2, 0, 1}},
		{in: "1.0", want: "1.0", public: "1.0", release: []int{1, 0}},
		{in: "v1.0", want: "1.0", public: "1.0", release: []int{1, 0}},
		{in: " 1.0 ", want: "1.0", public: "1.0", release: []int{1, 0}},
		// packaging strips Unicode blanks (Python's strip()) and matches
		// ASCII only: 'ſ' does not fold to 's', 'K' (Kelvin) not to 'k'.
		{in: "\u202f1.0\t\u2029\n ", want: "1.0", public: "1.0", release: []int{1, 0}},
		{in: "1.0po\u017ft1"},
		{in: "1.0+\u212a"},
		{in: "1.0+\u0130"},
		{in: "\u00a01.0.post1\u00a0", want: "1.0.post1", public: "1.0.post1", release: []int{1, 0}},
		{in: "\v1.0\x1c\x1f", want: "1.0", public: "1.0", release: []int{1, 0}},
		{in: "\u200b1.0"},
		{in: "1!2.0", want: "1!2.0", public: "1!2.0", release: []int{2, 0}},
		{in: "1.0a1", want: "1.0a1", public: "1.0a1", release: []int{1, 0}, pre: true},
		{in: "1.0-alpha.1", want: "1.0a1", public: "1.0a1", release: []int{1, 0}, pre: true},
		{in: "1.0BETA2", want: "1.0b2", public: "1.0b2", release: []int{1, 0}, pre: true},
		{in: "1.0c1", want: "1.0rc1", public: "1.0rc1", release: []int{1, 0}, pre: true},
		{in: "1.0preview3", want: "1.0rc3", public: "1.0rc3", release: []int{1, 0}, pre: true},
		{in: "1.0rc", want: "1.0rc0", public: "1.0rc0", release: []int{1, 0}, pre: true},
		{in: "1.0-1", want: "1.0.post1", public: "1.0.post1", release: []int{1, 0}},
		{in: "1.0.rev2", want: "1.0.post2", public: "1.0.post2", release: []int{1, 0}},
		{in: "1.0.post", want: "1.0.post0", public: "1.0.post0", release: []int{1, 0}},
		{in: "1.0.dev", want: "1.0.dev0", public: "1.0.dev0", release: []int{1, 0}, pre: true},
		{in: "1.0_dev_3", want: "1.0.dev3", public: "1.0.dev3", release: []int{1, 0}, pre: true},
		{in: "0.11.0rc0", want: "0.11.0rc0", public: "0.11.0rc0", release: []int{0, 11, 0}, pre: true},
		{in: "1.0+Ubuntu-1_x", want: "1.0+ubuntu.1.x", public: "1.0", local: "ubuntu.1.x", release: []int{1, 0}},
		{in: "2020.6.1", want: "2020.6.1", public: "2020.6.1", release: []int{2020, 6, 1}},
		{in: "1.0b2.post345.dev456", want: "1.0b2.post345.dev456", public: "1.0b2.post345.dev456", release: []int{1, 0}, pre: true},
		// Invalid.
		{in: ""},
		{in: "2.0.1+"},
		{in: "1.0+cu 118"},
		{in: "3fda6151279ba70c334997de7fd62a6a7bc749d3-"},
		{in: "1.0.*"},
		{in: "latest"},
		{in: "1..0"},
		{in: "1.0+a..b"},
		{in: "99999999999999999999999.0"},
	}
	for _, tt := range tests {
		v, err := ParsePEP440(tt.in)
		if tt.want == "" {
			var pe *PipError
			if err == nil {
				t.Errorf("ParsePEP440(%q) = %v, want an error", tt.in, v)
			} else if !errors.As(err, &pe) {
				t.Errorf("ParsePEP440(%q) error %T, want *PipError", tt.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParsePEP440(%q): %v", tt.in, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("ParsePEP440(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		if got := v.Public(); got != tt.public {
			t.Errorf("ParsePEP440(%q).Public() = %q, want %q", tt.in, got, tt.public)
		}
		if v.Local != tt.local {
			t.Errorf("ParsePEP440(%q).Local = %q, want %q", tt.in, v.Local, tt.local)
		}
		if !slices.Equal(v.Release, tt.release) {
			t.Errorf("ParsePEP440(%q).Release = %v, want %v", tt.in, v.Release, tt.release)
		}
		if v.IsPrerelease() != tt.pre {
			t.Errorf("ParsePEP440(%q).IsPrerelease() = %v, want %v", tt.in, v.IsPrerelease(), tt.pre)
		}
	}
}

// The ordering example of PEP 440 ("Summary of permitted suffixes and
// relative ordering"), each strictly lower than the next.
var pep440Ordered = []string{
	"1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12",
	"1.0b1.dev456", "1.0b2", "1.0b2.post345.dev456", "1.0b2.post345",
	"1.0rc1.dev456", "1.0rc1", "1.0", "1.0+abc.5", "1.0+abc.7", "1.0+5",
	"1.0.post456.dev34", "1.0.post456", "1.1.dev1",
}

func TestPEP440Order(t *testing.T) {
	vs := make([]PEP440Version, len(pep440Ordered))
	for i, s := range pep440Ordered {
		v, err := ParsePEP440(s)
		if err != nil {
			t.Fatalf("ParsePEP440(%q): %v", s, err)
		}
		vs[i] = v
	}
	for i := range vs {
		for j := range vs {
			want := pepCmp(i, j)
			if got := vs[i].Compare(vs[j]); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", pep440Ordered[i], pep440Ordered[j], got, want)
			}
		}
	}
}

func TestPEP440Equal(t *testing.T) {
	// Spellings PEP 440 calls equal: trailing zeros, normalised forms.
	pairs := [][2]string{
		{"1.0", "1.0.0"},
		{"1", "1.0.0.0"},
		{"0!1.0", "1.0"},
		{"1.0alpha1", "1.0a1"},
		{"1.0-post1", "1.0.post1"},
		{"1.0+CU118", "1.0+cu118"},
		{"1.0+abc-5", "1.0+abc.5"},
		{"1.0+abc.05", "1.0+abc.5"},
	}
	for _, p := range pairs {
		a, err1 := ParsePEP440(p[0])
		b, err2 := ParsePEP440(p[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("parse %v: %v %v", p, err1, err2)
		}
		if a.Compare(b) != 0 || b.Compare(a) != 0 {
			t.Errorf("%s and %s should compare equal", p[0], p[1])
		}
	}
	// And some that differ, both ways.
	lower := [][2]string{
		{"1.0", "1!0.1"},
		{"1.9", "1.10"},
		{"1.0+abc", "1.0+abd"},
		{"1.0+abc", "1.0+abc.1"},
		{"1.0+zzz", "1.0+1"},
		{"1.0+9", "1.0+10"},
		{"1.0+cu118", "1.0.post1"},
		{"1.0.dev1", "1.0a0"},
		{"1.0.post1.dev1", "1.0.post1"},
		{"1.0+99999999999999999999999", "1.0+100000000000000000000000"},
	}
	for _, p := range lower {
		a, _ := ParsePEP440(p[0])
		b, _ := ParsePEP440(p[1])
		if a.Compare(b) != -1 || b.Compare(a) != 1 {
			t.Errorf("want %s < %s, got Compare = %d, reverse %d", p[0], p[1], a.Compare(b), b.Compare(a))
		}
	}
}
