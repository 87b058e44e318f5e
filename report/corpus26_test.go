package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/testshared"
)

// TestCorpusCandidateSets: real files of the corpus that leave the release
// open beside a CUDA pin (issue 26, root causes 1 and 2) are decided over
// the builds they admit, or left unknown with those builds named; never
// read as a build the pin cannot select.
func TestCorpusCandidateSets(t *testing.T) {
	dir := testshared.Dir(t, "corpus/realworld")
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100", "h100", "rtx5090"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		want map[string]string // target → verdict
		// text each target's findings must hold, and must not
		has, hasNot []string
		// codes no finding of the file may carry
		noCode []string
	}{
		// pytorch-cuda=12.1 and an open pytorch: every release built for
		// it has SASS up to sm_90 and no PTX.
		{"051.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "fail"}, []string{"EG403"}, nil, nil},
		{"057.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "fail"}, []string{"EG403"}, nil, nil},
		// pytorch-cuda=11.7: the A100 runs every admitted build.
		{"182.yml", map[string]string{"a100": "ok"}, nil, nil, nil},
		// cudatoolkit=11.3 beside an unpinned pytorch::pytorch: 2.x builds
		// come in, whatever cudatoolkit says; it is not read as CUDA 11.3.
		{"001.yml", map[string]string{"rtx5090": "unknown"}, []string{"pytorch 2.0.0 CUDA 11.8"}, []string{"CUDA 11.3, pytorch-channel"}, nil},
		// conda tensorflow 2.0.0 from conda-forge or defaults is the CPU
		// build on every machine: GPUs idle (EG407), nothing left to the
		// solver per machine (no EG207).
		{"053.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "ok"}, []string{"EG407 tensorflow 2.0.0 is a CPU-only build"}, nil, []string{"EG207"}},
		// cpuonly beside a pip torch and no conda pytorch (root cause 3):
		// cpuonly selects among conda's pytorch builds only, so nothing
		// installed is CPU-only (no EG202); pip's torch 2.1.0 is PyPI's
		// CUDA 12.1 wheel, which the targets are checked against.
		{"149.yml", map[string]string{"a100": "ok", "h100": "ok"}, nil, []string{"EG407"}, []string{"EG202"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(tt.file, src, Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			for _, tg := range r.Targets {
				if w, ok := tt.want[tg.Name]; ok && string(tg.Verdict) != w {
					t.Errorf("target %s: %s, want %s\n%s", tg.Name, tg.Verdict, w, verdictText(r))
				}
			}
			text := verdictText(r)
			for _, f := range r.Findings {
				for _, c := range tt.noCode {
					if f.Code == c {
						t.Errorf("%s at line %d: %s", c, f.Line, f.Message)
					}
				}
			}
			for _, s := range tt.has {
				if !strings.Contains(text, s) {
					t.Errorf("no %q in:\n%s", s, text)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(text, s) {
					t.Errorf("%q in:\n%s", s, text)
				}
			}
		})
	}
}
