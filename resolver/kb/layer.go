package kb

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Layer is one source of the rows of a knowledge base. The embedded KB is
// the first layer; Stack puts the downloaded bundle, the learned facts and
// --kb DIR above it, in that order (docs/knowledge-base.md).
type Layer struct {
	// Name says which layer it is: embedded, downloaded, learned, --kb (or
	// dir, for a KB read with Load alone).
	Name string `json:"name"`
	// Date is the layer's own `date:`; "" where its files set none.
	Date string `json:"date,omitempty"`
	// Version is a digest of the layer's files' names and bytes.
	Version string `json:"version"`
	// Path is the directory the layer was read from ("" for embedded).
	Path string `json:"path,omitempty"`
	// Serial and KeyID are a downloaded bundle's serial and signing key.
	Serial uint64 `json:"serial,omitempty"`
	KeyID  string `json:"key_id,omitempty"`
	// Rows counts the rows of the stacked KB that come from this layer:
	// those it added and those it replaced.
	Rows int `json:"rows"`
	// Full marks a layer above the first that holds every table: a whole
	// knowledge base, which replaces the layers below instead of adding to
	// them.
	Full bool `json:"full,omitempty"`
	// Superseded marks a layer a later full layer replaced: none of its
	// rows is used.
	Superseded bool `json:"superseded,omitempty"`
}

// Overlay is a directory of data files (the same layout as data/*.yaml,
// any subset of the tables) to put above a knowledge base.
type Overlay struct {
	Name string // embedded, downloaded, learned, --kb
	Dir  string // the directory, read unless FS is set; also the label of errors
	FS   fs.FS  // optional: read instead of Dir
	// Serial and KeyID describe a downloaded bundle (shown in reports).
	Serial uint64
	KeyID  string
}

// maxLayers bounds the layers of one KB (layerOf holds a byte per row).
const maxLayers = 255

// Layers returns the layers k was built from, the lowest (embedded) first.
func (k *KB) Layers() []Layer {
	if k.layers != nil {
		return append([]Layer(nil), k.layers...)
	}
	name := k.baseName
	if name == "" {
		name = "embedded"
	}
	rows := 0
	for _, n := range k.Counts() {
		rows += n
	}
	return []Layer{{Name: name, Date: k.Date, Version: k.version, Path: k.basePath, Rows: rows}}
}

// NewestLayer returns the layer in use with the newest date (the embedded
// one when no layer in use is newer); the age of the knowledge is its age.
func (k *KB) NewestLayer() Layer {
	ls := k.Layers()
	best := -1
	for i, l := range ls {
		if l.Superseded || l.Date == "" {
			continue
		}
		if best < 0 || l.Date >= ls[best].Date {
			best = i
		}
	}
	if best < 0 {
		return ls[len(ls)-1]
	}
	return ls[best]
}

// RowLayer returns the layer row i of table (its yaml key, "torch") came
// from.
func (k *KB) RowLayer(table string, i int) Layer {
	ls := k.Layers()
	if rows := k.layerOf[table]; i >= 0 && i < len(rows) && int(rows[i]) < len(ls) {
		return ls[rows[i]]
	}
	return ls[0]
}

// ReleaseLayer returns the layer a torch release's row came from.
func (k *KB) ReleaseLayer(version string) (Layer, bool) {
	v := stripLocal(version)
	for i := range k.Torch {
		if k.Torch[i].Version == v {
			return k.RowLayer("torch", i), true
		}
	}
	return Layer{}, false
}

