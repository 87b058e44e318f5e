package envspec

// The pre-scan: before the walk reads a key, the whole document is checked
// for what would make reading it unsafe or wrong (flow nesting too deep,
// aliases that expand without bound, duplicate keys), and ignore comments
// are collected.

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// FlowTooDeep is the line at which the flow collections ([ and {) of src
// first nest deeper than limit, or 0 where they never do. A reader asks
// before yaml sees the bytes: yaml.v3 accepts flow nesting up to 10000
// levels and takes tens of milliseconds to build it.
func FlowTooDeep(src []byte, limit int) int {
	// The flow depth is at most the number of opening brackets, which the
	// vectorised counts give: most files have a handful, and only a file
	// with more is walked byte by byte.
	if bytes.Count(src, []byte{'['})+bytes.Count(src, []byte{'{'}) <= limit || flowDepth(src) <= limit {
		return 0
	}
	return 1 + bytes.Count(src[:flowDepthAt(src, limit)], []byte("\n"))
}

// flowDepth is the deepest nesting of flow collections ([ and {) in src,
// skipping comments and quoted text inside flow collections. Brackets in
// plain block scalars (`numpy[version='>=1']`) close at once and never come
// near the limit.
func flowDepth(src []byte) int {
	depth, maxd := 0, 0
	forEachFlowByte(src, func(i, d int) bool {
		depth = d
		if depth > maxd {
			maxd = depth
		}
		return true
	})
	return maxd
}

// flowDepthAt is the offset at which the flow depth first exceeds limit.
func flowDepthAt(src []byte, limit int) int {
	at := 0
	forEachFlowByte(src, func(i, d int) bool {
		if d > limit {
			at = i
			return false
		}
		return true
	})
	return at
}

func forEachFlowByte(src []byte, f func(i, depth int) bool) {
	depth := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '#' && (i == 0 || src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n'):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case (c == '"' || c == '\'') && depth > 0:
			for i++; i < len(src) && src[i] != c; i++ {
				if c == '"' && src[i] == '\\' {
					i++
				}
			}
		case c == '[' || c == '{':
			depth++
			if !f(i, depth) {
				return
			}
		case (c == ']' || c == '}') && depth > 0:
			depth--
		}
	}
}

// scan walks every node once, without following aliases: it bounds the
// depth, finds duplicate keys (EG111) in any mapping and collects ignore
// comments from any node.
func (p *envParser) scan(doc *yaml.Node) {
	seen := map[int]bool{} // comment lines already collected
	p.scanNode(doc, 0, seen)
}

// scanNode is scan's pre-order walk; it returns false once the document is
// refused. It recurses, which costs the heap nothing: the depth is checked
// before each level, so the walk never goes more than MaxDepth+2 deep.
func (p *envParser) scanNode(n *yaml.Node, depth int, seen map[int]bool) bool {
	if depth > p.opt.MaxDepth+1 { // +1: the document node itself
		p.add(p.pos(n), RuleEG100,
			fmt.Sprintf("the document nests deeper than %d levels: refusing to read it", p.opt.MaxDepth),
			"an environment file needs only a few levels: a mapping, its lists, and the pip list")
		p.hostile = true
		return false
	}
	p.collectIgnores(n, seen)
	if n.Kind == yaml.MappingNode {
		p.duplicateKeys(n)
	}
	for _, c := range n.Content {
		if !p.scanNode(c, depth+1, seen) {
			return false
		}
	}
	return true
}

func (p *envParser) duplicateKeys(m *yaml.Node) {
	if len(m.Content) < 4 {
		return
	}
	first := make(map[string]*yaml.Node, len(m.Content)/2)
	pasted := pastedEnvironments(m)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode || k.Value == "<<" {
			continue
		}
		if f, ok := first[k.Value]; ok {
			// conda reads the file with ruamel.yaml's safe loader, which
			// raises DuplicateKeyError (conda/conda#7447: the new API's
			// default); PyYAML keeps the last copy, as envguard's reading
			// does. Two scalars cannot be merged: one must go.
			hint := "merge the two entries into one"
			if v := m.Content[i+1]; v.Kind == yaml.ScalarNode {
				hint = fmt.Sprintf("keep one %s: line (delete the other)", k.Value)
			}
			if pasted != "" {
				// two exports one after the other (review thirty-five
				// F15, 092): merged, their pins would clash
				hint = pasted
			}
			p.add(p.pos(k), RuleEG111,
				fmt.Sprintf("key %q appears twice in one mapping (first at line %d): conda refuses the file (ruamel.yaml's DuplicateKeyError), and readers that accept it, PyYAML among them, keep only the last copy, the one envguard reads", k.Value, f.Line),
				hint, p.pos(f))
			continue
		}
		first[k.Value] = k
	}
}

