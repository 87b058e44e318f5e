package envspec

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func fuzzSpecError(t *testing.T, in string, err error) {
	t.Helper()
	var se *SpecError
	if !errors.As(err, &se) {
		t.Fatalf("%q: error %T %v is not a *SpecError", in, err, err)
	}
	if se.Offset < 0 || se.Offset > len(in) {
		t.Fatalf("%q: error offset %d outside the input", in, se.Offset)
	}
}

func FuzzParseVersion(f *testing.F) {
	for _, g := range testOrder {
		for _, s := range g {
			f.Add(s, "1.0")
		}
	}
	for _, s := range pep440Order {
		f.Add(s, "1!1.0")
	}
	f.Add("1.1_", "1.1dev1")
	f.Add("1-2-3", "1_2_3")
	f.Add("a!b!1.0", "+")
	f.Fuzz(func(t *testing.T, a, b string) {
		va, err := ParseVersion(a)
		if err != nil {
			fuzzSpecError(t, a, err)
			return
		}
		if va.Compare(va) != 0 || !va.startsWith(va) {
			t.Fatalf("%q is not equal to / a prefix of itself", a)
		}
		again, err := ParseVersion(va.Normalized())
		if err != nil || again.Compare(va) != 0 || again.Normalized() != va.Normalized() {
			t.Fatalf("normalised %q of %q does not re-read as equal: %v", va.Normalized(), a, err)
		}
		vb, err := ParseVersion(b)
		if err != nil {
			return
		}
		if x, y := va.Compare(vb), vb.Compare(va); x != -y {
			t.Fatalf("Compare(%q, %q) = %d but reverse = %d", a, b, x, y)
		}
		if va.startsWith(vb) {
			// a version starting with p lies strictly between p's bounds.
			if lo, hi, ok := vPrefixBounds(vb); ok && (va.Compare(lo) <= 0 || va.Compare(hi) >= 0) {
				t.Fatalf("%q starts with %q but lies outside its bounds", a, b)
			}
		}
	})
}

func FuzzParseVersionSpec(f *testing.F) {
	for _, s := range []string{
		"1.7.*", ">=1.5", "!=1.7.1", "1.7.*|1.8.*", ">1.7,<1.8", `^1\.7\.[0-9]+$`,
		"1.6.*|^0.*$|1.7.1", "*", "1.*.1", "1.5.*|>1.7,<1.7.1", "~=3.3.2|==2.2",
		">=2.7, !=3.0.*, !=3.1.*", "( (1.5|((1.6|1.7), 1.8), 1.9 |2.0))|2.1",
		"=3.3", "!=3.3.*", "1.2@x", "(1.5", "1.5||1.6", ">= 1.2", "1.0+cu118*",
	} {
		f.Add(s, "1.7.1")
	}
	f.Fuzz(func(t *testing.T, spec, ver string) {
		s, err := ParseVersionSpec(spec)
		// Read again, its versions come from the cache: the same reading,
		// and the first one is left as it was.
		before := fmt.Sprintf("%#v", s)
		if again, aerr := ParseVersionSpec(spec); fmt.Sprint(aerr) != fmt.Sprint(err) || !reflect.DeepEqual(again, s) {
			t.Fatalf("%q: read again %#v %v, first %#v %v", spec, again, aerr, s, err)
		}
		if after := fmt.Sprintf("%#v", s); after != before {
			t.Fatalf("%q: reading it again changed the first reading: %s, then %s", spec, before, after)
		}
		if err != nil {
			fuzzSpecError(t, spec, err)
			return
		}
		s2, err := ParseVersionSpec(s.String())
		if err != nil {
			t.Fatalf("String() %q of %q does not parse: %v", s.String(), spec, err)
		}
		if s2.String() != s.String() {
			t.Fatalf("String() not stable: %q -> %q -> %q", spec, s.String(), s2.String())
		}
		v, err := ParseVersion(ver)
		if err != nil {
			if s.MatchString(ver) {
				t.Fatalf("MatchString(%q) true for an invalid version", ver)
			}
			return
		}
		m := s.Match(v)
		if m != s2.Match(v) {
			t.Fatalf("%q and its String() %q disagree on %q", spec, s.String(), ver)
		}
		if m {
			pin := &VersionSpec{kind: vsOp, op: "==", ver: v, exact: true, norm: v.String()}
			if Disjoint(s, pin) || Disjoint(s, s) {
				t.Fatalf("%q matches %q but Disjoint says no version fits both", spec, ver)
			}
		}
	})
}

