package envspec

// The walk: the top-level keys, the dependencies and the pip subsection,
// read node by node with the position of each, and the checks across the
// dependencies once they are read.

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/finding"
)

// YAMLKind names what a node is, for messages that say what was expected
// instead ("`dependencies:` must be a list, not a mapping").
func YAMLKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "empty"
		}
		return fmt.Sprintf("the scalar %q", Clip(n.Value, 40))
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

// Clip keeps the first n bytes of s at most, cut on a character boundary,
// and marks a cut with "...": the text a finding's message quotes.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func (p *envParser) top(root *yaml.Node) {
	// When a key repeats (EG111 already raised), the last copy wins, as it
	// does for PyYAML and so for conda.
	last := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode {
			last[k.Value] = i
		}
	}
	for i := 0; i+1 < len(root.Content) && !p.hostile; i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.add(p.pos(k), RuleEG101, "a top-level key must be a plain word, not "+YAMLKind(k),
				"use the keys "+strings.Join(knownTopKeys, ", "))
			continue
		}
		if last[k.Value] != i {
			continue
		}
		v, done := p.child(v)
		if v == nil {
			done()
			return
		}
		switch k.Value {
		case "name":
			p.name(k, v)
		case "channels":
			p.sawChannel = true
			p.env.Channels = p.stringList(k, v, "channels")
			if len(p.env.Channels) == 0 {
				p.add(p.pos(k), RuleEG107,
					"`channels:` is empty: the packages come from whatever channels each machine's .condarc lists",
					"list the channels, e.g. `channels: [conda-forge]`")
			}
		case "dependencies":
			p.dependencies(k, v)
		case "variables":
			p.variables(k, v)
		case "prefix":
			if s, ok := p.scalar(k, v, "prefix"); ok {
				p.env.Prefix = &s
				// conda env create does not read the key: the environment
				// goes where name:, -n or -p says (conda/conda#13061 and
				// #15205, open; #8346), and libmamba's file reader (mamba,
				// micromamba) reads only name, channels and dependencies.
				// What is left is one machine's path in a shared file.
				p.add(s.Pos, RuleEG109,
					"`prefix:` is a path on the machine that exported the file; `conda env create` ignores it (the environment goes where `name:`, -n or -p says), so the line only leaks that machine's path",
					"delete the `prefix:` line and pick the place with `conda env create -n NAME` or `-p DIR`")
				p.fix(p.env.prefixEdit(s))
			}
		case "platforms":
			p.env.Platforms = p.stringList(k, v, "platforms")
		case "category":
			if s, ok := p.scalar(k, v, "category"); ok {
				p.env.Category = &s
			}
		default:
			if near := nearTopKey(k.Value); near != "" {
				// A misspelt key is not a harmless extra: conda ignores it,
				// so `dependency:` creates an environment with nothing in it.
				p.addAs(p.pos(k), RuleEG102, finding.SeverityError,
					fmt.Sprintf("unknown top-level key %q: did you mean %q? conda ignores unknown keys, so what is under it is never installed or used", k.Value, near),
					fmt.Sprintf("rename it to `%s:`", near))
				break
			}
			p.add(p.pos(k), RuleEG102,
				fmt.Sprintf("unknown top-level key %q (expected one of: %s)", k.Value, strings.Join(knownTopKeys, ", ")),
				"remove it, or move it under a comment; conda ignores unknown keys")
		}
		done()
	}
	if p.hostile {
		return
	}
	if !p.sawChannel {
		ps := p.pos(root)
		if len(root.Content) > 0 {
			ps = p.pos(root.Content[0])
		}
		if len(p.env.Deps) == 0 && len(p.env.Pip) == 0 {
			// nothing to install: what the file lacks is its packages,
			// not only its channels (review forty-one F38, corpus 151:
			// a file of one `name:` line)
			p.add(ps, RuleEG107,
				"no `channels:` and no dependencies: conda env create makes an empty environment from this file",
				"list the packages under `dependencies:`, with the `channels:` they come from, e.g. `- conda-forge`")
		} else {
			p.add(ps, RuleEG107,
				"no `channels:`: the packages come from whatever channels each machine's .condarc lists",
				"add `channels:` with the channels the file was written for, e.g. `- conda-forge`")
		}
	}
	p.channelChecks()
	p.depChecks()
}

