package envspec

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Span is a half-open byte range [Start, End) inside a MatchSpec string.
// A zero Span with End == 0 means the part is absent.
type Span struct{ Start, End int }

// IsZero reports whether the span is absent.
func (s Span) IsZero() bool { return s.End == 0 }

// SpecError is a syntax error in a version, version spec or MatchSpec.
// Offset is the 0-based byte offset of the offending text in the string
// that was parsed, so a file parser can turn it into a column.
type SpecError struct {
	Offset int
	Msg    string
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("%s (at character %d)", e.Msg, e.Offset+1)
}

// MatchSpec is a parsed conda MatchSpec:
//
//	(channel(/subdir)::)name(version(build))([key=value,...])
//
// with the version and build given as "name 1.2 py39*", "name=1.2=py39*",
// "name>=1.2,<2 py39*" or in the brackets. The reading follows conda's
// MatchSpec parser (conda/models/match_spec.py, _parse_spec_str), with the
// normalisation conda applies: "numpy=1.8" is the fuzzy 1.8.*,
// "numpy==1.8" and "numpy 1.8" are exactly 1.8, and "numpy=1.8=py39_0"
// pins exactly 1.8 (with a build, '=' is exact).
//
// conda's legacy parenthesised section ("foo[build=3](target=x,optional)",
// "foo 1.2 (optional)") is read as conda reads it: parsed into Parens and
// then ignored. "numpy=" (a '=' with nothing after it) is "numpy", as in
// conda and libmamba.
//
// Where conda is lax and envguard is strict (these are reported as errors
// because conda would silently read something else than was meant): an
// empty channel ("::numpy"), a lone ':' with no namespace (":numpy"),
// characters other than letters, digits, '_', '.', '-' and '*' in the
// name, more than one bracket section or text after it, blanks inside a
// build string, parentheses outside brackets other than that trailing
// section (conda strips them, so a version group "python >=3.8,(<3.10|>=3.11)"
// loses its group: write it in brackets), and '[' or ']' in a version regex
// or inside a quoted bracket value (conda's bracket regex runs from the last
// '[' to the last ']'). Specs conda reads but libmamba refuses ("=>",
// "=<", "^...$" regex versions) parse with conda's reading and carry an
// Issue.
type MatchSpec struct {
	Raw       string
	Channel   string // "" when absent; a name, label path or URL as written, without the subdir
	Subdir    string
	Namespace string
	Name      string       // lower-cased package name
	Version   *VersionSpec // nil when absent
	Build     string       // build glob, "" when absent
	Keys      map[string]string
	// Positions of each part inside Raw, for carets.
	ChannelSpan, NameSpan, VersionSpan, BuildSpan Span
	// SubdirSpan is the subdir after the channel ("linux-64" in
	// "conda-forge/linux-64::python"), or its bracket value.
	SubdirSpan Span
	// KeySpans holds the span of each bracket value.
	KeySpans map[string]Span
	// Parens holds conda's legacy parenthesised section, read as conda
	// reads it ("foo[build=3](target=x,optional)": target=x,
	// optional=true). conda parses the section and then ignores it, so it
	// changes nothing above; ParensSpan is the section, parentheses
	// included.
	Parens     map[string]string
	ParensSpan Span
	// Issues are problems found in a spec that still reads, with conda's
	// meaning, as above: the file parser reports each as EG103 (a spec
	// conda reads but libmamba refuses, or that conda reads otherwise than
	// it looks).
	Issues []*SpecIssue

	buildRe *regexp.Regexp // nil when Build is a literal
}

// SpecIssue is a problem in a MatchSpec or pip line that still parsed:
// Offset is the byte offset of the text in question in the string that
// was parsed, Msg says what each tool does with it, Hint how to write it.
type SpecIssue struct {
	Offset    int
	Msg, Hint string
	// Fix, when set, is the certain repair the hint describes: the bytes
	// Raw[Start:End] become New.
	Fix *SpecFix
}

// SpecFix replaces Raw[Start:End] of a MatchSpec with New.
type SpecFix struct {
	Start, End int
	New        string
}

func (m *MatchSpec) issue(off int, hint, msg string, a ...any) {
	m.Issues = append(m.Issues, &SpecIssue{Offset: off, Msg: fmt.Sprintf(msg, a...), Hint: hint})
}

// msKnownSubdirs are the platform subdirs conda recognises after a channel
// (conda/base/constants.py KNOWN_SUBDIRS).
var msKnownSubdirs = map[string]bool{
	"noarch": true, "linux-32": true, "linux-64": true, "linux-aarch64": true,
	"linux-armv6l": true, "linux-armv7l": true, "linux-ppc64": true,
	"linux-ppc64le": true, "linux-s390x": true, "osx-64": true, "osx-arm64": true,
	"win-32": true, "win-64": true, "win-arm64": true, "zos-z": true,
}

// msFields are the keys conda accepts in brackets (MatchSpec
// FIELD_NAMES); others make conda fail with "Cannot match on field(s)".
var msFields = []string{
	"channel", "subdir", "name", "version", "build", "build_number",
	"track_features", "features", "url", "md5", "sha256", "license",
	"license_family", "fn",
}

// ParseMatchSpec parses one conda MatchSpec. Errors are *SpecError with
// the byte offset into s.
func ParseMatchSpec(s string) (*MatchSpec, error) {
	return parseMatchSpec(s, nil)
}

