package envspec

import (
	"fmt"
	"regexp"
	"strings"
)

// VersionSpec is a conda version spec (`>=1.12,<2`, `1.13.*`, `=1.2|1.3`),
// read the way conda's VersionSpec reads it: ',' (and) binds tighter than
// '|' (or), parentheses group, and each leaf is one of
//
//   - any version
//     1.2.3          exactly that version (== in conda's order: 1.2 == 1.2.0)
//     1.2.* or 1.2*  any version starting with 1.2 (conda's startswith)
//     =1.2           the same as 1.2.*
//     ==, !=, <, <=, >, >=   comparisons; ">=1.2.*" drops the ".*",
//     "!=1.2.*" means "not starting with 1.2"
//     ~=1.4.5        >=1.4.5 and starting with 1.4 (needs two components)
//     1.*.3          a glob over the version as written
//     ^1\.2.*$       a regular expression over the version as written
type VersionSpec struct {
	raw   string
	norm  string
	kind  vsKind
	exact bool    // a bare version or "==": conda's is_exact
	op    string  // vsOp: "==", "!=", "<", "<=", ">", ">="
	ver   Version // vsOp, vsPrefix, vsNotPrefix, vsCompat: the operand
	more  *vsMore // nil for the comparisons and prefixes most specs are made of
}

// vsMore holds what only some kinds of VersionSpec use, behind one pointer,
// so that the comparison and prefix leaves of a file's specs (one each for
// most dependencies) are 144 bytes, not 192: fewer bytes for every file the
// collector has to catch up with.
type vsMore struct {
	pfx  Version        // vsCompat: the prefix that must match
	str  string         // vsExactStr: the literal to compare with
	re   *regexp.Regexp // vsRegex
	kids []*VersionSpec // vsAnd, vsOr
}

// kids are the children of an and/or node; nil for a leaf.
func (s *VersionSpec) kids() []*VersionSpec {
	if s.more == nil {
		return nil
	}
	return s.more.kids
}

type vsKind uint8

const (
	vsAny vsKind = iota
	vsOp
	vsPrefix
	vsNotPrefix
	vsCompat
	vsRegex    // glob or ^regex$: matched against the version as written
	vsExactStr // a version containing '@': string equality, as conda does
	vsAnd
	vsOr
)

// ParseVersionSpec parses a conda version spec. Errors are *SpecError with
// the byte offset into s.
func ParseVersionSpec(s string) (*VersionSpec, error) {
	return parseVersionSpecAt(s, 0)
}

// parseVersionSpecAt parses s, reporting errors at base+offset.
func parseVersionSpecAt(s string, base int) (*VersionSpec, error) {
	if bsTreeSpec.in(s) {
		p := vsParser{src: s, base: base}
		if err := p.tokenize(); err != nil {
			return nil, err
		}
		if len(p.toks) == 0 {
			return nil, &SpecError{Offset: base, Msg: "empty version spec"}
		}
		spec, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		if p.i < len(p.toks) {
			t := p.toks[p.i]
			if t.text == ")" {
				return nil, p.errAt(t.off, "unbalanced ')' in version spec %q", s)
			}
			return nil, p.errAt(t.off, "expected ',' or '|' before %q in version spec %q", t.text, s)
		}
		spec.raw = s
		return spec, nil
	}
	spec, err := vsParseLeaf(s, base)
	if err != nil {
		return nil, err
	}
	spec.raw = s
	return spec, nil
}

type vsTok struct {
	text string // "(", ")", "|", ",", or a trimmed leaf
	off  int    // offset of text in src
}

type vsParser struct {
	src   string
	base  int
	toks  []vsTok
	i     int
	depth int
}

// maxSpecDepth bounds the recursion on untrusted input.
const maxSpecDepth = 64

func (p *vsParser) errAt(off int, msg string, a ...any) error {
	return &SpecError{Offset: p.base + off, Msg: fmt.Sprintf(msg, a...)}
}

