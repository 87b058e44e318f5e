package lockfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// TOML documents (pixi.toml, pyproject.toml, uv.lock, pylock.toml) are read
// with go-toml's unstable parser, which hands out every key and value with
// its byte range in the input; tomlDoc turns that stream of expressions into
// a tree whose every node keeps the line and column it was written at, so
// that findings land on the item as they do in environment.yml.

type tomlKind int

const (
	tomlTable tomlKind = iota
	tomlArray
	tomlString
	tomlScalar // bool, number, date: kept as its raw text
)

// tomlNode is one value of a TOML document.
type tomlNode struct {
	kind tomlKind
	str  string      // a string's value, a scalar's raw text
	pos  finding.Pos // where the value starts (past a string's opening quote)
	key  finding.Pos // where the key naming it starts; the value's position for array items

	keys []string // a table's keys in file order
	m    map[string]*tomlNode
	arr  []*tomlNode

	// closed marks a table written inline ({...}) or a value: TOML forbids
	// adding keys to it later.
	closed  bool
	defined bool // a [table] header named it
	aot     bool // an array built by [[array of tables]]
}

func (n *tomlNode) get(k string) *tomlNode {
	if n == nil || n.kind != tomlTable {
		return nil
	}
	return n.m[k]
}

// path follows dotted keys: n.path("tool", "pixi").
func (n *tomlNode) path(ks ...string) *tomlNode {
	for _, k := range ks {
		n = n.get(k)
	}
	return n
}

func (n *tomlNode) isTable() bool  { return n != nil && n.kind == tomlTable }
func (n *tomlNode) isString() bool { return n != nil && n.kind == tomlString }

// text is a string's value, or "" for anything else.
func (n *tomlNode) text() string {
	if n.isString() {
		return n.str
	}
	return ""
}

func (n *tomlNode) kindName() string {
	if n == nil {
		return "nothing"
	}
	switch n.kind {
	case tomlTable:
		return "a table"
	case tomlArray:
		return "an array"
	case tomlString:
		return "a string"
	}
	return "the value " + envspec.Clip(n.str, 30)
}

// tomlDoc is a parsed document and the line index its positions come from.
type tomlDoc struct {
	file  string
	data  []byte
	lines []int // byte offset where each line starts
	root  *tomlNode
	cur   tomlCursor
	last  int // the end of the last token read, for arrayOpen
	// rewinds counts positions asked for behind the cursor, for the tests
	// that hold the reading to one pass.
	rewinds int
}

// tomlCursor is the last position posAt handed out. off is where counting
// resumes: the start of the character at or before that position.
type tomlCursor struct {
	off, line, col int
}

const (
	// maxTOMLNodes bounds the values one document may hold. A real uv.lock
	// of a large project holds some tens of thousands; the bound stops a
	// hostile input (a million-element array) from costing the service its
	// memory.
	maxTOMLNodes = 500_000
	// maxTOMLDepth bounds the parts of one key or table header, and how
	// deep arrays and inline tables nest, as DefaultMaxDepth bounds a YAML
	// document: a manifest needs a handful, and each level of a
	// 100,000-part key `a.a.a… = 1` is a table of its own.
	maxTOMLDepth = envspec.DefaultMaxDepth
	// tomlCheckEvery is how many values are built between two looks at the
	// context.
	tomlCheckEvery = 256
)

// parseTOML reads a whole document. A syntax error, a key defined twice or
// a table reopened comes back as a positioned error; the tree holds what
// was read before it.
func parseTOML(file string, data []byte) (*tomlDoc, error) {
	return parseTOMLContext(context.Background(), file, data)
}

