package envspec

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The fast paths of the parsers must read every string exactly as the
// plain implementations they replaced. These tests keep those plain
// implementations (the regexp for PEP 440, the splitting version parser)
// as references and compare.

var perfSeeds = []string{
	"1.13.1", "14.3.1.post26.g9d75ca2", "1!2.0a1+cu117.x", "1.1_", "1._", "1__", "_",
	"1.0-1", "1-2-3", "1.0a-1", "1.0a.post", "1.0.dev", "1.0rc", "1.0r1", "1.0pre1",
	"1.0preview2", "v1.0", "V2!3.4.5c6-7.dev8+LoCaL-1_b", "1.0.", "1.0-", "1.0a-",
	"2.1.0rc1.post2.dev3+cu118", " 1.0 ", "1.0\n", "1.0+", "1.0+a..b", "1.0+a.",
	"1.0+\u212a", "1.0po\u017ft1", "1.0-post", "1.0_r_3", "1!", "!1", "1.*", "1.2.*",
	"0001.0002", "99999999999999999999", "1.0.0.0.0.0.0.0.0.1", "1.0alpha", "1.0beta.2",
	"1.0-dev", "1.0dev", "1.0.dev0", "1.0.post.dev", "1+2", "1.1a1", "1.1.A1", "1.1DEV",
	"1.1.post1", "1..1", "1.1-", "1-", "**", "1.2**", "1.2+3+4", "1!2!3", "1a!2",
}

func FuzzPEP440Scan(f *testing.F) {
	for _, s := range perfSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := pep440Scan(s)
		if !ok {
			return
		}
		want := pep440Re().FindStringSubmatch(s)
		if want == nil {
			t.Fatalf("%q: scanner matched, regexp did not", s)
		}
		if !reflect.DeepEqual(m[1:], want[1:]) {
			t.Fatalf("%q: scanner %q, regexp %q", s, m[1:], want[1:])
		}
		if l := m[10]; l != "" {
			if got, want := pep440NormLocal(l), strings.ToLower(strings.NewReplacer("-", ".", "_", ".").Replace(l)); got != want {
				t.Fatalf("%q: local %q, want %q", s, got, want)
			}
		}
	})
}

func FuzzParseVersionRef(f *testing.F) {
	for _, s := range perfSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseVersion(s)
		want, werr := refParseVersionAt(s, 0)
		again, aerr := ParseVersion(s) // from the cache when the first parse succeeded
		if fmt.Sprint(aerr) != fmt.Sprint(err) || !reflect.DeepEqual(again, got) {
			t.Fatalf("%q: second parse %+v %v, first %+v %v", s, again, aerr, got, err)
		}
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("%q: error %v, want %v", s, err, werr)
		}
		if err != nil {
			return
		}
		if got.raw != want.raw || got.norm != want.norm ||
			!reflect.DeepEqual(got.ver, want.ver) || !reflect.DeepEqual(got.local, want.local) {
			t.Fatalf("%q: parsed %+v, want %+v", s, got, want)
		}
		if !reflect.DeepEqual(got.Release(), refRelease(want)) {
			t.Fatalf("%q: release %v, want %v", s, got.Release(), refRelease(want))
		}
	})
}

func TestPerfSeeds(t *testing.T) {
	for _, s := range perfSeeds {
		if m, ok := pep440Scan(s); ok {
			if want := pep440Re().FindStringSubmatch(s); !reflect.DeepEqual(m[1:], want[1:]) {
				t.Errorf("%q: scanner %q, regexp %q", s, m, want)
			}
		}
		got, err := ParseVersion(s)
		want, werr := refParseVersionAt(s, 0)
		again, aerr := ParseVersion(s) // from the cache when the first parse succeeded
		if fmt.Sprint(aerr) != fmt.Sprint(err) || !reflect.DeepEqual(again, got) {
			t.Fatalf("%q: second parse %+v %v, first %+v %v", s, again, aerr, got, err)
		}
		if fmt.Sprint(err) != fmt.Sprint(werr) || err == nil && (!reflect.DeepEqual(got.ver, want.ver) || !reflect.DeepEqual(got.local, want.local)) {
			t.Errorf("%q: %+v %v, want %+v %v", s, got, err, want, werr)
		}
	}
}