// tokenize follows conda's VSPEC_TOKENS: a regex "^...$" is one token
// even when it holds '|', ',' or parentheses.
func (p *vsParser) tokenize() error {
	s := p.src
	// a leaf between every two operators at most: one allocation.
	n := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', ')', '|', ',':
			n += 2
		}
	}
	p.toks = make([]vsTok, 0, n)
	i := 0
	for i < len(s) {
		k := i
		for k < len(s) && vSpace(s[k]) {
			k++
		}
		if k == len(s) {
			break
		}
		if s[k] == '^' {
			if j := strings.IndexByte(s[k:], '$'); j >= 0 {
				p.toks = append(p.toks, vsTok{s[k : k+j+1], k})
				i = k + j + 1
				continue
			}
		}
		if strings.IndexByte("()|,", s[k]) >= 0 {
			p.toks = append(p.toks, vsTok{s[k : k+1], k})
			i = k + 1
			continue
		}
		j := k
		for j < len(s) && strings.IndexByte("()|,", s[j]) < 0 {
			j++
		}
		a, b := vTrim(s[k:j])
		p.toks = append(p.toks, vsTok{s[k+a : k+b], k + a})
		i = j
	}
	return nil
}

func (p *vsParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

func (p *vsParser) endOff() int {
	if p.i < len(p.toks) {
		return p.toks[p.i].off
	}
	return len(p.src)
}

func (p *vsParser) parseOr() (*VersionSpec, error) {
	first, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	if p.peek() != "|" {
		return first, nil
	}
	kids := []*VersionSpec{first}
	for p.peek() == "|" {
		p.i++
		next, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		kids = append(kids, next)
	}
	return vsCombine(vsOr, kids), nil
}

func (p *vsParser) parseAnd() (*VersionSpec, error) {
	first, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	if p.peek() != "," {
		return first, nil
	}
	kids := []*VersionSpec{first}
	for p.peek() == "," {
		p.i++
		next, err := p.parsePrimary()
		if err != nil {
			return nil, err
		}
		kids = append(kids, next)
	}
	return vsCombine(vsAnd, kids), nil
}

func (p *vsParser) parsePrimary() (*VersionSpec, error) {
	if p.i >= len(p.toks) {
		if p.i > 0 {
			prev := p.toks[p.i-1]
			return nil, p.errAt(prev.off, "missing version after %q in version spec %q", prev.text, p.src)
		}
		return nil, p.errAt(0, "empty version spec")
	}
	t := p.toks[p.i]
	switch t.text {
	case "(":
		if p.depth++; p.depth > maxSpecDepth {
			return nil, p.errAt(t.off, "parentheses nested deeper than %d in version spec", maxSpecDepth)
		}
		p.i++
		inner, err := p.parseOr()
		p.depth--
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			if p.i < len(p.toks) {
				return nil, p.errAt(p.endOff(), "expected ',', '|' or ')' before %q in version spec %q", p.peek(), p.src)
			}
			return nil, p.errAt(t.off, "unbalanced '(' in version spec %q", p.src)
		}
		p.i++
		return inner, nil
	case ")", "|", ",":
		if p.i > 0 {
			prev := p.toks[p.i-1]
			return nil, p.errAt(t.off, "missing version between %q and %q in version spec %q", prev.text, t.text, p.src)
		}
		return nil, p.errAt(t.off, "version spec %q starts with %q", p.src, t.text)
	}
	p.i++
	leaf, err := vsParseLeaf(t.text, p.base+t.off)
	if err != nil {
		return nil, err
	}
	leaf.raw = t.text
	return leaf, nil
}

