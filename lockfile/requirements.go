package lockfile

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// maxIncludeDepth bounds `-r` chains (pip has no bound but a cycle check).
const maxIncludeDepth = 16

// ReadRequirements reads a pip requirements file with the pip-line parser
// environment.yml's `pip:` section uses (envspec.ParsePipLine), after
// pip's own preprocessing (pip/_internal/req/req_file.py): a line ending
// in `\` is joined with the next (not inside a comment), and `#` after
// white space starts a comment. Requirements, markers, hashes (`--hash=…`
// after a requirement), `--index-url`/`--extra-index-url`/`-f` and the
// other options become the same PipDep items a `pip:` section gives, each
// at the line and column where it starts.
//
// `-r FILE` includes are read through opt.ReadFile, relative to the
// including file, when it is set; their items are placed on the `-r` line
// (column unknown), where the file that holds them is named, so that every
// finding points at a line of the file validated. `-c` constraint files
// install nothing and are not read.
//
// An included file is someone else's text, and what is said about it may
// end up in a CI log: no finding quotes its lines. One that does not read
// as a requirements file (a .git/config, a netrc) gives one finding that
// says so, and nothing from it is used; a bad line in one that does is
// named by its number. A ReadFile that will not open a path says so with
// an *IncludeRefusedError, and the finding names the path and the reason.
//
// It stops between lines once opt.Context is done. It never returns nil
// and never panics.
func ReadRequirements(file string, src []byte, opt Options) (env *envspec.Env) {
	l := newLockEnv(file, envspec.KindRequirements, src)
	l.max, l.ctx = opt.MaxItems, opt.Context
	defer recoverInto(l, &env)
	l.env.Platform = opt.Platform
	if l.env.Platform == "" {
		l.env.Platform = envspec.HostPlatform()
	}
	r := &reqReader{l: l, opt: opt, seen: map[string]bool{cleanPath(file): true}}
	r.read(file, "", l.env.Lines, nil, 0)
	return l.finish()
}

type reqReader struct {
	l    *lockEnv
	opt  Options
	seen map[string]bool
}

// reqLine is one logical line: the text pip parses and where it starts.
type reqLine struct {
	text string
	line int // 1-based physical line of its first character
	col  int // 1-based column (characters) of its first character
}

// joinRequirementLines applies pip's join_lines: a line ending in a
// backslash continues on the next; a comment line never continues. The
// parts of a logical line are gathered in one builder, not appended to a
// string, so that n continuations cost O(n) and not O(n²).
func joinRequirementLines(lines []string) []reqLine {
	var out []reqLine
	var cur *reqLine
	var b strings.Builder
	for i, raw := range lines {
		s := strings.TrimPrefix(raw, "\ufeff")
		isComment := strings.HasPrefix(strings.TrimLeft(s, " \t"), "#")
		if strings.HasSuffix(s, "\\") && !isComment {
			part := strings.Trim(s, "\\")
			if cur == nil {
				cur = &reqLine{line: i + 1}
				lead := len(part) - len(strings.TrimLeft(part, " \t"))
				cur.col = utf8.RuneCountInString(part[:lead]) + 1
				part = part[lead:]
				b.Reset()
			}
			b.WriteString(part)
			continue
		}
		if cur != nil {
			b.WriteString(s)
			cur.text = b.String()
			out = append(out, *cur)
			cur = nil
			continue
		}
		lead := len(s) - len(strings.TrimLeft(s, " \t"))
		out = append(out, reqLine{text: s[lead:], line: i + 1, col: utf8.RuneCountInString(s[:lead]) + 1})
	}
	if cur != nil {
		cur.text = b.String()
		out = append(out, *cur)
	}
	return out
}

// IncludeRefusedError is what a Options.ReadFile returns for an
// include it will not open (the CLI's, for one outside the repository).
// Reason says why, naming paths and never content.
type IncludeRefusedError struct {
	Reason string
}

func (e *IncludeRefusedError) Error() string { return "not followed: " + e.Reason }

// reqEntry is one logical line that holds something, parsed.
type reqEntry struct {
	ln      reqLine
	text    string // the line without its comment
	comment string
	line    *envspec.PipLine
	err     error
}

// parseRequirementLines parses every logical line holding something; it
// stops early (ok false) once the context is done.
func (r *reqReader) parseRequirementLines(lines []string) (out []reqEntry, ok bool) {
	for _, ln := range joinRequirementLines(lines) {
		if r.l.stopped() {
			return out, false
		}
		text := ln.text
		c := envspec.PipCommentStart(text)
		comment := ""
		if c < len(text) {
			comment = strings.TrimSpace(strings.TrimPrefix(text[c:], "#"))
		}
		text = strings.TrimRight(text[:c], " \t\r")
		if text == "" {
			continue
		}
		line, err := envspec.ParsePipLine(text)
		out = append(out, reqEntry{ln: ln, text: text, comment: comment, line: line, err: err})
	}
	return out, true
}

// notRequirements reports whether an included file's lines say it is not
// a requirements file at all: its first line that holds something is not
// a requirement or a pip option, or such lines are most of it. (A
// .git/config starts with `[core]`, a netrc with `machine HOST login …`.)
func notRequirements(entries []reqEntry) bool {
	if len(entries) == 0 {
		return false
	}
	if entries[0].err != nil {
		return true
	}
	bad := 0
	for _, e := range entries {
		if e.err != nil {
			bad++
		}
	}
	return 2*bad > len(entries)
}

