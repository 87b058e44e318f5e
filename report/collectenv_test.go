package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

// A pasted collect_env output is judged as the environment it describes,
// on the machine it describes (target "reported"): the diagnosis a
// maintainer needs from a bug report. The fixtures are real pastes from
// public threads (lockfile/testdata/collectenv/SOURCES.tsv).
func TestCollectEnvReports(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "lockfile", "testdata", "collectenv", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(filepath.Base(f), src, Options{})
			var b bytes.Buffer
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "collectenv", strings.TrimSuffix(filepath.Base(f), ".txt")+".out"), b.Bytes())
		})
	}
}

// The diagnoses the threads were about: torch 2.1.0+cu121 on a driver
// that supports CUDA 11.4 (pytorch/pytorch#112553, read from torch's own
// warning) is EG401 for the reported machine.
func TestCollectEnvDiagnoses(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "lockfile", "testdata", "collectenv", "pytorch-112553-warning-first.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := Validate("bug.txt", src, Options{})
	if len(r.Targets) != 1 || r.Targets[0].Name != "reported" || r.Targets[0].Verdict != "fail" {
		t.Fatalf("targets %+v, want reported fail", r.Targets)
	}
	found := false
	for _, f := range r.Findings {
		found = found || f.Code == "EG401" && f.Target == "reported"
	}
	if !found || r.Name.Canonical != "pt21_cu121" {
		t.Errorf("no EG401 for the reported machine (name %q): %+v", r.Name.Canonical, r.Findings)
	}
}