// vsCombine builds an and/or node, fusing children of the same kind as
// conda's treeify does ("(a,b),c" is "a,b,c").
func vsCombine(k vsKind, kids []*VersionSpec) *VersionSpec {
	if len(kids) == 1 {
		return kids[0]
	}
	size := 0
	for _, c := range kids {
		if c.kind == k {
			size += len(c.kids())
		} else {
			size++
		}
	}
	flat := make([]*VersionSpec, 0, size)
	for _, c := range kids {
		if c.kind == k {
			flat = append(flat, c.kids()...)
		} else {
			flat = append(flat, c)
		}
	}
	n := &VersionSpec{kind: k, more: &vsMore{kids: flat}}
	n.norm = n.render()
	return n
}

func (s *VersionSpec) render() string {
	sep := byte('|')
	if s.kind == vsAnd {
		sep = ','
	}
	n := 0
	for _, c := range s.kids() {
		n += len(c.norm) + 3
	}
	var b strings.Builder
	b.Grow(n)
	for i, c := range s.kids() {
		if i > 0 {
			b.WriteByte(sep)
		}
		if s.kind == vsAnd && c.kind == vsOr {
			b.WriteByte('(')
			b.WriteString(c.norm)
			b.WriteByte(')')
		} else {
			b.WriteString(c.norm)
		}
	}
	return b.String()
}