// parseMatchSpec is ParseMatchSpec taking the MatchSpec from sl.
func parseMatchSpec(s string, sl *slab) (*MatchSpec, error) {
	m := sl.matchSpec()
	m.Raw = s
	if err := m.parse(); err != nil {
		return nil, err
	}
	return m, nil
}

func msErr(off int, msg string, a ...any) error {
	return &SpecError{Offset: off, Msg: fmt.Sprintf(msg, a...)}
}

func (m *MatchSpec) parse() error {
	s := m.Raw
	a, b := vTrim(s)
	if a == b {
		return msErr(0, "empty package spec")
	}
	// conda strips a '#' comment and a trailing " if <condition>".
	if i := strings.IndexByte(s[a:b], '#'); i >= 0 {
		b = a + i
	}
	if i := strings.Index(s[a:b], " if "); i >= 0 {
		b = a + i
	}
	a, b = msShrink(s, a, b)
	if a == b {
		return msErr(a, "empty package spec")
	}
	body := s[a:b]
	if f, ok := strings.CutSuffix(body, "@"); ok && f != "" && msNameBadChar(f) < 0 {
		// legacy form "feature@" selects packages tracking that feature.
		m.Name = "*"
		m.setKey("track_features", s, a, b-1)
		return nil
	}
	// names are lower-cased, so the test is too: "X.TAR.BZ2" must not
	// become a package file only once it is printed.
	if lb := vLower(body); strings.HasSuffix(lb, ".tar.bz2") || strings.HasSuffix(lb, ".conda") {
		return m.parsePackageFile(a, b)
	}

	end := b
	parensAfter := Span{}
	if i := bsBrackets.index(body); i >= 0 {
		open := a + i
		if s[open] == ']' {
			return msErr(open, "unbalanced ']' in %q", body)
		}
		// Only a '^' after the channel's "::" opens a version regex: a
		// channel may be spelt with one ("^::0==0[build='$']").
		va := a
		if c := strings.LastIndex(s[a:open], "::"); c >= 0 {
			va = a + c + 2
		}
		if r := strings.IndexByte(s[va:open], '^'); r >= 0 && strings.IndexByte(s[va+r:open], '$') < 0 {
			// "numpy ^1\.7\.[0-9]+$": conda's _BRACKETS_RE takes "[0-9]"
			// for its bracket section and drops it.
			return msErr(open, "'[' inside the version regex %q: conda takes the text from '[' to ']' for its bracket section and drops it, reading another regex (it cannot read '[' inside a quoted bracket value either); write the class another way (\\d for [0-9]) or use a glob or range", s[va+r:b])
		}
		close, quoteAt, inQuote := -1, 0, -1
		var quote byte
		for j := open + 1; j < b && close < 0; j++ {
			switch c := s[j]; {
			case quote != 0:
				if c == quote {
					quote = 0
				} else if (c == '[' || c == ']') && inQuote < 0 {
					inQuote = j
				}
			case c == '\'' || c == '"':
				quote, quoteAt = c, j
			case c == ']':
				close = j
			case c == '[':
				return msErr(j, "unexpected '[' inside brackets in %q", body)
			}
		}
		if quote != 0 {
			return msErr(quoteAt, "unterminated quote in brackets of %q", body)
		}
		if close < 0 {
			return msErr(open, "unbalanced '[' in %q: missing ']'", body)
		}
		if inQuote >= 0 {
			// conda's _BRACKETS_RE runs from the last '[' to the last
			// ']': a bracket inside a value (a build regex "^py3[01]$")
			// cuts the section there, and conda fails on what is left
			// ("invalid package name").
			return msErr(inQuote, "'%c' inside a quoted bracket value: conda takes its bracket section from the last '[' to the last ']', so it cannot read a bracket inside a value; write the regex without a character class (\\d for [0-9], (0|1) for [01]) or use a glob", s[inQuote])
		}
		if j := bsBrackets.index(s[close+1 : b]); j >= 0 {
			return msErr(close+1+j, "multiple bracket sections in %q", body)
		}
		if ta, tb := msShrink(s, close+1, b); ta != tb {
			if s[ta] != '(' || s[tb-1] != ')' {
				return msErr(ta, "unexpected text %q after ']'", s[ta:tb])
			}
			parensAfter = Span{ta, tb}
		}
		if err := m.parseBrackets(open+1, close); err != nil {
			return err
		}
		end = open
	}
	if err := m.findParens(a, &end, parensAfter); err != nil {
		return err
	}

	// channel(/subdir)::name or namespace:name, split like conda's
	// rsplit(":", 2).
	start := a
	head := s[a:end]
	if c2 := strings.LastIndexByte(head, ':'); c2 >= 0 {
		c1 := strings.LastIndexByte(head[:c2], ':')
		if c1 >= 0 {
			if c1 == 0 {
				return msErr(a, "missing channel before '::' in %q", body)
			}
			if err := m.setChannel(a, a+c1); err != nil {
				return err
			}
			if ns := head[c1+1 : c2]; ns != "" {
				if bad := msNameBadChar(ns); bad >= 0 {
					return msErr(a+c1+1+bad, "invalid character %q in namespace %q", ns[bad], ns)
				}
				m.Namespace = ns
			}
		} else {
			ns := head[:c2]
			if ns == "" {
				return msErr(a, "missing channel before ':' in %q (a channel is written 'channel::name')", body)
			}
			if bad := msNameBadChar(ns); bad >= 0 {
				return msErr(a+bad, "invalid character %q in namespace %q (a channel is written 'channel::name')", ns[bad], ns)
			}
			m.Namespace = ns
		}
		start = a + c2 + 1
	}

	// the name runs up to the first blank or operator character.
	n := start
	for n < end && strings.IndexByte(" \t=<>!~", s[n]) < 0 {
		n++
	}
	if n == start {
		return msErr(start, "missing package name in %q", body)
	}
	name := s[start:n]
	if bad := msNameBadChar(name); bad >= 0 {
		return msErr(start+bad, "invalid character %q in package name %q", msRuneAt(name, bad), name)
	}
	if bad := msNameShapeBad(name); bad >= 0 {
		return msErr(start+bad, "invalid package name %q: %s", name, cep26NameRule)
	}
	m.Name = vLower(name)
	m.NameSpan = Span{start, n}

	if s[n:end] == "=" {
		// "numpy=": conda's name/version regex needs two characters for
		// a version, so a lone '=' right after the name is no version at
		// all (conda's own tests: "numpy=" is "numpy"); libmamba strips
		// trailing '=' and reads the same.
		return m.applyBrackets()
	}
	va, vb := msShrink(s, n, end)
	if va < vb {
		if err := m.parseVersionBuild(va, vb); err != nil {
			return err
		}
	}
	return m.applyBrackets()
}

