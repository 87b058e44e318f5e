package kb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func learnedRow(pkg, version, sum string) LearnedBuild {
	return LearnedBuild{Package: pkg, Ecosystem: LearnedPip, Version: version, SHA256: sum, SHA256Of: LearnedHashPackage,
		Source: "/w/" + pkg + ".whl", SourceSHA256: sum, Learned: "2026-12-02",
		Libraries: []LearnedLibrary{{Path: pkg + "/_C.so", Code: []LearnedCode{{Code: "sm_90a", Compression: "zstd", Entries: 3}, {Code: "compute_80", Compression: "none", Entries: 1}}, Needed: []string{"libcudart.so.12"}}}}
}

var (
	sumA = strings.Repeat("a", 64)
	sumB = strings.Repeat("b", 64)
)

// TestLearnedRoundTrip: what EncodeLearned writes, DecodeLearned and
// LoadLearned read back as it was.
func TestLearnedRoundTrip(t *testing.T) {
	rows := []LearnedBuild{learnedRow("flash_attn", "2.7.4+cu12torch2.6", sumA)}
	data, err := EncodeLearned(rows)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeLearned("x.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Libraries[0].Code[0] != rows[0].Libraries[0].Code[0] || got[0].Version != rows[0].Version || got[0].Libraries[0].Needed[0] != "libcudart.so.12" {
		t.Errorf("read back %+v, want %+v", got, rows)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := LoadLearned(dir)
	if err != nil || len(l.Builds) != 1 || len(l.pos) != 1 || l.pos[0].Line != 3 {
		t.Fatalf("LoadLearned: %v, %+v", err, l)
	}
	if l, err := LoadLearned(filepath.Join(dir, "none")); err != nil || len(l.Builds) != 0 {
		t.Errorf("a missing directory is an empty layer: %v %v", l, err)
	}
}

// TestLearnedPositions: every problem of a learned file is named with its
// file and the line of its row; nothing of it is used.
func TestLearnedPositions(t *testing.T) {
	good, _ := EncodeLearned([]LearnedBuild{learnedRow("a", "1.0", sumA)})
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"bad fields", string(good) + `  - package: b
    ecosystem: npm
    version: "1"
    build: x
    sha256: ABC
    sha256_of: wheel
    source: relative.whl
    source_sha256: ` + sumB + `
    learned: yesterday
    libraries:
      - path: b/_C.so
        code:
          - {code: sm_9, compression: gzip, entries: 0}
`, []string{
			`f.yaml:22: learned_builds[1]: ecosystem "npm" is not pip or conda`,
			`f.yaml:22: learned_builds[1]: sha256 "ABC" is not 64 lowercase hex digits`,
			`f.yaml:22: learned_builds[1]: sha256_of "wheel" is not package or record`,
			`f.yaml:22: learned_builds[1]: source "relative.whl" is not the absolute path`,
			`f.yaml:22: learned_builds[1]: learned "yesterday" is not a date`,
			`code "sm_9" is not sm_XY or compute_XY`,
			`compression "gzip" of sm_9 is not none, lz or zstd`,
			`sm_9 has 0 entries, not between 1 and 65536`,
		}},
		{"a pip build with a build string", strings.Replace(string(good), "    version: \"1.0\"\n", "    version: \"1.0\"\n    build: py_0\n", 1),
			[]string{`f.yaml:3: learned_builds[0]: a pip build has no build string`}},
		{"another table", string(good) + "torch: []\n", []string{`f.yaml:22: "torch": a learned file holds only learned_builds`}},
		{"unknown key", strings.Replace(string(good), "    learned:", "    colour: red\n    learned:", 1), []string{`f.yaml:10: field colour not found`}},
		{"not a mapping", "- 1\n", []string{"f.yaml:1: a learned file is a mapping"}},
		{"broken YAML", "learned_builds: [\n", []string{"f.yaml:1: did not find expected node content"}},
		{"twice", string(good) + strings.TrimPrefix(string(good), "# Written by envguard kb learn: GPU code read from the binaries of the file each row names.\nlearned_builds:\n"),
			[]string{"f.yaml:22: learned_builds[1]: sha256 aaaaaaaaaaaa is learned twice (also at f.yaml:3)"}},
	} {
		_, err := DecodeLearned("f.yaml", []byte(tc.src))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error\n%v\nwant %q", tc.name, err, w)
			}
		}
	}
}

