package resolver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// kbWithIndexRows loads the embedded data plus one more file of
// index_releases rows (replacing the shipped index-releases.yaml).
func kbWithIndexRows(t *testing.T, rows string) *kb.KB {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("kb", "data")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == "index-releases.yaml" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	y := "sources:\n  - {key: TEST_INDEX, title: test rows}\nindex_releases:\n" + rows
	if err := os.WriteFile(filepath.Join(dir, "index-releases.yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := kb.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func eg206Messages(t *testing.T, k *kb.KB, src string) []string {
	t.Helper()
	env := envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	return runRule(t, ruleEG206, &Context{Env: env, Stack: Resolve(env, k), KB: k})
}

// A release newer than the tables is reported with what the index says:
// Requires-Python, the pins, the toolkit's driver floor and target range
// from the KB's CUDA tables, and the date read; never an architecture list
// of the release's own.
func TestEG206IndexMetadata(t *testing.T) {
	k := kbWithIndexRows(t, `  - {package: torch, version: "2.15.0", requires_python: ">=3.10", uploaded: "2026-10-14", `+
		`cuda_pins: ["nvidia-cuda-runtime-cu12==12.8.90; platform_system == \"Linux\"", "nvidia-cudnn-cu12==9.10.2.21"], `+
		`url: "http://index.test/simple/torch/", sha256: "`+strings.Repeat("ab", 32)+`", read: "2026-11-30", source: TEST_INDEX}
`)
	got := eg206Messages(t, k, "name: x\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n    - torch==2.15.0\n")
	if len(got) != 1 {
		t.Fatalf("want one EG206, got %q", got)
	}
	msg := got[0]
	floor, _ := k.DriverFloor("12.8")
	ta, _ := k.ToolkitArch("12.8")
	for _, want := range []string{
		"is newer than the knowledge base",
		"the package index lists torch 2.15.0 (uploaded 2026-10-14)",
		"Requires-Python >=3.10",
		"nvidia-cudnn-cu12==9.10.2.21",
		"built with CUDA 12.8, which needs Linux driver >= " + floor.LinuxMin,
		"can target sm_" + archDigits(ta.MinSASS) + " … sm_" + archDigits(ta.MaxSASS),
		"which of these the release holds is not known",
		"index data read 2026-11-30, TEST_INDEX",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}

	// Without a row, the message is what it was.
	plain := eg206Messages(t, k, "name: x\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n    - torch==2.16.0\n")
	if len(plain) != 1 || strings.Contains(plain[0], "package index") {
		t.Errorf("torch 2.16.0 has no index row, got %q", plain)
	}
}

// The shipped rows come from a listing with no per-file data: the message
// says so instead of inventing a Requires-Python.
func TestEG206ShippedIndexRow(t *testing.T) {
	k := kb.Default()
	if _, ok := k.Release("2.15.0"); ok {
		t.Skip("the torch tables now hold 2.15.0")
	}
	got := eg206Messages(t, k, "name: x\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n    - torch==2.15.0\n")
	if len(got) != 1 || !strings.Contains(got[0], "the package index lists torch 2.15.0 (uploaded 2026-10)") ||
		!strings.Contains(got[0], "were not read") {
		t.Errorf("got %q", got)
	}
}

// pipMetaCUDAMajor reads the CUDA major of the package an exact tensorrt
// release installs from its index_releases row (a pin written with a
// specifier or bare, with _ or -), and nothing for an open requirement or
// a release the table lacks.
func TestPipMetaCUDAMajor(t *testing.T) {
	k := kb.Default()
	for _, c := range []struct {
		line string
		want int
		pkg  string
	}{
		{"tensorrt==10.8.0.43", 12, "tensorrt-cu12"},
		{"tensorrt==10.13.2.6", 12, "tensorrt-cu12"},
		{"TensorRT===10.0.1", 12, "tensorrt-cu12"},
		{"tensorrt>=10.8", 0, ""},
		{"tensorrt==10.8.*", 0, ""},
		{"tensorrt", 0, ""},
		{"tensorrt==9.9.9", 0, ""},
	} {
		pl, err := envspec.ParsePipLine(c.line)
		if err != nil || pl.Req == nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		p := pipItem{Name: pl.Req.Normalized, Dep: &envspec.PipDep{Line: pl}}
		if m, pkg := pipMetaCUDAMajor(k, p); m != c.want || pkg != c.pkg {
			t.Errorf("%s: %d, %q; want %d, %q", c.line, m, pkg, c.want, c.pkg)
		}
	}
}