// vsParseLeaf parses one leaf of a version spec, following the branches of
// conda's VersionSpec.get_matcher in the same order.
func vsParseLeaf(s string, base int) (*VersionSpec, error) {
	a, b := vTrim(s)
	t := s[a:b]
	off := base + a
	errAt := func(o int, msg string, args ...any) error {
		return &SpecError{Offset: off + o, Msg: fmt.Sprintf(msg, args...)}
	}
	if t == "" {
		return nil, errAt(0, "empty version spec")
	}
	n := &VersionSpec{raw: t, norm: t}
	switch {
	case t[0] == '^' || t[len(t)-1] == '$':
		if t[0] != '^' || t[len(t)-1] != '$' || len(t) < 2 {
			return nil, errAt(0, "regex version spec %q must start with '^' and end with '$'", t)
		}
		re, err := regexp.Compile(t)
		if err != nil {
			return nil, errAt(0, "invalid regular expression %q: %v", t, err)
		}
		n.kind, n.more = vsRegex, &vsMore{re: re}
	case strings.IndexByte("=<>!~", t[0]) >= 0:
		op, rest, ok := vsSplitOperator(t)
		if !ok {
			if rest == "" && op != "" {
				return nil, errAt(0, "missing version after operator %q", op)
			}
			if i := strings.IndexFunc(rest, func(r rune) bool { return r <= ' ' }); i >= 0 && op != "" {
				return nil, errAt(len(op)+i, "unexpected blank in %q: conda allows none after the operator or inside the version", t)
			}
			return nil, errAt(0, "invalid operator in version spec %q (expected one of ==, !=, <, <=, >, >=, ~=, =)", t)
		}
		vo, opLen := rest, len(op)
		if op == "==" && strings.Contains(strings.TrimSuffix(vo, ".*"), "*") {
			// "==*" or "==1*": equality with a glob names no one version,
			// and its canonical form could not be written back. (A
			// trailing ".*" is one conda ignores after ==, below.)
			return nil, errAt(len(op), "operator == needs an exact version, not the glob %q (write =%s for a prefix)", vo, strings.TrimRight(strings.TrimSuffix(vo, ".*"), "*."))
		}
		if strings.HasSuffix(vo, ".*") {
			switch op {
			case "=", ">=":
				vo = vo[:len(vo)-2]
			case "!=":
				vo = vo[:len(vo)-2]
				op = "!=startswith"
			case "~=":
				return nil, errAt(0, "'~=' cannot be combined with '.*' in %q", t)
			default:
				// conda warns that the ".*" is ignored with this operator.
				vo = vo[:len(vo)-2]
			}
		}
		v, err := parseVersionAt(vo, off+opLen)
		if err != nil {
			return nil, err
		}
		n.ver = v
		switch op {
		case "=":
			n.kind = vsPrefix
		case "!=startswith":
			n.kind = vsNotPrefix
		case "~=":
			// conda: x >= y and x.startswith(y without its last '.' part).
			cut := strings.LastIndexByte(v.norm, '.')
			if cut <= 0 {
				// conda parses "~=2" but compares with the prefix "" and
				// fails ("empty version string") on every version >= 2;
				// libmamba reads it as >=2; PEP 440 forbids it.
				return nil, errAt(0, "'~=' needs a version with at least two components, got %q: conda accepts ~=%s but fails with \"empty version string\" on every version >= %s it compares, libmamba (mamba, micromamba) reads it as >=%s, and PEP 440 forbids it; write >=%s, or ~=%s.0 for %s.x", rest, rest, rest, rest, rest, rest, rest)
			}
			pv, err := parseVersionAt(v.norm[:cut], off+opLen)
			if err != nil {
				return nil, errAt(0, "'~=' needs a version with at least two components, got %q", rest)
			}
			n.kind, n.more = vsCompat, &vsMore{pfx: pv}
		default:
			n.kind, n.op = vsOp, op
			n.exact = op == "=="
		}
	case t == "*":
		n.kind = vsAny
	case strings.Contains(strings.TrimRight(t, "*"), "*"):
		if bad := vsGlobBadChar(t); bad >= 0 {
			return nil, errAt(bad, "invalid character %q in version glob %q", t[bad], t)
		}
		// "*!" is an epoch with no version; written before a build
		// ("*!=0") it would read back as the operator "!=".
		if t[len(t)-1] == '!' {
			return nil, errAt(len(t)-1, "version glob %q ends with the epoch separator '!': a version must follow it", t)
		}
		parts := strings.Split(t, "*")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		n.kind = vsRegex
		n.more = &vsMore{re: regexp.MustCompile(`^(?:` + strings.Join(parts, ".*") + `)$`)}
	case t[len(t)-1] == '*':
		// conda reads "1.2*" as "1.2.*"; either way the prefix is what
		// comes before the last '*', without trailing dots.
		vo := strings.TrimRight(t[:len(t)-1], ".")
		v, err := parseVersionAt(vo, off)
		if err != nil {
			return nil, err
		}
		// conda keeps stray dots ("1.2..*"); envguard writes the prefix it
		// matches, so that the string reads back the same, except when the
		// prefix holds a '*' ("1.8**"): "1.8*.*" would read back as a glob.
		n.kind, n.ver = vsPrefix, v
		switch {
		case strings.Contains(v.raw, "*"):
			n.norm = t
		case len(t) == len(v.raw)+2 && strings.HasPrefix(t, v.raw) && strings.HasSuffix(t, ".*"):
			n.norm = t // already written so: no new string
		default:
			n.norm = v.raw + ".*"
		}
	case !strings.Contains(t, "@"):
		v, err := parseVersionAt(t, off)
		if err != nil {
			return nil, err
		}
		n.kind, n.op, n.ver, n.exact = vsOp, "==", v, true
	default:
		if i := strings.IndexFunc(t, func(r rune) bool { return r <= ' ' }); i >= 0 {
			return nil, errAt(i, "blank inside version %q", t)
		}
		n.kind, n.more, n.exact = vsExactStr, &vsMore{str: t}, true
	}
	return n, nil
}

// vsSplitOperator splits a leading comparison operator the way conda's
// version_relation_re does: the operator must not be followed by another
// operator character and the rest must be non-empty without blanks.
func vsSplitOperator(t string) (op, rest string, ok bool) {
	for _, cand := range []string{"==", "!=", "<=", ">=", "~=", "=", "<", ">"} {
		if !strings.HasPrefix(t, cand) {
			continue
		}
		rest = t[len(cand):]
		if rest != "" && strings.IndexByte("=<>!~", rest[0]) >= 0 {
			continue
		}
		if rest == "" {
			return cand, "", false
		}
		if strings.IndexFunc(rest, func(r rune) bool { return r <= ' ' }) >= 0 {
			return cand, rest, false
		}
		return cand, rest, true
	}
	return "", t, false
}