// pastedEnvironments says, for a mapping whose name: appears twice with
// two values, that it holds two environments one after the other (two
// `conda env export`s pasted into one file), and what to do; "" otherwise.
func pastedEnvironments(m *yaml.Node) string {
	var names []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k, v := m.Content[i], m.Content[i+1]; k.Kind == yaml.ScalarNode && k.Value == "name" && v.Kind == yaml.ScalarNode {
			names = append(names, v.Value)
		}
	}
	if len(names) < 2 || names[0] == names[1] {
		return ""
	}
	return fmt.Sprintf("the file holds two environments one after the other (name: %q, then %q): split it into two files, or keep one; merging their entries would pin both sets of versions at once", names[0], names[1])
}

// bombs refuses a document whose aliases would expand to more than
// maxAliasItems nodes (a "billion laughs") or more than maxAliasBytes bytes
// of text (a thousand aliases of one long scalar), before any walk expands
// one: every node's expanded size is computed once and memoised, so the
// check costs one pass over the nodes as written.
func (p *envParser) bombs(doc *yaml.Node) {
	type cost struct{ nodes, bytes int }
	over := func(c cost) bool { return c.nodes > maxAliasItems || c.bytes > maxAliasBytes }
	bomb := cost{maxAliasItems + 1, maxAliasBytes + 1}
	memo := map[*yaml.Node]cost{}
	var size func(n *yaml.Node) cost
	size = func(n *yaml.Node) cost {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
			if n == nil {
				return cost{1, 0}
			}
		}
		if v, ok := memo[n]; ok {
			return v
		}
		memo[n] = bomb // in progress: a cycle counts as a bomb
		total := cost{1, len(n.Value)}
		for _, c := range n.Content {
			cc := size(c)
			total.nodes += cc.nodes
			total.bytes += cc.bytes
			if over(total) {
				total = bomb
				break
			}
		}
		memo[n] = total
		return total
	}
	var expanded cost
	var walk func(n *yaml.Node) *yaml.Node
	walk = func(n *yaml.Node) *yaml.Node {
		if n.Kind == yaml.AliasNode {
			c := size(n)
			expanded.nodes += c.nodes
			expanded.bytes += c.bytes
			if over(expanded) {
				return n
			}
			return nil
		}
		for _, c := range n.Content {
			if bad := walk(c); bad != nil {
				return bad
			}
		}
		return nil
	}
	if bad := walk(doc); bad != nil {
		msg := fmt.Sprintf("aliases expand to more than %d items: refusing to expand them", maxAliasItems)
		if expanded.nodes <= maxAliasItems {
			msg = fmt.Sprintf("aliases expand to more than %d bytes of text: refusing to expand them", maxAliasBytes)
		}
		p.add(p.pos(bad), RuleEG100, msg,
			"write the lists out; an environment file needs no anchors or aliases")
		p.hostile = true
	}
}

// deref follows an alias, counting references so that a document made of
// aliases of aliases cannot make the walk expand it.
func (p *envParser) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		p.aliasRefs++
		if p.aliasRefs > maxAliasRefs {
			if !p.hostile {
				p.add(p.pos(n), RuleEG100,
					fmt.Sprintf("more than %d alias references: refusing to expand them", maxAliasRefs),
					"write the lists out; an environment file needs no anchors or aliases")
			}
			p.hostile = true
			return nil
		}
		n = n.Alias
	}
	return n
}

// countItem bounds how many list items the walk reads through aliases.
func (p *envParser) countItem(n *yaml.Node) bool {
	if p.walked++; p.walked%64 == 0 && p.opt.Context != nil && p.opt.Context.Err() != nil {
		p.canceled = true
	}
	if p.canceled {
		return false
	}
	if p.inAlias == 0 {
		return true
	}
	p.aliasItems++
	if p.aliasItems > maxAliasItems {
		if !p.hostile {
			p.add(p.pos(n), RuleEG100,
				fmt.Sprintf("aliases expand to more than %d items: refusing to expand them", maxAliasItems),
				"write the lists out; an environment file needs no anchors or aliases")
		}
		p.hostile = true
		return false
	}
	return true
}

// child dereferences n for walking its content; done must be called after.
func (p *envParser) child(n *yaml.Node) (c *yaml.Node, done func()) {
	if n != nil && n.Kind == yaml.AliasNode {
		c = p.deref(n)
		p.inAlias++
		return c, func() { p.inAlias-- }
	}
	return n, func() {}
}