// refRelease is Version.Release as first written, over refSplitComponents.
func refRelease(v Version) []int {
	main := v.norm
	if i := strings.IndexByte(main, '!'); i >= 0 {
		main = main[i+1:]
	}
	if i := strings.IndexByte(main, '+'); i >= 0 {
		main = main[:i]
	}
	var out []int
	comps, _ := refSplitComponents(main)
	for _, c := range comps {
		d := 0
		for d < len(c) && vDigit(c[d]) {
			d++
		}
		digits := strings.TrimLeft(c[:d], "0")
		if d == 0 || len(digits) > 9 {
			break
		}
		n := 0
		for i := 0; i < len(digits); i++ {
			n = n*10 + int(digits[i]-'0')
		}
		out = append(out, n)
		if d < len(c) {
			break
		}
	}
	return out
}

func BenchmarkParsePipLine(b *testing.B) {
	for b.Loop() {
		_, _ = ParsePipLine("torch==2.1.0+cu118")
	}
}

func BenchmarkParsePEP440(b *testing.B) {
	for b.Loop() {
		_, _ = ParsePEP440("2.1.0rc1.post2.dev3+cu118")
	}
}

// refParseVersionAt is parseVersionAt as first written: the reference.
func refParseVersionAt(s string, base int) (Version, error) {
	// This validation is written from conda's VersionOrder
	// (conda/models/version.py), not from the parser under test: strip the
	// blanks, lower-case (ASCII only, as the parser documents), accept '-'
	// for '_' where the version holds no '_', then check the characters
	// against version_check_re, ^[*.+!_0-9a-z]+$, and split off the epoch
	// ('!') and the local version ('+'), each at most once.
	const blanks = " \t\n\r\v\f"
	t := strings.Trim(s, blanks)
	start := len(s) - len(strings.TrimLeft(s, blanks))
	errAt := func(off int, msg string, a ...any) (Version, error) {
		return Version{}, &SpecError{Offset: base + start + off, Msg: fmt.Sprintf(msg, a...)}
	}
	if t == "" {
		return errAt(0, "empty version")
	}
	norm := strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, t)
	badRe := regexp.MustCompile(`[^*.+!_0-9a-z]`)
	if loc := badRe.FindStringIndex(norm); loc != nil {
		alt := strings.ReplaceAll(norm, "-", "_")
		if strings.Contains(norm, "-") && !strings.Contains(norm, "_") && !badRe.MatchString(alt) {
			norm = alt
		} else {
			return errAt(loc[0], "invalid character %q in version %q", t[loc[0]], t)
		}
	}
	v := Version{raw: t, norm: norm}

	rest, restOff := norm, 0
	epoch := "0"
	if parts := strings.Split(norm, "!"); len(parts) > 1 {
		if len(parts) > 2 {
			return errAt(len(parts[0])+1+len(parts[1]), "duplicated epoch separator '!' in version %q", t)
		}
		epoch = parts[0]
		if !regexp.MustCompile(`^[0-9]+$`).MatchString(epoch) {
			return errAt(0, "epoch %q before '!' must be an integer", epoch)
		}
		rest, restOff = parts[1], len(parts[0])+1
	}
	main, local, localOff := rest, "", -1
	if parts := strings.Split(rest, "+"); len(parts) > 1 {
		if len(parts) > 2 {
			return errAt(restOff+len(parts[0])+1+len(parts[1]), "duplicated local version separator '+' in version %q", t)
		}
		main, local, localOff = parts[0], rest[len(parts[0])+1:], restOff+len(parts[0])+1
	}
	if main == "" {
		if localOff < 0 {
			return errAt(restOff, "missing version after epoch separator '!' in %q", t)
		}
		return errAt(restOff, "missing version before local version separator '+'")
	}

	v.ver = append(v.ver, refSplitRuns(epoch))
	trailing := strings.HasSuffix(main, "_")
	body := main
	if trailing {
		body = main[:len(main)-1]
	}
	comps, offs := refSplitComponents(body)
	if trailing {
		comps[len(comps)-1] += "_"
	}
	for k, c := range comps {
		if c == "" {
			return errAt(restOff+offs[k], "empty component in version %q", t)
		}
		v.ver = append(v.ver, refSplitRuns(c))
	}
	if localOff >= 0 {
		lcomps, loffs := refSplitComponents(local)
		for k, c := range lcomps {
			if c == "" {
				return errAt(localOff+loffs[k], "empty component in local version of %q", t)
			}
			v.local = append(v.local, refSplitRuns(c))
		}
	}
	return v, nil
}

