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
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"k80", "a100", "h100", "rtx5090"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		want map[string]string // target → verdict
		// text each target's findings must hold, and must not
		has, hasNot []string
	}{
		// pytorch-cuda=12.1 and an open pytorch: every release built for
		// it has SASS up to sm_90 and no PTX.
		{"051.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "fail"}, []string{"EG403"}, nil},
		{"057.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "fail"}, []string{"EG403"}, nil},
		// pytorch-cuda=11.7: the A100 runs every admitted build.
		{"182.yml", map[string]string{"a100": "ok"}, nil, nil},
		// cudatoolkit=11.3 beside an unpinned pytorch::pytorch: 2.x builds
		// come in, whatever cudatoolkit says; it is not read as CUDA 11.3.
		{"001.yml", map[string]string{"rtx5090": "unknown"}, []string{"pytorch 2.0.0 CUDA 11.8"}, []string{"CUDA 11.3, pytorch-channel"}},
		// cudatoolkit=9 is 9.*: pytorch 1.1.0's CUDA 9.0 build, whose SASS
		// stops at sm_70. The K80 runs it; on an A100 or H100 it runs only
		// through PTX, where its CUDA 9.0 libraries must carry code too, which
		// is not known (the stack as read had no runtime, so no libraries).
		{"183.yml", map[string]string{"k80": "ok", "a100": "unknown", "h100": "unknown"}, []string{"pytorch 1.1.0 CUDA 9.0", "cublas 9.0 carries code for sm_90 is not known"}, nil},
		// cuda-toolkit=12 and jax[cuda12] beside a --find-links page that
		// names no CUDA version: the runtime is some 12.x, which a CUDA 11
		// driver cannot run; on a 12.x driver older than 12.9 it runs through
		// minor-version compatibility.
		{"010.yml", map[string]string{"k80": "fail"}, []string{"EG401 driver 470.82.01 supports CUDA 11.4; this environment's CUDA 12 runtime", "EG402 driver 550.54.15 supports CUDA 12.4; this environment's CUDA 12 runtime is whichever 12.x pip installs"}, nil},
		// conda tensorflow 2.0.0 from conda-forge or defaults is the CPU
		// build on every machine: GPUs idle (EG407), nothing left to the
		// solver per machine (no EG207).
		{"053.yml", map[string]string{"a100": "ok", "h100": "ok", "rtx5090": "ok"}, []string{"EG407 tensorflow 2.0.0 is a CPU-only build"}, nil},
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
				if f.Code == "EG207" && tt.file == "053.yml" {
					t.Errorf("EG207 on a CPU-only tensorflow: %s", f.Message)
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
