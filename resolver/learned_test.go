package resolver

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// compressallRow is native/testdata/fatbin/compressall.so as kb learn
// writes it (compressall.native lists its entries).
func compressallRow(pkg, version, sum string) kb.LearnedBuild {
	return kb.LearnedBuild{Package: pkg, Ecosystem: kb.LearnedPip, Version: version, SHA256: sum, SHA256Of: kb.LearnedHashPackage,
		Source: "/w/eg.whl", SourceSHA256: sum, Learned: "2026-12-02",
		Libraries: []kb.LearnedLibrary{{Path: "eg_kernels/_C.so", Code: []kb.LearnedCode{
			{Code: "sm_80", Compression: "zstd", Entries: 2}, {Code: "sm_90a", Compression: "zstd", Entries: 2}, {Code: "compute_80", Compression: "zstd", Entries: 1}}}}}
}

// TestLearnedLibraryIsTheBinary: a learned library holds, for every
// decision, what native read of the file: SASS, PTX, variants and
// compression.
func TestLearnedLibraryIsTheBinary(t *testing.T) {
	row := compressallRow("eg-kernels", "1.0", strings.Repeat("a", 64))
	got := learnedLibrary(&row, &row.Libraries[0])
	want := fixtureLib(t, "compressall.so")
	if !slices.Equal(got.SASS(), want.SASS()) || !slices.Equal(got.PTX(), want.PTX()) || !slices.Equal(got.Variants(), want.Variants()) ||
		!maps.Equal(got.Compressions(), want.Compressions()) || got.HasZstd() != want.HasZstd() || got.Loaded() != want.Loaded() {
		t.Errorf("learned %v %v %v %v, native %v %v %v %v", got.SASS(), got.PTX(), got.Variants(), got.Compressions(),
			want.SASS(), want.PTX(), want.Variants(), want.Compressions())
	}
}

func learnedKB(t *testing.T, rows ...kb.LearnedBuild) *kb.KB {
	t.Helper()
	data, err := kb.EncodeLearned(rows)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeTestFile(dir+"/l.yaml", data); err != nil {
		t.Fatal(err)
	}
	k, err := kb.Stack(kb.Default(), kb.Overlay{Name: "learned", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestApplyLearned: an item that names a learned build exactly (by the
// sha256 of its URL, by name and version) takes its code from it, with
// evidence and a note naming the file it was learned from; another
// version does not; a Stack that holds binaries read now is left alone.
func TestApplyLearned(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	k := learnedKB(t, compressallRow("eg_kernels", "1.0", sum), compressallRow("other", "2.0+cu12", strings.Repeat("cd", 32)),
		compressallRow("twice", "3.0", strings.Repeat("e0", 32)), compressallRow("twice", "3.0", strings.Repeat("e1", 32)))
	src := "dependencies:\n  - pip:\n    - eg-kernels @ https://files.example/eg_kernels-1.0-cp312-cp312-linux_x86_64.whl#sha256=" + sum +
		"\n    - other==2.0+cu12\n    - other-too==2.0+cu12\n    - twice==3.0+cu12\n    - twice==3.0\n"
	env := envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	st := Resolve(env, k)
	ApplyLearned(st, k)
	byName := map[string]*GPUPackage{}
	for i := range st.GPUPackages {
		byName[st.GPUPackages[i].Name] = &st.GPUPackages[i]
	}
	for _, name := range []string{"eg-kernels", "other"} {
		p := byName[name]
		if p == nil || !p.FromBinary() || !p.Known || !p.Code.Zstd || strings.Join(p.Code.SASS, " ") != "8.0 9.0a" || strings.Join(p.Code.PTX, " ") != "8.0" {
			t.Fatalf("%s: %+v", name, p)
		}
		if ev := p.Evidence[len(p.Evidence)-1]; !strings.Contains(ev.Item, "eg_kernels/_C.so (learned from /w/eg.whl, sha256 ") {
			t.Errorf("%s evidence %+v", name, ev)
		}
	}
	// another name; two learned files of one version (which is installed
	// is not known)
	for _, name := range []string{"other-too", "twice"} {
		if p := byName[name]; p != nil && p.FromBinary() {
			t.Errorf("%s took a learned build: %+v", name, p)
		}
	}
	notes := strings.Join(st.Binaries.Notes, "\n")
	for _, want := range []string{"eg_kernels 1.0 sha256:abababababab: GPU code learned from /w/eg.whl (sha256 abababababab…, read 2026-12-02), matched by sha256",
		"other 2.0+cu12 sha256:cdcdcdcdcdcd: GPU code learned from /w/eg.whl (sha256 cdcdcdcdcdcd…, read 2026-12-02), matched by name, version and local version"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes\n%s\nwant %q", notes, want)
		}
	}

	st = Resolve(env, k)
	read := &Binaries{Libraries: []BinaryLibrary{{Rel: "x/_C.so", Package: "eg-kernels", Lib: fixtureLib(t, "sm80.so")}}}
	ApplyBinaries(st, read)
	ApplyLearned(st, k)
	if st.Binaries != read {
		t.Fatal("ApplyLearned replaced the binaries read now")
	}
	for _, p := range st.GPUPackages {
		if p.Name == "eg-kernels" && strings.Join(p.Code.SASS, " ") != "8.0" {
			t.Errorf("the binary read now lost to the learned one: %+v", p.Code)
		}
	}
}

func writeTestFile(p string, data []byte) error { return os.WriteFile(p, data, 0o644) }
