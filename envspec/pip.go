package envspec

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PipLine is one line of a pip requirements list: a requirement or an option.
type PipLine struct {
	Raw string
	// Exactly one of Req and Option is set.
	Req    *PipRequirement
	Option *PipOption
	// Options holds every option of an option line (pip accepts several on
	// one line, `-i URL --trusted-host H`); Option is its first element.
	Options []PipOption
	// Issues are problems in a line that pip (the packaging library it
	// vendors) still reads as above: the file parser reports each as EG104.
	Issues []*SpecIssue
}

// PipRequirement is a PEP 508 requirement (or an editable/URL install).
type PipRequirement struct {
	Name       string // as written
	Normalized string // PEP 503 normalised: lower case, runs of -_. as -
	Extras     []string
	Specifiers []PipSpecifier
	Marker     string
	URL        string // for `name @ url`, a bare URL/VCS line or `-e`
	Editable   bool
	NameSpan   Span
	SpecSpan   Span

	// Bare is set for a line that is a URL or a local path and no PEP 508
	// requirement (`git+https://...#egg=x`, `./pkg`, `-e .`, `x.whl`). Name
	// then comes from the `#egg=` fragment or the wheel file name and may
	// be "" (pip learns it only by building the project). A wheel URL also
	// yields the specifier `==<wheel version>`, with SpecSpan on it.
	Bare bool
	// Path is set when URL is a local path rather than a URL.
	Path bool
	// VCS is "git", "hg", "svn" or "bzr" for a version-control URL; Ref is
	// the revision after '@' in its path ("" when none).
	VCS        string
	Ref        string
	URLSpan    Span
	MarkerSpan Span
	// Options are the per-requirement options after it (`--hash=...`,
	// `--config-settings=...`).
	Options []PipOption

	issues []*SpecIssue // PipLine.Issues
}

// PipSpecifier is one PEP 440 clause (`==2.0.1+cu118`).
type PipSpecifier struct {
	Op      string
	Version string // as written, `.*` included
	Span    Span   // the clause, operator included, inside PipLine.Raw
}

// PipOption is a pip option line (`--index-url URL`, `-r file`).
type PipOption struct {
	Name  string // canonical long form: --index-url, --extra-index-url, --find-links, --requirement, ...
	Value string
	// InRequirementsFile reports whether pip accepts the option in a
	// requirements file. conda hands the pip subsection to `pip install -r`,
	// so command-line-only options (--no-deps, --upgrade) make it fail.
	InRequirementsFile bool
	Span               Span // the option and its value inside PipLine.Raw
	ValueSpan          Span
}

// PipError is a syntax error in a pip line; Offset is the byte offset
// into the line where the problem is.
type PipError struct {
	Offset int
	Msg    string
}

func (e *PipError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

func pipErrf(off int, format string, args ...any) *PipError {
	return &PipError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// pipOptSpec describes one pip option we know.
type pipOptSpec struct {
	long   string
	short  byte // 0 when none
	value  bool
	inFile bool // accepted in a requirements file
	perReq bool // accepted after a requirement on the same line
}

// The options pip's requirements-file parser accepts (SUPPORTED_OPTIONS and
// SUPPORTED_OPTIONS_REQ in pip's req_file.py), then command-line options
// people also write into environment files.
var pipOptSpecs = []pipOptSpec{
	{"--index-url", 'i', true, true, false},
	{"--extra-index-url", 0, true, true, false},
	{"--no-index", 0, false, true, false},
	{"--find-links", 'f', true, true, false},
	{"--requirement", 'r', true, true, false},
	{"--constraint", 'c', true, true, false},
	{"--editable", 'e', true, true, false},
	{"--pre", 0, false, true, false},
	{"--no-binary", 0, true, true, false},
	{"--only-binary", 0, true, true, false},
	{"--prefer-binary", 0, false, true, false},
	{"--require-hashes", 0, false, true, false},
	{"--trusted-host", 0, true, true, false},
	{"--use-feature", 0, true, true, false},
	{"--config-settings", 0, true, true, true},
	{"--global-option", 0, true, true, true},
	{"--hash", 0, true, true, true},
	{"--no-deps", 0, false, false, false},
	{"--upgrade", 'U', false, false, false},
	{"--upgrade-strategy", 0, true, false, false},
	{"--force-reinstall", 0, false, false, false},
	{"--ignore-installed", 'I', false, false, false},
	{"--no-build-isolation", 0, false, false, false},
	{"--no-cache-dir", 0, false, false, false},
	{"--src", 0, true, false, false},
	{"--user", 0, false, false, false},
}

func lookupPipOpt(tok string) (*pipOptSpec, bool) {
	for i := range pipOptSpecs {
		o := &pipOptSpecs[i]
		if strings.HasPrefix(tok, "--") {
			if o.long == tok {
				return o, true
			}
		} else if len(tok) == 2 && o.short != 0 && o.short == tok[1] {
			return o, true
		}
	}
	return nil, false
}

// NormalizePipName applies PEP 503: lower case, runs of -, _ and . as one -.
func NormalizePipName(name string) string {
	if pipNormalized(name) {
		return name
	}
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
		// "foo_" (which pip reads) is "foo-", as packaging's
		// canonicalize_name has it, not "foo".
		b.WriteByte('-')
	}
	return b.String()
}

// pipNormalized reports whether NormalizePipName would return name as it
// is (most names are written normalised): no upper case, no '_' or '.',
// and '-' only alone between other characters.
func pipNormalized(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'A' <= c && c <= 'Z', c == '_', c == '.':
			return false
		case c == '-':
			if i == 0 || i == len(name)-1 || name[i+1] == '-' {
				return false
			}
		}
	}
	return true
}

func pipSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

func pipNameChar(c byte) bool {
	return pipAlnum(c) || c == '-' || c == '_' || c == '.'
}

func pipAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// PipCommentStart returns where pip's inline comment starts: a '#' at the
// start of the line or after whitespace (a URL's #egg= fragment is not one).
func PipCommentStart(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || pipSpace(s[i-1])) {
			return i
		}
	}
	return len(s)
}

// pipToken is a whitespace-separated word with its offset.
type pipToken struct {
	s   string
	off int
}

func pipSplitTokens(s string, base int) []pipToken {
	var toks []pipToken
	for i := 0; i < len(s); {
		for i < len(s) && pipSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !pipSpace(s[j]) {
			j++
		}
		if j > i {
			toks = append(toks, pipToken{s[i:j], base + i})
		}
		i = j
	}
	return toks
}

// ParsePipLine parses one pip requirements line (YAML comments already removed).
// pip's own inline comments (` # ...`) are removed here too. Offsets in the
// result and in a *PipError are byte offsets into s.
func ParsePipLine(s string) (*PipLine, error) {
	return parsePipLine(s, nil)
}

// parsePipLine is ParsePipLine taking the line, its requirement and the
// requirement's specifiers from sl.
func parsePipLine(s string, sl *slab) (*PipLine, error) {
	end := PipCommentStart(s)
	for end > 0 && pipSpace(s[end-1]) {
		end--
	}
	start := 0
	for start < end && pipSpace(s[start]) {
		start++
	}
	if start == end {
		return nil, pipErrf(start, "empty pip line")
	}
	line := sl.pipLine()
	line.Raw = s
	if s[start] == '-' {
		return pipParseOptionLine(line, s, start, end)
	}
	// pip ends the requirement at the first word that starts with '-'
	// (break_args_options); the words after it are per-requirement options.
	reqEnd := end
	var optToks []pipToken
	for i := start; i < end; {
		for i < end && pipSpace(s[i]) {
			i++
		}
		if i < end && s[i] == '-' {
			reqEnd = i
			for reqEnd > start && pipSpace(s[reqEnd-1]) {
				reqEnd--
			}
			optToks = pipSplitTokens(s[i:end], i)
			break
		}
		for i < end && !pipSpace(s[i]) {
			i++
		}
	}
	req, err := pipParseRequirement(s, start, reqEnd, sl)
	if err != nil {
		return nil, err
	}
	if req.Options, err = pipParseReqOptions(optToks); err != nil {
		return nil, err
	}
	line.Req = req
	line.Issues, req.issues = req.issues, nil
	return line, nil
}

// pipParseReqOptions parses the options after a requirement: only the
// per-requirement ones are allowed there.
func pipParseReqOptions(toks []pipToken) ([]PipOption, error) {
	var opts []PipOption
	for len(toks) > 0 {
		spec, opt, rest, err := pipParseOneOption(toks)
		if err != nil {
			return nil, err
		}
		if !spec.perReq {
			return nil, pipErrf(toks[0].off, "option %s cannot follow a requirement on the same line (pip ignores it there): put it on its own line", spec.long)
		}
		opts = append(opts, opt)
		toks = rest
	}
	return opts, nil
}

// pipParseOneOption reads one option (and its value) from the front of toks.
func pipParseOneOption(toks []pipToken) (*pipOptSpec, PipOption, []pipToken, error) {
	t := toks[0]
	rest := toks[1:]
	if !strings.HasPrefix(t.s, "-") || t.s == "-" || t.s == "--" {
		return nil, PipOption{}, nil, pipErrf(t.off, "expected a pip option, found %q", t.s)
	}
	var (
		name     = t.s
		value    string
		valueOff = -1
	)
	if strings.HasPrefix(t.s, "--") {
		if eq := strings.IndexByte(t.s, '='); eq >= 0 {
			name = t.s[:eq]
			value, valueOff = t.s[eq+1:], t.off+eq+1
			if value == "" {
				return nil, PipOption{}, nil, pipErrf(t.off+eq, "option %s has an empty value after '='", name)
			}
		}
	} else if len(t.s) > 2 {
		// optparse accepts a short option's value glued to it: -iURL, -e.
		name = t.s[:2]
		value, valueOff = t.s[2:], t.off+2
	}
	spec, ok := lookupPipOpt(name)
	if !ok {
		return nil, PipOption{}, nil, pipErrf(t.off, "unknown pip option %s", name)
	}
	opt := PipOption{Name: spec.long, InRequirementsFile: spec.inFile}
	spanEnd := t.off + len(t.s)
	if spec.value {
		if valueOff < 0 {
			if len(rest) == 0 || strings.HasPrefix(rest[0].s, "-") {
				return nil, PipOption{}, nil, pipErrf(t.off, "option %s needs a value", spec.long)
			}
			value, valueOff = rest[0].s, rest[0].off
			spanEnd = rest[0].off + len(rest[0].s)
			rest = rest[1:]
		}
		opt.Value = value
		opt.ValueSpan = Span{valueOff, valueOff + len(value)}
	} else if valueOff >= 0 {
		return nil, PipOption{}, nil, pipErrf(valueOff, "option %s takes no value", spec.long)
	}
	opt.Span = Span{t.off, spanEnd}
	return spec, opt, rest, nil
}

