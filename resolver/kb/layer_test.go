package kb

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestEveryTableHasKey: each table of Facts declares the key that layers
// replace its rows by, and on the embedded data that key tells every row of
// a table apart (a key two rows share would let an overlay row replace the
// wrong one).
func TestEveryTableHasKey(t *testing.T) {
	k, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	v := reflect.ValueOf(k.Facts)
	tables := 0
	for _, f := range factFields() {
		if f.kind != reflect.Slice {
			continue
		}
		tables++
		if f.keyFields == nil {
			t.Errorf("table %s has no key tag", f.key)
			continue
		}
		seen := map[string]int{}
		rows := v.Field(f.index)
		for i := range rows.Len() {
			key := f.rowKey(rows.Index(i))
			if j, dup := seen[key]; dup {
				t.Errorf("%s: rows %d and %d share the key %s (%v, %v)", f.key, j, i, f.showKey(rows.Index(i)), k.positions[f.key][j], k.positions[f.key][i])
			}
			seen[key] = i
		}
	}
	if tables < 30 {
		t.Errorf("only %d tables", tables)
	}
}

// TestKeyTagErrors: a key naming no field, or a field that cannot be a key,
// is refused when Facts' fields are read.
func TestKeyTagErrors(t *testing.T) {
	for _, c := range []struct {
		tag string
		row reflect.Type
	}{
		{"nosuch", reflect.TypeFor[TorchRelease]()},
		{".", reflect.TypeFor[TorchRelease]()},
		{"version", reflect.TypeFor[string]()},
		{"libs", reflect.TypeFor[TorchCUDALibs]()},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("key %q on %s: no panic", c.tag, c.row)
				}
			}()
			keyFieldsOf("t", c.row, c.tag)
		}()
	}
}