// read parses one file's lines. at is the `-r` line of the validated file
// the items are placed on (nil for the validated file itself); target is
// the include as written there.
func (r *reqReader) read(name, target string, lines []string, at *finding.Pos, depth int) {
	entries, ok := r.parseRequirementLines(lines)
	if !ok {
		return
	}
	if at != nil && notRequirements(entries) {
		r.l.diag(*at, envspec.RuleEG104,
			fmt.Sprintf("-r %s: %s is not a requirements file: nothing in it was read, and its lines are not shown", envspec.Clip(target, 80), envspec.Clip(name, 160)),
			"`pip install -r` fails on it too: name a requirements file")
		return
	}
	for i := range entries {
		if r.l.stopped() {
			return
		}
		e := &entries[i]
		ln, text, line, err := e.ln, e.text, e.line, e.err
		ps := finding.Pos{File: r.l.env.File, Line: ln.line, Col: ln.col}
		if at != nil {
			ps = *at
		}
		d := &envspec.PipDep{Raw: envspec.String{Value: text, Pos: ps}, Comment: e.comment}
		if err != nil {
			r.pipError(name, ln.line, ps, text, err, at != nil, false)
			if at != nil {
				continue // an included line that is no pip line is kept nowhere: nothing may quote it
			}
		} else {
			d.Line = line
			for _, is := range line.Issues {
				r.pipError(name, ln.line, ps, text, &envspec.PipError{Offset: is.Offset, Msg: is.Msg}, at != nil, true)
			}
		}
		r.l.addPip(d)
		if line == nil || line.Option == nil {
			continue
		}
		for _, o := range line.Options {
			if !o.InRequirementsFile {
				at := ps
				if at.Col > 0 && at == d.Raw.Pos && at.Line == ln.line {
					at = at.Shift(utf8.RuneCountInString(text[:min(o.Span.Start, len(text))]))
				}
				r.l.diag(at, envspec.RuleEG104,
					fmt.Sprintf("pip does not accept %s in a requirements file: `pip install -r` stops with an error", o.Name),
					"pass it on pip's command line instead")
			}
			if o.Name != "--requirement" {
				continue
			}
			inc := ps
			if at == nil && o.ValueSpan.End > o.ValueSpan.Start {
				inc = ps.Shift(utf8.RuneCountInString(text[:o.ValueSpan.Start]))
			}
			r.include(name, o.Value, inc, at, depth)
		}
	}
}

// pipError reports a line that does not parse, or parses with a problem.
// In an included file (included) the finding names the file and the line
// number and neither quotes the line nor gives the parser's message, which
// quotes a part of it.
func (r *reqReader) pipError(name string, lineNo int, ps finding.Pos, text string, err error, included, issue bool) {
	hint := "write a requirement (`name==1.0`, `name @ URL`, `-e PATH`) or a pip option (`--index-url URL`)"
	if included {
		what := "is not a valid requirement or pip option"
		if issue {
			what = "has a problem pip does not stop on"
		}
		r.l.diag(ps, envspec.RuleEG104, fmt.Sprintf("in %s, line %d %s", envspec.Clip(name, 160), lineNo, what),
			"validate "+envspec.Clip(name, 160)+" on its own to see why: findings about an included file do not quote it")
		return
	}
	msg := err.Error()
	off := 0
	if pe, ok := err.(*envspec.PipError); ok {
		msg, off = pe.Msg, pe.Offset
	}
	if off >= 0 && off <= len(text) {
		ps = ps.Shift(utf8.RuneCountInString(text[:off]))
	}
	r.l.diag(ps, envspec.RuleEG104, fmt.Sprintf("invalid pip line %q", envspec.Clip(text, 80))+": "+msg, hint)
}

// include reads `-r target` named in file `from`.
func (r *reqReader) include(from, target string, ps finding.Pos, at *finding.Pos, depth int) {
	if r.opt.ReadFile == nil || target == "" {
		return
	}
	if strings.Contains(target, "://") {
		return // pip fetches URLs; envguard reads no network
	}
	p := target
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(from), filepath.FromSlash(p))
	}
	key := cleanPath(p)
	if r.seen[key] {
		r.l.diagAs(ps, envspec.RuleEG104, finding.SeverityWarning, fmt.Sprintf("-r %s includes a file already read (a cycle, or the same file twice)", envspec.Clip(target, 80)),
			"include each requirements file once")
		return
	}
	if depth >= maxIncludeDepth {
		r.l.diag(ps, envspec.RuleEG104, fmt.Sprintf("-r %s: includes nest deeper than %d files", envspec.Clip(target, 80), maxIncludeDepth), "")
		return
	}
	src, err := r.opt.ReadFile(p)
	var refused *IncludeRefusedError
	if errors.As(err, &refused) {
		// pip would read it: the file is not wrong, envguard only will
		// not look, hence a warning.
		r.l.diagAs(ps, envspec.RuleEG104, finding.SeverityWarning, fmt.Sprintf("-r %s: not followed: %s", envspec.Clip(target, 80), refused.Reason),
			"envguard follows includes only to files in the repository and outside .git, so that a requirements file cannot put another file's text into its report; validate that file on its own if it is meant")
		return
	}
	if err != nil {
		r.l.diag(ps, envspec.RuleEG104, fmt.Sprintf("-r %s: cannot read it: %v", envspec.Clip(target, 80), err),
			"pip fails the same way: fix the path (it is relative to the file that names it)")
		return
	}
	r.seen[key] = true
	where := ps
	if at != nil {
		where = *at
	} else {
		where.Col = 0 // the items are in the included file: column unknown
	}
	r.read(p, target, envspec.SplitLines(src), &where, depth+1)
}

func cleanPath(p string) string { return path.Clean(filepath.ToSlash(p)) }