// msShrink trims blanks from both ends of s[a:b].
func msShrink(s string, a, b int) (int, int) {
	i, j := vTrim(s[a:b])
	return a + i, a + j
}

// msNameBadChar returns the index of the first byte that cannot be part of a
// package name (or name glob), or -1.
func msNameBadChar(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', vDigit(c),
			c == '_', c == '.', c == '-', c == '*':
		default:
			return i
		}
	}
	return -1
}

// cep26NameRule is what msNameShapeBad holds a name to, as its errors say it.
const cep26NameRule = "a name starts with a letter, a digit or one '_' (two for a virtual package such as __glibc) and has no two separators (. - _) in a row; conda refuses it (CEP 26)"

// msNameShapeBad returns the index of the byte where name breaks conda's
// CEP 26 name rule (conda/models/match_spec.py _CEP26_NAME_RE and
// _CEP26_VIRTUAL_NAME_RE, applied to the name of a spec string), or -1. A
// name glob is not checked, as conda does not check it. The characters
// themselves are msNameBadChar's concern.
func msNameShapeBad(name string) int {
	if strings.IndexByte(name, '*') >= 0 || name == "" {
		return -1
	}
	sep := func(c byte) bool { return c == '.' || c == '-' || c == '_' }
	i := 0
	switch {
	case strings.HasPrefix(name, "__"):
		// a virtual package: "__" and then a letter or digit.
		if len(name) == 2 || sep(name[2]) {
			return 2
		}
		i = 3
	case name[0] == '_':
		if len(name) > 1 && name[1] == '_' {
			return 1
		}
		i = 1
	case sep(name[0]):
		return 0
	default:
		i = 1
	}
	// one separator may follow the head; after it, no two in a row.
	if i < len(name) && sep(name[i]) {
		i++
		if i < len(name) && sep(name[i]) {
			return i
		}
	}
	for ; i < len(name); i++ {
		if sep(name[i]) && i+1 < len(name) && sep(name[i+1]) {
			return i + 1
		}
	}
	return -1
}

// setChannel reads Raw[a:b] as channel(/subdir), the subdir being split
// off only when it is one conda knows.
func (m *MatchSpec) setChannel(a, b int) error {
	ch := m.Raw[a:b]
	if i := strings.IndexFunc(ch, func(r rune) bool { return r <= ' ' }); i >= 0 {
		return msErr(a+i, "blank inside channel %q", ch)
	}
	// Characters of the bracket syntax cannot stand in a channel: the
	// canonical form could not be written back.
	if i := strings.IndexAny(ch, `'",[]=`); i >= 0 {
		return msErr(a+i, "character %c is not allowed in channel %q", ch[i], ch)
	}
	if ch == "" {
		return msErr(a, "empty channel")
	}
	m.ChannelSpan = Span{a, b}
	if i := strings.LastIndexByte(ch, '/'); i >= 0 && msKnownSubdirs[ch[i+1:]] {
		m.Subdir = ch[i+1:]
		m.SubdirSpan = Span{a + i + 1, b}
		ch = ch[:i]
		m.ChannelSpan = Span{a, a + i}
	}
	m.Channel = ch
	return nil
}

// parseVersionBuild splits s[a:b] into version and build the way conda's
// _parse_version_plus_build regex does, then normalises the version.
func (m *MatchSpec) parseVersionBuild(a, b int) error {
	s := m.Raw[a:b]
	vEnd, bStart := msSplitVersionBuild(s)
	build := ""
	if bStart >= 0 {
		ba, bb := msShrink(m.Raw, a+bStart, b)
		build = m.Raw[ba:bb]
		if i := strings.IndexFunc(build, func(r rune) bool { return r <= ' ' }); i >= 0 {
			return msErr(ba+i, "unexpected blank inside build string %q", build)
		}
		m.Build = build
		m.BuildSpan = Span{ba, bb}
	}
	va, vb := msShrink(m.Raw, a, a+vEnd)
	m.VersionSpan = Span{va, vb}
	spec, err := msParseSanitized(m.Raw, va, vb, bStart >= 0)
	if err != nil {
		return err
	}
	m.Version = spec
	return nil
}

