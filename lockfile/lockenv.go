package lockfile

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// What lock files, manifests and requirements files have in common: each
// package becomes a CondaDep or a PipDep of the one Env shape the resolver
// reads, with the position of the entry that names it. A locked package is
// a pin of exactly one build, so it is read the way an explicit file's URL
// is: Installed carries name, version, build and channel (for pip: the
// index, when the file names one), and the spec pins exactly that.
//
// Raw.Value of a locked item is written by the reader (`pytorch==2.4.0=cuda120_…`,
// `torch==2.5.1+cu124`) rather than copied from the file, whose entry spans
// several lines; its spans are therefore left empty, so that carets fall on
// the start of the entry rather than at offsets into text the line does not
// hold.

// Options tune the lock-file and manifest readers.
type Options struct {
	// Platform is the conda subdir whose packages are read (linux-64). ""
	// means the host's where the file has it, else linux-64 where the file
	// has it, else the file's first platform.
	Platform string
	// Environment is the pixi environment read; "" means "default" (or the
	// first one, where there is no default).
	Environment string
	// MaxItems bounds the packages read (0 means envspec.DefaultMaxItems);
	// past it the reading stops with one EG101 finding that says where.
	MaxItems int
	// Context, when set, stops the reading once it is done (the request's
	// deadline, a client that went away): the readers look at it between
	// entries, tables and lines and return what they have read. As with
	// envspec.ParseOptions.Context, the caller tells a cut-short Env by
	// Context.Err().
	Context context.Context
	// ReadFile, when set, reads a requirements file's `-r` includes (a
	// path relative to the including file). Unset, includes are listed as
	// options and not followed: the service must never open files named
	// by a request.
	ReadFile func(name string) ([]byte, error)
}

// lockEnv builds an Env item by item.
type lockEnv struct {
	env     *envspec.Env
	max     int  // items to read at most
	over    bool // the budget was spent (EG101 raised)
	indexes map[string]bool
	pyTags  map[string]bool // CPython versions the chosen wheels are built for

	ctx   context.Context // nil: never stopped
	steps int             // units of work done, for stopped
	done  bool            // the context was seen ended
}

// stopped counts one unit of work (an entry, a table, a line) and reports
// whether the context has ended; it looks at the context every 64 units,
// so that a reader may call it for every one, and once it has said yes it
// says yes to every later call.
func (l *lockEnv) stopped() bool {
	if l.done || l.ctx == nil {
		return l.done
	}
	if l.steps++; l.steps%64 == 0 && l.ctx.Err() != nil {
		l.done = true
	}
	return l.done
}

func newLockEnv(file string, kind envspec.Kind, src []byte) *lockEnv {
	return &lockEnv{env: &envspec.Env{File: file, Kind: kind, Lines: envspec.SplitLines(src)}, indexes: map[string]bool{}, pyTags: map[string]bool{}}
}

// diag raises a finding of rule r, with the severity its definition
// gives, at ps.
func (l *lockEnv) diag(ps finding.Pos, r *finding.Rule, msg, hint string) {
	l.diagAs(ps, r, r.Severity, msg, hint)
}

// diagAs is diag for a finding of r that its documentation gives another
// severity (an include envguard will not follow is a warning: pip would
// read it).
func (l *lockEnv) diagAs(ps finding.Pos, r *finding.Rule, sev finding.Severity, msg, hint string) {
	l.env.Diags = append(l.env.Diags, finding.Diagnostic{Pos: ps, EndCol: envspec.TokenEnd(l.env.Line(ps.Line), ps.Col),
		Severity: sev, Code: r.Code, Message: msg, Hint: hint})
}

func (l *lockEnv) conda(in *envspec.Installed, ps finding.Pos) *envspec.CondaDep {
	if in.Installer == "" {
		in.Installer = string(l.env.Kind)
	}
	raw := in.Name + "==" + in.Version
	if in.Build != "" {
		raw += "=" + in.Build
	}
	ms := envspec.PinnedSpec(in)
	if ms != nil {
		ms.NameSpan, ms.VersionSpan, ms.BuildSpan, ms.ChannelSpan = envspec.Span{}, envspec.Span{}, envspec.Span{}, envspec.Span{}
	}
	d := &envspec.CondaDep{Raw: envspec.String{Value: raw, Pos: ps}, Spec: ms, Installed: in}
	l.addConda(d)
	return d
}

