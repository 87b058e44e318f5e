package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/golden"
)

// TestGPUCorpusGolden holds every real file of testdata/gpucorpus (68
// requirements, environment, pyproject, pixi and lock files from public
// repositories that install GPU extensions beside torch; SOURCES.tsv
// names each one's repository, path and commit) against the machines of
// testdata/verdicts/fleet.targets.yml, and compares its file findings and
// each target's verdict with the golden report.out beside it.
func TestGPUCorpusGolden(t *testing.T) {
	tsrc, err := os.ReadFile(filepath.Join("testdata", "verdicts", "fleet.targets.yml"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := gpucheck.ParseTargets("fleet.targets.yml", tsrc)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range ts {
		names = append(names, tg.Name)
	}
	hosts, err := (&Machines{Targets: ts}).Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "gpucorpus", "[0-9]*"))
	if len(dirs) < 30 {
		t.Fatalf("%d files in testdata/gpucorpus, want at least 30", len(dirs))
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() == "report.out" {
				continue
			}
			path := filepath.Join(dir, e.Name())
			t.Run(filepath.Base(dir)+"/"+e.Name(), func(t *testing.T) {
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				r := Validate(e.Name(), src, Options{Platform: "linux-64", Hosts: hosts})
				assertVerdictsHonest(t, r)
				var b strings.Builder
				for _, f := range r.Findings {
					if f.Target == "" {
						fmt.Fprintf(&b, "%d:%d %s %s %s\n", f.Line, f.Column, f.Severity, f.Code, f.Message)
					}
				}
				b.WriteString(verdictText(r))
				golden.Check(t, filepath.Join(dir, "report.out"), []byte(b.String()))
			})
		}
	}
}
