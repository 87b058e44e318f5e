package envspec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/finding"
)

// ParseOptions tune Parse.
type ParseOptions struct {
	// Platform is the conda subdir selectors are evaluated for (linux-64,
	// osx-arm64, win-64). "" means the host's, as HostPlatform gives it.
	Platform string
	// MaxDepth bounds the nesting of the YAML document; 0 means 64. An
	// environment file never nests deeper than a handful of levels, so a
	// deep document is hostile or broken and is refused with EG100.
	MaxDepth int
	// MaxItems bounds the items (list entries, keys, lines) read; 0 means
	// DefaultMaxItems. A file over it is read up to its MaxItems-th item
	// and gets an EG101 finding that says where the reading stopped.
	MaxItems int
	// Context, when set, stops the reading once it is done (the request
	// deadline, a client that went away): the walk checks it every few
	// items and returns what it has read. The caller tells a cut-short
	// Env by Context.Err().
	Context context.Context
}

const (
	// DefaultMaxDepth bounds the nesting of a YAML document (and of a TOML
	// one's values) where the options say nothing: no file envguard reads
	// needs more.
	DefaultMaxDepth = 64
	// An environment file has no reason to use aliases at all; these bound
	// the work a billion-laughs document can cause while the walk follows
	// them.
	maxAliasRefs  = 1000
	maxAliasItems = 10000
	// Aliases count by the bytes they expand to as well as by nodes: a
	// thousand aliases of a one-megabyte scalar are few nodes but a
	// gigabyte of text for every check that reads them.
	maxAliasBytes = 1 << 20
)

// knownTopKeys are the keys CEP 24 defines plus its two optional extensions.
var knownTopKeys = []string{"category", "channels", "dependencies", "name", "platforms", "prefix", "variables"}

// HostPlatform returns the conda subdir of the running machine.
func HostPlatform() string { return platformOf(runtime.GOOS, runtime.GOARCH) }

func platformOf(goos, goarch string) string {
	osName := map[string]string{"linux": "linux", "darwin": "osx", "windows": "win"}[goos]
	if osName == "" {
		osName = goos
	}
	arch := goarch
	switch goarch {
	case "amd64":
		arch = "64"
	case "386":
		arch = "32"
	case "arm64":
		if osName == "linux" {
			arch = "aarch64"
		}
	case "arm":
		arch = "armv7l"
	}
	return osName + "-" + arch
}