// msParseSanitized drops every blank inside raw[a:b] (conda does, so
// ">=1.0 , < 2.0" is read), applies conda's _sanitize_version_str and
// parses the result, mapping error offsets back to raw; an error past the
// text is reported at b.
func msParseSanitized(raw string, a, b int, hasBuild bool) (*VersionSpec, error) {
	v := raw[a:b]
	// No package version holds a quote, and one would make the canonical
	// form unquotable inside brackets (version='^0'$').
	if i := bsQuotes.index(v); i >= 0 {
		return nil, msErr(a+i, "quote character %c in version %q: conda does not strip quotes inside a spec; write the version without them", v[i], v)
	}
	// conda drops spaces from a version; any other blank (a tab) is an
	// error, not a separator.
	if i := strings.IndexFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }); i >= 0 {
		return nil, msErr(a+i, "control character %q in version %q", v[i], v)
	}
	if strings.IndexByte(v, ' ') >= 0 {
		v = strings.ReplaceAll(v, " ", "")
	}
	san, lead := msSanitizeVersion(v, hasBuild)
	spec, err := parseVersionSpecAt(san, 0)
	if err != nil {
		if se, ok := err.(*SpecError); ok {
			o := se.Offset + lead
			se.Offset = b
			for i, k := a, 0; i < b && o >= 0; i++ {
				if raw[i] == ' ' {
					continue
				}
				if k == o {
					se.Offset = i
					break
				}
				k++
			}
			return nil, se
		}
		return nil, err
	}
	return spec, nil
}

// msSanitizeVersion is conda's _sanitize_version_str: "=1.2" becomes the
// fuzzy "1.2*" (or exact "1.2" when a build follows), "==1.2" becomes
// "1.2". lead is the number of bytes dropped from the front.
func msSanitizeVersion(v string, hasBuild bool) (string, int) {
	if v == "=" || v == "==" || !strings.HasPrefix(v, "=") {
		return v, 0
	}
	w := strings.TrimLeft(v, "=")
	lead := len(v) - len(w)
	if strings.HasPrefix(v, "==") && !hasBuild {
		return w, lead
	}
	if !bsEqCommaBar.in(w) {
		if !hasBuild && len(w) > 1 && w[0] == '^' && w[len(w)-1] == '$' {
			// "=^1\.7\..*$": conda appends '*', and its treeify keeps
			// only the regex token ("^1\.7\..*$*" reads as the regex).
			return w, lead
		}
		if !hasBuild && !strings.HasSuffix(w, "*") {
			return w + "*", lead
		}
		return w, lead
	}
	return v, 0
}

// msSplitVersionBuild emulates conda's regex
//
//	((?:.+?)[^><!,|]?)(?:(?<![=!|,<>~])(?:[ =])([^-=,|<>~]+?))?$
//
// on s: the shortest version prefix after which either nothing follows or
// a ' '/'=' separator (not right after an operator character) and a build
// made of characters outside "-=,|<>~". It returns the end of the version
// and the start of the build (-1 when none).
func msSplitVersionBuild(s string) (vEnd, bStart int) {
	// a build after p is valid when no forbidden byte lies after p.
	lastBad := bsBuildBad.lastIndex(s)
	for l := 1; l <= len(s); l++ {
		cands := make([]int, 0, 2)
		if l < len(s) && strings.IndexByte("><!,|", s[l]) < 0 {
			cands = append(cands, l+1)
		}
		cands = append(cands, l)
		for _, p := range cands {
			if p < len(s) && (s[p] == ' ' || s[p] == '=') &&
				strings.IndexByte("=!|,<>~", s[p-1]) < 0 &&
				p+1 < len(s) && lastBad < p+1 {
				return p, p + 1
			}
			if p == len(s) {
				return p, -1
			}
		}
	}
	return len(s), -1
}

func (m *MatchSpec) setKey(k string, s string, a, b int) {
	if m.Keys == nil {
		m.Keys = map[string]string{}
		m.KeySpans = map[string]Span{}
	}
	m.Keys[k] = s[a:b]
	m.KeySpans[k] = Span{a, b}
}