func writeLayer(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const overlaySources = `sources:
  - {key: TEST_OVERLAY, title: "a test overlay"}
`

// TestStackReplacesAndAdds: an overlay row with the key of an embedded row
// replaces it in place; a row with a new key is added; every other row
// stays the embedded one, and each row names its layer.
func TestStackReplacesAndAdds(t *testing.T) {
	base := Default()
	dir := writeLayer(t, map[string]string{
		"meta.yaml": "date: \"2026-12-01\"\n" + overlaySources,
		"torch.yaml": `torch:
  - {version: "2.5.1", torchvision: "0.20.1", torchaudio: "2.5.1", python: ["3.9", "3.10", "3.11", "3.12", "3.13"], source: "TEST_OVERLAY", note: "overlay row"}
`,
		"gpus.yaml": `gpus:
  - {name: "Test Accelerator 9000", cc: "9.0", arch: "Hopper", source: "TEST_OVERLAY"}
`,
		"triton.yaml": `torch_triton:
  - {torch: "2.1.1", triton: "2.1.0", source: "TEST_OVERLAY"}
`,
	})
	k, err := Stack(base, Overlay{Name: "--kb", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r, ok := k.Release("2.5.1")
	if !ok || r.Note != "overlay row" || len(r.Python) != 5 {
		t.Errorf("2.5.1 = %+v", r)
	}
	if l, _ := k.ReleaseLayer("2.5.1"); l.Name != "--kb" || l.Date != "2026-12-01" || l.Path != dir {
		t.Errorf("2.5.1's layer = %+v", l)
	}
	if l, _ := k.ReleaseLayer("2.5.0"); l.Name != "embedded" {
		t.Errorf("2.5.0's layer = %+v", l)
	}
	if len(k.Torch) != len(base.Torch) {
		t.Errorf("%d torch rows, want %d (one replaced)", len(k.Torch), len(base.Torch))
	}
	if orig, _ := base.Release("2.5.1"); orig.Note == "overlay row" {
		t.Error("the embedded KB was changed")
	}
	if g, ok := k.GPUByName("test accelerator 9000"); !ok || g.CC != "9.0" {
		t.Errorf("added GPU: %+v %v", g, ok)
	}
	if len(k.GPUs) != len(base.GPUs)+1 || len(k.Sources) != len(base.Sources)+1 {
		t.Errorf("gpus %d sources %d, want %d %d", len(k.GPUs), len(k.Sources), len(base.GPUs)+1, len(base.Sources)+1)
	}
	if _, ok := base.GPUByName("test accelerator 9000"); ok {
		t.Error("the embedded KB knows the added GPU")
	}
	// torch_triton is kept sorted: the added 2.1.1 goes between 2.1.0 and 2.1.2.
	var order []string
	for i, r := range k.TorchTriton {
		order = append(order, r.Torch)
		if r.Torch == "2.1.1" && k.RowLayer("torch_triton", i).Name != "--kb" {
			t.Errorf("2.1.1's triton row is of layer %+v", k.RowLayer("torch_triton", i))
		}
		if r.Torch == "2.1.2" && k.RowLayer("torch_triton", i).Name != "embedded" {
			t.Errorf("2.1.2's triton row is of layer %+v", k.RowLayer("torch_triton", i))
		}
	}
	if got := strings.Join(order, " "); !strings.Contains(got, "2.1.0 2.1.1 2.1.2") {
		t.Errorf("torch_triton order: %s", got)
	}
	if k.Date != "2026-12-01" {
		t.Errorf("date %s, want the newest layer's", k.Date)
	}
	ls := k.Layers()
	if len(ls) != 2 || ls[0].Name != "embedded" || ls[1].Name != "--kb" || ls[1].Rows != 4 || ls[0].Superseded {
		t.Errorf("layers %+v", ls)
	}
	if total := ls[0].Rows + ls[1].Rows; total != sumCounts(k) {
		t.Errorf("layer rows %d, KB rows %d", total, sumCounts(k))
	}
	if k.Version() == base.Version() || k.Version() == ls[1].Version {
		t.Errorf("version %s is not the stack's", k.Version())
	}
	if nl := k.NewestLayer(); nl.Name != "--kb" {
		t.Errorf("newest layer %+v", nl)
	}
}

func sumCounts(k *KB) int {
	n := 0
	for _, c := range k.Counts() {
		n += c
	}
	return n
}

// TestStackOrder: layers apply in order, so learned replaces what the
// downloaded layer replaced, and a layer older than the one below leaves
// the stack's date alone.
func TestStackOrder(t *testing.T) {
	row := func(note string) string {
		return `torch:
  - {version: "2.5.1", torchvision: "0.20.1", torchaudio: "2.5.1", python: ["3.9", "3.13"], source: "TEST_OVERLAY", note: "` + note + `"}
`
	}
	down := writeLayer(t, map[string]string{"a.yaml": overlaySources + "date: \"2026-12-05\"\n", "t.yaml": row("downloaded")})
	learned := writeLayer(t, map[string]string{"t.yaml": row("learned")})
	k, err := Stack(Default(), Overlay{Name: "downloaded", Dir: down, Serial: 7, KeyID: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	// learned cites the source the downloaded layer defines.
	k, err = Stack(k, Overlay{Name: "learned", Dir: learned})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := k.Release("2.5.1"); r.Note != "learned" {
		t.Errorf("2.5.1 note %q", r.Note)
	}
	ls := k.Layers()
	if len(ls) != 3 || ls[1].Rows != 1 || ls[2].Rows != 1 || ls[1].Serial != 7 || ls[1].KeyID != "k1" || ls[2].Date != "" {
		t.Errorf("layers %+v", ls)
	}
	if k.Date != "2026-12-05" || k.NewestLayer().Name != "downloaded" {
		t.Errorf("date %s newest %+v", k.Date, k.NewestLayer())
	}
}

// TestStackFullLayer: a layer holding every table is a whole KB: it
// replaces the layers below (a full --kb DIR works as it always did).
func TestStackFullLayer(t *testing.T) {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		t.Fatal(err)
	}
	low, err := Stack(Default(), Overlay{Name: "downloaded", Dir: writeLayer(t, map[string]string{
		"a.yaml": overlaySources + "gpus:\n  - {name: \"Test Accelerator 9000\", cc: \"9.0\", arch: \"Hopper\", source: \"TEST_OVERLAY\"}\n"})})
	if err != nil {
		t.Fatal(err)
	}
	k, err := Stack(low, Overlay{Name: "--kb", Dir: "copy", FS: sub})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := k.GPUByName("test accelerator 9000"); ok {
		t.Error("a row of a layer below a full layer is still used")
	}
	ls := k.Layers()
	if len(ls) != 3 || !ls[0].Superseded || !ls[1].Superseded || ls[2].Superseded || !ls[2].Full || ls[0].Rows != 0 || ls[2].Rows != sumCounts(k) {
		t.Errorf("layers %+v", ls)
	}
	if !reflect.DeepEqual(k.Facts, Default().Facts) {
		t.Error("a full copy of the embedded data does not give the embedded facts")
	}
	if k.NewestLayer().Name != "--kb" {
		t.Errorf("newest %+v", k.NewestLayer())
	}
}

// TestStackErrors: a bad overlay is refused with the overlay's file and
// line: YAML errors, unknown fields, rows that fail validation once
// merged, and two rows of one layer with one key.
func TestStackErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"syntax", map[string]string{"x.yaml": "torch: [\n"}, []string{"/x.yaml:"}},
		{"unknown field", map[string]string{"x.yaml": overlaySources + "gpus:\n  - {name: A, cc: \"9.0\", arch: Hopper, colour: red, source: TEST_OVERLAY}\n"},
			[]string{"/x.yaml:4: field colour not found"}},
		{"invalid row", map[string]string{"x.yaml": overlaySources + "gpus:\n  - {name: A, cc: \"nine\", arch: Hopper, source: TEST_OVERLAY}\n"},
			[]string{"/x.yaml:4: gpus[", `cc "nine" is not a version`}},
		{"uncited row", map[string]string{"x.yaml": "torch:\n  - {version: \"2.5.1\", torchvision: \"0.20.1\", python: [\"3.9\"], source: NOWHERE}\n"},
			[]string{"/x.yaml:2: torch[", `cites no key`}},
		{"new series not in torch_series", map[string]string{"x.yaml": overlaySources + "torch:\n  - {version: \"7.1.0\", python: [\"3.9\"], source: TEST_OVERLAY}\n"},
			[]string{"/x.yaml:4: torch[", "series 7.1 of 7.1.0 is not in torch_series"}},
		{"two rows one key", map[string]string{"x.yaml": overlaySources + "gpus:\n  - {name: A, cc: \"9.0\", arch: Hopper, source: TEST_OVERLAY}\n  - {name: A, cc: \"8.0\", arch: Ampere, source: TEST_OVERLAY}\n"},
			[]string{"/x.yaml:5: gpus[1]: a second row with key A in this layer (the first is at ", "/x.yaml:4)"}},
		{"bad date", map[string]string{"x.yaml": "date: yesterday\n"}, []string{`date "yesterday" is not YYYY-MM-DD`}},
		{"value twice", map[string]string{"x.yaml": "date_note: a\n", "y.yaml": "date_note: b\n"}, []string{"/y.yaml:1: date_note is set in more than one file"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeLayer(t, c.files)
			k, err := Stack(Default(), Overlay{Name: "--kb", Dir: dir})
			if err == nil {
				t.Fatalf("accepted: %d layers", len(k.Layers()))
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if _, err := Stack(Default(), Overlay{Name: "--kb", Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no *.yaml files") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Stack(Default(), Overlay{Name: "--kb", Dir: filepath.Join(t.TempDir(), "none")}); err == nil {
		t.Error("missing dir accepted")
	}
}

// TestDefaultLayers: the embedded KB alone is one full layer with every row.
func TestDefaultLayers(t *testing.T) {
	k := Default()
	ls := k.Layers()
	if len(ls) != 1 || ls[0].Name != "embedded" || ls[0].Date != k.Date || ls[0].Version != k.Version() || ls[0].Rows != sumCounts(k) {
		t.Errorf("layers %+v", ls)
	}
	if l := k.RowLayer("torch", 3); l.Name != "embedded" {
		t.Errorf("row layer %+v", l)
	}
}

// FuzzStack: whatever an overlay file holds, Stack returns a KB or an
// error, never panics, and a KB it returns accounts for every row.
func FuzzStack(f *testing.F) {
	f.Add([]byte("date: \"2026-12-01\"\n" + overlaySources + "gpus:\n  - {name: X, cc: \"9.0\", arch: Hopper, source: TEST_OVERLAY}\n"))
	f.Add([]byte("torch:\n  - {version: \"2.5.1\", python: [\"3.9\"], source: PREV}\n  - {version: \"2.5.1\"}\n"))
	f.Add([]byte("cuda_stack: [a, a]\ncuda_stack_source: x\n"))
	f.Add([]byte("torch_triton:\n  - {torch: \"0.1.0\", triton: \"1.0.0\", source: PREV}\n"))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := Stack(Default(), Overlay{Name: "fuzz", Dir: "fuzz", FS: fstest.MapFS{"x.yaml": {Data: data}}})
		if err != nil {
			return
		}
		rows := 0
		for _, l := range k.Layers() {
			rows += l.Rows
		}
		if rows != sumCounts(k) {
			t.Errorf("layers give %d rows, the KB has %d", rows, sumCounts(k))
		}
	})
}
