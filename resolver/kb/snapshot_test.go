package kb

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSnapshotMatchesYAML holds the snapshot Default decodes against the
// YAML it was made from: the same facts, the same row positions, the same
// version. It fails when data/*.yaml changed without `go generate`.
func TestSnapshotMatchesYAML(t *testing.T) {
	want, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeSnapshot(snapshotData)
	if err != nil {
		t.Fatalf("snapshot.gob: %v: run go generate ./resolver/kb", err)
	}
	if got.Version() != want.Version() {
		t.Fatalf("snapshot.gob is of data version %s, the YAML is %s: run go generate ./resolver/kb", got.Version(), want.Version())
	}
	if !reflect.DeepEqual(got.Facts, want.Facts) {
		t.Fatal("snapshot.gob's facts differ from data/*.yaml: run go generate ./resolver/kb")
	}
	if !reflect.DeepEqual(got.positions, want.positions) {
		t.Fatal("snapshot.gob's row positions differ from data/*.yaml: run go generate ./resolver/kb")
	}
	if !reflect.DeepEqual(got.gpuKeys, want.gpuKeys) {
		t.Fatal("the GPU index built from the snapshot differs from the YAML's")
	}
	// Generation is deterministic, so a regenerated file does not churn.
	b, err := Snapshot(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, snapshotData) {
		t.Error("snapshot.gob is not what go generate ./resolver/kb writes now")
	}
}

func TestVersionFollowsData(t *testing.T) {
	a := Default().Version()
	if len(a) != 16 {
		t.Fatalf("Version() = %q, want 16 hex digits", a)
	}
	// A KB read from a directory with one byte changed has another version.
	k, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	if k.Version() != a {
		t.Fatalf("embedded YAML version %s, snapshot %s", k.Version(), a)
	}
	dir := copyData(t)
	k1, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k1.Version() != a {
		t.Errorf("a copy of the data has version %s, want %s", k1.Version(), a)
	}
	f, err := os.OpenFile(filepath.Join(dir, "meta.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n# a comment\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	k2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k2.Version() == a {
		t.Error("changing a data file left the version unchanged")
	}
}

// TestStaleSnapshotIsNotUsed: a snapshot whose version is not the YAML's
// is passed over for the YAML.
func TestStaleSnapshotIsNotUsed(t *testing.T) {
	k, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		t.Fatal(err)
	}
	if d, err := digestFS(sub); err != nil || d != k.Version() {
		t.Fatalf("digestFS = %q, %v; loadFS computed %q", d, err, k.Version())
	}
	if Default().Version() != k.Version() {
		t.Errorf("Default() is of version %s, the YAML %s", Default().Version(), k.Version())
	}
	// A snapshot made from other data (one torch release fewer) is passed
	// over, as is one that does not decode.
	old := &KB{Facts: k.Facts, positions: k.positions, version: "0123456789abcdef"}
	old.Torch = old.Torch[1:]
	stale, err := Snapshot(old)
	if err != nil {
		t.Fatal(err)
	}
	for name, snap := range map[string][]byte{"stale": stale, "garbage": []byte("not gob")} {
		got, err := fromSnapshot(snap)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version() != k.Version() || len(got.Torch) != len(k.Torch) {
			t.Errorf("%s snapshot: used it (version %s, %d releases)", name, got.Version(), len(got.Torch))
		}
	}
}