// scalar reads a string-valued key; null counts as absent.
func (p *envParser) scalar(k, v *yaml.Node, what string) (String, bool) {
	if isNull(v) {
		return String{}, false
	}
	if v.Kind != yaml.ScalarNode {
		p.add(p.pos(v), RuleEG101, fmt.Sprintf("`%s:` must be a string, not %s", what, YAMLKind(v)),
			fmt.Sprintf("write `%s: VALUE` on one line", what))
		return String{}, false
	}
	return String{Value: v.Value, Pos: p.valuePos(v)}, true
}

func (p *envParser) stringList(k, v *yaml.Node, what string) []String {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		p.add(p.pos(v), RuleEG101, fmt.Sprintf("`%s:` must be a list of strings, not %s", what, YAMLKind(v)),
			fmt.Sprintf("write each entry on its own line under `%s:` as `- VALUE`", what))
		return nil
	}
	var out []String
	for _, item := range v.Content {
		it, done := p.child(item)
		if it == nil || !p.countItem(item) {
			done()
			return out
		}
		if it.Kind != yaml.ScalarNode || isNull(it) {
			p.add(p.pos(it), RuleEG101, fmt.Sprintf("an entry of `%s:` must be a string, not %s", what, YAMLKind(it)),
				"write the entry as `- VALUE`")
		} else {
			out = append(out, String{Value: it.Value, Pos: p.valuePos(it)})
		}
		done()
	}
	return out
}

func (p *envParser) name(k, v *yaml.Node) {
	s, ok := p.scalar(k, v, "name")
	if !ok {
		return
	}
	p.env.Name = &s
	if msg := badEnvName(s.Value); msg != "" {
		p.add(s.Pos, RuleEG110, fmt.Sprintf("invalid environment name %q: %s", s.Value, msg),
			"use a name of letters, digits, '-', '_' and '.', e.g. `name: torch-2.5-cu124`")
	}
}

// badEnvName applies CEP 24: no '/', space, ':' or '#', and not base/root.
func badEnvName(n string) string {
	switch {
	case n == "":
		return "it is empty"
	case n == "base" || n == "root":
		return fmt.Sprintf("%q is the conda installation's own environment", n)
	}
	for _, c := range []struct{ s, what string }{{"/", "a '/'"}, {" ", "a space"}, {":", "a ':'"}, {"#", "a '#'"}, {"\t", "a tab"}} {
		if strings.Contains(n, c.s) {
			return "it contains " + c.what
		}
	}
	return ""
}

func (p *envParser) variables(k, v *yaml.Node) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.MappingNode {
		p.add(p.pos(v), RuleEG101, "`variables:` must be a mapping of names to strings, not "+YAMLKind(v),
			"write each variable as `NAME: value` under `variables:`")
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		key, val := v.Content[i], v.Content[i+1]
		val, done := p.child(val)
		if val == nil {
			done()
			return
		}
		switch {
		case key.Kind != yaml.ScalarNode:
			p.add(p.pos(key), RuleEG101, "a variable name must be a string, not "+YAMLKind(key), "write `NAME: value`")
		case val.Kind != yaml.ScalarNode:
			p.add(p.pos(val), RuleEG101, fmt.Sprintf("variable %q must have a string value, not %s", key.Value, YAMLKind(val)),
				"quote the value: `NAME: \"value\"`")
		default:
			value := val.Value
			if isNull(val) {
				value = ""
			}
			p.env.Variables = append(p.env.Variables, Variable{
				Key:   String{Value: key.Value, Pos: p.valuePos(key)},
				Value: String{Value: value, Pos: p.valuePos(val)},
			})
		}
		done()
	}
}

func (p *envParser) dependencies(k, v *yaml.Node) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		p.add(p.pos(v), RuleEG101, "`dependencies:` must be a list, not "+YAMLKind(v),
			"write each package on its own line under `dependencies:` as `- name`")
		return
	}
	for i, item := range v.Content {
		p.sl.left = len(v.Content) - i
		it, done := p.child(item)
		if it == nil || !p.countItem(item) || p.hostile {
			done()
			return
		}
		switch it.Kind {
		case yaml.ScalarNode:
			p.condaItem(it)
		case yaml.MappingNode:
			p.depMapping(it)
		default:
			p.add(p.pos(it), RuleEG101, "a dependency must be a package spec or a `pip:` subsection, not "+YAMLKind(it),
				"write the package as `- name`")
		}
		done()
	}
}