// parseBrackets reads key=value pairs from Raw[a:b], separated by ',' or
// blanks, values optionally quoted with ' or ".
func (m *MatchSpec) parseBrackets(a, b int) error {
	s := m.Raw
	i := a
	for {
		for i < b && (s[i] == ',' || vSpace(s[i])) {
			i++
		}
		if i >= b {
			break
		}
		k := i
		for i < b && (vDigit(s[i]) || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '_' || s[i] == '-') {
			i++
		}
		if i == k {
			return msErr(i, "expected key=value in brackets, found %q", s[i:i+1])
		}
		key := s[k:i]
		if i >= b || s[i] != '=' {
			// conda's bracket regex picks key=value pairs out and passes
			// over anything else without a word (match_spec.py,
			// _parse_spec_str step 3), so `jaxlib=0.4.23[cuda118]` reads
			// as jaxlib=0.4.23 (review forty-four F43): the spec keeps
			// that reading, and the issue says what was dropped
			for i < b && s[i] != ',' && !vSpace(s[i]) {
				i++
			}
			m.issue(k, "conda has no extras: select a CUDA build with a build string (`name=1.2=*cuda*`) or a cuda-version pin",
				"conda ignores %q in brackets, which is no key=value pair, and reads the rest of the spec without it; libmamba's own parser may refuse it", s[k:i])
			continue
		}
		i++
		var va, vb int
		if i < b && (s[i] == '\'' || s[i] == '"') {
			q := s[i]
			j := strings.IndexByte(s[i+1:b], q)
			if j < 0 {
				return msErr(i, "unterminated quote in value of %q", key)
			}
			va, vb = i+1, i+1+j
			i = vb + 1
			if i < b && s[i] != ',' && !vSpace(s[i]) {
				return msErr(i, "expected ',' after the value of %q", key)
			}
		} else {
			va = i
			for i < b && s[i] != ',' && !vSpace(s[i]) {
				if s[i] == '\'' || s[i] == '"' {
					return msErr(i, "stray quote in value of %q", key)
				}
				i++
			}
			vb = i
		}
		if va == vb {
			return msErr(k, "key %q in brackets has an empty value", key)
		}
		if !msKnownField(key) {
			return msErr(k, "unknown key %q in brackets (expected one of %s)", key, strings.Join(msSortedFields(), ", "))
		}
		if key == "name" {
			// conda ignores a bracket name when the spec has one outside
			// (it always has), so that "tensorflow[name=pytorch]" cannot
			// install another package than it shows.
			continue
		}
		m.setKey(key, s, va, vb)
	}
	return nil
}

func msKnownField(k string) bool {
	for _, f := range msFields {
		if f == k {
			return true
		}
	}
	return false
}

func msSortedFields() []string {
	out := append([]string(nil), msFields...)
	sort.Strings(out)
	return out
}

// applyBrackets lets bracket keys override what was written outside, then
// compiles the build matcher.
func (m *MatchSpec) applyBrackets() error {
	if sp, ok := m.KeySpans["version"]; ok {
		// conda sanitises a bracket version as if no build were given.
		spec, err := msParseSanitized(m.Raw, sp.Start, sp.End, false)
		if err != nil {
			return err
		}
		m.Version, m.VersionSpan = spec, sp
	}
	if sp, ok := m.KeySpans["build"]; ok {
		m.Build, m.BuildSpan = m.Raw[sp.Start:sp.End], sp
	}
	if sp, ok := m.KeySpans["channel"]; ok {
		subdir, subSpan := m.Subdir, m.SubdirSpan
		m.Subdir, m.SubdirSpan = "", Span{}
		if err := m.setChannel(sp.Start, sp.End); err != nil {
			return err
		}
		if m.Subdir == "" {
			m.Subdir, m.SubdirSpan = subdir, subSpan
		}
	}
	if sp, ok := m.KeySpans["subdir"]; ok {
		m.Subdir, m.SubdirSpan = m.Raw[sp.Start:sp.End], sp
	}
	m.versionIssues()
	return m.compileBuild()
}

func (m *MatchSpec) compileBuild() error {
	m.buildRe = nil
	b := m.Build
	if i := bsQuotes.index(b); i >= 0 {
		return msErr(m.BuildSpan.Start+i, "quote character %c in build string %q: conda does not strip quotes inside a spec; write the build without them", b[i], b)
	}
	if b == "" {
		return nil
	}
	for i := 0; i < len(b); i++ {
		if b[i] <= ' ' || b[i] >= 0x7f || b[i] == '\'' || b[i] == '"' {
			return msErr(m.BuildSpan.Start+i, "invalid character %q in build string %q", b[i], b)
		}
	}
	switch {
	case strings.HasPrefix(b, "^") && strings.HasSuffix(b, "$") && len(b) > 1:
		re, err := regexp.Compile(b)
		if err != nil {
			return msErr(m.BuildSpan.Start, "invalid regular expression in build %q: %v", b, err)
		}
		m.buildRe = re
	case strings.Contains(b, "*"):
		parts := strings.Split(b, "*")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		m.buildRe = regexp.MustCompile(`^(?:` + strings.Join(parts, ".*") + `)$`)
	}
	return nil
}

