package envspec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/finding"
)

// IgnoreMarker is in every comment that is an envguard directive: a line
// without it holds no ignore comment, and needs no closer look.
const IgnoreMarker = "envguard:"

// collectIgnores reads `# envguard: ignore CODE[,CODE] reason` from the
// comments yaml.v3 attached to n. A trailing comment is the documented form;
// one on a line of its own is kept too, so that whoever applies suppressions
// can report it as silencing nothing instead of letting it pass unseen.
func (p *envParser) collectIgnores(n *yaml.Node, seen map[int]bool) {
	for _, c := range [...]struct {
		text string
		dir  int // where to look for the comment's line from n.Line
	}{{n.LineComment, 0}, {n.HeadComment, -1}, {n.FootComment, +1}} {
		if !strings.Contains(c.text, IgnoreMarker) {
			continue
		}
		for _, line := range strings.Split(c.text, "\n") {
			line = strings.TrimSpace(line)
			if !strings.Contains(line, IgnoreMarker) {
				continue
			}
			ps := p.commentPos(line, n.Line, c.dir, seen)
			p.addIgnore(line, ps)
		}
	}
}

// commentPos finds the source line holding comment text near line, searching
// in direction dir (0: that line first, then after it), and its column.
func (p *envParser) commentPos(text string, line, dir int, seen map[int]bool) finding.Pos {
	lines := p.env.Lines
	try := func(l int) (finding.Pos, bool) {
		if l < 1 || l > len(lines) || seen[l] {
			return finding.Pos{}, false
		}
		src := lines[l-1]
		i := strings.LastIndex(src, text)
		if i < 0 {
			return finding.Pos{}, false
		}
		seen[l] = true
		return finding.Pos{File: p.env.File, Line: l, Col: utf8.RuneCountInString(src[:i]) + 1}, true
	}
	const window = 500
	for d := 0; d <= window; d++ {
		switch {
		case dir < 0:
			if ps, ok := try(line - d); ok {
				return ps
			}
		case dir > 0:
			if ps, ok := try(line + d); ok {
				return ps
			}
		default:
			if ps, ok := try(line + d); ok {
				return ps
			}
			if ps, ok := try(line - d); ok {
				return ps
			}
		}
	}
	return finding.Pos{File: p.env.File, Line: max(line, 1)}
}

func (p *envParser) addIgnore(comment string, ps finding.Pos) {
	ig, problem := ParseIgnore(comment)
	if problem != "" {
		p.add(ps, RuleEG113, "malformed ignore comment: "+problem,
			"write `# envguard: ignore EG201 reason why this is fine`")
		return
	}
	if ig == nil {
		return
	}
	ig.Pos = ps
	p.env.Ignores = append(p.env.Ignores, ig)
}

// ParseIgnore reads one comment line. It returns (nil, "") for a comment that
// is no envguard directive, and a problem for one that is malformed. A
// missing reason is not a problem here: the suppression code reports it.
func ParseIgnore(comment string) (*Ignore, string) {
	i := strings.Index(comment, IgnoreMarker)
	if i < 0 {
		return nil, ""
	}
	rest := strings.TrimLeft(comment[i+len(IgnoreMarker):], " \t")
	verb, args, _ := strings.Cut(rest, " ")
	if verb != "ignore" {
		if strings.HasPrefix(verb, "ignore") {
			// `ignore:EG201`, `ignoreEG201`
			return nil, fmt.Sprintf("%q: put a space after `ignore`", Clip(verb, 30))
		}
		return nil, fmt.Sprintf("unknown directive %q (only `ignore` is known)", Clip(verb, 30))
	}
	ig := &Ignore{}
	s := strings.TrimLeft(args, " \t")
	for {
		end := 0
		for end < len(s) && s[end] != ' ' && s[end] != '\t' && s[end] != ',' {
			end++
		}
		tok := s[:end]
		if tok == "" {
			if len(ig.Codes) == 0 {
				return nil, "no rule code after `ignore`"
			}
			return nil, "a ',' with no rule code after it"
		}
		if !isRuleCode(tok) {
			if len(ig.Codes) == 0 {
				return nil, fmt.Sprintf("%q is not a rule code (want EG and three digits, e.g. EG201)", Clip(tok, 30))
			}
			return nil, fmt.Sprintf("%q after ',' is not a rule code (want EG and three digits)", Clip(tok, 30))
		}
		ig.Codes = append(ig.Codes, tok)
		s = strings.TrimLeft(s[end:], " \t")
		if !strings.HasPrefix(s, ",") {
			break
		}
		s = strings.TrimLeft(s[1:], " \t")
	}
	ig.Reason = strings.TrimSpace(s)
	return ig, ""
}

func isRuleCode(s string) bool {
	return len(s) == 5 && s[0] == 'E' && s[1] == 'G' &&
		'0' <= s[2] && s[2] <= '9' && '0' <= s[3] && s[3] <= '9' && '0' <= s[4] && s[4] <= '9'
}