func (p *envParser) depMapping(m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		if key.Kind != yaml.ScalarNode {
			p.add(p.pos(key), RuleEG101, "a subsection name must be a string, not "+YAMLKind(key),
				"only `pip:` subsections are known")
			continue
		}
		val, done := p.child(val)
		if val == nil {
			done()
			return
		}
		switch {
		case key.Value == "pip":
			p.pipSection(key, val)
		case strings.HasPrefix(key.Value, "sel(") && strings.HasSuffix(key.Value, ")"):
			p.dictSelector(key, val)
		default:
			p.add(p.pos(key), RuleEG101,
				fmt.Sprintf("unknown subsection %q under `dependencies:`: conda knows only `pip:` and fails on others (CEP 24)", key.Value),
				"install those packages with conda, or list them under `- pip:`")
		}
		done()
	}
}

// dictSelector handles micromamba's `- sel(linux): pkg`.
func (p *envParser) dictSelector(key, val *yaml.Node) {
	expr := key.Value[len("sel(") : len(key.Value)-1]
	ok, err := evalSelector(expr, p.opt.Platform)
	if err != nil {
		p.add(p.pos(key).Shift(len("sel(")), RuleEG101,
			fmt.Sprintf("selector %q: %v", key.Value, err),
			"micromamba knows sel(linux), sel(osx), sel(win) and sel(unix)")
		return
	}
	if val.Kind != yaml.ScalarNode || isNull(val) {
		p.add(p.pos(val), RuleEG101,
			fmt.Sprintf("the value of %q must be one package spec, not %s", key.Value, YAMLKind(val)),
			"write `- "+key.Value+": name`")
		return
	}
	if ok {
		p.condaDep(val, false)
	}
}

func (p *envParser) condaItem(n *yaml.Node) {
	if isNull(n) {
		p.add(p.pos(n), RuleEG101, "an empty entry in `dependencies:`",
			"remove the lone `-` or write a package after it")
		return
	}
	p.condaDep(n, true)
}

// commentSelector reads a conda-lock style `# [expr]` selector from a line
// comment. ok is false when the comment holds no selector, or one whose
// expression uses names that are not platform names (`# [py<38]`): such an
// item is kept, as a tool that cannot decide must keep it.
func commentSelector(comment, platform string) (keep, isSel bool) {
	c := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(comment), "#"))
	if c == "" {
		return true, false
	}
	var expr string
	if c[0] == '[' {
		end := strings.IndexByte(c, ']')
		if end < 0 {
			return true, false
		}
		expr = c[1:end]
	} else if strings.HasSuffix(c, "]") {
		start := strings.LastIndexByte(c, '[')
		if start < 0 {
			return true, false
		}
		expr = c[start+1 : len(c)-1]
	} else {
		return true, false
	}
	ok, err := evalSelector(expr, platform)
	if err != nil {
		return true, false
	}
	return ok, true
}

func commentText(n *yaml.Node) string {
	c := strings.TrimSpace(n.LineComment)
	c = strings.TrimSpace(strings.TrimPrefix(c, "#"))
	return c
}