// vsGlobBadChar keeps globs to characters a version or a glob can hold, so
// that "1.*.3" is a glob but "1.*;rm" is an error.
func vsGlobBadChar(t string) int {
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', vDigit(c),
			c == '*', c == '.', c == '+', c == '!', c == '_', c == '-':
		default:
			return i
		}
	}
	return -1
}

// Match reports whether the spec admits v.
func (s *VersionSpec) Match(v Version) bool {
	if s == nil {
		return true
	}
	if v.IsZero() {
		return false
	}
	switch s.kind {
	case vsAny:
		return true
	case vsOp:
		c := v.Compare(s.ver)
		switch s.op {
		case "==":
			return c == 0
		case "!=":
			return c != 0
		case "<":
			return c < 0
		case "<=":
			return c <= 0
		case ">":
			return c > 0
		case ">=":
			return c >= 0
		}
	case vsPrefix:
		return v.startsWith(s.ver)
	case vsNotPrefix:
		return !v.startsWith(s.ver)
	case vsCompat:
		return v.Compare(s.ver) >= 0 && v.startsWith(s.more.pfx)
	case vsRegex:
		return s.more.re.MatchString(v.raw)
	case vsExactStr:
		return v.raw == s.more.str
	case vsAnd:
		for _, k := range s.kids() {
			if !k.Match(v) {
				return false
			}
		}
		return true
	case vsOr:
		for _, k := range s.kids() {
			if k.Match(v) {
				return true
			}
		}
		return false
	}
	return false
}

// MatchString reports whether the spec admits the version v; false when v
// is not a valid conda version.
func (s *VersionSpec) MatchString(v string) bool {
	pv, err := ParseVersion(v)
	if err != nil {
		return false
	}
	return s.Match(pv)
}

// String is the spec as conda normalises it: blanks around leaves dropped,
// "1.8*" written "1.8.*", nested groups fused, and parentheses only where
// an or-group sits inside an and-group.
func (s *VersionSpec) String() string {
	if s == nil {
		return ""
	}
	return s.norm
}

// Raw is the spec as it was given.
func (s *VersionSpec) Raw() string {
	if s == nil {
		return ""
	}
	return s.raw
}

// Exact returns the version the spec pins, when it pins exactly one: a
// bare version ("1.2.3", which conda reads as == 1.2.3) or "==1.2.3".
func (s *VersionSpec) Exact() (Version, bool) {
	if s == nil || s.kind != vsOp || !s.exact {
		return Version{}, false
	}
	return s.ver, true
}

// IsAny reports whether the spec admits every version ("*").
func (s *VersionSpec) IsAny() bool { return s == nil || s.kind == vsAny }

// vsBound is one end of an interval of versions; inf means unbounded.
type vsBound struct {
	v    Version
	incl bool
	inf  bool
}

type vsInterval struct{ lo, hi vsBound }

var vsUniverse = []vsInterval{{vsBound{inf: true}, vsBound{inf: true}}}