func refSplitComponents(s string) ([]string, []int) {
	var comps []string
	var offs []int
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' || s[i] == '_' {
			comps = append(comps, s[start:i])
			offs = append(offs, start)
			start = i + 1
		}
	}
	return comps, offs
}

// refSplitRuns splits one non-empty component into runs of digits, of '*'
// and of anything else, as conda's version_split_re does, and inserts the
// number 0 in front of a component that starts with a non-digit so that
// 1.1.a1 == 1.1.0a1.
func refSplitRuns(c string) vComp {
	var out vComp
	if c != "" && !vDigit(c[0]) {
		out = append(out, vZeroPart)
	}
	i := 0
	for i < len(c) {
		j := i + 1
		switch {
		case vDigit(c[i]):
			for j < len(c) && vDigit(c[j]) {
				j++
			}
			out = append(out, vPart{kind: kNum, num: strings.TrimLeft(c[i:j], "0")})
		case c[i] == '*':
			for j < len(c) && c[j] == '*' {
				j++
			}
			out = append(out, vPart{kind: kStr, str: c[i:j]})
		default:
			for j < len(c) && !vDigit(c[j]) && c[j] != '*' {
				j++
			}
			switch r := c[i:j]; r {
			case "post":
				out = append(out, vPart{kind: kPost})
			case "dev":
				// conda upper-cases 'dev' so that it sorts before every
				// other (lower-case) string but after '*'.
				out = append(out, vPart{kind: kStr, str: "DEV"})
			default:
				out = append(out, vPart{kind: kStr, str: r})
			}
		}
		i = j
	}
	return out
}

func BenchmarkParseMatchSpecRange(b *testing.B) {
	for b.Loop() {
		_, _ = ParseMatchSpec("numpy>=1.21,<2")
	}
}

// TestVersionCacheConcurrent parses the same versions from many goroutines,
// more than the table holds, so that entries are displaced while others
// read them (run it with -race).
func TestVersionCacheConcurrent(t *testing.T) {
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- true }()
			for i := 0; i < vCacheMaxEntries/2+100; i++ {
				s := fmt.Sprintf("%d.%d", g, i)
				v, err := ParseVersion(s)
				if err != nil || v.String() != s {
					t.Errorf("%q: %v %v", s, v, err)
					return
				}
				// specs too: ">=g.i", "=g.i" and "g.i.*" read the version
				// with the other goroutines once cached.
				for _, spec := range []string{">=" + s, "=" + s, s + ".*"} {
					vs, err := ParseVersionSpec(spec)
					if err != nil || !vs.Match(v) || vs.Raw() != spec {
						t.Errorf("%q: %v %v", spec, vs, err)
						return
					}
				}
				if w := mustParseVersion("1.13.1"); w.Compare(mustParseVersion("1.13.1.0")) != 0 {
					t.Errorf("cached 1.13.1 compares wrong")
					return
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// BenchmarkParseVersionUncached is ParseVersion without its table: what a
// version seen for the first time costs.
func BenchmarkParseVersionUncached(b *testing.B) {
	for b.Loop() {
		_, _ = parseVersionUncached("14.3.1.post26.g9d75ca2", 0)
	}
}

// refNormalizePipName is NormalizePipName without its fast path.
func refNormalizePipName(name string) string {
	var b strings.Builder
	sep := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	if sep && b.Len() > 0 {
		b.WriteByte('-') // a trailing separator, as in "foo_" (PEP 503)
	}
	return b.String()
}

func FuzzNormalizePipName(f *testing.F) {
	for _, s := range []string{"", "-", "a-", "-a", "a--b", "a-b", "A", "a_b", "a.b", "torch", "nvidia-cublas-cu12", "é-x", "a-\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := NormalizePipName(s), refNormalizePipName(s); got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	})
}