// room reports whether one more item may be read; the first item over
// the budget raises EG101 at its place.
func (l *lockEnv) room(ps finding.Pos) bool {
	max := l.max
	if max <= 0 {
		max = envspec.DefaultMaxItems
	}
	if len(l.env.Deps)+len(l.env.Pip) < max {
		return true
	}
	if !l.over {
		l.over = true
		l.diag(ps, envspec.RuleEG101,
			fmt.Sprintf("the file holds more than %d packages: envguard checked the first %d and read nothing from line %d on", max, max, ps.Line),
			"split the environment, or validate it with a larger item budget")
	}
	return false
}

func (l *lockEnv) addConda(d *envspec.CondaDep) {
	if l.room(d.Raw.Pos) {
		l.env.Deps = append(l.env.Deps, d)
	}
}

func (l *lockEnv) addPip(d *envspec.PipDep) {
	if l.room(d.Raw.Pos) {
		l.env.Pip = append(l.env.Pip, d)
	}
}

// pipLocked adds a pip package pinned to one file: name and version, the
// file's URL (a wheel, an sdist, a VCS or local source), and the index it
// was resolved from ("" when the file does not say). An index in the
// wheel's own URL (…/whl/cu121/torch-….whl) counts as said.
func (l *lockEnv) pipLocked(name, version, fileURL, index string, ps finding.Pos, indexPos finding.Pos) *envspec.PipDep {
	if index == "" {
		index = wheelIndexOf(fileURL)
		indexPos = ps
	}
	if index != "" {
		l.index(index, indexPos)
	}
	if py := wheelCPython(fileURL); py != "" {
		l.pyTags[py] = true
	}
	raw := name
	var specs []envspec.PipSpecifier
	if version != "" {
		raw += "==" + version
		specs = []envspec.PipSpecifier{{Op: "==", Version: version}}
	}
	req := &envspec.PipRequirement{Name: name, Normalized: envspec.NormalizePipName(name), Specifiers: specs, URL: fileURL}
	d := &envspec.PipDep{
		Raw:       envspec.String{Value: raw, Pos: ps},
		Line:      &envspec.PipLine{Raw: raw, Req: req},
		Installed: &envspec.Installed{Name: name, Version: version, Channel: index, Installer: string(l.env.Kind), Path: l.env.File},
	}
	l.addPip(d)
	return d
}

// index records an index the pip packages came from as an
// `--extra-index-url` line at the place the file names it, once: the
// resolver reads a PyTorch wheel index (…/whl/cu121) as the CUDA variant
// it serves, as it does in a pip section.
func (l *lockEnv) index(u string, ps finding.Pos) { l.indexOption("--extra-index-url", u, ps) }

// pinnedIndex records an index a package is pinned to (pixi's
// `{ index = "…" }`) as an `--index-url` line: pixi resolves such a
// package from that index alone (uv's explicit index for the package), so
// no other index, PyPI included, is in play for it.
func (l *lockEnv) pinnedIndex(u string, ps finding.Pos) { l.indexOption("--index-url", u, ps) }

func (l *lockEnv) indexOption(name, u string, ps finding.Pos) {
	u = strings.TrimRight(u, "/")
	if u == "" || l.indexes[u] {
		return
	}
	l.indexes[u] = true
	opt := envspec.PipOption{Name: name, Value: u, InRequirementsFile: true}
	line := &envspec.PipLine{Raw: name + " " + u, Option: &opt, Options: []envspec.PipOption{opt}}
	l.addPip(&envspec.PipDep{Raw: envspec.String{Value: u, Pos: ps}, Line: line})
}

// finish sorts the findings and reads the ignore comments.
func (l *lockEnv) finish() *envspec.Env {
	// Wheels built for one CPython (cp311) decide the Python the
	// environment runs, where they all agree and conda brings none.
	if len(l.pyTags) == 1 && l.env.PythonVersion == "" {
		for py := range l.pyTags {
			l.env.PythonVersion = py
		}
	}
	l.lineIgnores()
	l.env.Diags.Sort()
	return l.env
}

