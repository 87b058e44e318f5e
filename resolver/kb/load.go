package kb

import (
	"bytes"
	"embed"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

//go:embed data/*.yaml
var embedded embed.FS

// Error is one problem in a knowledge-base file, at a 1-based line
// (0 when the problem is not tied to a line).
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ErrorList collects every problem found rather than stopping at the first,
// so one run of --kb DIR shows all that needs fixing.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Err returns nil when the list is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].File != l[j].File {
			return l[i].File < l[j].File
		}
		return l[i].Line < l[j].Line
	})
	return l
}

// pos is where a row was read.
type pos struct {
	File string
	Line int
}

var (
	defaultOnce sync.Once
	defaultKB   *KB
)

// Default returns the embedded knowledge base: the tables `go generate`
// writes from data/*.yaml (tables.go), since decoding and validating the
// YAML costs more than the rest of a one-file `envguard validate`.
// TestTablesMatchYAML proves they hold exactly what the YAML does.
//
// Tables older than the YAML beside them (data edited, go generate not
// run) are never used: their checksum is held against the YAML's, which
// costs a few hundredths of a millisecond, and the YAML is read instead.
func Default() *KB {
	defaultOnce.Do(func() {
		k, err := current(generated(), generatedChecksum)
		if err != nil {
			panic("kb: embedded data is invalid:\n" + err.Error())
		}
		defaultKB = k
	})
	return defaultKB
}

// current returns gen where it was made from the embedded YAML (the
// checksums agree), else the KB read from the YAML.
func current(gen *KB, genSum uint32) (*KB, error) {
	sum, err := embeddedChecksum()
	if err != nil {
		return nil, err
	}
	if sum == genSum {
		return gen, nil
	}
	return LoadEmbeddedYAML()
}

// embeddedChecksum is checksumFS of the embedded data/*.yaml.
func embeddedChecksum() (uint32, error) {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		return 0, err
	}
	return checksumFS(sub)
}

// checksumFS is a CRC-32C of the data files' names and bytes: what tells
// generated tables from stale ones at start-up, at a tenth of the cost of
// the SHA-256 that Version is.
func checksumFS(fsys fs.FS) (uint32, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return 0, err
	}
	sort.Strings(names)
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	return h.Sum32(), nil
}

// LoadEmbeddedYAML reads and validates the embedded data/*.yaml, as Load
// reads a directory; `go generate` prints its result as tables for Default.
func LoadEmbeddedYAML() (*KB, error) {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		return nil, err
	}
	return loadFS(sub, "resolver/kb/data")
}

// Load reads the knowledge base from dir: every *.yaml file in it, with the
// same layout as the embedded data (one or more top-level tables per file),
// and validates the whole. Errors name the file and line.
func Load(dir string) (*KB, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("kb: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("kb: %s is not a directory", dir)
	}
	k, err := loadFS(os.DirFS(dir), dir)
	if err != nil {
		return nil, err
	}
	k.baseName, k.basePath = "dir", dir
	return k, nil
}

func loadFS(fsys fs.FS, label string) (*KB, error) {
	k, err := readFS(fsys, filepath.ToSlash(label))
	if err != nil {
		return nil, err
	}
	if err := k.validate().Err(); err != nil {
		return nil, err
	}
	k.index()
	return k, nil
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`) })

// yamlErrors turns yaml.v3's "line N: msg" texts into positioned errors.
func yamlErrors(file string, err error) ErrorList {
	var texts []string
	if te, ok := err.(*yaml.TypeError); ok {
		texts = te.Errors
	} else {
		texts = []string{err.Error()}
	}
	var out ErrorList
	for _, t := range texts {
		if m := yamlLineRe().FindStringSubmatch(t); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, &Error{File: file, Line: n, Msg: m[2]})
			continue
		}
		out = append(out, &Error{File: file, Msg: strings.TrimPrefix(t, "yaml: ")})
	}
	return out
}

// addFile decodes one file strictly (unknown keys are errors) and merges
// its tables into k, remembering the line of every row.
func (k *KB) addFile(file string, data []byte) ErrorList {
	var part Facts
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&part); err != nil {
		return yamlErrors(file, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return yamlErrors(file, err)
	}
	lines := rowLines(&root)
	var errs ErrorList
	once := func(key, cur, next string) string {
		if next == "" {
			return cur
		}
		if cur != "" {
			errs = append(errs, &Error{File: file, Line: keyLine(&root, key), Msg: key + " is set in more than one file"})
		}
		return next
	}
	add := func(key string, n int) {
		for i := 0; i < n; i++ {
			line := 0
			if i < len(lines[key]) {
				line = lines[key][i]
			}
			k.positions[key] = append(k.positions[key], pos{file, line})
		}
	}
	dst, src := reflect.ValueOf(&k.Facts).Elem(), reflect.ValueOf(&part).Elem()
	for _, f := range factFields() {
		d, s := dst.Field(f.index), src.Field(f.index)
		switch f.kind {
		case reflect.String:
			d.SetString(once(f.key, d.String(), s.String()))
		case reflect.Slice:
			if s.Len() > 0 {
				d.Set(reflect.AppendSlice(d, s))
				add(f.key, s.Len())
			}
		}
	}
	return errs
}

// factField is a field of Facts: a table (a slice, whose rows files add)
// or a value (a string, which one file at most sets), by its yaml key.
type factField struct {
	key   string
	index int
	kind  reflect.Kind
	// keyFields are the row fields of a table's `key` tag (-1: the row
	// itself, a string); nil where the tag is missing. order: the table
	// is kept sorted by its key (`order:"key"`).
	keyFields []int
	order     bool
}

// factFields lists Facts' fields once, in their order.
var factFields = sync.OnceValue(func() []factField {
	t := reflect.TypeFor[Facts]()
	out := make([]factField, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch kind := f.Type.Kind(); {
		case key == "" || key == "-":
		case kind == reflect.String:
			out = append(out, factField{key: key, index: i, kind: kind})
		case kind == reflect.Slice:
			out = append(out, factField{key: key, index: i, kind: kind,
				keyFields: keyFieldsOf(key, f.Type.Elem(), f.Tag.Get("key")),
				order:     f.Tag.Get("order") == "key"})
		default:
			panic("kb: Facts." + f.Name + " is neither a table nor a string")
		}
	}
	return out
})

// rowLines maps each top-level key to the lines of its sequence items.
func rowLines(root *yaml.Node) map[string][]int {
	out := map[string][]int{}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return out
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		if val.Kind != yaml.SequenceNode {
			out[key.Value] = []int{key.Line}
			continue
		}
		for _, item := range val.Content {
			out[key.Value] = append(out[key.Value], item.Line)
		}
	}
	return out
}

func keyLine(root *yaml.Node, key string) int {
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return 0
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line
		}
	}
	return 0
}
