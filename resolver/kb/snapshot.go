package kb

import (
	"bytes"
	_ "embed"
	"encoding/gob"
	"fmt"
	"reflect"
	"sort"
)

//go:generate go run ./internal/gensnapshot

// snapshotData is data/*.yaml, read, validated and gob-encoded by
// `go generate` (internal/gensnapshot). TestSnapshotMatchesYAML fails when
// it is stale.
//
//go:embed snapshot.gob
var snapshotData []byte

// snapshot is what snapshot.gob holds: the facts, where each row was read
// (sorted by table, so the file's bytes do not change from one generation
// to the next), and the version of the YAML.
type snapshot struct {
	Version   string
	Facts     Facts
	Positions []tablePositions
}

type tablePositions struct {
	Table string
	Rows  []pos
}

// Snapshot encodes k for Default; internal/gensnapshot writes it to
// snapshot.gob.
func Snapshot(k *KB) ([]byte, error) {
	s := snapshot{Version: k.version, Facts: k.Facts}
	for t, rows := range k.positions {
		s.Positions = append(s.Positions, tablePositions{t, rows})
	}
	sort.Slice(s.Positions, func(i, j int) bool { return s.Positions[i].Table < s.Positions[j].Table })
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(&s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func decodeSnapshot(data []byte) (*KB, error) {
	var s snapshot
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if s.Version == "" {
		return nil, fmt.Errorf("no version")
	}
	k := &KB{Facts: s.Facts, positions: map[string][]pos{}, version: s.Version}
	for _, t := range s.Positions {
		k.positions[t.Table] = t.Rows
	}
	k.index()
	return k, nil
}

// nilEmpty sets every empty slice under v to nil. The data files write
// `ptx: []` where they mean "none", which yaml.v3 reads as an empty slice
// and gob as nil; the KB reads both the same way (by length), and this
// makes the YAML path and the snapshot equal value for value.
func nilEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			nilEmpty(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				nilEmpty(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			if !v.IsNil() && v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.Len() {
			nilEmpty(v.Index(i))
		}
	}
}
