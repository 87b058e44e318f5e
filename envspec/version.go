// Conda versions are not semantic versions. Where the two differ:
//
//   - conda splits a version at '.', '_' (and '-' when the version holds no
//     '_') into any number of components; semver has exactly three numbers.
//   - missing components count as 0, so 1.0 == 1.0.0 == 1 (semver needs all
//     three and has no such equality).
//   - letters may appear in any component and sort before numbers
//     (1.1a1 < 1.1), with two special words: "dev" sorts before every other
//     string and "post" after every number (1.1dev1 < 1.1a1 < 1.1 <
//     1.1post1). semver only orders a pre-release after '-'.
//   - comparison is case-insensitive (0.4.1.rc == 0.4.1.RC).
//   - an epoch "N!" outranks everything else (1!0.1 > 2024.1); semver has none.
//   - a local part after '+' takes part in the order when the main versions
//     are equal; semver build metadata after '+' is ignored.
//   - a trailing '_' sorts before letters (1.1_ < 1.1a1), the documented
//     work-around for openssl-style letter counters.
//
// The rules follow the VersionOrder docstring in conda/conda
// conda/models/version.py.
package envspec

import (
	"fmt"
	"strings"
)

// Version is a conda version, ordered as conda orders them. The zero value
// is not a valid version; use ParseVersion.
type Version struct {
	raw   string  // as written, surrounding blanks trimmed
	norm  string  // lower-cased, '-' turned into '_' where conda does
	ver   []vComp // epoch first, then the components
	local []vComp // components after '+'
}

// vComp is one component (between dots) split into runs of digits and
// non-digits, as conda splits it.
type vComp []vPart

type vKind uint8

// The order of the kinds is the order conda gives them when they meet at
// the same position: strings sort before numbers and 'post' after all
// numbers. minInf and maxInf never come from a version string: they build
// bounds just below or above every version with a given prefix (Disjoint).
const (
	kMinInf vKind = iota
	kStr
	kNum // num holds the digits, no leading zeros ("" is 0)
	kPost
	kMaxInf
)

type vPart struct {
	kind vKind
	num  string // kNum: decimal digits without leading zeros
	str  string // kStr: lower-case run; "dev" is stored as "DEV"
}

var vZeroPart = vPart{kind: kNum}

// ParseVersion parses a conda version string. Errors are *SpecError with
// the offset of the offending byte in s.
func ParseVersion(s string) (Version, error) {
	return parseVersionAt(s, 0)
}

// parseVersionAt parses s, reporting errors at base+offset so callers that
// cut s out of a longer string get offsets into their own text.
func parseVersionAt(s string, base int) (Version, error) {
	if len(s) > vCacheMaxLen {
		return parseVersionUncached(s, base)
	}
	if v, ok := vCache.get(s); ok {
		return v, nil
	}
	// The clone keeps the cached Version (whose strings point into its
	// input) from pinning a whole file the caller cut s out of; it is the
	// table's key too.
	key := strings.Clone(s)
	v, err := parseVersionUncached(key, base)
	if err != nil {
		return v, err
	}
	vCache.put(key, v)
	return v, nil
}

// The same versions come back again and again (python 3.10, the framework
// releases of the knowledge base that every check sorts): parsed versions
// are kept in a bounded table. A Version is immutable once parsed, so
// sharing one is safe.
const (
	vCacheMaxEntries = 4096
	vCacheMaxLen     = 64
)

var vCache = newStrCache[Version](vCacheMaxEntries)