// lineIgnores reads `# envguard: ignore CODE reason` comments: at the end
// of an item's line they apply to it; on a line of their own, to the next
// line that is not a comment.
func (l *lockEnv) lineIgnores() {
	lines := l.env.Lines
	next := 0 // the first line after the last standalone ignore that is not a comment
	for i, line := range lines {
		if !strings.Contains(line, envspec.IgnoreMarker) {
			continue
		}
		h := commentStart(line)
		if h < 0 || !strings.Contains(line[h:], envspec.IgnoreMarker) {
			continue
		}
		ps := finding.Pos{File: l.env.File, Line: i + 1, Col: utf8.RuneCountInString(line[:h]) + 1}
		ig, problem := envspec.ParseIgnore(line[h:])
		if problem != "" {
			l.diag(ps, envspec.RuleEG113, "malformed ignore comment: "+problem,
				"write `# envguard: ignore EG201 reason why this is fine`")
			continue
		}
		if ig == nil {
			continue
		}
		ig.Pos = ps
		if strings.TrimSpace(line[:h]) == "" {
			// next only moves forward: n ignore lines in a row cost O(n),
			// not a scan of the rest of the block for each.
			if next <= i {
				for next = i + 1; next < len(lines); next++ {
					t := strings.TrimSpace(lines[next])
					if t != "" && !strings.HasPrefix(t, "#") {
						break
					}
				}
			}
			if next < len(lines) {
				ig.Pos = finding.Pos{File: l.env.File, Line: next + 1, Col: ps.Col}
			}
		}
		l.env.Ignores = append(l.env.Ignores, ig)
	}
}

// commentStart is the offset of a '#' that starts a comment (at the start
// of the line or after white space, and outside quotes), or -1.
func commentStart(line string) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return i
		}
	}
	return -1
}

// wheelIndexOf is the PyTorch-style index directory a file URL lies in:
// https://…/whl/cu121/torch-2.1.2%2Bcu121-….whl → https://…/whl/cu121.
// Other URLs (content-addressed file stores) name no index: "".
func wheelIndexOf(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" {
		return ""
	}
	dir := path.Dir(p.Path)
	segs := strings.Split(dir, "/")
	for i, s := range segs {
		if s == "whl" && i+1 < len(segs) {
			p.Path = dir
			p.RawQuery, p.Fragment, p.RawPath = "", "", ""
			return p.String()
		}
	}
	return ""
}

// distFile reads NAME and VERSION from a wheel or sdist file name, or from
// a URL ending in one: torch-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl
// gives torch and 2.5.1+cu124. ok is false for anything else.
func distFile(u string) (name, version string, wheel bool, ok bool) {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	fn := u[strings.LastIndexByte(u, '/')+1:]
	if dec, err := url.PathUnescape(fn); err == nil {
		fn = dec
	}
	if stem, isWheel := strings.CutSuffix(fn, ".whl"); isWheel {
		parts := strings.Split(stem, "-")
		if len(parts) < 5 || parts[0] == "" || parts[1] == "" {
			return "", "", false, false
		}
		return parts[0], parts[1], true, true
	}
	for _, ext := range []string{".tar.gz", ".zip", ".tar.bz2", ".tgz"} {
		if stem, found := strings.CutSuffix(fn, ext); found {
			i := strings.LastIndexByte(stem, '-')
			if i <= 0 || i == len(stem)-1 || stem[i+1] < '0' || stem[i+1] > '9' {
				return "", "", false, false
			}
			return stem[:i], stem[i+1:], false, true
		}
	}
	return "", "", false, false
}

// wheelPlatforms are the platform tags of a wheel file name
// (manylinux_2_17_x86_64.manylinux2014_x86_64 is two).
func wheelPlatforms(u string) []string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	fn := u[strings.LastIndexByte(u, '/')+1:]
	if dec, err := url.PathUnescape(fn); err == nil {
		fn = dec
	}
	stem, ok := strings.CutSuffix(fn, ".whl")
	if !ok {
		return nil
	}
	parts := strings.Split(stem, "-")
	if len(parts) < 5 {
		return nil
	}
	return strings.Split(parts[len(parts)-1], ".")
}

