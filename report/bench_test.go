package report

import (
	"fmt"
	"os"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/internal/timebound"
)

type corpusFile struct {
	name string
	src  []byte
}

// loadCorpus reads the real-world files into memory once, so that the
// benchmarks time validation, not the disk.
func loadCorpus(tb testing.TB) []corpusFile {
	tb.Helper()
	var fs []corpusFile
	for _, p := range testshared.Corpus(tb) {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		fs = append(fs, corpusFile{p, src})
	}
	return fs
}

func benchValidate(b *testing.B, fs []corpusFile) {
	var n int64
	for _, f := range fs {
		n += int64(len(f.src))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range fs {
			Validate(f.name, f.src, Options{Platform: "linux-64"})
		}
	}
}

// benchYAMLNode is the baseline: only what yaml.v3 needs to build the node
// tree that every envguard pass starts from.
func benchYAMLNode(b *testing.B, fs []corpusFile) {
	var n int64
	for _, f := range fs {
		n += int64(len(f.src))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range fs {
			var doc yaml.Node
			_ = yaml.Unmarshal(f.src, &doc)
		}
	}
}

func BenchmarkCorpusValidate(b *testing.B) { benchValidate(b, loadCorpus(b)) }

func BenchmarkCorpusYAMLNodeOnly(b *testing.B) { benchYAMLNode(b, loadCorpus(b)) }

// TestCorpusSpeedRatio measures the whole pipeline against a bare yaml.Node
// decode of the same files in the same process, rounds interleaved and the
// best of each kept, so that the ratio holds on any machine and a burst of
// load slows both sides alike. The bound is loose on purpose: it catches an
// accidental quadratic loop or a knowledge-base reload per file, not noise.
// The race detector slows code unevenly, so under -race the ratio is only
// logged; .ci/run checks it in a step without -race. A measurement over the
// bound is repeated before the test fails (timebound.Check).
func TestCorpusSpeedRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test; skipped with -short")
	}
	fs := loadCorpus(t)
	validate := func() {
		for _, f := range fs {
			Validate(f.name, f.src, Options{Platform: "linux-64"})
		}
	}
	decode := func() {
		for _, f := range fs {
			var doc yaml.Node
			_ = yaml.Unmarshal(f.src, &doc)
		}
	}
	validate() // load the knowledge base and warm the allocator
	decode()
	// Measured at 3.1-3.5x on the quiet 2-core development machine (Dec
	// 2026, docs/performance.md); 8x leaves room for a loaded machine and
	// still fails on a real regression. Check measures again before it
	// fails, and under -race only logs.
	timebound.Check{What: fmt.Sprintf("validate / yaml.Node decode over a corpus of %d files", len(fs)), Max: 8, Rounds: 7}.Assert(t, decode, validate)
}