func parseVersionUncached(s string, base int) (Version, error) {
	start, end := vTrim(s)
	t := s[start:end]
	errAt := func(off int, msg string, a ...any) (Version, error) {
		return Version{}, &SpecError{Offset: base + start + off, Msg: fmt.Sprintf(msg, a...)}
	}
	if t == "" {
		return errAt(0, "empty version")
	}
	norm := vLower(t)
	if bad := vBadChar(norm); bad >= 0 {
		// conda accepts '-' as a separator when the version holds no '_'.
		if strings.Contains(norm, "-") && !strings.Contains(norm, "_") {
			alt := strings.ReplaceAll(norm, "-", "_")
			if vBadChar(alt) < 0 {
				norm, bad = alt, -1
			}
		}
		if bad >= 0 {
			return errAt(bad, "invalid character %q in version %q", t[bad], t)
		}
	}
	v := Version{raw: t, norm: norm}

	rest, restOff := norm, 0
	epoch := "0"
	if i := strings.IndexByte(norm, '!'); i >= 0 {
		if j := strings.IndexByte(norm[i+1:], '!'); j >= 0 {
			return errAt(i+1+j, "duplicated epoch separator '!' in version %q", t)
		}
		epoch = norm[:i]
		if epoch == "" || !vAllDigits(epoch) {
			return errAt(0, "epoch %q before '!' must be an integer", epoch)
		}
		rest, restOff = norm[i+1:], i+1
	}
	main, local, localOff := rest, "", -1
	if i := strings.IndexByte(rest, '+'); i >= 0 {
		if j := strings.IndexByte(rest[i+1:], '+'); j >= 0 {
			return errAt(restOff+i+1+j, "duplicated local version separator '+' in version %q", t)
		}
		main, local, localOff = rest[:i], rest[i+1:], restOff+i+1
	}
	if main == "" {
		if localOff < 0 {
			return errAt(restOff, "missing version after epoch separator '!' in %q", t)
		}
		return errAt(restOff, "missing version before local version separator '+'")
	}

	// Count first so that every part lands in one backing array: versions
	// are parsed by the thousand per file and allocations dominate.
	trailing := strings.HasSuffix(main, "_")
	body := main
	if trailing {
		body = main[:len(main)-1]
	}
	nParts, nComps := 1, 1 // the epoch
	for cs := 0; cs <= len(body); {
		ce := vCompEnd(body, cs)
		c := vCompText(main, body, cs, ce, trailing)
		if c == "" {
			return errAt(restOff+cs, "empty component in version %q", t)
		}
		nParts += vCountRuns(c)
		nComps++
		cs = ce + 1
	}
	nLocal := 0
	if localOff >= 0 {
		for cs := 0; cs <= len(local); {
			ce := vCompEnd(local, cs)
			if ce == cs {
				return errAt(localOff+cs, "empty component in local version of %q", t)
			}
			nParts += vCountRuns(local[cs:ce])
			nLocal++
			cs = ce + 1
		}
	}
	parts := make([]vPart, 0, nParts)
	comps := make([]vComp, 0, nComps+nLocal)
	add := func(c string) {
		k := len(parts)
		parts = vAppendRuns(parts, c)
		comps = append(comps, vComp(parts[k:len(parts):len(parts)]))
	}
	add(epoch)
	for cs := 0; cs <= len(body); {
		ce := vCompEnd(body, cs)
		add(vCompText(main, body, cs, ce, trailing))
		cs = ce + 1
	}
	v.ver = comps[:nComps:nComps]
	if localOff >= 0 {
		for cs := 0; cs <= len(local); {
			ce := vCompEnd(local, cs)
			add(local[cs:ce])
			cs = ce + 1
		}
		v.local = comps[nComps:]
	}
	return v, nil
}

// vCompEnd returns the end of the component of s starting at cs: the next
// '.' or '_', or len(s).
func vCompEnd(s string, cs int) int {
	for i := cs; i < len(s); i++ {
		if s[i] == '.' || s[i] == '_' {
			return i
		}
	}
	return len(s)
}

// vCompText is the component body[cs:ce], where the last component keeps
// the trailing '_' cut off main (conda appends it back: 1.1_ → [1, 1_]).
func vCompText(main, body string, cs, ce int, trailing bool) string {
	if trailing && ce == len(body) {
		return main[cs:]
	}
	return body[cs:ce]
}

// mustParseVersion is for tables of known-good versions.
func mustParseVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// String returns the version as written (surrounding blanks trimmed).
func (v Version) String() string { return v.raw }

// Normalized returns the version as conda prints it: lower case, with '-'
// turned into '_' where conda does that.
func (v Version) Normalized() string { return v.norm }