// wheelFits reports whether a wheel's platform tag installs on a conda
// subdir.
func wheelFits(tag, subdir string) bool {
	tag = strings.ToLower(tag)
	if tag == "any" {
		return true
	}
	os, arch, _ := strings.Cut(subdir, "-")
	switch os {
	case "linux":
		if !strings.Contains(tag, "linux") {
			return false
		}
		want := map[string]string{"64": "_x86_64", "aarch64": "_aarch64", "ppc64le": "_ppc64le", "s390x": "_s390x", "32": "_i686", "armv7l": "_armv7l"}[arch]
		return want != "" && strings.HasSuffix(tag, want)
	case "osx":
		if !strings.HasPrefix(tag, "macosx") {
			return false
		}
		if strings.HasSuffix(tag, "_universal2") || strings.HasSuffix(tag, "_universal") {
			return true
		}
		if arch == "arm64" {
			return strings.HasSuffix(tag, "_arm64")
		}
		return strings.HasSuffix(tag, "_x86_64") || strings.HasSuffix(tag, "_intel")
	case "win":
		switch arch {
		case "64":
			return tag == "win_amd64"
		case "arm64":
			return tag == "win_arm64"
		case "32":
			return tag == "win32"
		}
	}
	return false
}

// anyWheelFits reports whether one of the wheel URLs installs on subdir.
func anyWheelFits(urls []string, subdir string) bool {
	for _, u := range urls {
		for _, t := range wheelPlatforms(u) {
			if wheelFits(t, subdir) {
				return true
			}
		}
	}
	return false
}

// choosePlatform picks the platform to read among those a file has.
// want "" means the host's if present, else linux-64 if present, else the
// first. An explicit want the file lacks gives "" and false.
func choosePlatform(want string, have []string) (string, bool) {
	if len(have) == 0 {
		if want == "" {
			want = envspec.HostPlatform()
		}
		return want, true
	}
	if want != "" {
		for _, h := range have {
			if h == want {
				return want, true
			}
		}
		return "", false
	}
	for _, cand := range []string{envspec.HostPlatform(), "linux-64"} {
		for _, h := range have {
			if h == cand {
				return cand, true
			}
		}
	}
	return have[0], true
}

func platformList(have []string) string {
	s := append([]string(nil), have...)
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// markerValue is a three-valued truth: a PEP 508 marker on a variable the
// platform does not decide (python_version, extra) is unknown.
type markerValue int

const (
	markerFalse markerValue = iota
	markerUnknown
	markerTrue
)

// evalPlatformMarker evaluates a PEP 508 marker for a conda subdir: the
// variables a platform decides (sys_platform, platform_system,
// platform_machine, os_name) are compared; every other comparison is
// unknown. A marker that does not parse is unknown.
func evalPlatformMarker(m, subdir string) markerValue {
	toks, ok := markerTokens(m)
	if !ok {
		return markerUnknown
	}
	e := &markerEval{toks: toks, vars: platformMarkerVars(subdir)}
	v, ok := e.or(0)
	if !ok || e.i != len(e.toks) {
		return markerUnknown
	}
	return v
}

func platformMarkerVars(subdir string) map[string]string {
	os, arch, _ := strings.Cut(subdir, "-")
	v := map[string]string{}
	switch os {
	case "linux":
		v["sys_platform"], v["platform_system"], v["os_name"] = "linux", "Linux", "posix"
		v["platform_machine"] = map[string]string{"64": "x86_64", "aarch64": "aarch64", "ppc64le": "ppc64le", "s390x": "s390x"}[arch]
	case "osx":
		v["sys_platform"], v["platform_system"], v["os_name"] = "darwin", "Darwin", "posix"
		v["platform_machine"] = map[string]string{"64": "x86_64", "arm64": "arm64"}[arch]
	case "win":
		v["sys_platform"], v["platform_system"], v["os_name"] = "win32", "Windows", "nt"
		v["platform_machine"] = map[string]string{"64": "AMD64", "arm64": "ARM64"}[arch]
	}
	for k, s := range v {
		if s == "" {
			delete(v, k)
		}
	}
	return v
}

func markerTokens(s string) ([]string, bool) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, false
			}
			toks = append(toks, s[i:i+j+2])
			i += j + 2
		case strings.ContainsRune("<>=!~", rune(c)):
			j := i
			for j < len(s) && strings.ContainsRune("<>=!~", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r()<>=!~\"'", rune(s[j])) {
				j++
			}
			if j == i {
				return nil, false
			}
			toks = append(toks, s[i:j])
			i = j
		}
		if len(toks) > 10000 {
			return nil, false
		}
	}
	return toks, true
}