func (p *envParser) condaDep(n *yaml.Node, commentSel bool) {
	if commentSel {
		if keep, _ := commentSelector(n.LineComment, p.opt.Platform); !keep {
			return
		}
	}
	raw := String{Value: n.Value, Pos: p.valuePos(n)}
	d := p.sl.condaDep()
	d.Raw, d.Comment = raw, commentText(n)
	if next, ok := p.continued(n); ok {
		// "- python=3.10" followed by "   - numpy" indented one space too
		// far: YAML folds the second line into the first item, and the
		// package silently disappears. Say so rather than guess.
		p.add(raw.Pos, RuleEG103,
			fmt.Sprintf("dependency %q runs on into line %d: YAML read the next line as part of this item, not as a package of its own", Clip(n.Value, 80), next),
			fmt.Sprintf("indent the `-` on line %d like the one on line %d", next, raw.Pos.Line))
		p.appendDep(d)
		return
	}
	spec, err := parseMatchSpec(strings.TrimSpace(n.Value), &p.sl)
	if err != nil {
		lead := len(n.Value) - len(strings.TrimLeft(n.Value, " \t"))
		p.specError(raw, lead, err, RuleEG103, fmt.Sprintf("invalid conda MatchSpec %q", Clip(n.Value, 80)),
			"write `name`, `name=1.2`, `name>=1.2,<2`, `name=1.2=build` or `channel::name=1.2`")
	} else {
		d.Spec = spec
		lead := len(n.Value) - len(strings.TrimLeft(n.Value, " \t"))
		for _, is := range spec.Issues {
			// the spec keeps conda's reading, so the other checks still run.
			p.specError(raw, lead, &SpecError{Offset: is.Offset, Msg: is.Msg}, RuleEG103,
				fmt.Sprintf("conda MatchSpec %q", Clip(n.Value, 80)), is.Hint)
			if f := is.Fix; f != nil && lead+f.End <= len(raw.Value) {
				at := raw.Pos.Shift(utf8.RuneCountInString(raw.Value[:lead+f.Start]))
				p.fix(p.env.ReplaceAt(at, raw.Value[lead+f.Start:lead+f.End], f.New))
			}
		}
		if t, ok := certainReading(spec); ok {
			// "=>2" certainly means ">=2": the other checks read what the
			// user meant, so the typo is one finding (EG103 with its fix),
			// not also an EG206 for conda's ">2*" and an EG502 for it
			d.Spec = t
		}
	}
	p.appendDep(d)
}

// appendDep and appendPip size Deps and Pip for the rest of the list being
// read on their first append; a file without conda dependencies or pip
// lines keeps them nil.
func (p *envParser) appendDep(d *CondaDep) {
	if cap(p.env.Deps) == 0 {
		p.env.Deps = make([]*CondaDep, 0, max(p.sl.left, 4))
	}
	p.env.Deps = append(p.env.Deps, d)
}

func (p *envParser) appendPip(d *PipDep) {
	if cap(p.env.Pip) == 0 {
		p.env.Pip = make([]*PipDep, 0, max(p.sl.left, 4))
	}
	p.env.Pip = append(p.env.Pip, d)
}

// continued reports whether a plain (unquoted) scalar went on past its
// first line, and the line it went on to.
func (p *envParser) continued(n *yaml.Node) (int, bool) {
	if n.Style != 0 || n.Kind != yaml.ScalarNode || n.Line < 1 {
		return 0, false
	}
	line := p.env.Line(n.Line)
	if n.Column < 1 || n.Column > len(line)+1 {
		return 0, false
	}
	if _, after := nextWord(n.Value); !hasWord(after) {
		return 0, false // a single word cannot have run on
	}
	// The scalar's words all on its first line: it did not continue.
	rest := line[n.Column-1:]
	if i := strings.Index(rest, " #"); i >= 0 {
		rest = rest[:i]
	}
	if sameWords(rest, n.Value) {
		return 0, false
	}
	return n.Line + 1, true
}

// nextWord returns the first word of s, words being what strings.Fields
// splits s into, and the text after it; word is "" when s has no more.
// continued walks words this way so that every plain scalar does not cost
// two slices and two joined strings.
func nextWord(s string) (word, rest string) {
	i := 0
	for i < len(s) {
		w, space := spaceAt(s, i)
		if !space {
			break
		}
		i += w
	}
	j := i
	for j < len(s) {
		w, space := spaceAt(s, j)
		if space {
			break
		}
		j += w
	}
	return s[i:j], s[j:]
}