// Stack returns base with the overlay's rows on top: a row whose key (the
// table's `key` tag in Facts) matches a row of base replaces it, any other
// row is added, and each row remembers the layer it came from. A layer
// holding every table is a whole KB and replaces base. Values (date_note,
// cuda_stack_source, ...) an overlay sets replace base's; the date is the
// newest layer's. The result is validated as Load validates a directory,
// and errors name the overlay's files and lines. base is not changed.
func Stack(base *KB, ov Overlay) (*KB, error) {
	fsys, label := ov.FS, filepath.ToSlash(ov.Dir)
	if label == "" {
		label = ov.Name
	}
	if fsys == nil {
		st, err := os.Stat(ov.Dir)
		if err != nil {
			return nil, fmt.Errorf("kb: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("kb: %s is not a directory", ov.Dir)
		}
		fsys = os.DirFS(ov.Dir)
	}
	part, err := readFS(fsys, label)
	if err != nil {
		return nil, err
	}
	lower := base.Layers()
	if len(lower) >= maxLayers {
		return nil, fmt.Errorf("kb: more than %d layers", maxLayers)
	}
	li := uint8(len(lower))
	layer := Layer{Name: ov.Name, Date: part.Date, Version: part.version, Path: ov.Dir, Serial: ov.Serial, KeyID: ov.KeyID, Full: part.full()}

	out := &KB{positions: map[string][]pos{}, layerOf: map[string][]uint8{}}
	dst, src := reflect.ValueOf(&out.Facts).Elem(), reflect.ValueOf(&part.Facts).Elem()
	if layer.Full {
		for i := range lower {
			lower[i].Superseded = true
		}
	} else {
		dst.Set(reflect.ValueOf(base.Facts))
	}
	var errs ErrorList
	for _, f := range factFields() {
		d, s := dst.Field(f.index), src.Field(f.index)
		switch f.kind {
		case reflect.String:
			switch {
			case s.String() == "":
			case f.key == "date" && d.String() > s.String():
				// the whole's date is its newest layer's
			default:
				d.SetString(s.String())
			}
		case reflect.Slice:
			if !layer.Full {
				// A copy: base's rows stay as they are.
				d.Set(reflect.AppendSlice(reflect.MakeSlice(d.Type(), 0, d.Len()+s.Len()), d))
				ps := append([]pos(nil), base.positions[f.key]...)
				for len(ps) < d.Len() {
					ps = append(ps, pos{File: "(knowledge base)"})
				}
				out.positions[f.key] = ps[:d.Len()]
				out.layerOf[f.key] = base.rowLayers(f.key, d.Len())
			}
			errs = append(errs, out.merge(f, d, s, part.positions[f.key], li)...)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	out.layers = append(lower, layer)
	for i := range out.layers {
		out.layers[i].Rows = 0
	}
	for _, rows := range out.layerOf {
		for _, l := range rows {
			out.layers[l].Rows++
		}
	}
	// Every layer counts, a superseded one too: reports list them all, and
	// caches key on the version.
	h := sha256.New()
	for _, l := range out.layers {
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00%t\x00", l.Name, l.Version, l.Serial, l.KeyID, l.Superseded)
	}
	out.version = hex.EncodeToString(h.Sum(nil))[:16]
	if err := out.validate().Err(); err != nil {
		return nil, err
	}
	out.index()
	return out, nil
}

// rowLayers is the layer of each of the n rows of a table of k.
func (k *KB) rowLayers(table string, n int) []uint8 {
	if rows, ok := k.layerOf[table]; ok {
		return append([]uint8(nil), rows...)
	}
	return make([]uint8, n)
}

// merge puts the rows s of one layer (at positions at) into the table d of
// k: a row with the key of a row of d replaces it, others are appended;
// two rows of the layer with one key are an error.
func (k *KB) merge(f factField, d, s reflect.Value, at []pos, layer uint8) ErrorList {
	if s.Len() == 0 {
		return nil
	}
	if f.keyFields == nil {
		return ErrorList{{File: "(knowledge base)", Msg: fmt.Sprintf("table %s has no key tag in Facts: its rows cannot be layered", f.key)}}
	}
	where := func(j int) pos {
		if j < len(at) {
			return at[j]
		}
		return pos{File: "(knowledge base)"}
	}
	idx := map[string]int{}
	for i := range d.Len() {
		idx[f.rowKey(d.Index(i))] = i
	}
	mine := map[string]int{}
	var errs ErrorList
	for j := range s.Len() {
		row := s.Index(j)
		key := f.rowKey(row)
		if first, dup := mine[key]; dup {
			p, q := where(j), where(first)
			errs = append(errs, &Error{File: p.File, Line: p.Line, Msg: fmt.Sprintf("%s[%d]: a second row with key %s in this layer (the first is at %s:%d)", f.key, j, f.showKey(row), q.File, q.Line)})
			continue
		}
		mine[key] = j
		if i, ok := idx[key]; ok {
			d.Index(i).Set(row)
			k.positions[f.key][i] = where(j)
			k.layerOf[f.key][i] = layer
			continue
		}
		idx[key] = d.Len()
		d.Set(reflect.Append(d, row))
		k.positions[f.key] = append(k.positions[f.key], where(j))
		k.layerOf[f.key] = append(k.layerOf[f.key], layer)
	}
	if f.order {
		k.sortTable(f, d)
	}
	return errs
}

// sortTable sorts a table kept in key order (order:"key"), with its rows'
// positions and layers; rows of equal keys keep their order.
func (k *KB) sortTable(f factField, d reflect.Value) {
	n := d.Len()
	perm := make([]int, n)
	keys := make([][]string, n)
	for i := range perm {
		perm[i] = i
		keys[i] = f.keyParts(d.Index(i))
	}
	sort.SliceStable(perm, func(a, b int) bool {
		ka, kb := keys[perm[a]], keys[perm[b]]
		for i := range ka {
			if c := cmpOr(ka[i], kb[i]); c != 0 {
				return c < 0
			}
		}
		return false
	})
	rows := reflect.MakeSlice(d.Type(), n, n)
	ps, ls := make([]pos, n), make([]uint8, n)
	oldP, oldL := k.positions[f.key], k.layerOf[f.key]
	for to, from := range perm {
		rows.Index(to).Set(d.Index(from))
		if from < len(oldP) {
			ps[to] = oldP[from]
		}
		ls[to] = oldL[from]
	}
	d.Set(rows)
	k.positions[f.key], k.layerOf[f.key] = ps, ls
}

// full reports whether k holds a date and every table the embedded KB
// has rows in: a whole KB. (A table only some layers fill, such as learned
// facts, does not make a copy of the embedded data partial.)
func (k *KB) full() bool {
	if k.Date == "" {
		return false
	}
	v, emb := reflect.ValueOf(k.Facts), reflect.ValueOf(Default().Facts)
	for _, f := range factFields() {
		if f.kind == reflect.Slice && v.Field(f.index).Len() == 0 && emb.Field(f.index).Len() > 0 {
			return false
		}
	}
	return true
}

// readFS reads every *.yaml file of fsys into a KB, unvalidated: its rows,
// their positions (under label) and the files' digest.
func readFS(fsys fs.FS, label string) (*KB, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("kb: %s: no *.yaml files", label)
	}
	sort.Strings(names)
	k := &KB{positions: map[string][]pos{}}
	var errs ErrorList
	h := sha256.New()
	for _, name := range names {
		file := path.Join(label, name)
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, &Error{File: file, Msg: err.Error()})
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
		errs = append(errs, k.addFile(file, data)...)
	}
	k.version = hex.EncodeToString(h.Sum(nil))[:16]
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return k, nil
}

// rowKey is the key of a table row: its key fields' values.
func (f factField) rowKey(row reflect.Value) string {
	return strings.Join(f.keyParts(row), "\x00")
}

// showKey is the key as an error message shows it.
func (f factField) showKey(row reflect.Value) string {
	parts := f.keyParts(row)
	for i, p := range parts {
		if p == "" {
			parts[i] = `""`
		}
	}
	return strings.Join(parts, " ")
}

func (f factField) keyParts(row reflect.Value) []string {
	if len(f.keyFields) == 1 && f.keyFields[0] < 0 {
		return []string{keyString(row)}
	}
	out := make([]string, len(f.keyFields))
	for i, fi := range f.keyFields {
		out[i] = keyString(row.Field(fi))
	}
	return out
}

// keyString writes a key field's value: strings as they are, numbers and
// booleans in decimal, lists comma-separated.
func keyString(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = keyString(v.Index(i))
		}
		return strings.Join(parts, ",")
	}
	panic("kb: a key field of kind " + v.Kind().String())
}