// parseTOMLContext is parseTOML that stops once ctx (nil: never) is done,
// returning ctx's error: the request that wanted the document is gone.
func parseTOMLContext(ctx context.Context, file string, data []byte) (*tomlDoc, error) {
	d := &tomlDoc{file: file, data: data, root: &tomlNode{kind: tomlTable, m: map[string]*tomlNode{}}}
	d.cur = tomlCursor{line: 1, col: 1}
	d.lines = append(d.lines, 0)
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		d.lines = append(d.lines, i)
	}
	b := &tomlBuilder{doc: d, cur: d.root, ctx: ctx}
	var p unstable.Parser
	p.Reset(data)
	for n := 1; p.NextExpression(); n++ {
		if err := b.expression(&p, p.Expression()); err != nil {
			return d, err
		}
		if ctx != nil && n%64 == 0 && ctx.Err() != nil {
			return d, ctx.Err()
		}
	}
	if err := p.Error(); err != nil {
		return d, d.parserError(&p, err)
	}
	return d, nil
}

// TOMLError is a syntax or structure error in a TOML document.
type TOMLError struct {
	Pos finding.Pos
	Msg string
}

func (e *TOMLError) Error() string { return e.Pos.String() + ": " + e.Msg }

func (d *tomlDoc) parserError(p *unstable.Parser, err error) error {
	var pe *unstable.ParserError
	if !errors.As(err, &pe) {
		return &TOMLError{Pos: finding.Pos{File: d.file, Line: 1, Col: 1}, Msg: err.Error()}
	}
	off := len(d.data)
	func() {
		defer func() { _ = recover() }() // Range panics on a slice of other memory
		if pe.Highlight != nil {
			off = int(p.Range(pe.Highlight).Offset)
		}
	}()
	// go-toml may point into the middle of a character (an unterminated
	// string that ends in one): the error is at the character.
	for back := 0; back < utf8.UTFMax-1 && off > 0 && off < len(d.data) && !utf8.RuneStart(d.data[off]); back++ {
		off--
	}
	return &TOMLError{Pos: d.posAt(off), Msg: pe.Message}
}

// posAt turns a byte offset into a line and a column counted in
// characters, as utf8.RuneCount counts them from the start of the line.
// The builder asks in file order (a key's parts, then its value, each
// after the last), so the cursor only moves forward and a whole document
// costs one pass over its bytes; counting every column from the start of
// its line made a key of N parts on one line cost N² (issue 22). An
// offset behind the cursor (a parser error's highlight) is counted again
// from the start of its line.
func (d *tomlDoc) posAt(off int) finding.Pos {
	if off < 0 {
		off = 0
	}
	if off > len(d.data) {
		off = len(d.data)
	}
	c := &d.cur
	if off < c.off {
		d.rewinds++
		line := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) // first line after
		*c = tomlCursor{off: d.lines[line-1], line: line, col: 1}
	}
	if seg := d.data[c.off:off]; len(seg) > 0 {
		if nl := bytes.LastIndexByte(seg, '\n'); nl >= 0 {
			c.line += bytes.Count(seg[:nl+1], []byte{'\n'})
			c.off += nl + 1
			c.col = 1
		}
	}
	i := c.off
	for i < off {
		if d.data[i] < utf8.RuneSelf {
			i++
			c.col++
			continue
		}
		_, size := utf8.DecodeRune(d.data[i:])
		if i+size > off {
			break // off is inside this character: its bytes count one each, as RuneCount counts a cut one
		}
		i += size
		c.col++
	}
	c.off = i
	return finding.Pos{File: d.file, Line: c.line, Col: c.col + off - i}
}

// rangePos is where a token starts; the token is the last one read.
func (d *tomlDoc) rangePos(r unstable.Range) finding.Pos {
	d.last = max(d.last, int(r.Offset)+int(r.Length))
	return d.posAt(int(r.Offset))
}

// arrayOpen is the offset of the '[' that opens the array value read next.
// go-toml gives an array no range (its offset reads 0, which put every
// array at 1:1 and sent the cursor back to the start); between the last
// token read and the bracket lie only blanks, '=', ',', the brackets that
// close earlier values, and comments.
func (d *tomlDoc) arrayOpen() int {
	for i := d.last; i < len(d.data); i++ {
		switch d.data[i] {
		case '[':
			d.last = i + 1
			return i
		case '#':
			j := bytes.IndexByte(d.data[i:], '\n')
			if j < 0 {
				return len(d.data)
			}
			i += j
		}
	}
	return len(d.data)
}