func pipParseOptionLine(line *PipLine, s string, start, end int) (*PipLine, error) {
	toks := pipSplitTokens(s[start:end], start)
	for len(toks) > 0 {
		spec, opt, rest, err := pipParseOneOption(toks)
		if err != nil {
			return nil, err
		}
		if spec.long == "--editable" {
			if len(line.Options) > 0 {
				return nil, pipErrf(toks[0].off, "-e must start its own line")
			}
			req, err := pipParseEditable(s, opt.ValueSpan.Start, opt.ValueSpan.End)
			if err != nil {
				return nil, err
			}
			if req.Options, err = pipParseReqOptions(rest); err != nil {
				return nil, err
			}
			line.Req = req
			return line, nil
		}
		line.Options = append(line.Options, opt)
		toks = rest
	}
	line.Option = &line.Options[0]
	return line, nil
}

// pipVCSNames are the version control systems pip knows (git+https://...).
var pipVCSNames = []string{"git", "hg", "svn", "bzr"}

// pipURLScheme returns the lower-cased scheme of s ("" when s has none).
func pipURLScheme(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case pipAlnum(c) && (i > 0 || !('0' <= c && c <= '9')):
		case i > 0 && (c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(s[:i])
		default:
			return ""
		}
	}
	return ""
}

// isPipURL mirrors pip's is_url: web and file schemes and VCS schemes.
// Other schemes (a Windows drive `C:`) are not URLs to pip.
func isPipURL(s string) bool {
	sc := pipURLScheme(s)
	switch sc {
	case "":
		return false // most lines: a requirement, no scheme
	case "http", "https", "file", "ftp":
		return true
	}
	return pipVCSOf(sc) != ""
}

// pipVCSOf returns the version control system a scheme names: git, git+https...
func pipVCSOf(scheme string) string {
	for _, v := range pipVCSNames {
		// v or v+"+..." (git+https), without building v+"+" each time
		if strings.HasPrefix(scheme, v) && (len(scheme) == len(v) || scheme[len(v)] == '+') {
			return v
		}
	}
	return ""
}

func pipLooksLikePath(s string) bool {
	return bsPathSlashes.in(s) || strings.HasPrefix(s, ".")
}

func pipASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

var pipArchiveExts = []string{".whl", ".zip", ".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tbz", ".tar.xz", ".txz", ".tlz", ".tar.lz", ".tar.lzma"}