// keyFieldsOf resolves a `key` tag (yaml keys of the row type's fields, or
// "." for a table of strings) to field indices; -1 stands for the row.
func keyFieldsOf(table string, row reflect.Type, tag string) []int {
	if tag == "" {
		return nil
	}
	if tag == "." {
		if row.Kind() != reflect.String {
			panic("kb: table " + table + ": key \".\" on rows that are not strings")
		}
		return []int{-1}
	}
	if row.Kind() != reflect.Struct {
		panic("kb: table " + table + ": rows are not structs; its key is \".\"")
	}
	var out []int
	for _, name := range strings.Split(tag, ",") {
		found := -1
		for i := range row.NumField() {
			if y, _, _ := strings.Cut(row.Field(i).Tag.Get("yaml"), ","); y == name {
				found = i
			}
		}
		if found < 0 {
			panic("kb: table " + table + ": key field " + name + " is not a field of " + row.Name())
		}
		switch k := row.Field(found).Type.Kind(); k {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Slice:
			if k == reflect.Slice && row.Field(found).Type.Elem().Kind() != reflect.String {
				panic("kb: table " + table + ": key field " + name + " is a list of non-strings")
			}
		default:
			panic("kb: table " + table + ": key field " + name + " is a " + k.String())
		}
		out = append(out, found)
	}
	return out
}

// Consulted names the layers in use, lowest first, each with its date:
// "embedded 2026-11-30", or "embedded 2026-11-30 + downloaded 2026-12-05
// + learned undated". Messages that say a fact is missing name them.
func (k *KB) Consulted() string {
	var parts []string
	for _, l := range k.Layers() {
		if l.Superseded {
			continue
		}
		date := l.Date
		if date == "" {
			date = "undated"
		}
		parts = append(parts, l.Name+" "+date)
	}
	return strings.Join(parts, " + ")
}