// valuePos is where a value's text starts: past the quotes of a string.
func (d *tomlDoc) valuePos(n *unstable.Node) finding.Pos {
	if n.Kind == unstable.Array && n.Raw.Length == 0 {
		return d.posAt(d.arrayOpen())
	}
	d.last = max(d.last, int(n.Raw.Offset)+int(n.Raw.Length))
	off := int(n.Raw.Offset)
	if n.Kind == unstable.String && off < len(d.data) {
		q := d.data[off]
		if q == '"' || q == '\'' {
			off++
			if off+1 < len(d.data) && d.data[off] == q && d.data[off+1] == q {
				off += 2
				// A newline right after the opening quotes is trimmed.
				if off < len(d.data) && d.data[off] == '\n' {
					off++
				} else if off+1 < len(d.data) && d.data[off] == '\r' && d.data[off+1] == '\n' {
					off += 2
				}
			}
		}
	}
	return d.posAt(off)
}

type tomlBuilder struct {
	doc   *tomlDoc
	cur   *tomlNode
	count int
	ctx   context.Context // nil: never stopped
}

func (b *tomlBuilder) errf(ps finding.Pos, format string, args ...any) error {
	return &TOMLError{Pos: ps, Msg: fmt.Sprintf(format, args...)}
}

func (b *tomlBuilder) newNode(kind tomlKind, ps finding.Pos) (*tomlNode, error) {
	b.count++
	if b.count > maxTOMLNodes {
		return nil, b.errf(ps, "more than %d values: not a lock file or manifest envguard reads", maxTOMLNodes)
	}
	if b.ctx != nil && b.count%tomlCheckEvery == 0 && b.ctx.Err() != nil {
		return nil, b.ctx.Err()
	}
	n := &tomlNode{kind: kind, pos: ps, key: ps}
	if kind == tomlTable {
		n.m = map[string]*tomlNode{}
	}
	return n, nil
}

type tomlKey struct {
	name string
	pos  finding.Pos
}

// keyOf reads the parts of a key or table header, refusing more than
// maxTOMLDepth of them before it turns any into a string.
func (b *tomlBuilder) keyOf(n *unstable.Node) ([]tomlKey, error) {
	var ks []tomlKey
	it := n.Key()
	for it.Next() {
		k := it.Node()
		ps := b.doc.rangePos(k.Raw)
		if len(ks) == maxTOMLDepth {
			return nil, b.errf(ks[0].pos, "a key of more than %d parts nests deeper than any manifest or lock file: refusing to read it", maxTOMLDepth)
		}
		ks = append(ks, tomlKey{name: string(k.Data), pos: ps})
	}
	return ks, nil
}

func joinKeys(ks []tomlKey) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.name
	}
	return strings.Join(s, ".")
}

func (b *tomlBuilder) expression(p *unstable.Parser, e *unstable.Node) error {
	switch e.Kind {
	case unstable.KeyValue:
		return b.keyValue(b.cur, e, 0)
	case unstable.Table:
		ks, err := b.keyOf(e)
		if err != nil {
			return err
		}
		t, err := b.descend(b.doc.root, ks, true)
		if err != nil {
			return err
		}
		if t.defined {
			return b.errf(ks[0].pos, "table [%s] is defined twice", joinKeys(ks))
		}
		t.defined = true
		b.cur = t
	case unstable.ArrayTable:
		ks, err := b.keyOf(e)
		if err != nil {
			return err
		}
		parent, err := b.descend(b.doc.root, ks[:len(ks)-1], true)
		if err != nil {
			return err
		}
		last := ks[len(ks)-1]
		arr := parent.m[last.name]
		if arr == nil {
			if arr, err = b.newNode(tomlArray, last.pos); err != nil {
				return err
			}
			arr.aot = true
			parent.m[last.name] = arr
			parent.keys = append(parent.keys, last.name)
		} else if arr.kind != tomlArray || !arr.aot {
			return b.errf(last.pos, "[[%s]]: %s is already %s", joinKeys(ks), last.name, arr.kindName())
		}
		t, err := b.newNode(tomlTable, ks[0].pos)
		if err != nil {
			return err
		}
		t.defined = true
		arr.arr = append(arr.arr, t)
		b.cur = t
	}
	return nil
}