// Parse reads an environment.yml. It never returns nil and never panics:
// every problem, YAML syntax included, becomes a finding in Env.Diags, and
// the reading goes on past each one so a file shows all its problems at once.
func Parse(file string, src []byte, opt ParseOptions) (env *Env) {
	if opt.Platform == "" {
		opt.Platform = HostPlatform()
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	if opt.MaxItems <= 0 {
		opt.MaxItems = DefaultMaxItems
	}
	cut, over := cutItems(src, opt.MaxItems)
	lines := src
	if over {
		// Lines keep the cut line, for the snippet of the finding that says
		// where the reading stopped; nothing after it is held.
		lines = src[:cut.keep]
	}
	env = &Env{File: file, Kind: KindEnvFile, Platform: opt.Platform}
	env.Lines, env.FinalNewline = envLines(lines)
	p := &envParser{env: env, opt: opt}
	defer func() {
		// The reader calls the MatchSpec and pip parsers on untrusted text;
		// a bug there must cost one finding, not the process. The fuzz
		// target fails on this message, so such bugs are still found.
		if r := recover(); r != nil {
			env.Diags = append(env.Diags, InternalError(file, r))
		}
		env.Diags.Sort()
	}()
	if over {
		p.parse(cut.src)
		p.itemBudgetFinding(cut, opt.MaxItems)
	} else {
		p.parse(src)
	}
	return env
}

// SplitLines keeps the text by line for snippets; CR of CRLF files is dropped
// so snippets and columns match what editors show.
func SplitLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	s := string(src)
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

type envParser struct {
	env        *Env
	opt        ParseOptions
	aliasRefs  int
	aliasItems int
	inAlias    int  // >0 while walking the target of an alias
	walked     int  // items walked, for checking the context now and then
	canceled   bool // the context ended: stop walking
	hostile    bool // an EG100 refusal was raised: stop walking
	sawChannel bool // `channels:` was present (even empty)
	sl         slab // the dependencies' structs
}

func (p *envParser) pos(n *yaml.Node) finding.Pos {
	return finding.Pos{File: p.env.File, Line: n.Line, Col: n.Column}
}

// valuePos is the position of a scalar's first character: past the opening
// quote of a quoted scalar, so that offsets inside the value (a MatchSpec
// error, a version's span) shift onto the right column.
func (p *envParser) valuePos(n *yaml.Node) finding.Pos {
	ps := p.pos(n)
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && ps.Col > 0 {
		ps.Col++
	}
	return ps
}

// fix attaches an edit to the finding added last, when the edit could be
// made (ok): a fix that cannot be placed exactly is no fix.
func (p *envParser) fix(e finding.Edit, ok bool) {
	if ok && len(p.env.Diags) > 0 {
		d := &p.env.Diags[len(p.env.Diags)-1]
		d.Edits = append(d.Edits, e)
	}
}

// add raises a finding of rule r at ps, with the rule's code and default
// severity: the documentation and the findings of a rule are one definition.
func (p *envParser) add(ps finding.Pos, r *finding.Rule, msg, hint string, related ...finding.Pos) {
	p.addAs(ps, r, r.Severity, msg, hint, related...)
}

// addAs is add for the findings of a rule that its documentation gives
// another severity (an unknown key that is a near miss of a known one is
// an error, say).
func (p *envParser) addAs(ps finding.Pos, r *finding.Rule, sev finding.Severity, msg, hint string, related ...finding.Pos) {
	p.env.Diags = append(p.env.Diags, finding.Diagnostic{Pos: ps, EndCol: p.env.TokenEnd(ps.Line, ps.Col),
		Severity: sev, Code: r.Code, Message: msg, Hint: hint, Related: related})
}

// TokenEnd is the column just past the item that starts at col on line: up
// to a trailing comment, a key's colon, or the end of the line. It is 0 when
// the column is unknown, so the caret under a finding underlines the item.
// A caller with many questions about one file asks Env.TokenEnd, which
// indexes each long line once.
func TokenEnd(line string, col int) int {
	return NewColumns([]string{line}).TokenEnd(1, col)
}

func (p *envParser) parse(src []byte) {
	if line := FlowTooDeep(src, p.opt.MaxDepth); line > 0 {
		p.add(finding.Pos{File: p.env.File, Line: line}, RuleEG100,
			fmt.Sprintf("the document nests deeper than %d levels: refusing to read it", p.opt.MaxDepth),
			"an environment file needs only a few levels: a mapping, its lists, and the pip list")
		return
	}
	var doc yaml.Node
	in := &contextReader{r: bytes.NewReader(src), ctx: p.opt.Context}
	dec := yaml.NewDecoder(in)
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		if in.stopped {
			p.canceled = true
			return
		}
		p.yamlError(err)
		return
	}
	// conda reads the file with one document in mind (PyYAML's safe_load
	// fails on "expected a single document in the stream"): a second
	// document, garbage or not, makes the file unusable, where yaml.v3
	// alone would quietly judge the first.
	var next yaml.Node
	if err := dec.Decode(&next); err != io.EOF {
		if err != nil {
			p.yamlError(err)
			return
		}
		p.add(finding.Pos{File: p.env.File, Line: max(next.Line, 1)}, RuleEG100,
			fmt.Sprintf("the file holds a second YAML document (from line %d): conda reads a file of one document and refuses this one", max(next.Line, 1)),
			"remove the `---` line and what follows it, or merge the two documents into one mapping")
		return
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		p.add(finding.Pos{File: p.env.File, Line: 1}, RuleEG101,
			"the file holds no YAML document: expected a mapping with `dependencies:`",
			"list the packages under `dependencies:`")
		return
	}
	p.scan(&doc)
	if !p.hostile {
		p.bombs(&doc)
	}
	if p.hostile {
		return
	}
	root := p.deref(doc.Content[0])
	if root == nil {
		return
	}
	if root.Kind != yaml.MappingNode {
		p.add(p.pos(root), RuleEG101,
			fmt.Sprintf("the top level is %s, not a mapping of keys (%s)", YAMLKind(root), strings.Join(knownTopKeys, ", ")),
			"start the file with `name:`, `channels:` and `dependencies:` keys")
		return
	}
	p.top(root)
}