func FuzzParseMatchSpec(f *testing.F) {
	for _, s := range []string{
		"numpy", "numpy=1.20", "numpy==1.20.1", "numpy>=1.20,<2", "numpy 1.20.* py39*",
		"numpy=1.20=py39h1234_0", "pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0",
		"conda-forge/linux-64::python", "numpy[version='>=1.20',build=py*]",
		"pytorch=*=*cuda*", "python 3.10.*", "numpy >=1.20", "numpy>=1.20 py39*",
		"channel/label/foo::pkg", "https://example.com/ch/linux-64::numpy", "numpy *",
		"*[md5=abc]", "numpy=>1.2", "numpy==1.2==3", "::numpy", "numpy[version=1",
		"a/linux-64/numpy-1.0-0.tar.bz2", "mkl@", "numpy # [linux]", "ns:numpy",
		`numpy[build="^py3[01]$"]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ParseMatchSpec(in)
		// Parse takes the structs from a slab: the same reading, twice in
		// a row from one slab as in a file's list.
		sl := &slab{left: 2}
		for range 2 {
			if ms, serr := parseMatchSpec(in, sl); fmt.Sprint(serr) != fmt.Sprint(err) || !reflect.DeepEqual(ms, m) {
				t.Fatalf("%q: from a slab %+v %v, alone %+v %v", in, ms, serr, m, err)
			}
		}
		if err != nil {
			fuzzSpecError(t, in, err)
			return
		}
		if m.Raw != in || m.Name == "" {
			t.Fatalf("%q: Raw %q, Name %q", in, m.Raw, m.Name)
		}
		for _, sp := range []Span{m.ChannelSpan, m.NameSpan, m.VersionSpan, m.BuildSpan, m.SubdirSpan} {
			if sp.Start < 0 || sp.End > len(in) || sp.Start > sp.End {
				t.Fatalf("%q: span %+v outside the input", in, sp)
			}
		}
		for k, sp := range m.KeySpans {
			if sp.Start < 0 || sp.End > len(in) || sp.Start > sp.End || in[sp.Start:sp.End] != m.Keys[k] {
				t.Fatalf("%q: key %s span %+v does not cover %q", in, k, sp, m.Keys[k])
			}
		}
		m.MatchBuild("py39_0")
		m.Admits("1.0")
		if m.Version != nil {
			if _, err := ParseVersionSpec(m.VersionString()); err != nil {
				t.Fatalf("%q: VersionString %q does not parse: %v", in, m.VersionString(), err)
			}
		}
		// the canonical form must read back as the same spec ("*" as the
		// version or channel admits everything and is not printed).
		c, err := ParseMatchSpec(m.String())
		if err != nil {
			t.Fatalf("%q: canonical %q does not parse: %v", in, m.String(), err)
		}
		// Compare the normalised trees: VersionString keeps conda's spelling
		// ("1.8*" vs "1.8.*"), which the canonical form may change.
		vstr := func(x *MatchSpec) string {
			if x.Version == nil {
				return ""
			}
			return x.Version.String()
		}
		sameVersion := vstr(c) == vstr(m) || (vstr(m) == "*" && c.Version == nil) || sameAdmits(m, c, in)
		if c.String() != m.String() || c.Name != m.Name || c.Build != m.Build || !sameVersion ||
			(c.Channel != m.Channel && m.Channel != "*") || c.Subdir != m.Subdir {
			t.Fatalf("%q: canonical %q re-reads as %q", in, m.String(), c.String())
		}
	})
}

// sameAdmits reports whether two specs admit the same versions among probes
// taken from the input and a fixed set: "==0,0" and "0,0" are spelt
// differently and mean the same.
func sameAdmits(a, b *MatchSpec, in string) bool {
	probes := []string{"0", "0.0", "0.1", "1", "1.0", "1.2", "1.2.3", "2", "10", "1.0a1", "1.0.post1"}
	probes = append(probes, strings.FieldsFunc(in, func(r rune) bool { return !(r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z') })...)
	for _, p := range probes {
		if a.Admits(p) != b.Admits(p) {
			return false
		}
	}
	return true
}