// IsZero reports whether v is the zero Version (never parsed).
func (v Version) IsZero() bool { return v.ver == nil }

// Epoch returns the epoch (0 when absent) as a decimal string, since conda
// epochs have no size limit.
func (v Version) Epoch() string {
	if len(v.ver) == 0 || len(v.ver[0]) == 0 || v.ver[0][0].num == "" {
		return "0"
	}
	return v.ver[0][0].num
}

// Release returns the leading numeric value of each component after the
// epoch, stopping at the first component that does not start with a number
// or whose number does not fit an int: 1.13.1+cu117 → [1 13 1],
// 2.0a1 → [2 0], 1.1.dev1 → [1 1].
func (v Version) Release() []int {
	main := v.norm
	if i := strings.IndexByte(main, '!'); i >= 0 {
		main = main[i+1:]
	}
	if i := strings.IndexByte(main, '+'); i >= 0 {
		main = main[:i]
	}
	var out []int
	for cs := 0; cs <= len(main); {
		ce := vCompEnd(main, cs)
		c := main[cs:ce]
		cs = ce + 1
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
		// a component like "0a1" carries a pre-release tag: what follows
		// is not part of the release any more.
		if d < len(c) {
			break
		}
	}
	return out
}

// HasLocal reports whether the version has a local part after '+'.
func (v Version) HasLocal() bool { return len(v.local) > 0 }

// Local returns the local part after '+' in normalised form, "" if none.
func (v Version) Local() string {
	if i := strings.IndexByte(v.norm, '+'); i >= 0 {
		return v.norm[i+1:]
	}
	return ""
}

// Compare returns -1, 0 or +1 as v sorts before, equal to or after o.
func (v Version) Compare(o Version) int {
	if c := vCompareComps(v.ver, o.ver); c != 0 {
		return c
	}
	return vCompareComps(v.local, o.local)
}

// Equal reports whether v and o are the same version in conda's order
// (1.0 equals 1.0.0).
func (v Version) Equal(o Version) bool { return v.Compare(o) == 0 }

// Less reports whether v sorts before o.
func (v Version) Less(o Version) bool { return v.Compare(o) < 0 }

// vCompareComps compares lists of components the way conda's
// VersionOrder.__lt__ does: a missing component is empty, a missing part
// is the number 0.
func vCompareComps(a, b []vComp) int {
	n := max(len(a), len(b))
	for i := 0; i < n; i++ {
		var ca, cb vComp
		if i < len(a) {
			ca = a[i]
		}
		if i < len(b) {
			cb = b[i]
		}
		m := max(len(ca), len(cb))
		for j := 0; j < m; j++ {
			pa, pb := vZeroPart, vZeroPart
			if j < len(ca) {
				pa = ca[j]
			}
			if j < len(cb) {
				pb = cb[j]
			}
			if c := vComparePart(pa, pb); c != 0 {
				return c
			}
		}
	}
	return 0
}

func vComparePart(a, b vPart) int {
	if a.kind != b.kind {
		if a.kind < b.kind {
			return -1
		}
		return 1
	}
	switch a.kind {
	case kStr:
		return strings.Compare(a.str, b.str)
	case kNum:
		if len(a.num) != len(b.num) {
			if len(a.num) < len(b.num) {
				return -1
			}
			return 1
		}
		return strings.Compare(a.num, b.num)
	}
	return 0
}

// startsWith reports whether v matches the prefix p the way conda's
// VersionOrder.startswith does: all components of p but the last are
// equal, and within the last one all parts but the last are equal while the
// last part is equal (a number) or a string prefix (a string).
func (v Version) startsWith(p Version) bool {
	t1, t2 := v.ver, p.ver
	if len(p.local) > 0 {
		if vCompareComps(v.ver, p.ver) != 0 {
			return false
		}
		t1, t2 = v.local, p.local
	}
	if len(t2) == 0 {
		return false
	}
	nt := len(t2) - 1
	if vCompareComps(vHeadComps(t1, nt), t2[:nt]) != 0 {
		return false
	}
	var v1 vComp
	if nt < len(t1) {
		v1 = t1[nt]
	}
	v2 := t2[nt]
	if len(v2) == 0 {
		return false
	}
	np := len(v2) - 1
	if vCompareComps([]vComp{vHeadParts(v1, np)}, []vComp{v2[:np]}) != 0 {
		return false
	}
	c1 := vZeroPart
	if np < len(v1) {
		c1 = v1[np]
	}
	c2 := v2[np]
	if c2.kind == kStr {
		return c1.kind == kStr && strings.HasPrefix(c1.str, c2.str)
	}
	return vComparePart(c1, c2) == 0
}