// intervals returns a union of intervals that holds every version the
// spec admits (and maybe more): an outer approximation, so two specs whose
// approximations do not meet can never admit a common version.
func (s *VersionSpec) intervals() []vsInterval {
	if s == nil {
		return vsUniverse
	}
	pt := func(v Version, incl bool) vsBound { return vsBound{v: v, incl: incl} }
	inf := vsBound{inf: true}
	switch s.kind {
	case vsOp:
		switch s.op {
		case "==":
			return []vsInterval{{pt(s.ver, true), pt(s.ver, true)}}
		case "!=":
			return []vsInterval{{inf, pt(s.ver, false)}, {pt(s.ver, false), inf}}
		case "<":
			return []vsInterval{{inf, pt(s.ver, false)}}
		case "<=":
			return []vsInterval{{inf, pt(s.ver, true)}}
		case ">":
			return []vsInterval{{pt(s.ver, false), inf}}
		case ">=":
			return []vsInterval{{pt(s.ver, true), inf}}
		}
	case vsPrefix:
		if lo, hi, ok := vPrefixBounds(s.ver); ok {
			return []vsInterval{{pt(lo, false), pt(hi, false)}}
		}
	case vsNotPrefix:
		if lo, hi, ok := vPrefixBounds(s.ver); ok {
			return []vsInterval{{inf, pt(lo, true)}, {pt(hi, true), inf}}
		}
	case vsCompat:
		if _, hi, ok := vPrefixBounds(s.more.pfx); ok {
			return []vsInterval{{pt(s.ver, true), pt(hi, false)}}
		}
		return []vsInterval{{pt(s.ver, true), inf}}
	case vsAnd:
		acc := vsUniverse
		for _, k := range s.kids() {
			acc = vsIntersectAll(acc, k.intervals())
		}
		return acc
	case vsOr:
		var acc []vsInterval
		for _, k := range s.kids() {
			acc = append(acc, k.intervals()...)
			if len(acc) > maxIntervals {
				return vsUniverse
			}
		}
		return acc
	}
	return vsUniverse
}

// maxIntervals bounds the work on specs like "(1|2|3),(1|2|3),...", whose
// intersections multiply; past it the approximation gives up to "any
// version", which keeps Disjoint sound (it answers false).
const maxIntervals = 256

func vsIntersectAll(a, b []vsInterval) []vsInterval {
	var out []vsInterval
	for _, x := range a {
		for _, y := range b {
			if z, ok := vsIntersect(x, y); ok {
				out = append(out, z)
				if len(out) > maxIntervals {
					return vsUniverse
				}
			}
		}
	}
	return out
}

func vsIntersect(x, y vsInterval) (vsInterval, bool) {
	lo := x.lo
	if !y.lo.inf && (lo.inf || vsCmpBound(y.lo, lo, true) > 0) {
		lo = y.lo
	}
	hi := x.hi
	if !y.hi.inf && (hi.inf || vsCmpBound(y.hi, hi, false) < 0) {
		hi = y.hi
	}
	if lo.inf || hi.inf {
		return vsInterval{lo, hi}, true
	}
	c := lo.v.Compare(hi.v)
	if c > 0 || (c == 0 && !(lo.incl && hi.incl)) {
		return vsInterval{}, false
	}
	return vsInterval{lo, hi}, true
}

// vsCmpBound orders two finite bounds of the same side; at the same version
// an exclusive lower bound is tighter (greater), an exclusive upper bound
// tighter (smaller).
func vsCmpBound(a, b vsBound, lower bool) int {
	if c := a.v.Compare(b.v); c != 0 {
		return c
	}
	if a.incl == b.incl {
		return 0
	}
	if lower {
		if !a.incl {
			return 1
		}
		return -1
	}
	if !a.incl {
		return -1
	}
	return 1
}

// Disjoint reports whether no version can satisfy both a and b. It is
// conservative: true only when that is certain (==1.2 and ==1.3, =1.2 and
// ==1.3.0, >=2 and <1.5); regular expressions and globs count as "any
// version", so specs using them are never reported disjoint unless the
// other side alone admits nothing. A nil spec admits every version.
func Disjoint(a, b *VersionSpec) bool {
	return len(vsIntersectAll(a.intervals(), b.intervals())) == 0
}

// hasRegex reports whether a leaf of the spec is a "^...$" regular
// expression (globs, also matched by a regexp, are not).
func (s *VersionSpec) hasRegex() bool {
	if s == nil {
		return false
	}
	switch s.kind {
	case vsRegex:
		return strings.HasPrefix(s.norm, "^")
	case vsAnd, vsOr:
		for _, k := range s.kids() {
			if k.hasRegex() {
				return true
			}
		}
	}
	return false
}