// descend walks (creating where implicit) the tables named by ks. Through
// an array of tables it goes into the last element, as TOML says.
func (b *tomlBuilder) descend(t *tomlNode, ks []tomlKey, header bool) (*tomlNode, error) {
	for _, k := range ks {
		next := t.m[k.name]
		if next == nil {
			n, err := b.newNode(tomlTable, k.pos)
			if err != nil {
				return nil, err
			}
			t.m[k.name] = n
			t.keys = append(t.keys, k.name)
			t = n
			continue
		}
		switch {
		case next.kind == tomlArray && next.aot && header && len(next.arr) > 0:
			t = next.arr[len(next.arr)-1]
		case next.kind == tomlTable && !next.closed:
			t = next
		default:
			return nil, b.errf(k.pos, "key %q is already %s (line %d)", k.name, next.kindName(), next.key.Line)
		}
	}
	return t, nil
}

func (b *tomlBuilder) keyValue(t *tomlNode, e *unstable.Node, depth int) error {
	ks, err := b.keyOf(e)
	if err != nil {
		return err
	}
	if len(ks) == 0 {
		return nil
	}
	parent, err := b.descend(t, ks[:len(ks)-1], false)
	if err != nil {
		return err
	}
	last := ks[len(ks)-1]
	if old, ok := parent.m[last.name]; ok {
		return b.errf(last.pos, "key %q is defined twice (first at line %d)", last.name, old.key.Line)
	}
	v, err := b.value(e.Value(), depth)
	if err != nil {
		return err
	}
	v.key = last.pos
	if v.kind == tomlTable {
		v.closed = true
	}
	parent.m[last.name] = v
	parent.keys = append(parent.keys, last.name)
	return nil
}

// value builds a value nested depth arrays and inline tables deep.
func (b *tomlBuilder) value(n *unstable.Node, depth int) (*tomlNode, error) {
	ps := b.doc.valuePos(n)
	if (n.Kind == unstable.Array || n.Kind == unstable.InlineTable) && depth >= maxTOMLDepth {
		return nil, b.errf(ps, "arrays and inline tables nested more than %d deep: refusing to read them", maxTOMLDepth)
	}
	switch n.Kind {
	case unstable.String:
		v, err := b.newNode(tomlString, ps)
		if err != nil {
			return nil, err
		}
		v.str = string(n.Data)
		return v, nil
	case unstable.Array:
		v, err := b.newNode(tomlArray, ps)
		if err != nil {
			return nil, err
		}
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			cv, err := b.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, cv)
		}
		return v, nil
	case unstable.InlineTable:
		v, err := b.newNode(tomlTable, ps)
		if err != nil {
			return nil, err
		}
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind != unstable.KeyValue {
				continue
			}
			if err := b.keyValue(v, c, depth+1); err != nil {
				return nil, err
			}
		}
		v.closed = true
		return v, nil
	}
	v, err := b.newNode(tomlScalar, ps)
	if err != nil {
		return nil, err
	}
	v.str = string(n.Data)
	return v, nil
}

// tomlArr is the items of an array node (nil for anything else).
func tomlArr(n *tomlNode) []*tomlNode {
	if n == nil || n.kind != tomlArray {
		return nil
	}
	return n.arr
}

// tomlError turns a TOML syntax or structure error into EG100. The
// context's own error is no finding: the caller, whose context it is, is
// told by Context.Err().
func (l *lockEnv) tomlError(err error) {
	if l.ctx != nil && l.ctx.Err() != nil && errors.Is(err, l.ctx.Err()) {
		return
	}
	ps := finding.Pos{File: l.env.File, Line: 1}
	msg := err.Error()
	if te, ok := err.(*TOMLError); ok {
		ps, msg = te.Pos, te.Msg
	}
	l.diag(ps, envspec.RuleEG100, "invalid TOML: "+msg,
		"fix the TOML syntax (a lock file is best regenerated by the tool that wrote it)")
}