// TestLearnedLayer: the learned files stack on a KB without changing it,
// under a version of their own; a build is found by its sha256 in any case;
// a sha256 learned twice, across files, is refused.
func TestLearnedLayer(t *testing.T) {
	base := Default()
	stack := func(files map[string][]LearnedBuild) (*KB, error) {
		t.Helper()
		dir := t.TempDir()
		for name, rows := range files {
			data, err := EncodeLearned(rows)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return Stack(base, Overlay{Name: "learned", Dir: dir})
	}
	rows := []LearnedBuild{learnedRow("Flash_Attn", "2.7.4+cu12torch2.6", sumA), learnedRow("dup", "1.0", sumB), learnedRow("dup", "1.0", strings.Repeat("c", 64))}
	k, err := stack(map[string][]LearnedBuild{"l.yaml": rows})
	if err != nil {
		t.Fatal(err)
	}
	if k.Version() == base.Version() || len(base.LearnedBuilds) != 0 || k.LatestTorch() != base.LatestTorch() {
		t.Errorf("versions %s / %s, base learned %d", k.Version(), base.Version(), len(base.LearnedBuilds))
	}
	if _, ok := k.GPUByName("H100"); !ok {
		t.Error("the layered KB lost the GPU table")
	}
	if b, ok := k.LearnedBySHA256(strings.ToUpper(sumA)); !ok || b.Package != "Flash_Attn" {
		t.Errorf("by sha256: %v %v", b, ok)
	}
	_, err = stack(map[string][]LearnedBuild{"x.yaml": {learnedRow("a", "1", sumA)}, "y.yaml": {learnedRow("b", "2", sumA)}})
	if err == nil || !strings.Contains(err.Error(), "y.yaml:3: learned_builds[1]: sha256 aaaaaaaaaaaa is learned twice (also at ") || !strings.Contains(err.Error(), "x.yaml:3)") {
		t.Errorf("a sha256 learned twice across files: %v", err)
	}
	if s := LearnedSummary(rows); s.Builds != 3 || s.Newest != "2026-12-02" {
		t.Errorf("summary %+v", s)
	}
}

func TestParseLearnedCode(t *testing.T) {
	for _, tc := range []struct {
		in      string
		sass    bool
		arch    int
		variant string
		ok      bool
	}{
		{"sm_90a", true, 90, "a", true}, {"compute_120", false, 120, "", true}, {"sm_100f", true, 100, "f", true},
		{"sm_9", false, 0, "", false}, {"sm_90b", false, 0, "", false}, {"other_90", false, 0, "", false}, {"sm_090", false, 0, "", false},
	} {
		s, a, v, ok := ParseLearnedCode(tc.in)
		if s != tc.sass || a != tc.arch || v != tc.variant || ok != tc.ok {
			t.Errorf("%s: %v %d %q %v", tc.in, s, a, v, ok)
		}
	}
}

// FuzzDecodeLearned: no learned file, however damaged, panics; what is
// accepted encodes and decodes to itself.
func FuzzDecodeLearned(f *testing.F) {
	good, _ := EncodeLearned([]LearnedBuild{learnedRow("a", "1.0", sumA)})
	f.Add(good)
	f.Add([]byte("learned_builds: [\n"))
	f.Add([]byte("learned_builds:\n  - libraries: [{code: [{entries: 99999999999}]}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := DecodeLearned("f.yaml", data)
		if err != nil {
			return
		}
		again, err := EncodeLearned(rows)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeLearned("g.yaml", again); err != nil {
			t.Fatalf("accepted rows do not read back: %v\n%s", err, again)
		}
	})
}
