package envspec

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/internal/timebound"
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
// against a bare yaml.Node decode of the same bytes, rounds interleaved and
// the best of each kept so that a shared machine's load hits both alike,
// and measured again before it fails (timebound.Check; go test -run
// TestCorpusSpeedRatio -v ./envspec/). The goal is 2.0; the assertion only
// catches a real regression. Under the race detector the ratio is logged.
func TestCorpusSpeedRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test; skipped with -short")
	}
	files := loadCorpus(t)
	parse := func() {
		for _, c := range files {
			Parse(c.name, c.src, ParseOptions{Platform: "linux-64"})
		}
	}
	bare := func() {
		for _, c := range files {
			var n yaml.Node
			_ = yaml.Unmarshal(c.src, &n)
		}
	}
	parse() // warm caches and the allocator
	bare()
	timebound.Check{What: fmt.Sprintf("envspec.Parse / yaml.Node decode over %d corpus files", len(files)), Max: 5}.Assert(t, bare, parse)
}
