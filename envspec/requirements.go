package envspec

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// maxIncludeDepth bounds `-r` chains (pip has no bound but a cycle check).
const maxIncludeDepth = 16

// ReadRequirements reads a pip requirements file with the pip-line parser
// environment.yml's `pip:` section uses (ParsePipLine), after pip's own
// preprocessing (pip/_internal/req/req_file.py): a line ending in `\` is
// joined with the next (not inside a comment), and `#` after white space
// starts a comment. Requirements, markers, hashes (`--hash=…` after a
// requirement), `--index-url`/`--extra-index-url`/`-f` and the other
// options become the same PipDep items a `pip:` section gives, each at the
// line and column where it starts.
//
// `-r FILE` includes are read through opt.ReadFile, relative to the
// including file, when it is set; their items are placed on the `-r` line
// (column unknown), where the file that holds them is named, so that every
// finding points at a line of the file validated. `-c` constraint files
// install nothing and are not read. It never returns nil and never panics.
func ReadRequirements(file string, src []byte, opt LockOptions) (env *Env) {
	l := newLockEnv(file, KindRequirements, src)
	l.max = opt.MaxItems
	defer recoverInto(l, &env)
	l.env.Platform = opt.Platform
	if l.env.Platform == "" {
		l.env.Platform = HostPlatform()
	}
	r := &reqReader{l: l, opt: opt, seen: map[string]bool{cleanPath(file): true}}
	r.read(file, l.env.Lines, nil, 0)
	return l.finish()
}

type reqReader struct {
	l    *lockEnv
	opt  LockOptions
	seen map[string]bool
}

// reqLine is one logical line: the text pip parses and where it starts.
type reqLine struct {
	text string
	line int // 1-based physical line of its first character
	col  int // 1-based column (characters) of its first character
}

// joinRequirementLines applies pip's join_lines: a line ending in a
// backslash continues on the next; a comment line never continues.
func joinRequirementLines(lines []string) []reqLine {
	var out []reqLine
	var cur *reqLine
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
			}
			cur.text += part
			continue
		}
		if cur != nil {
			cur.text += s
			out = append(out, *cur)
			cur = nil
			continue
		}
		lead := len(s) - len(strings.TrimLeft(s, " \t"))
		out = append(out, reqLine{text: s[lead:], line: i + 1, col: utf8.RuneCountInString(s[:lead]) + 1})
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// read parses one file's lines. at is the `-r` line of the validated file
// the items are placed on (nil for the validated file itself).
func (r *reqReader) read(name string, lines []string, at *Pos, depth int) {
	for _, ln := range joinRequirementLines(lines) {
		text := ln.text
		c := pipCommentStart(text)
		comment := ""
		if c < len(text) {
			comment = strings.TrimSpace(strings.TrimPrefix(text[c:], "#"))
		}
		text = strings.TrimRight(text[:c], " \t\r")
		if text == "" {
			continue
		}
		ps := Pos{File: r.l.env.File, Line: ln.line, Col: ln.col}
		if at != nil {
			ps = *at
		}
		d := &PipDep{Raw: String{Value: text, Pos: ps}, Comment: comment}
		line, err := ParsePipLine(text)
		if err != nil {
			r.pipError(name, ps, text, err, at != nil)
		} else {
			d.Line = line
			for _, is := range line.Issues {
				r.pipError(name, ps, text, &PipError{Offset: is.Offset, Msg: is.Msg}, at != nil)
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
				r.l.diag(at, SeverityError, "EG104",
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

func (r *reqReader) pipError(name string, ps Pos, text string, err error, included bool) {
	msg := err.Error()
	off := 0
	if pe, ok := err.(*PipError); ok {
		msg, off = pe.Msg, pe.Offset
	}
	if !included && off >= 0 && off <= len(text) {
		ps = ps.Shift(utf8.RuneCountInString(text[:off]))
	}
	what := fmt.Sprintf("invalid pip line %q", clip(text, 80))
	if included {
		what = fmt.Sprintf("in %s, pip line %q", name, clip(text, 80))
	}
	r.l.diag(ps, SeverityError, "EG104", what+": "+msg,
		"write a requirement (`name==1.0`, `name @ URL`, `-e PATH`) or a pip option (`--index-url URL`)")
}

// include reads `-r target` named in file `from`.
func (r *reqReader) include(from, target string, ps Pos, at *Pos, depth int) {
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
		r.l.diag(ps, SeverityWarning, "EG104", fmt.Sprintf("-r %s includes a file already read (a cycle, or the same file twice)", clip(target, 80)),
			"include each requirements file once")
		return
	}
	if depth >= maxIncludeDepth {
		r.l.diag(ps, SeverityError, "EG104", fmt.Sprintf("-r %s: includes nest deeper than %d files", clip(target, 80), maxIncludeDepth), "")
		return
	}
	src, err := r.opt.ReadFile(p)
	if err != nil {
		r.l.diag(ps, SeverityError, "EG104", fmt.Sprintf("-r %s: cannot read it: %v", clip(target, 80), err),
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
	r.read(p, splitLines(src), &where, depth+1)
}

func cleanPath(p string) string { return path.Clean(filepath.ToSlash(p)) }