// spaceAt reports whether the character at s[i] is a blank to
// strings.Fields, and its width.
func spaceAt(s string, i int) (width int, space bool) {
	if c := s[i]; c < utf8.RuneSelf {
		return 1, c == ' ' || '\t' <= c && c <= '\r' // \t \n \v \f \r, as unicode.IsSpace
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return w, unicode.IsSpace(r)
}

func hasWord(s string) bool {
	w, _ := nextWord(s)
	return w != ""
}

// sameWords reports whether a and b hold the same words in the same order,
// whatever blanks separate them.
func sameWords(a, b string) bool {
	for {
		var wa, wb string
		wa, a = nextWord(a)
		wb, b = nextWord(b)
		if wa != wb {
			return false
		}
		if wa == "" {
			return true
		}
	}
}

// specError places a MatchSpec or pip error at its offset inside the scalar.
func (p *envParser) specError(raw String, lead int, err error, r *finding.Rule, what, hint string) {
	off, msg := -1, err.Error()
	var se *SpecError
	var pe *PipError
	switch {
	case errors.As(err, &se):
		off, msg = se.Offset, se.Msg
	case errors.As(err, &pe):
		off, msg = pe.Offset, pe.Msg
	}
	ps := raw.Pos
	if off >= 0 {
		off += lead
		if off > len(raw.Value) {
			off = len(raw.Value)
		}
		// Columns count characters, as yaml.v3's do.
		ps = ps.Shift(utf8.RuneCountInString(raw.Value[:off]))
	}
	p.add(ps, r, what+": "+msg, hint)
}

func (p *envParser) pipSection(key, val *yaml.Node) {
	if p.env.PipKey == nil {
		ps := p.pos(key)
		p.env.PipKey = &ps
	}
	if isNull(val) {
		// `- pip:` with nothing under it: conda hands pip an empty list.
		return
	}
	if val.Kind != yaml.SequenceNode {
		p.add(p.pos(val), RuleEG101, "the `pip:` subsection must be a list of strings, not "+YAMLKind(val),
			"write each pip requirement on its own line under `- pip:` as `- name`")
		return
	}
	for i, item := range val.Content {
		p.sl.left = len(val.Content) - i
		it, done := p.child(item)
		if it == nil || !p.countItem(item) || p.hostile {
			done()
			return
		}
		if it.Kind != yaml.ScalarNode || isNull(it) {
			p.add(p.pos(it), RuleEG101, "an entry of the `pip:` subsection must be a string, not "+YAMLKind(it),
				"write the requirement as `- name==1.0`")
			done()
			continue
		}
		if keep, _ := commentSelector(it.LineComment, p.opt.Platform); keep {
			p.pipDep(it)
		}
		done()
	}
}

func (p *envParser) pipDep(n *yaml.Node) {
	raw := String{Value: n.Value, Pos: p.valuePos(n)}
	d := p.sl.pipDep()
	d.Raw, d.Comment = raw, commentText(n)
	line, err := parsePipLine(strings.TrimSpace(n.Value), &p.sl)
	if err != nil {
		lead := len(n.Value) - len(strings.TrimLeft(n.Value, " \t"))
		p.specError(raw, lead, err, RuleEG104, fmt.Sprintf("invalid pip line %q", Clip(n.Value, 80)),
			"write a requirement (`name==1.0`, `name @ URL`, `-e PATH`) or a pip option (`--index-url URL`)")
	} else {
		d.Line = line
		lead := len(n.Value) - len(strings.TrimLeft(n.Value, " \t"))
		for _, is := range line.Issues {
			// pip installs the line as read; the finding says where the
			// standards and pip disagree.
			p.specError(raw, lead, &PipError{Offset: is.Offset, Msg: is.Msg}, RuleEG104,
				fmt.Sprintf("pip line %q", Clip(n.Value, 80)), is.Hint)
		}
	}
	p.appendPip(d)
}

// depChecks raises the findings that need the whole dependency list.
func (p *envParser) depChecks() {
	// Sized once: a map grown entry by entry reallocates its table a few
	// times for every file.
	first := make(map[string]*CondaDep, len(p.env.Deps))
	hasPip := false
	for _, d := range p.env.Deps {
		name := depName(d)
		if name == "pip" {
			hasPip = true
		}
		if name == "" {
			continue
		}
		f, ok := first[name]
		if !ok {
			first[name] = d
			continue
		}
		if f.Spec != nil && d.Spec != nil && f.Spec.Version != nil && d.Spec.Version != nil &&
			specsDisjoint(f.Spec.Version, d.Spec.Version) {
			p.addAs(d.Raw.Pos, RuleEG106, finding.SeverityError,
				fmt.Sprintf("%q is listed twice with constraints that cannot both hold: %q (line %d) and %q", name, f.Raw.Value, f.Raw.Pos.Line, d.Raw.Value),
				"keep one entry with the version you need", f.Raw.Pos)
			continue
		}
		p.add(d.Raw.Pos, RuleEG106,
			fmt.Sprintf("%q is listed twice among the conda dependencies (first at line %d)", name, f.Raw.Pos.Line),
			"keep one entry; merge the constraints into it", f.Raw.Pos)
	}
	if p.env.PipKey != nil && !hasPip {
		p.add(*p.env.PipKey, RuleEG105,
			"a `pip:` subsection, but `pip` is not among the conda dependencies: conda may use a pip from outside the environment, or none",
			"add `- pip` to the conda dependencies")
		p.fix(p.env.addPipEdit(*p.env.PipKey))
	}
}

// specsDisjoint reports whether no version can satisfy both specs.
func specsDisjoint(a, b *VersionSpec) bool { return Disjoint(a, b) }

// depName is a dependency's package name, also for items whose MatchSpec did
// not parse (EG103 is raised for them; EG105 still needs to see `pip`).
func depName(d *CondaDep) string {
	if d.Spec != nil {
		return strings.ToLower(d.Spec.Name)
	}
	s := strings.TrimSpace(d.Raw.Value)
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	end := 0
	for end < len(s) {
		c := s[end]
		if c == '-' || c == '_' || c == '.' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
			end++
			continue
		}
		break
	}
	if end == 0 || end < len(s) && !strings.ContainsRune(" =<>!~[*", rune(s[end])) {
		return ""
	}
	return strings.ToLower(s[:end])
}