func pipIsArchive(s string) bool {
	if pipASCII(s) {
		// the common case, without the lower-cased copy
		for _, e := range pipArchiveExts {
			if len(s) >= len(e) && strings.EqualFold(s[len(s)-len(e):], e) {
				return true
			}
		}
		return false
	}
	l := strings.ToLower(s)
	for _, e := range pipArchiveExts {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// pipParseRequirement parses s[start:end], a non-option line, choosing like
// pip does between a URL, a local path and a PEP 508 requirement.
func pipParseRequirement(s string, start, end int, sl *slab) (*PipRequirement, error) {
	body := s[start:end]
	if isPipURL(body) {
		return pipParseBareURL(s, start, end, "; ")
	}
	if at := strings.IndexByte(body, '@'); at >= 0 && !pipLooksLikePath(body[:at]) {
		return parsePEP508(s, start, end, sl)
	}
	head := body
	if i := strings.IndexByte(head, ';'); i >= 0 {
		head = head[:i]
	}
	head = strings.TrimRight(head, " \t")
	if pipLooksLikePath(head) || pipIsArchive(head) {
		return pipParseBareURL(s, start, end, ";")
	}
	return parsePEP508(s, start, end, sl)
}

// pipParseEditable parses the value of -e: a local path (extras allowed) or a
// VCS URL, as pip's parse_editable does.
func pipParseEditable(s string, start, end int) (*PipRequirement, error) {
	body := s[start:end]
	if isPipURL(body) {
		sc := pipURLScheme(body)
		if sc != "file" && pipVCSOf(sc) == "" {
			return nil, pipErrf(start, "-e needs a local path or a VCS URL (git+https://...), not %s:", sc)
		}
	}
	r, err := pipParseBareURL(s, start, end, "; ")
	if err != nil {
		return nil, err
	}
	r.Editable = true
	return r, nil
}

// pipParseBareURL parses a URL or path line: location, optional [extras] for
// paths, optional marker after markerSep.
func pipParseBareURL(s string, start, end int, markerSep string) (*PipRequirement, error) {
	r := &PipRequirement{Bare: true}
	locEnd := end
	if i := strings.Index(s[start:end], markerSep); i >= 0 {
		locEnd = start + i
		if err := pipParseMarker(r, s, start+i+1, end); err != nil {
			return nil, err
		}
	}
	for locEnd > start && pipSpace(s[locEnd-1]) {
		locEnd--
	}
	loc := s[start:locEnd]
	if loc == "" {
		return nil, pipErrf(start, "missing URL or path")
	}
	if isPipURL(loc) {
		if i := strings.IndexFunc(loc, func(c rune) bool { return c == ' ' || c == '\t' }); i >= 0 {
			return nil, pipErrf(start+i, "unexpected space in URL")
		}
		r.URL, r.URLSpan = loc, Span{start, locEnd}
		r.VCS = pipVCSOf(pipURLScheme(loc))
		if err := pipFillFromURL(r, s, start, false); err != nil {
			return nil, err
		}
		return r, nil
	}
	r.Path = true
	// pip's _strip_extras: a trailing [...] on a path is its extras.
	if strings.HasSuffix(loc, "]") {
		if lb := strings.LastIndexByte(loc, '['); lb > 0 {
			ex, err := pipParseExtras(s, start+lb, locEnd)
			if err != nil {
				return nil, err
			}
			r.Extras = ex
			loc = loc[:lb]
			locEnd = start + lb
		}
	}
	r.URL, r.URLSpan = loc, Span{start, locEnd}
	return r, nil
}

// pipFillFromURL reads what a URL says of the project: the revision of a
// VCS URL, the version of a wheel file name and, for a bare URL (named is
// false), the name from a #egg= fragment or the wheel file name.
func pipFillFromURL(r *PipRequirement, s string, start int, named bool) error {
	u := r.URL
	frag := ""
	if i := strings.IndexByte(u, '#'); i >= 0 {
		frag = u[i+1:]
		u = u[:i]
	}
	if i := strings.IndexByte(u, '?'); i >= 0 {
		u = u[:i]
	}
	if r.VCS != "" {
		// The revision is an '@' in the path, never in user@host.
		if i := strings.Index(u, "://"); i >= 0 {
			if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
				p := u[i+3+j:]
				if k := strings.LastIndexByte(p, '@'); k >= 0 {
					r.Ref = p[k+1:]
				}
			}
		}
	}
	if !named && frag != "" {
		fragOff := start + strings.IndexByte(r.URL, '#') + 1
		for _, kv := range strings.Split(frag, "&") {
			if v, ok := strings.CutPrefix(kv, "egg="); ok {
				off := fragOff + len("egg=")
				name := v
				if lb := strings.IndexByte(v, '['); lb >= 0 {
					ex, err := pipParseExtras(s, off+lb, off+len(v))
					if err != nil {
						return err
					}
					r.Extras = ex
					name = v[:lb]
				}
				if !validPipName(name) {
					return pipErrf(off, "invalid project name %q in #egg= fragment", name)
				}
				if r.Name == "" {
					r.Name, r.NameSpan = name, Span{off, off + len(name)}
				}
			}
			fragOff += len(kv) + 1
		}
	}
	defer func() { r.Normalized = NormalizePipName(r.Name) }()
	if !strings.HasSuffix(strings.ToLower(u), ".whl") {
		return nil
	}
	// Wheel file name: {name}-{version}(-{build})?-{python}-{abi}-{platform}.whl
	fileOff := strings.LastIndexByte(u, '/') + 1
	parts := strings.Split(u[fileOff:len(u)-len(".whl")], "-")
	if len(parts) < 5 || !validPipName(parts[0]) {
		return nil
	}
	if !named {
		r.Name = parts[0]
		r.NameSpan = Span{start + fileOff, start + fileOff + len(parts[0])}
	}
	ver := parts[1]
	if dec, err := url.PathUnescape(ver); err == nil {
		ver = dec // PyTorch's wheel URLs write + as %2B
	}
	if _, err := ParsePEP440(ver); err == nil {
		vOff := start + fileOff + len(parts[0]) + 1
		r.SpecSpan = Span{vOff, vOff + len(parts[1])}
		r.Specifiers = []PipSpecifier{{Op: "==", Version: ver, Span: r.SpecSpan}}
	}
	return nil
}

func validPipName(n string) bool {
	if n == "" || !pipAlnum(n[0]) || !pipAlnum(n[len(n)-1]) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !pipNameChar(n[i]) {
			return false
		}
	}
	return true
}

// pipParseExtras parses "[a, b]" at s[lb:end] (s[lb] == '[', s[end-1] == ']').
func pipParseExtras(s string, lb, end int) ([]string, error) {
	p := &p508{s: s, i: lb, end: end}
	ex, err := p.extras()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != end {
		return nil, pipErrf(p.i, "unexpected %q after extras", s[p.i:end])
	}
	return ex, nil
}

// p508 is a PEP 508 parser over s[i:end]; offsets stay absolute in s.
type p508 struct {
	s      string
	i, end int
	issues []*SpecIssue // what packaging reads but PEP 508 does not allow
	sl     *slab        // where the specifiers come from
}

func (p *p508) ws() {
	for p.i < p.end && pipSpace(p.s[p.i]) {
		p.i++
	}
}

func (p *p508) peek() byte {
	if p.i < p.end {
		return p.s[p.i]
	}
	return 0
}

func (p *p508) found() string {
	if p.i >= p.end {
		return "end of line"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:p.end])
	return fmt.Sprintf("%q", r)
}

