package resolver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// kbWith loads a copy of the knowledge base's data files with old replaced
// by new in one of them: the tables as a newer --kb DIR could hold them.
func kbWith(t *testing.T, file, old, new string) *kb.KB {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(filepath.Join("kb", "data"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("kb", "data", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == file {
			if !strings.Contains(string(b), old) {
				t.Fatalf("%s does not contain %q", file, old)
			}
			b = []byte(strings.Replace(string(b), old, new, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	k, err := kb.Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return k
}

func lintWith(t *testing.T, k *kb.KB, src string) finding.Diagnostics {
	t.Helper()
	env := envspec.Parse("test.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	ctx := &Context{Env: env, Stack: Resolve(env, k), KB: k}
	ds, err := Check(context.Background(), ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

const pytorch200 = `channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.11
  - pytorch::pytorch=2.0.0
  - pytorch-cuda=%s
`

// A row that names only some CUDA variants of a release makes a missing
// Python a variant that does not exist (EG205) for those variants, and
// says nothing of the others.
func TestPythonBuildsPartialRowIsEG205(t *testing.T) {
	k := kbWith(t, "torch-python-builds.yaml",
		`{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7", "11.8"], missing: ["3.11"]`,
		`{torch: "2.0.0", dist: pytorch-channel, cuda: ["11.7"], missing: ["3.11"]`)

	ds := lintWith(t, k, strings.Replace(pytorch200, "%s", "11.7", 1))
	if f := findingsOf(ds, "EG204"); len(f) > 0 {
		t.Errorf("EG204 should leave a partial row to EG205, got %s", f[0].Error())
	}
	f := findingsOf(ds, "EG205")
	if len(f) != 1 {
		t.Fatalf("want one EG205, got %v", ds)
	}
	for _, want := range []string{"pytorch 2.0.0 has no CUDA 11.7 build for Python 3.11 on the pytorch channel", "pytorch-cuda=11.7 (line 7)"} {
		if !strings.Contains(f[0].Message, want) {
			t.Errorf("EG205 message %q lacks %q", f[0].Message, want)
		}
	}
	if f[0].Pos.Line != 7 || !strings.Contains(f[0].Hint, "CUDA 11.8") {
		t.Errorf("EG205 at line %d with hint %q; want line 7 and a hint naming CUDA 11.8", f[0].Pos.Line, f[0].Hint)
	}

	// the variant the row does not name is not judged by it
	ds = lintWith(t, k, strings.Replace(pytorch200, "%s", "11.8", 1))
	for _, code := range []string{"EG204", "EG205"} {
		if f := findingsOf(ds, code); len(f) > 0 {
			t.Errorf("CUDA 11.8 is not in the row: %s should be silent, got %s", code, f[0].Error())
		}
	}
}

// The embedded row covers every CUDA variant of 2.0 on the channel, so the
// same file is EG204's and not EG205's.
func TestPythonBuildsFullRowIsEG204(t *testing.T) {
	_, ds := lintSrc(t, strings.Replace(pytorch200, "%s", "11.7", 1))
	if f := findingsOf(ds, "EG205"); len(f) > 0 {
		t.Errorf("EG205 should be silent, got %s", f[0].Error())
	}
	if f := findingsOf(ds, "EG204"); len(f) != 1 || !strings.Contains(f[0].Message, "never built for Python 3.11 on the pytorch channel") {
		t.Errorf("want EG204 naming the pytorch channel, got %v", f)
	}
	// an undecided variant (no pytorch-cuda, no cpuonly) is not judged by a
	// row for the CUDA builds: the CPU build's Pythons were not read
	_, ds = lintSrc(t, "channels:\n  - pytorch\ndependencies:\n  - python=3.11\n  - pytorch::pytorch=2.0.0\n")
	if f := findingsOf(ds, "EG204"); len(f) > 0 {
		t.Errorf("EG204 should be silent for an undecided variant, got %s", f[0].Error())
	}
}
