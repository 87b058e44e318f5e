package kb

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestTablesMatchYAML holds the generated tables Default uses against the
// YAML they were made from: the same facts, value for value, and the same
// version. It fails when data/*.yaml changed without `go generate`.
func TestTablesMatchYAML(t *testing.T) {
	want, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	got := generated()
	if got.Version() != want.Version() {
		t.Fatalf("tables_gen.go is of data version %s, the YAML is %s: run go generate ./resolver/kb", got.Version(), want.Version())
	}
	if !reflect.DeepEqual(got.Facts, want.Facts) {
		t.Fatal("tables_gen.go's facts differ from data/*.yaml: run go generate ./resolver/kb")
	}
	if !reflect.DeepEqual(got.positions, want.positions) {
		t.Fatal("tables_gen.go's row positions differ from data/*.yaml: run go generate ./resolver/kb")
	}
	if !reflect.DeepEqual(got.gpuKeys.keys, want.buildGPUKeys()) || got.latestTorch != want.latestTorch {
		t.Fatal("the indexes built from the tables differ from the YAML's")
	}
	src, err := GoSource(want)
	if err != nil {
		t.Fatal(err)
	}
	if file, err := os.ReadFile("tables_gen.go"); err != nil || !bytes.Equal(file, src) {
		t.Errorf("tables_gen.go is not what go generate ./resolver/kb writes now (%v)", err)
	}
	if first, again := Default(), Default(); first != again || first.Version() != want.Version() {
		t.Error("Default() is not the one KB of the YAML's version")
	}
}

func TestVersionFollowsData(t *testing.T) {
	a := Default().Version()
	if len(a) != 16 {
		t.Fatalf("Version() = %q, want 16 hex digits", a)
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

// TestStaleTablesAreNotUsed: tables whose version is not the YAML's are
// passed over for the YAML.
func TestStaleTablesAreNotUsed(t *testing.T) {
	k, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := embeddedChecksum()
	if err != nil || sum != generatedChecksum {
		t.Fatalf("checksumFS = %#x, %v; the tables were made from %#x: run go generate ./resolver/kb", sum, err, generatedChecksum)
	}
	// Tables made from other data (one torch release fewer) carry another
	// checksum.
	stale := &KB{Facts: k.Facts, version: "0123456789abcdef"}
	stale.Torch = stale.Torch[1:]
	got, err := current(stale, sum+1)
	if err != nil {
		t.Fatal(err)
	}
	if got == stale || got.Version() != k.Version() || len(got.Torch) != len(k.Torch) {
		t.Errorf("stale tables used (version %s, %d releases)", got.Version(), len(got.Torch))
	}
	if fresh := generated(); func() *KB { g, _ := current(fresh, sum); return g }() != fresh {
		t.Error("current tables passed over")
	}
}