// parsePackageFile reads a spec that names a package file or its URL,
// ".../<channel>/<subdir>/<name>-<version>-<build>.tar.bz2". As in conda,
// a file outside a known subdir only yields url and fn.
func (m *MatchSpec) parsePackageFile(a, b int) error {
	s := m.Raw
	if i := strings.IndexFunc(s[a:b], func(r rune) bool { return r <= ' ' || r == '\'' || r == '"' || r == '[' || r == ']' }); i >= 0 {
		return msErr(a+i, "invalid character %q in package file %q", s[a+i], s[a:b])
	}
	slash := strings.LastIndexAny(s[a:b], "/\\")
	fa := a + slash + 1
	fn := s[fa:b]
	m.setKey("url", s, a, b)
	m.setKey("fn", s, fa, b)
	stem := fn[:len(fn)-len(".conda")]
	if strings.HasSuffix(vLower(fn), ".tar.bz2") {
		stem = fn[:len(fn)-len(".tar.bz2")]
	}
	dir := ""
	if slash >= 0 {
		dir = s[a : a+slash]
	}
	sub := dir[strings.LastIndexAny(dir, "/\\")+1:]
	if !msKnownSubdirs[sub] {
		m.Name = "*"
		return nil
	}
	d2 := strings.LastIndexByte(stem, '-')
	d1 := -1
	if d2 > 0 {
		d1 = strings.LastIndexByte(stem[:d2], '-')
	}
	if d1 <= 0 {
		return msErr(fa, "package file name %q is not <name>-<version>-<build>", fn)
	}
	// The directory becomes the channel, which the canonical form writes
	// before "::", where conda would drop a parenthesised part ("(::x"):
	// such a channel could not be read back.
	if i := strings.IndexAny(s[a:a+slash], "()"); i >= 0 {
		return msErr(a+i, "invalid character %q in the channel of package file %q", s[a+i], s[a:b])
	}
	if err := m.setChannel(a, a+slash); err != nil {
		return err
	}
	name := stem[:d1]
	// A file's name is literal, so '*' is no glob here.
	if bad := strings.IndexByte(name, '*'); bad >= 0 {
		return msErr(fa+bad, "invalid character %q in the package name of package file %q", '*', fn)
	}
	if bad := msNameBadChar(name); bad >= 0 {
		return msErr(fa+bad, "invalid character %q in package name %q", msRuneAt(name, bad), name)
	}
	if bad := msNameShapeBad(name); bad >= 0 {
		return msErr(fa+bad, "invalid package name %q in package file %q: %s", name, fn, cep26NameRule)
	}
	m.Name, m.NameSpan = vLower(name), Span{fa, fa + d1}
	// A file's version is one literal version, not a spec.
	if i := strings.IndexAny(stem[d1+1:d2], "=<>~,|*^$()@ "); i >= 0 {
		return msErr(fa+d1+1+i, "invalid character %q in the version of package file %q", stem[d1+1+i], fn)
	}
	vs, err := parseVersionSpecAt(stem[d1+1:d2], fa+d1+1)
	if err != nil {
		return err
	}
	m.Version, m.VersionSpan = vs, Span{fa + d1 + 1, fa + d2}
	build := stem[d2+1:]
	if lb := vLower(build); build == "" || strings.HasSuffix(lb, ".tar.bz2") || strings.HasSuffix(lb, ".conda") {
		// "x-1-.tar.bz2.tar.bz2": no build string, or a file extension
		// where the build should be.
		return msErr(fa+d2+1, "package file name %q has no build string", fn)
	}
	// A file's build string is literal: letters, digits, _ . + only.
	if i := strings.IndexFunc(build, func(r rune) bool {
		return !(r == '_' || r == '.' || r == '+' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}); i >= 0 {
		return msErr(fa+d2+1+i, "invalid character %q in the build string of package file %q", build[i], fn)
	}
	m.Build, m.BuildSpan = build, Span{fa + d2 + 1, fa + len(stem)}
	return m.compileBuild()
}

// fuzzyAmbiguous reports whether writing the fuzzy version v as "=base"
// would read back as something else: "*.*" as "=*" (any version), or a
// glob such as "1*2.*" as "=1*2" (the glob "1*2*").
func fuzzyAmbiguous(v string) bool {
	base, ok := strings.CutSuffix(v, ".*")
	if !ok {
		base, ok = strings.CutSuffix(v, "*")
	}
	return ok && (base == "" || strings.Contains(base, "*"))
}

// MatchBuild reports whether a package build string satisfies the spec's
// build glob (conda's GlobStrMatch: '*' matches anything, "^...$" is a
// regular expression, anything else must be equal). No build constraint
// admits every build.
func (m *MatchSpec) MatchBuild(build string) bool {
	if m.Build == "" {
		return true
	}
	if m.buildRe != nil {
		return m.buildRe.MatchString(build)
	}
	return m.Build == build
}

// Admits reports whether the spec's version constraint admits version
// (false when version is not a valid conda version, unless the spec has
// no version constraint).
func (m *MatchSpec) Admits(version string) bool {
	if m.Version == nil {
		return true
	}
	return m.Version.MatchString(version)
}

// VersionString is the version constraint as conda reads it ("" when
// absent): "numpy=1.8" gives "1.8*", "numpy==1.8" gives "1.8".
//
// It is the spec string conda's MatchSpec parser leaves after its own
// rewriting (match_spec.py: "translate version '=1.2.3' to '1.2.3*'"), so
// numpy=1.8 gives "1.8*" and numpy 1.8.* keeps "1.8.*"; VersionSpec.String
// is the fully normalised tree, which conda prints only for compound specs.
func (m *MatchSpec) VersionString() string {
	if m.Version == nil {
		return ""
	}
	return m.Version.Raw()
}

// BuildString is the build constraint ("" when absent).
func (m *MatchSpec) BuildString() string { return m.Build }

// String is the canonical form conda prints for the spec
// (MatchSpec.__str__): "numpy=1.8", "numpy==1.8=py39_0",
// "conda-forge/linux-64::numpy[version='>=1.20']".
func (m *MatchSpec) String() string {
	var b strings.Builder
	var brackets []string
	chanExact := m.Channel != "" && !strings.Contains(m.Channel, "*")
	if chanExact {
		b.WriteString(m.Channel)
	} else if m.Channel != "" && m.Channel != "*" {
		brackets = append(brackets, "channel="+m.Channel)
	}
	if m.Subdir != "" {
		if chanExact {
			b.WriteString("/" + m.Subdir)
		} else {
			brackets = append(brackets, "subdir="+m.Subdir)
		}
	}
	if b.Len() > 0 {
		b.WriteString("::")
	}
	b.WriteString(m.Name)
	versionExact := false
	// conda prints a "*" version as a bare "=", which it cannot read back;
	// "*" admits every version, so envguard leaves it out.
	if m.Version != nil && m.Version.String() != "*" {
		v := m.Version.String()
		switch {
		// '@' makes conda compare the whole string ("1.0@x"), '=' and '!'
		// included, so outside brackets a build after it would be read
		// as part of the version.
		case strings.ContainsAny(v, "><$^|,@"), fuzzyAmbiguous(v):
			// A bracket version loses a leading "==" when read (conda
			// sanitises it as if no build followed), so write it without
			// one: the canonical form must read back to itself.
			v = msBracketVersion(v)
			brackets = append(brackets, "version='"+v+"'")
		case strings.HasPrefix(v, "!=") || strings.HasPrefix(v, "~="):
			if m.Build != "" {
				brackets = append(brackets, "version='"+v+"'")
			} else {
				b.WriteString(v)
			}
		case strings.HasSuffix(v, ".*"):
			b.WriteString("=" + v[:len(v)-2])
		case strings.HasSuffix(v, "*"):
			b.WriteString("=" + v[:len(v)-1])
		case strings.HasPrefix(v, "=="):
			b.WriteString(v)
			versionExact = true
		default:
			b.WriteString("==" + v)
			versionExact = true
		}
	}
	if bs := m.Build; bs != "" {
		switch {
		case strings.ContainsAny(bs, "><$^|,"):
			brackets = append(brackets, "build='"+bs+"'")
		case strings.Contains(bs, "*") || !versionExact:
			brackets = append(brackets, "build="+bs)
		default:
			b.WriteString("=" + bs)
		}
	}
	for _, k := range msFields {
		switch k {
		case "channel", "subdir", "name", "version", "build":
			continue
		case "fn":
			if _, ok := m.Keys["url"]; ok {
				continue
			}
		case "url":
			if m.Channel != "" {
				continue
			}
		}
		v, ok := m.Keys[k]
		if !ok {
			continue
		}
		if strings.Contains(v, "'") {
			brackets = append(brackets, k+`="`+v+`"`)
		} else if strings.ContainsAny(v, ", =\"[]") {
			brackets = append(brackets, k+"='"+v+"'")
		} else {
			brackets = append(brackets, k+"="+v)
		}
	}
	if len(brackets) > 0 {
		b.WriteString("[" + strings.Join(brackets, ",") + "]")
	}
	return b.String()
}

// msBracketVersion writes a version for version='...' so that it reads back
// as itself: conda drops a leading "==" from a bracket version, which is
// harmless before an exact leaf ("==1.2,<2" → "1.2,<2") but not before a
// glob ("==1.*"), so such a leaf moves from the front instead. AND and OR
// are commutative; mixed, the leaf is put in parentheses instead (','
// binds tighter than '|', so moving it would change the tree).
func msBracketVersion(v string) string {
	if !strings.HasPrefix(v, "==") || strings.ContainsAny(v, "()") {
		return v
	}
	rest := v[2:]
	first := rest
	if i := strings.IndexAny(rest, ",|"); i >= 0 {
		first = rest[:i]
	}
	if !strings.Contains(first, "*") {
		return rest
	}
	for _, sep := range []string{",", "|"} {
		other := "|"
		if sep == "|" {
			other = ","
		}
		if !strings.Contains(v, sep) || strings.Contains(v, other) {
			continue
		}
		// The leaf that comes first must not be a "==" glob either, or
		// the form read back differs from the one written ("==0.*,==0"
		// rotated to "==0,==0.*" reads as "0,==0.*").
		parts := strings.Split(v, sep)
		for i, p := range parts {
			if !strings.HasPrefix(p, "==") || !strings.Contains(p, "*") {
				front := strings.TrimPrefix(p, "==")
				return strings.Join(append(append([]string{front}, parts[i+1:]...), parts[:i]...), sep)
			}
		}
		break
	}
	// Mixed: the glob leaf goes in parentheses, which keep the "==" (a
	// version that opens with '(' is not sanitised) and change nothing
	// of the tree ("==2.*,0|1" is "(==2.*),0|1").
	return "(" + v[:2+len(first)] + ")" + v[2+len(first):]
}

// msRuneAt is the character at byte offset i, so that a message names "ÿ"
// rather than its first byte.
func msRuneAt(s string, i int) rune {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

// msParensMsg explains why a parenthesis outside brackets that is not a
// trailing (key=value) section is an error.
const msParensMsg = "conda drops parenthesised text %q from a MatchSpec (its legacy '(key=value)' section, which it ignores), so the spec would not read as written; group a version inside brackets, e.g. name[version='>=1,(<2|>3)']"

// findParens finds conda's legacy parenthesised section: after the bracket
// section (at after), or at the end of Raw[a:*end] ("foo 1.2 (optional)",
// "foo(target=x)[build=3]"), and moves *end before it. conda's _PARENS_RE
// strips any "(...)" outside brackets, version grouping included, so every
// other parenthesis outside brackets is an error here.
func (m *MatchSpec) findParens(a int, end *int, after Span) error {
	s := m.Raw
	e := *end
	ps := after
	if ps.IsZero() {
		_, te := msShrink(s, a, e)
		if te > a && s[te-1] == ')' {
			if lp := strings.LastIndexByte(s[a:te-1], '('); lp >= 0 {
				ps = Span{a + lp, te}
				e = a + lp
			}
		}
	}
	if i := bsParens.index(s[a:e]); i >= 0 {
		// conda would strip the parenthesised text: a version group
		// ("python >=3.8,(<3.10|>=3.11)") or a second section.
		at, to := a+i, e
		if j := strings.LastIndexByte(s[a:e], ')'); j >= 0 && a+j+1 > at {
			to = a + j + 1
		}
		if !ps.IsZero() {
			to = ps.End
		}
		return msErr(at, msParensMsg, s[at:to])
	}
	if ps.IsZero() {
		return nil
	}
	if err := m.parseParens(ps); err != nil {
		return err
	}
	*end = e
	return nil
}

// parseParens reads the items of a parenthesised section: key=value pairs
// (the value optionally quoted) and the word "optional", separated by ','
// or blanks, as conda's _BRACKETS_KV_RE and its "optional" test do. conda
// then ignores them; libmamba applies the keys it knows as it would in
// brackets, which is reported.
func (m *MatchSpec) parseParens(ps Span) error {
	s := m.Raw
	m.Parens, m.ParensSpan = map[string]string{}, ps
	i, b := ps.Start+1, ps.End-1
	for {
		for i < b && (s[i] == ',' || vSpace(s[i])) {
			i++
		}
		if i >= b {
			return nil
		}
		k := i
		for i < b && (vDigit(s[i]) || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '_' || s[i] == '-') {
			i++
		}
		key := s[k:i]
		if key == "optional" && (i == b || s[i] == ',' || vSpace(s[i])) {
			m.Parens["optional"] = "true"
			continue
		}
		if key == "" || i >= b || s[i] != '=' {
			return msErr(ps.Start, msParensMsg, s[ps.Start:ps.End])
		}
		i++
		var va, vb int
		if i < b && (s[i] == '\'' || s[i] == '"') {
			j := strings.IndexByte(s[i+1:b], s[i])
			if j < 0 {
				return msErr(i, "unterminated quote in value of %q", key)
			}
			va, vb = i+1, i+1+j
			i = vb + 1
		} else {
			va = i
			for i < b && s[i] != ',' && !vSpace(s[i]) && s[i] != '\'' && s[i] != '"' {
				i++
			}
			vb = i
		}
		if i < b && s[i] != ',' && !vSpace(s[i]) {
			return msErr(i, "expected ',' after the value of %q in parentheses", key)
		}
		if va == vb {
			return msErr(k, "key %q in parentheses has an empty value", key)
		}
		val := s[va:vb]
		m.Parens[key] = val
		if msKnownField(key) {
			m.issue(k, fmt.Sprintf("write it in brackets: %s[%s=%s]", m.Name, key, val),
				"conda ignores %s=%s inside parentheses (its legacy section), while libmamba (mamba, micromamba) applies it as it would in brackets: the two read different packages", key, val)
		}
	}
}

// versionIssues records the version specs that conda reads but libmamba
// refuses: "=>"/"=<" (conda's sanitising turns "=>3.11" into ">3.11*")
// and regular expressions.
func (m *MatchSpec) versionIssues() {
	if m.Version == nil || m.VersionSpan.IsZero() {
		return
	}
	sp := m.VersionSpan
	v := strings.ReplaceAll(m.Raw[sp.Start:sp.End], " ", "")
	if w := strings.TrimLeft(v, "="); len(w) < len(v) && w != "" && (w[0] == '>' || w[0] == '<') {
		op := v[:len(v)-len(w)+1]
		num := strings.TrimLeft(w[1:], "=")
		admits := "does not admit"
		if m.Version.MatchString(num) {
			admits = "admits"
		}
		want := ">="
		if w[0] == '<' {
			want = "<="
		}
		m.issue(sp.Start, fmt.Sprintf("write %s%s (or %c%s)", want, num, w[0], num),
			"%q is not a conda operator: conda reads %q as %q, which %s %s, while libmamba (mamba, micromamba) refuses the spec", op, v, m.Version.String(), admits, num)
		// One constraint written without spaces is certain to mean
		// want+num; a list or an alternation is left to the user.
		if written := m.Raw[sp.Start:sp.End]; written == v && !strings.ContainsAny(v, ",|") {
			m.Issues[len(m.Issues)-1].Fix = &SpecFix{Start: sp.Start, End: sp.End, New: want + num}
		}
	}
	if m.Version.hasRegex() {
		m.issue(sp.Start, "write a glob or a range instead (1.7.*, >=1.7,<1.8)",
			"the version %q is a regular expression: conda's classic solver matches versions against it, but libmamba (conda's default solver since 23.10, mamba, micromamba) has no regex version specs and refuses it", m.Version.String())
	}
}