// name reads a PEP 508 name: letters, digits, -_. starting and ending with
// a letter or digit.
func (p *p508) name(what string) (string, Span, error) {
	st := p.i
	for p.i < p.end && pipNameChar(p.s[p.i]) {
		p.i++
	}
	n := p.s[st:p.i]
	if n == "" {
		p.i = st
		return "", Span{}, pipErrf(st, "expected %s, found %s", what, p.found())
	}
	if !pipAlnum(n[0]) {
		return "", Span{}, pipErrf(st, "%s %q must start with a letter or digit", what, n)
	}
	if !pipAlnum(n[len(n)-1]) {
		// packaging's IDENTIFIER token, \b[a-zA-Z0-9][a-zA-Z0-9._-]*\b,
		// ends at a word boundary: a trailing '_' (a word character) is
		// read, a trailing '-' or '.' is not.
		k := len(n)
		for k > 0 && !pipAlnum(n[k-1]) {
			k--
		}
		if n[len(n)-1] != '_' {
			return "", Span{}, pipErrf(p.i-1, "%s %q must end with a letter or digit", what, n)
		}
		p.issues = append(p.issues, &SpecIssue{Offset: p.i - 1,
			Msg:  fmt.Sprintf("%s %q ends with '_': pip reads it (the packaging library it vendors takes a name up to a word boundary, and '_' is a word character), but PEP 508 and the core metadata name rule require a letter or digit at the end, so no distribution with valid metadata carries this name (pip normalises it to %q)", what, n, NormalizePipName(n)),
			Hint: fmt.Sprintf("write %q", n[:k])})
	}
	return n, Span{st, p.i}, nil
}

// extras parses "[a, b]" with p.i on '['.
func (p *p508) extras() ([]string, error) {
	open := p.i
	p.i++
	ex := []string{}
	p.ws()
	if p.peek() == ']' {
		p.i++
		return ex, nil
	}
	for {
		p.ws()
		if p.i >= p.end {
			return nil, pipErrf(open, "unterminated extras: missing ']'")
		}
		n, _, err := p.name("an extra name")
		if err != nil {
			return nil, err
		}
		ex = append(ex, n)
		p.ws()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return ex, nil
		case 0:
			return nil, pipErrf(open, "unterminated extras: missing ']'")
		default:
			return nil, pipErrf(p.i, "expected ',' or ']' in extras, found %s", p.found())
		}
	}
}

var pipSpecOps = []string{"===", "==", "!=", "<=", ">=", "~=", "<", ">"}

func parsePEP508(s string, start, end int, sl *slab) (*PipRequirement, error) {
	p := &p508{s: s, i: start, end: end, sl: sl}
	r := sl.pipReq()
	p.ws()
	if p.i < p.end && strings.ContainsRune("=<>!~", rune(p.s[p.i])) {
		return nil, pipErrf(p.i, "missing package name before the version specifier")
	}
	name, span, err := p.name("a package name")
	if err != nil {
		return nil, err
	}
	r.Name, r.NameSpan, r.Normalized = name, span, NormalizePipName(name)
	p.ws()
	if p.peek() == '[' {
		if r.Extras, err = p.extras(); err != nil {
			return nil, err
		}
		p.ws()
	}
	switch c := p.peek(); {
	case c == '@':
		p.i++
		p.ws()
		st := p.i
		for p.i < p.end && !pipSpace(p.s[p.i]) {
			p.i++
		}
		if p.i == st {
			return nil, pipErrf(st, "missing URL after '@'")
		}
		r.URL, r.URLSpan = s[st:p.i], Span{st, p.i}
		if sc := pipURLScheme(r.URL); sc == "" {
			return nil, pipErrf(st, "expected a URL after '@', found %q", r.URL)
		} else {
			r.VCS = pipVCSOf(sc)
		}
		if err := pipFillFromURL(r, s, st, true); err != nil {
			return nil, err
		}
		p.ws()
		if p.i < p.end && p.s[p.i] != ';' {
			return nil, pipErrf(p.i, "expected ';' or end of line after URL, found %s", p.found())
		}
	case c == 0 || c == ';':
	case c == '(' || strings.IndexByte("=<>!~", c) >= 0:
		if err := p.specifiers(r); err != nil {
			return nil, err
		}
	case p.i == span.End:
		return nil, pipErrf(p.i, "invalid character %s in package name", p.found())
	default:
		return nil, pipErrf(p.i, "expected a version specifier (==, >=, ...), '[', '@' or ';' after %q, found %s", name, p.found())
	}
	p.ws()
	r.issues = p.issues
	if p.peek() == ';' {
		if err := pipParseMarker(r, s, p.i+1, end); err != nil {
			return nil, err
		}
		return r, nil
	}
	if p.i < p.end {
		return nil, pipErrf(p.i, "unexpected %s", p.found())
	}
	return r, nil
}

func pipParseMarker(r *PipRequirement, s string, start, end int) error {
	m := &p508{s: s, i: start, end: end}
	m.ws()
	if m.i >= end {
		return pipErrf(start-1, "empty environment marker after ';'")
	}
	st := m.i
	if err := m.markerOr(0); err != nil {
		return err
	}
	m.ws()
	if m.i < end {
		return pipErrf(m.i, "unexpected %s in environment marker", m.found())
	}
	e := end
	for e > st && pipSpace(s[e-1]) {
		e--
	}
	r.Marker, r.MarkerSpan = s[st:e], Span{st, e}
	return nil
}