func vHeadComps(c []vComp, n int) []vComp {
	if len(c) < n {
		return c
	}
	return c[:n]
}

func vHeadParts(c vComp, n int) vComp {
	if len(c) < n {
		return c
	}
	return c[:n]
}

// vPrefixBounds returns versions lo and hi such that every version v with
// v.startsWith(p) satisfies lo < v < hi, and (for a numeric last part)
// every version strictly between them starts with p. ok is false for
// prefixes with a local part, where no such simple bounds are built.
func vPrefixBounds(p Version) (lo, hi Version, ok bool) {
	if len(p.local) > 0 || len(p.ver) == 0 {
		return Version{}, Version{}, false
	}
	last := p.ver[len(p.ver)-1]
	if len(last) == 0 {
		return Version{}, Version{}, false
	}
	build := func(tail vPart, bumpStr bool) Version {
		comps := make([]vComp, len(p.ver))
		copy(comps, p.ver)
		c := append(vComp(nil), last...)
		if bumpStr {
			// every string with prefix s sorts below s+"\xff": versions
			// only hold ASCII.
			c[len(c)-1] = vPart{kind: kStr, str: c[len(c)-1].str + "\xff"}
		} else {
			c = append(c, tail)
		}
		comps[len(comps)-1] = c
		return Version{raw: p.raw, norm: p.norm, ver: comps}
	}
	lo = build(vPart{kind: kMinInf}, false)
	if last[len(last)-1].kind == kStr {
		hi = build(vPart{}, true)
	} else {
		hi = build(vPart{kind: kMaxInf}, false)
	}
	return lo, hi, true
}

// vCountRuns is the number of parts vAppendRuns makes of c.
func vCountRuns(c string) int {
	if c == "" {
		return 0
	}
	n := 1
	if !vDigit(c[0]) {
		n++
	}
	for i := 1; i < len(c); i++ {
		if vRunClass(c[i]) != vRunClass(c[i-1]) {
			n++
		}
	}
	return n
}

// vRunClass is 0 for digits, 1 for '*' and 2 for anything else: a run is
// a maximal stretch of one class.
func vRunClass(c byte) int {
	switch {
	case vDigit(c):
		return 0
	case c == '*':
		return 1
	}
	return 2
}

// vAppendRuns splits one non-empty component into runs of digits, of '*'
// and of anything else, as conda's version_split_re does, and inserts the
// number 0 in front of a component that starts with a non-digit so that
// 1.1.a1 == 1.1.0a1. It appends the parts to out.
func vAppendRuns(out []vPart, c string) []vPart {
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
			z := i
			for z < j && c[z] == '0' {
				z++
			}
			out = append(out, vPart{kind: kNum, num: c[z:j]})
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

// vBadChar returns the index of the first byte outside conda's
// version alphabet [*.+!_0-9a-z], or -1.
func vBadChar(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', vDigit(c), c == '*', c == '.', c == '+', c == '!', c == '_':
		default:
			return i
		}
	}
	return -1
}

func vDigit(c byte) bool { return c >= '0' && c <= '9' }

func vAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !vDigit(s[i]) {
			return false
		}
	}
	return true
}

func vLower(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func vSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// vTrim returns the bounds of s without surrounding blanks.
func vTrim(s string) (int, int) {
	i, j := 0, len(s)
	for i < j && vSpace(s[i]) {
		i++
	}
	for j > i && vSpace(s[j-1]) {
		j--
	}
	return i, j
}
