package envspec

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// PEP440Version is a Python package version as PEP 440 defines it, in the
// permissive form pip accepts (alternative spellings such as `1.0-alpha.1`,
// `1.0-1` or a leading `v` are normalised). Conda versions are a different
// language with different ordering: see Version.
type PEP440Version struct {
	Epoch   int
	Release []int
	// Pre is the normalised pre-release label ("a", "b" or "rc"), "" when
	// the version is not a pre-release; PreN its number.
	Pre  string
	PreN int
	// HasPost/HasDev say whether a post or dev segment is present; a bare
	// `.post` or `.dev` counts as number 0, as PEP 440 says.
	HasPost bool
	Post    int
	HasDev  bool
	Dev     int
	// Local is the normalised local label without '+' (`cu118`, `abc.5`),
	// "" when absent. Separators `-` and `_` are normalised to `.`.
	Local string
}

// The pattern is packaging's VERSION_PATTERN, which pip uses: a hand parser
// would have to reproduce the same optional-separator rules.
// It is compiled on first use: Go runs every package's initialisation on
// every CLI start, and most files never need it (pep440Scan reads the
// common shapes by hand).
var pep440Re = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*v?` +
		`(?:([0-9]+)!)?` + // epoch
		`([0-9]+(?:\.[0-9]+)*)` + // release
		`(?:[-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?([0-9]+)?)?` + // pre
		`(?:-([0-9]+)|[-_.]?(post|rev|r)[-_.]?([0-9]+)?)?` + // post
		`(?:[-_.]?(dev)[-_.]?([0-9]+)?)?` + // dev
		`(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?` + // local
		`\s*$`)
})

// ParsePEP440 parses a PEP 440 version. The error is a *PipError whose
// Offset is 0: the pattern either matches the whole string or not.
func ParsePEP440(s string) (PEP440Version, error) {
	v, _, err := parsePEP440(s, true)
	return v, err
}

// parsePEP440 is ParsePEP440 that fills Release only when withRelease is
// set, and returns the number of release numbers either way: a caller that
// only checks a version allocates nothing.
func parsePEP440(s string, withRelease bool) (v PEP440Version, releases int, err error) {
	var m []string
	scanned, ok := pep440Scan(s)
	if ok {
		m = scanned[:]
	} else {
		m = pep440Re().FindStringSubmatch(pep440ASCII(s))
	}
	if m == nil {
		return v, 0, &PipError{Msg: fmt.Sprintf("invalid PEP 440 version %q", s)}
	}
	num := func(t string) (int, error) {
		if t == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(t)
		if err != nil {
			// Only overflow gets here; the pattern admits digits only.
			return 0, &PipError{Msg: fmt.Sprintf("version number %s in %q is too large", t, s)}
		}
		return n, nil
	}
	if v.Epoch, err = num(m[1]); err != nil {
		return PEP440Version{}, 0, err
	}
	releases = strings.Count(m[2], ".") + 1
	if withRelease {
		v.Release = make([]int, 0, releases)
	}
	for rel := m[2]; ; {
		part, rest, more := strings.Cut(rel, ".")
		n, err := num(part)
		if err != nil {
			return PEP440Version{}, 0, err
		}
		if withRelease {
			v.Release = append(v.Release, n)
		}
		if !more {
			break
		}
		rel = rest
	}
	if m[3] != "" {
		switch strings.ToLower(m[3]) {
		case "a", "alpha":
			v.Pre = "a"
		case "b", "beta":
			v.Pre = "b"
		default: // c, pre, preview, rc
			v.Pre = "rc"
		}
		if v.PreN, err = num(m[4]); err != nil {
			return PEP440Version{}, 0, err
		}
	}
	switch {
	case m[5] != "":
		v.HasPost = true
		v.Post, err = num(m[5])
	case m[6] != "":
		v.HasPost = true
		v.Post, err = num(m[7])
	}
	if err != nil {
		return PEP440Version{}, 0, err
	}
	if m[8] != "" {
		v.HasDev = true
		if v.Dev, err = num(m[9]); err != nil {
			return PEP440Version{}, 0, err
		}
	}
	if m[10] != "" {
		v.Local = pep440NormLocal(m[10])
	}
	return v, releases, nil
}

// pep440ASCII is s as packaging matches it: its pattern's \s strips the
// blanks Python's str.isspace() knows around the version ("\u202f1.0\u2029"
// and "\v1.0\x1c" are 1.0; RE2's \s knows only \t\n\f\r and space), and
// its body is ASCII-only ((?a:...)), while Go's (?i) would fold 'ſ' to 's'
// and 'K' (Kelvin) to 'k' ("1.0po\u017ft1" is no post-release). A string
// left with non-ASCII bytes comes back as "" so that it matches nothing.
// Only the slow path calls it: pep440Scan has read every plain version.
func pep440ASCII(s string) string {
	s = strings.TrimFunc(s, pyIsSpace)
	for j := 0; j < len(s); j++ {
		if s[j] >= utf8.RuneSelf {
			return ""
		}
	}
	return s
}

// pyIsSpace is Python's str.isspace(): unicode.IsSpace and the four ASCII
// information separators U+001C..U+001F, which Python counts as blanks.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// pep440NormLocal turns the separators of a local label into '.' and lower-
// cases it.
func pep440NormLocal(l string) string {
	for i := 0; i < len(l); i++ {
		if l[i] >= 0x80 {
			// (?i) lets the pattern match a few non-ASCII letters (the
			// Kelvin sign folds to k): keep the general path for them.
			return strings.ToLower(strings.NewReplacer("-", ".", "_", ".").Replace(l))
		}
	}
	b := []byte(l)
	for i, c := range b {
		switch {
		case c == '-' || c == '_':
			b[i] = '.'
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// pep440Scan is a hand-written reading of pep440Re for the common
// spellings, returning the same submatches as FindStringSubmatch. At every
// choice it takes the branch the regexp engine tries first and reports
// ok=false as soon as that branch fails (or on whitespace and non-ASCII
// bytes), leaving the backtracking cases to the regexp itself.
func pep440Scan(s string) (m [11]string, ok bool) {
	n := len(s)
	digits := func(i int) int {
		for i < n && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i
	}
	sep := func(i int) int {
		if i < n && (s[i] == '-' || s[i] == '_' || s[i] == '.') {
			return i + 1
		}
		return i
	}
	// word returns the first of words (in the pattern's alternation order)
	// that s holds at i, ignoring ASCII case.
	word := func(i int, words ...string) string {
		for _, w := range words {
			if i+len(w) <= n && pep440EqualFoldASCII(s[i:i+len(w)], w) {
				return s[i : i+len(w)]
			}
		}
		return ""
	}
	m[0] = s
	i := 0
	if i < n && (s[i] == 'v' || s[i] == 'V') {
		i++
	}
	j := digits(i)
	if j == i {
		return m, false
	}
	if j < n && s[j] == '!' {
		m[1] = s[i:j]
		i = j + 1
		if j = digits(i); j == i {
			return m, false
		}
	}
	rel := i
	i = j
	for i+1 < n && s[i] == '.' && '0' <= s[i+1] && s[i+1] <= '9' {
		i = digits(i + 1)
	}
	m[2] = s[rel:i]
	// pre-release
	if k := sep(i); true {
		if w := word(k, "alpha", "a", "beta", "b", "preview", "pre", "c", "rc"); w != "" {
			m[3] = w
			k = sep(k + len(w))
			if d := digits(k); d > k {
				m[4] = s[k:d]
				k = d
			}
			i = k
		}
	}
	// post-release
	if i+1 < n && s[i] == '-' && '0' <= s[i+1] && s[i+1] <= '9' {
		d := digits(i + 1)
		m[5] = s[i+1 : d]
		i = d
	} else if k := sep(i); true {
		if w := word(k, "post", "rev", "r"); w != "" {
			m[6] = w
			k = sep(k + len(w))
			if d := digits(k); d > k {
				m[7] = s[k:d]
				k = d
			}
			i = k
		}
	}
	// dev release
	if k := sep(i); true {
		if w := word(k, "dev"); w != "" {
			m[8] = w
			k = sep(k + len(w))
			if d := digits(k); d > k {
				m[9] = s[k:d]
				k = d
			}
			i = k
		}
	}
	// local label
	if i < n && s[i] == '+' {
		l := i + 1
		k := l
		for {
			st := k
			for k < n && pipAlnum(s[k]) {
				k++
			}
			if k == st {
				return m, false
			}
			if k+1 < n && (s[k] == '-' || s[k] == '_' || s[k] == '.') && pipAlnum(s[k+1]) {
				k++
				continue
			}
			break
		}
		m[10] = s[l:k]
		i = k
	}
	if i != n {
		return m, false
	}
	return m, true
}

func pep440EqualFoldASCII(a, lower string) bool {
	for i := 0; i < len(a); i++ {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// IsPrerelease reports whether v is a pre-release or a dev release.
func (v PEP440Version) IsPrerelease() bool { return v.Pre != "" || v.HasDev }

// Public returns the normalised version without its local label
// ("2.0.1" for 2.0.1+cu118).
func (v PEP440Version) Public() string {
	var b strings.Builder
	if v.Epoch != 0 {
		fmt.Fprintf(&b, "%d!", v.Epoch)
	}
	b.WriteString(v.BaseRelease())
	if v.Pre != "" {
		fmt.Fprintf(&b, "%s%d", v.Pre, v.PreN)
	}
	if v.HasPost {
		fmt.Fprintf(&b, ".post%d", v.Post)
	}
	if v.HasDev {
		fmt.Fprintf(&b, ".dev%d", v.Dev)
	}
	return b.String()
}

// BaseRelease returns the release segment alone ("2.0.1").
func (v PEP440Version) BaseRelease() string {
	parts := make([]string, len(v.Release))
	for i, n := range v.Release {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ".")
}

// String returns the normalised version, local label included.
func (v PEP440Version) String() string {
	if v.Local != "" {
		return v.Public() + "+" + v.Local
	}
	return v.Public()
}

// public is v without its local label.
func (v PEP440Version) public() PEP440Version {
	v.Local = ""
	return v
}

// Compare orders versions as PEP 440 does: -1, 0 or +1. Trailing zeros of
// the release do not count (1.0 == 1.0.0); a dev release sorts before the
// pre-releases of the same release; a local label sorts after the public
// version it decorates.
func (v PEP440Version) Compare(o PEP440Version) int {
	if c := pepCmp(v.Epoch, o.Epoch); c != 0 {
		return c
	}
	n := max(len(v.Release), len(o.Release))
	for i := range n {
		var a, b int
		if i < len(v.Release) {
			a = v.Release[i]
		}
		if i < len(o.Release) {
			b = o.Release[i]
		}
		if c := pepCmp(a, b); c != 0 {
			return c
		}
	}
	if c := pepCmp(v.preRank(), o.preRank()); c != 0 {
		return c
	}
	if v.Pre != "" && o.Pre != "" {
		if c := pepCmp(v.PreN, o.PreN); c != 0 {
			return c
		}
	}
	// No post segment sorts before any post segment.
	if c := pepCmpOptional(v.HasPost, v.Post, o.HasPost, o.Post, -1); c != 0 {
		return c
	}
	// No dev segment sorts after any dev segment.
	if c := pepCmpOptional(v.HasDev, v.Dev, o.HasDev, o.Dev, +1); c != 0 {
		return c
	}
	return pepCompareLocal(v.Local, o.Local)
}

// preRank places the pre-release kinds: a bare dev release (1.0.dev1)
// before alphas, a final or post release after rc.
func (v PEP440Version) preRank() int {
	switch {
	case v.Pre == "a":
		return 1
	case v.Pre == "b":
		return 2
	case v.Pre == "rc":
		return 3
	case !v.HasPost && v.HasDev:
		return 0
	default:
		return 4
	}
}

// pepCmpOptional compares optional numbers; absent sorts as absentSign
// (-1 before every present value, +1 after).
func pepCmpOptional(hasA bool, a int, hasB bool, b int, absentSign int) int {
	switch {
	case hasA && hasB:
		return pepCmp(a, b)
	case hasA == hasB:
		return 0
	case !hasA:
		return absentSign
	default:
		return -absentSign
	}
}

func pepCmp(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// pepCompareLocal orders local labels segment by segment: numeric segments
// compare as numbers and sort after alphanumeric ones; a label that extends
// another sorts after it; no label sorts first.
func pepCompareLocal(a, b string) int {
	if a == b {
		return 0
	}
	if a == "" {
		return -1
	}
	if b == "" {
		return 1
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, y := as[i], bs[i]
		xn, yn := pepDigits(x), pepDigits(y)
		switch {
		case xn && yn:
			if c := pepCmpDigits(x, y); c != 0 {
				return c
			}
		case xn:
			return 1
		case yn:
			return -1
		default:
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
		}
	}
	return pepCmp(len(as), len(bs))
}

func pepDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// pepCmpDigits compares decimal strings of any length without converting
// them, so a long local segment (a date, a hash of digits) cannot overflow.
func pepCmpDigits(a, b string) int {
	a = strings.TrimLeft(a, "0")
	b = strings.TrimLeft(b, "0")
	if c := pepCmp(len(a), len(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