// specifiers parses `op version (, op version)*`, optionally in parentheses.
func (p *p508) specifiers(r *PipRequirement) error {
	paren := p.peek() == '('
	open := p.i
	if paren {
		p.i++
		p.ws()
		if p.peek() == ')' {
			p.i++
			return nil
		}
	}
	first := -1
	for {
		p.ws()
		sp, err := p.specifier()
		if err != nil {
			return err
		}
		if first < 0 {
			first = sp.Span.Start
		}
		if r.Specifiers == nil {
			// At most one specifier more than there are commas after
			// the first: one slice from the slab holds them all.
			r.Specifiers = p.sl.pipSpecifiers(1 + strings.Count(p.s[p.i:p.end], ","))
		}
		r.Specifiers = append(r.Specifiers, sp)
		r.SpecSpan = Span{first, sp.Span.End}
		p.ws()
		if p.peek() != ',' {
			break
		}
		p.i++
		p.ws()
		if c := p.peek(); c == 0 || c == ';' || (c == ')' && paren) {
			// "torch>=2.0,": packaging's version_many stops at a comma
			// not followed by a specifier, and SpecifierSet drops the
			// empty item, so pip accepts a trailing comma.
			break
		}
	}
	if paren {
		if p.peek() != ')' {
			return pipErrf(open, "unterminated '(': missing ')'")
		}
		p.i++
	}
	return nil
}

func (p *p508) specifier() (PipSpecifier, error) {
	st := p.i
	op := ""
	for _, o := range pipSpecOps {
		if strings.HasPrefix(p.s[p.i:p.end], o) {
			op = o
			break
		}
	}
	if op == "" {
		if p.peek() == '=' {
			return PipSpecifier{}, pipErrf(p.i, "invalid operator '=': pip needs '=='")
		}
		return PipSpecifier{}, pipErrf(p.i, "expected a version operator (==, !=, <=, >=, <, >, ~=, ===), found %s", p.found())
	}
	p.i += len(op)
	p.ws()
	vs := p.i
	for p.i < p.end && !pipSpace(p.s[p.i]) && !strings.ContainsRune(",;)", rune(p.s[p.i])) {
		p.i++
	}
	ver := p.s[vs:p.i]
	if ver == "" {
		return PipSpecifier{}, pipErrf(vs, "missing version after %s", op)
	}
	if msg := pipCheckSpecVersion(op, ver); msg != "" {
		return PipSpecifier{}, pipErrf(vs, "%s", msg)
	}
	return PipSpecifier{Op: op, Version: ver, Span: Span{st, p.i}}, nil
}

// pipCheckSpecVersion applies PEP 440's per-operator rules; "" when valid.
func pipCheckSpecVersion(op, ver string) string {
	if op == "===" {
		return "" // arbitrary equality: any string
	}
	wild := strings.HasSuffix(ver, ".*")
	if wild {
		if op != "==" && op != "!=" {
			return fmt.Sprintf("wildcard %q is only allowed with == and !=", ver)
		}
		if !pipWildcardBase(ver[:len(ver)-2]) {
			return fmt.Sprintf("invalid wildcard version %q: '.*' must follow a release number (2.1.*)", ver)
		}
		return ""
	}
	v, releases, err := parsePEP440(ver, false)
	if err != nil {
		return fmt.Sprintf("invalid version %q after %s", ver, op)
	}
	if v.Local != "" && op != "==" && op != "!=" {
		return fmt.Sprintf("local version label +%s is only allowed with == and !=", v.Local)
	}
	if op == "~=" && releases < 2 {
		return fmt.Sprintf("~= needs at least two release numbers (~=%s.0, not ~=%s)", ver, ver)
	}
	return ""
}

// pipWildcardBase reports whether s is `[v][N!]N(.N)*`, what may precede `.*`.
func pipWildcardBase(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	if i := strings.IndexByte(s, '!'); i >= 0 {
		if !pepDigits(s[:i]) {
			return false
		}
		s = s[i+1:]
	}
	for _, part := range strings.Split(s, ".") {
		if !pepDigits(part) {
			return false
		}
	}
	_, _, err := parsePEP440(s, false) // rejects numbers too large for the comparisons
	return err == nil
}

// pipMarkerVars are the variables PEP 508 markers may use, with the dotted
// legacy spellings packaging still accepts.
var pipMarkerVars = map[string]bool{
	"python_version": true, "python_full_version": true,
	"os_name": true, "os.name": true,
	"sys_platform": true, "sys.platform": true,
	"platform_release": true, "platform_system": true,
	"platform_version": true, "platform.version": true,
	"platform_machine": true, "platform.machine": true,
	"platform_python_implementation": true, "platform.python_implementation": true,
	"python_implementation": true,
	"implementation_name":   true, "implementation_version": true,
	"extra": true, "dependency_groups": true,
}

// pipMaxMarkerDepth bounds parenthesis nesting so hostile input cannot
// exhaust the stack.
const pipMaxMarkerDepth = 100

func (p *p508) keyword(kw string) bool {
	if !strings.HasPrefix(p.s[p.i:p.end], kw) {
		return false
	}
	j := p.i + len(kw)
	return j >= p.end || !(pipAlnum(p.s[j]) || p.s[j] == '_' || p.s[j] == '.')
}

func (p *p508) markerOr(depth int) error {
	if err := p.markerAnd(depth); err != nil {
		return err
	}
	for {
		p.ws()
		if !p.keyword("or") {
			return nil
		}
		p.i += 2
		if err := p.markerAnd(depth); err != nil {
			return err
		}
	}
}