type markerEval struct {
	toks []string
	i    int
	vars map[string]string
}

func (e *markerEval) peek() string {
	if e.i < len(e.toks) {
		return e.toks[e.i]
	}
	return ""
}

func (e *markerEval) or(depth int) (markerValue, bool) {
	if depth > 100 {
		return markerUnknown, false
	}
	v, ok := e.and(depth)
	for ok && e.peek() == "or" {
		e.i++
		var w markerValue
		if w, ok = e.and(depth); ok && w > v {
			v = w
		}
	}
	return v, ok
}

func (e *markerEval) and(depth int) (markerValue, bool) {
	v, ok := e.atom(depth)
	for ok && e.peek() == "and" {
		e.i++
		var w markerValue
		if w, ok = e.atom(depth); ok && w < v {
			v = w
		}
	}
	return v, ok
}

func (e *markerEval) atom(depth int) (markerValue, bool) {
	if e.peek() == "(" {
		e.i++
		v, ok := e.or(depth + 1)
		if !ok || e.peek() != ")" {
			return markerUnknown, false
		}
		e.i++
		return v, true
	}
	if e.i+2 >= len(e.toks) {
		return markerUnknown, false
	}
	lhs := e.toks[e.i]
	e.i++
	op := e.peek()
	e.i++
	if op == "not" {
		if e.peek() != "in" {
			return markerUnknown, false
		}
		e.i++
		op = "not in"
	}
	if e.i >= len(e.toks) {
		return markerUnknown, false
	}
	rhs := e.toks[e.i]
	e.i++
	lv, lq := e.operand(lhs)
	rv, rq := e.operand(rhs)
	if !lq || !rq {
		return markerUnknown, true
	}
	var r bool
	switch op {
	case "==", "===":
		r = lv == rv
	case "!=":
		r = lv != rv
	case "in":
		r = strings.Contains(rv, lv)
	case "not in":
		r = !strings.Contains(rv, lv)
	default:
		return markerUnknown, true
	}
	if r {
		return markerTrue, true
	}
	return markerFalse, true
}

// operand is a quoted string's value or a platform variable's value; known
// is false for a variable the platform does not decide.
func (e *markerEval) operand(t string) (string, bool) {
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') {
		return t[1 : len(t)-1], true
	}
	v, ok := e.vars[t]
	return v, ok
}

// wheelCPython is the CPython version a wheel is built for (cp311 → 3.11),
// or "" for a pure or abi3 wheel and for anything that is no wheel.
func wheelCPython(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	fn := u[strings.LastIndexByte(u, '/')+1:]
	stem, ok := strings.CutSuffix(fn, ".whl")
	if !ok {
		return ""
	}
	parts := strings.Split(stem, "-")
	if len(parts) < 5 {
		return ""
	}
	py, abi := parts[len(parts)-3], parts[len(parts)-2]
	if !strings.HasPrefix(py, "cp") || len(py) < 4 || strings.Contains(py, ".") || abi == "abi3" || abi == "none" && !strings.HasPrefix(py, "cp") {
		return ""
	}
	d := py[2:]
	for _, c := range d {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return d[:1] + "." + d[1:]
}

// recoverInto turns a panic in a reader into an EG100 finding
// (envspec.InternalError) and returns what was read.
func recoverInto(l *lockEnv, env **envspec.Env) {
	if r := recover(); r != nil {
		l.env.Diags = append(l.env.Diags, envspec.InternalError(l.env.File, r))
		l.env.Diags.Sort()
		*env = l.env
	}
}
