package envspec

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/internal/testshared"
)

// corpusDir is ../shared/corpus/realworld beside the module root, read in
// place, never copied; testshared skips (or, in CI, fails) when it is absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	return testshared.Dir(t, "corpus/realworld")
}

type corpusFile struct {
	name string
	src  []byte
}

func loadCorpus(t testing.TB) []corpusFile {
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.yml"))
	if len(files) == 0 {
		t.Skipf("corpus test skipped: no .yml files in %s", dir)
	}
	var out []corpusFile
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, corpusFile{filepath.Base(f), b})
	}
	return out
}

func TestCorpus(t *testing.T) {
	files := loadCorpus(t)
	clean := 0
	codes := map[string]int{}
	for _, f := range files {
		env := Parse(f.name, f.src, ParseOptions{Platform: "linux-64"})
		if len(env.Diags) == 0 {
			clean++
		}
		for _, d := range env.Diags {
			codes[d.Code]++
			if (d.Code == "EG100" || d.Code == "EG101") && d.Pos.Line <= 0 {
				t.Errorf("%s: %s without a line", f.name, d.Error())
			}
			if !strings.HasPrefix(d.Code, "EG1") {
				t.Errorf("%s: reader raised non-EG1xx %s", f.name, d.Error())
			}
			if strings.Contains(d.Message, "internal error") {
				t.Errorf("%s: %s", f.name, d.Error())
			}
			if testing.Verbose() && d.Code != "EG107" && d.Code != "EG109" {
				t.Logf("%s", d.Error())
			}
		}
	}
	t.Logf("corpus: %d files, %d parsed clean", len(files), clean)
	keys := make([]string, 0, len(codes))
	for k := range codes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %s: %d", k, codes[k])
	}
}

// BenchmarkCorpus parses the whole corpus, read once into memory.
func BenchmarkCorpus(b *testing.B) {
	files := loadCorpus(b)
	size := 0
	for _, f := range files {
		size += len(f.src)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			Parse(f.name, f.src, ParseOptions{Platform: "linux-64"})
		}
	}
}

// BenchmarkCorpusYAMLNodeOnly is the floor BenchmarkCorpus is measured
// against: decoding the same bytes into yaml.Node and nothing else.
func BenchmarkCorpusYAMLNodeOnly(b *testing.B) {
	files := loadCorpus(b)
	size := 0
	for _, f := range files {
		size += len(f.src)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			var n yaml.Node
			_ = yaml.Unmarshal(f.src, &n)
		}
	}
}

// TestCorpusSpeedRatio measures envspec.Parse (with every EG1xx check)
// against a bare yaml.Node decode of the same bytes, alternating the two in
// rounds so that a shared machine's load drift hits both alike, and reports
// the median ratio (go test -run TestCorpusSpeedRatio -v ./envspec/). The
// goal is 2.0; the assertion only catches a real regression.
func TestCorpusSpeedRatio(t *testing.T) {
	if testing.Short() || slowdown > 4 {
		t.Skip("a speed ratio means nothing under -short or the race detector")
	}
	files := loadCorpus(t)
	pass := func(f func(name string, src []byte)) time.Duration {
		start := time.Now()
		for _, c := range files {
			f(c.name, c.src)
		}
		return time.Since(start)
	}
	parse := func(name string, src []byte) { Parse(name, src, ParseOptions{Platform: "linux-64"}) }
	bare := func(_ string, src []byte) {
		var n yaml.Node
		_ = yaml.Unmarshal(src, &n)
	}
	pass(parse) // warm caches and the allocator
	pass(bare)
	var ratios []float64
	for round := 0; round < 9; round++ {
		p, b := pass(parse), pass(bare)
		ratios = append(ratios, float64(p)/float64(b))
	}
	sort.Float64s(ratios)
	median := ratios[len(ratios)/2]
	t.Logf("envspec.Parse / yaml.Node decode over %d corpus files: median %.2f (rounds: %.2f)", len(files), median, ratios)
	if median > 5 {
		t.Errorf("Parse is %.1f× a bare yaml.Node decode; the goal is 2.0", median)
	}
}