func (p *p508) markerAnd(depth int) error {
	if err := p.markerAtom(depth); err != nil {
		return err
	}
	for {
		p.ws()
		if !p.keyword("and") {
			return nil
		}
		p.i += 3
		if err := p.markerAtom(depth); err != nil {
			return err
		}
	}
}

func (p *p508) markerAtom(depth int) error {
	p.ws()
	if p.peek() == '(' {
		if depth >= pipMaxMarkerDepth {
			return pipErrf(p.i, "environment marker nested too deeply")
		}
		open := p.i
		p.i++
		if err := p.markerOr(depth + 1); err != nil {
			return err
		}
		p.ws()
		if p.peek() != ')' {
			if p.i >= p.end {
				return pipErrf(open, "unterminated '(' in environment marker")
			}
			return pipErrf(p.i, "expected ')', 'and' or 'or' in environment marker, found %s", p.found())
		}
		p.i++
		return nil
	}
	if err := p.markerVar(); err != nil {
		return err
	}
	p.ws()
	if err := p.markerOp(); err != nil {
		return err
	}
	p.ws()
	return p.markerVar()
}

func (p *p508) markerVar() error {
	c := p.peek()
	if c == '"' || c == '\'' {
		j := strings.IndexByte(p.s[p.i+1:p.end], c)
		if j < 0 {
			return pipErrf(p.i, "unterminated string in environment marker")
		}
		if k, msg := pyStrLitBad(p.s[p.i+1 : p.i+1+j]); k >= 0 {
			return pipErrf(p.i+1+k, "invalid quoted string in environment marker: %s (packaging reads it as a Python string literal, so pip refuses the line)", msg)
		}
		p.i += j + 2
		return nil
	}
	st := p.i
	for p.i < p.end && (pipAlnum(p.s[p.i]) || p.s[p.i] == '_' || p.s[p.i] == '.') {
		p.i++
	}
	if p.i == st {
		return pipErrf(st, "expected a marker variable (python_version, sys_platform, ...) or a quoted string, found %s", p.found())
	}
	if v := p.s[st:p.i]; !pipMarkerVars[v] {
		return pipErrf(st, "unknown environment marker variable %q", v)
	}
	return nil
}

// pyStrLitBad checks body, the text between the quotes of a marker's quoted
// string, as Python reads a string literal: packaging's process_python_str
// (src/packaging/_parser.py, commit 053c8846) hands the quoted token to
// ast.literal_eval, which refuses a malformed escape ("\x", "\u12"), a
// backslash that escapes the closing quote ("C:\") and a NUL byte. It returns
// the offset of the fault in body and what it is, or -1. An unknown escape
// ("\d") is kept by Python, with a warning, and so is accepted; a \N{name}
// is accepted whatever the name, as Go has no table of Unicode names.
func pyStrLitBad(body string) (int, string) {
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case 0:
			return i, "a NUL byte"
		case '\\':
		default:
			continue
		}
		if i+1 == len(body) {
			return i, "a backslash before the closing quote escapes it"
		}
		hex := 0
		switch body[i+1] {
		case 'x':
			hex = 2
		case 'u':
			hex = 4
		case 'U':
			hex = 8
		case 'N':
			end := strings.IndexByte(body[i+2:], '}')
			if !strings.HasPrefix(body[i+2:], "{") || end < 2 {
				return i, "\\N needs a character name in braces"
			}
			i += 2 + end
			continue
		}
		if hex == 0 {
			i++ // \\, \n, an octal digit or an escape Python keeps as is
			continue
		}
		n := 0
		for ; n < hex && i+2+n < len(body) && pipHexDigit(body[i+2+n]); n++ {
		}
		if n < hex {
			return i, fmt.Sprintf("\\%c needs %d hex digits", body[i+1], hex)
		}
		if hex == 8 {
			if r, _ := strconv.ParseUint(body[i+2:i+10], 16, 32); r > unicode.MaxRune {
				return i, "\\U beyond U+10FFFF"
			}
		}
		i += 1 + hex
	}
	return -1, ""
}

func pipHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func (p *p508) markerOp() error {
	switch {
	case p.keyword("in"):
		p.i += 2
		return nil
	case p.keyword("not"):
		p.i += 3
		p.ws()
		if !p.keyword("in") {
			return pipErrf(p.i, "expected 'in' after 'not' in environment marker")
		}
		p.i += 2
		return nil
	}
	for _, o := range pipSpecOps {
		if strings.HasPrefix(p.s[p.i:p.end], o) {
			p.i += len(o)
			return nil
		}
	}
	if p.peek() == '=' {
		return pipErrf(p.i, "invalid operator '=' in environment marker: use '=='")
	}
	return pipErrf(p.i, "expected a comparison (==, !=, <, >=, in, not in, ...) in environment marker, found %s", p.found())
}