// nearTopKey returns the known top-level key that key is a near miss of: a
// case variant, the singular of a plural key (`dependency`, `channel`), or
// a misspelling within edit distance 2 (`dependecies`). "" if none.
func nearTopKey(key string) string {
	ls := strings.ToLower(key)
	for _, c := range knownTopKeys {
		if c == ls+"s" || strings.HasSuffix(ls, "y") && c == ls[:len(ls)-1]+"ies" {
			return c
		}
	}
	return nearest(key, knownTopKeys)
}

// nearest returns the candidate within edit distance 2 of s, if exactly one is.
func nearest(s string, cands []string) string {
	best, bestD, n := "", 3, 0
	ls := strings.ToLower(s)
	for _, c := range cands {
		if diff := len(ls) - len(c); diff > bestD || -diff > bestD {
			continue // the distance is at least the difference in length
		}
		d := osaDistance(ls, c)
		if d < bestD {
			best, bestD, n = c, d, 1
		} else if d == bestD {
			n++
		}
	}
	if n != 1 || bestD == 0 && ls == s {
		return ""
	}
	return best
}

// osaDistance is the optimal-string-alignment edit distance: insertions,
// deletions, substitutions and swaps of neighbours each cost one, so
// `conda-froge` is one step from `conda-forge`.
func osaDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return 99
	}
	// At most 64 bytes each, so at most 64 runes: the runes and the three
	// rows the recurrence looks back on fit in arrays on the stack, where
	// a full matrix cost an allocation per row for every channel checked.
	var bufA, bufB [64]rune
	ra, rb := appendRunes(bufA[:0], a), appendRunes(bufB[:0], b)
	var rows [3][65]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(rb); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// appendRunes is []rune(s) into dst (invalid bytes become U+FFFD, as there).
func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// certainReading is the spec as its one issue's fix rewrites it, when the
// fix keeps every span in place (same length) and the rewritten spec parses
// with no issue of its own.
func certainReading(m *MatchSpec) (*MatchSpec, bool) {
	if len(m.Issues) != 1 || m.Issues[0].Fix == nil {
		return nil, false
	}
	f := m.Issues[0].Fix
	if f.End-f.Start != len(f.New) || f.End > len(m.Raw) {
		return nil, false
	}
	t, err := ParseMatchSpec(m.Raw[:f.Start] + f.New + m.Raw[f.End:])
	if err != nil || len(t.Issues) > 0 {
		return nil, false
	}
	return t, true
}
