package lockfile

// The YAML the conda-lock and pixi.lock files are written in: the top
// mapping, read so that a request that is gone stops the decoding, and
// the lookups the readers make in it, each with the entry's position.

import (
	"context"
	"fmt"
	"io"
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// ypos is where a node starts: past the opening quote of a quoted scalar,
// as the environment file parser places it; line 1 for none.
func (l *lockEnv) ypos(n *yaml.Node) finding.Pos {
	if n == nil {
		return finding.Pos{File: l.env.File, Line: 1}
	}
	ps := finding.Pos{File: l.env.File, Line: n.Line, Col: n.Column}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && ps.Col > 0 {
		ps.Col++
	}
	return ps
}

// yamlRoot parses a YAML lock file and returns its top mapping, or nil
// after an EG100/EG101 finding.
func (l *lockEnv) yamlRoot(src []byte) *yaml.Node {
	if line := envspec.FlowTooDeep(src, envspec.DefaultMaxDepth); line > 0 {
		l.diag(finding.Pos{File: l.env.File, Line: line}, envspec.RuleEG100,
			fmt.Sprintf("the document nests deeper than %d levels: refusing to read it", envspec.DefaultMaxDepth),
			"a lock file needs only a few levels")
		return nil
	}
	// Decoded from a reader that looks at the context between the chunks
	// the parser asks for (yaml.Unmarshal of the whole would run to the
	// end however long it takes), so that a request that is gone costs at
	// most one more chunk.
	var doc yaml.Node
	if err := yaml.NewDecoder(&ctxReader{ctx: l.ctx, src: src}).Decode(&doc); err != nil && err != io.EOF {
		if l.ctx != nil && l.ctx.Err() != nil {
			return nil // the caller is told by Context.Err()
		}
		l.env.Diags = append(l.env.Diags, envspec.YAMLError(l.env, err))
		return nil
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		ps := finding.Pos{File: l.env.File, Line: 1}
		if len(doc.Content) > 0 {
			ps = l.ypos(doc.Content[0])
		}
		l.diag(ps, envspec.RuleEG101, "the lock file's top level is not a mapping",
			"regenerate the lock file with the tool that wrote it")
		return nil
	}
	return doc.Content[0]
}

// ctxReader reads src, failing with ctx's error once ctx (nil: never) is
// done.
type ctxReader struct {
	ctx context.Context
	src []byte
}

func (r *ctxReader) Read(b []byte) (int, error) {
	if r.ctx != nil {
		if err := r.ctx.Err(); err != nil {
			return 0, err
		}
	}
	if len(r.src) == 0 {
		return 0, io.EOF
	}
	n := copy(b, r.src)
	r.src = r.src[n:]
	return n, nil
}

// yamlGet returns the value of key in a mapping node (nil if absent or not
// a mapping). Aliases are not followed: lock files use none.
func yamlGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func yamlSeq(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

func yamlValue(m *yaml.Node, key string) string {
	if v := yamlGet(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

func yamlKeys(m *yaml.Node) string {
	var ks []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		ks = append(ks, m.Content[i].Value)
	}
	sort.Strings(ks)
	return platformList(ks)
}