// String renders the requirement in a canonical form that ParsePipLine
// reads back to the same requirement.
func (r *PipRequirement) String() string {
	var b strings.Builder
	if r.Editable {
		// After "-e ", a value starting with '-' would read as an option
		// and one starting with '#' as a comment.
		if strings.HasPrefix(r.URL, "-") || strings.HasPrefix(r.URL, "#") {
			b.WriteString("--editable=")
		} else {
			b.WriteString("-e ")
		}
	}
	extras := ""
	if r.Extras != nil {
		extras = "[" + strings.Join(r.Extras, ",") + "]"
	}
	if r.Bare {
		b.WriteString(r.URL)
		if r.Path {
			b.WriteString(extras)
		}
	} else {
		b.WriteString(r.Name)
		b.WriteString(extras)
		if r.URL != "" {
			// Specifiers of a URL requirement come from its wheel name.
			b.WriteString(" @ " + r.URL)
		}
		for i, sp := range r.Specifiers {
			if r.URL != "" {
				break
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(sp.Op + sp.Version)
		}
	}
	if r.Marker != "" {
		b.WriteString(" ; " + r.Marker)
	}
	for _, o := range r.Options {
		b.WriteString(" " + o.String())
	}
	return b.String()
}

// String renders the option as `--name=value`, the form that stays one
// word whatever the value starts with.
func (o PipOption) String() string {
	if o.Value == "" {
		return o.Name
	}
	return o.Name + "=" + o.Value
}

// Pinned returns the version of an exact pin (`==X` or `===X`, no
// wildcard), as written.
func (r *PipRequirement) Pinned() (string, bool) {
	for _, sp := range r.Specifiers {
		if sp.Op == "===" || sp.Op == "==" && !strings.HasSuffix(sp.Version, ".*") {
			return sp.Version, true
		}
	}
	return "", false
}

// Admits reports whether version satisfies every specifier of r. It is
// PEP 440 matching alone: pip's policy of skipping pre-releases unless
// asked is an installer choice, not part of the specifier.
func (r *PipRequirement) Admits(version string) bool {
	for _, sp := range r.Specifiers {
		if !sp.Admits(version) {
			return false
		}
	}
	return true
}

// Admits reports whether version satisfies this one clause. An invalid
// version satisfies only an === clause that spells it the same way.
func (sp PipSpecifier) Admits(version string) bool {
	if sp.Op == "===" {
		return strings.EqualFold(strings.TrimSpace(version), sp.Version)
	}
	v, err := ParsePEP440(version)
	if err != nil {
		return false
	}
	switch sp.Op {
	case "==":
		return pipSpecEqual(v, sp.Version)
	case "!=":
		return !pipSpecEqual(v, sp.Version)
	}
	s, err := ParsePEP440(sp.Version)
	if err != nil {
		return false
	}
	switch sp.Op {
	case "<=":
		return v.public().Compare(s) <= 0
	case ">=":
		return v.public().Compare(s) >= 0
	// < and > follow packaging's bounds (specifiers.py bounds_for_spec at
	// commit 053c8846), which read PEP 440's exclusions per family: the
	// pre-releases, post-releases and local versions excluded are those of
	// V itself, not of every version with V's release numbers.
	case "<":
		// <3.0 must not admit 3.0rc1, though it sorts lower: the bound is
		// 3.0.dev0 unless V is itself a pre-release. <1.0.post1 still
		// admits 1.0a1.
		if !s.IsPrerelease() {
			s.HasDev, s.Dev, s.Local = true, 0, ""
		}
		return v.Compare(s) < 0
	case ">":
		switch {
		case s.HasDev:
			// >1.0.dev1: the next version is 1.0.dev2, and 1.0+local
			// (a local version of 1.0, not of 1.0.dev1) is above it.
			s.Dev++
			return v.Compare(s) >= 0
		case s.HasPost:
			// >1.0.post1: the next version is 1.0.post2.dev0.
			s.Post++
			s.HasDev, s.Dev = true, 0
			return v.Compare(s) >= 0
		}
		if v.Compare(s) <= 0 {
			return false
		}
		// >3.0 must not admit 3.0.post1 nor 3.0+local (nor 3.0.post1+x):
		// those are V's own family, whose public version past the post
		// and dev segments equals V.
		return !(v.Epoch == s.Epoch && v.Pre == s.Pre && v.PreN == s.PreN && pepReleaseEqual(v.Release, s.Release))
	case "~=":
		if v.public().Compare(s) < 0 {
			return false
		}
		prefix := s.Release[:len(s.Release)-1]
		return v.Epoch == s.Epoch && pepReleasePrefix(v.Release, prefix)
	}
	return false
}

// pipSpecEqual is `==`: a wildcard compares the release prefix; a spec
// without a local label ignores the candidate's (==2.0.1 admits
// 2.0.1+cu118); with one, the labels must agree.
func pipSpecEqual(v PEP440Version, spec string) bool {
	if base, ok := strings.CutSuffix(spec, ".*"); ok {
		s, err := ParsePEP440(base)
		if err != nil {
			return false
		}
		return v.Epoch == s.Epoch && pepReleasePrefix(v.Release, s.Release)
	}
	s, err := ParsePEP440(spec)
	if err != nil {
		return false
	}
	if s.Local == "" {
		v = v.public()
	}
	return v.Compare(s) == 0
}

// pepReleaseEqual reports whether two release segments are equal once
// padded with zeros (1.0 and 1.0.0 are one release).
func pepReleaseEqual(a, b []int) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	return pepReleasePrefix(b, a)
}

// pepReleasePrefix reports whether rel, padded with zeros, starts with prefix.
func pepReleasePrefix(rel, prefix []int) bool {
	for i, n := range prefix {
		x := 0
		if i < len(rel) {
			x = rel[i]
		}
		if x != n {
			return false
		}
	}
	return true
}
