package kb

import (
	"reflect"
	"testing"
)

// TestMergeCoversFacts: addFile merges every table of Facts by reflection,
// so each table's rows all have a position, and a value set in two files is
// an error, whatever the field.
func TestMergeCoversFacts(t *testing.T) {
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
		if f.key == "learned_builds" {
			continue // the learned layer's, never embedded (TestLearnedPositions)
		}
		if n, got := v.Field(f.index).Len(), len(k.positions[f.key]); n == 0 || got != n {
			t.Errorf("%s: %d rows, %d positions", f.key, n, got)
		}
	}
	if want := reflect.TypeFor[Facts]().NumField() - 4; tables != want {
		t.Errorf("%d tables merged, want %d (every field but the four strings)", tables, want)
	}
	kk := &KB{positions: map[string][]pos{}}
	for _, file := range []string{"a.yaml", "b.yaml"} {
		if errs := kk.addFile(file, []byte("cuda_stack_patterns_source: x\ncuda_stack_patterns: [\"cuda-*\"]\n")); file == "b.yaml" && len(errs) != 1 {
			t.Errorf("a value set in two files: %v", errs)
		}
	}
	if len(kk.CUDAStackPatterns) != 2 || len(kk.positions["cuda_stack_patterns"]) != 2 {
		t.Errorf("rows of two files: %v %v", kk.CUDAStackPatterns, kk.positions)
	}
}