// InternalError is the EG100 finding for a panic r recovered while reading
// file: a bug in a reader must cost one finding, not the process. The fuzz
// targets fail on its message, so such bugs are still found.
func InternalError(file string, r any) finding.Diagnostic {
	return finding.Diagnostic{Pos: finding.Pos{File: file, Line: 1}, Severity: RuleEG100.Severity, Code: RuleEG100.Code,
		Message: fmt.Sprintf("internal error while reading the file: %v", r)}
}

// contextReader feeds yaml.v3, which reads its input 512 bytes at a time
// and checks no context, and checks the context before each read. A
// megabyte of YAML is then a few thousand points where a validation past
// its deadline stops, and where the service's context gives up the
// processor to short requests (api's yieldingContext): without them the
// parse of one heavy body held its processor for the scheduler's 10 ms
// slice, and the other clients' p99 doubled beside it (issue 18).
type contextReader struct {
	r       io.Reader
	ctx     context.Context
	stopped bool // the context ended the reading
}

func (c *contextReader) Read(b []byte) (int, error) {
	if c.ctx != nil {
		if err := c.ctx.Err(); err != nil {
			c.stopped = true
			return 0, err
		}
	}
	return c.r.Read(b)
}

// yamlError turns a yaml.v3 syntax error into EG100.
func (p *envParser) yamlError(err error) { p.env.Diags = append(p.env.Diags, YAMLError(p.env, err)) }

// YAMLError is the EG100 finding for a yaml.v3 syntax error in the source
// env was read from, whose Lines it needs. yaml.v3 gives only a line
// ("yaml: line N: ..."), and none when the problem is on the first line.
func YAMLError(env *Env, err error) finding.Diagnostic {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msg = strings.Join(te.Errors, "; ")
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 1
	if strings.HasPrefix(msg, "line ") {
		rest := msg[len("line "):]
		if i := strings.Index(rest, ": "); i > 0 {
			if n, e := strconv.Atoi(rest[:i]); e == nil && n > 0 {
				line = n
				msg = rest[i+2:]
			}
		}
	}
	if n := len(env.Lines); n > 0 && line > n {
		line = n
	}
	col := 0
	if strings.Contains(msg, "tab character") {
		// yaml.v3 reports the line where the enclosing block starts; the
		// tab itself is on the first line at or after it indented with one.
		for l := line; l <= len(env.Lines); l++ {
			text := env.Line(l)
			indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
			if i := strings.IndexByte(indent, '\t'); i >= 0 {
				line, col = l, i+1
				break
			}
		}
	}
	ps := finding.Pos{File: env.File, Line: line, Col: col}
	hint := "fix the YAML syntax; check indentation (spaces, not tabs) and quoting"
	if exportLinesFrom(env, line) {
		// review forty-six F34 (171): a pasted `conda list --export` dump
		hint = fmt.Sprintf("the lines from line %d are `conda list --export` output (name=version=build) without list markers: put `- ` before each under dependencies:, or create the environment from that list with `conda create --name NAME --file LIST`", line)
	}
	return finding.Diagnostic{Pos: ps, EndCol: env.TokenEnd(ps.Line, ps.Col), Severity: RuleEG100.Severity, Code: RuleEG100.Code,
		Message: "invalid YAML: " + msg, Hint: hint}
}

// exportLine matches a line of `conda list --export` output
// (name=version=build, no blank, no list marker). Compiled on first use,
// as the package's other patterns are: most runs read no broken file.
var exportLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.+-]*=[^=\s]+=[^=\s]+$`)
})

// exportLinesFrom reports whether the file's lines from line on start
// with at least two such lines, so that a YAML error there is a pasted
// export rather than a syntax slip.
func exportLinesFrom(env *Env, line int) bool {
	n := 0
	for l := line; l <= len(env.Lines) && n < 2; l++ {
		if !exportLine().MatchString(strings.TrimSpace(env.Line(l))) {
			return false
		}
		n++
	}
	return n == 2
}
