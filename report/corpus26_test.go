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
		// cudatoolkit=9 is 9.*: pytorch 1.1.0's CUDA 9.0 build, whose SASS
		// stops at sm_70. The K80 runs it; on an A100 or H100 it runs only
		// through PTX, where its CUDA 9.0 libraries must carry code too, which
		// is not known (the stack as read had no runtime, so no libraries).
		{"183.yml", map[string]string{"k80": "ok", "a100": "unknown", "h100": "unknown"}, []string{"pytorch 1.1.0 CUDA 9.0", "cublas 9.0 carries code for sm_90 is not known"}, nil, nil},
		// cuda-toolkit=12 and jax[cuda12] beside a --find-links page that
		// names no CUDA version: the runtime is some 12.x, which a CUDA 11
		// driver cannot run; on a 12.x driver older than 12.9 it runs through
		// minor-version compatibility.
		{"010.yml", map[string]string{"k80": "fail"}, []string{"EG401 driver 470.82.01 supports CUDA 11.4; this environment's CUDA 12 runtime", "EG402 driver 550.54.15 supports CUDA 12.4; this environment's CUDA 12 runtime is whichever 12.x pip installs"}, nil, nil},
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

// TestCorpusCodesInMeaning: each code of the real files is used within its
// meaning in RULES.md (issue 26, root cause 4).
func TestCorpusCodesInMeaning(t *testing.T) {
	dir := testshared.Dir(t, "corpus/realworld")
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"h100"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		want map[string]string // target → verdict
		// codes that must not be reported, and text the report must hold
		notCodes []string
		has      []string
	}{
		// pip tensorflow==2.14.0 beside tensorflow-cpu==2.14.0: two
		// distributions writing one package, which no code of RULES.md
		// means. EG202 is a CPU build beside CUDA packages (cudatoolkit
		// here serves openmm); the variant is open, so no name and no ok.
		{"006.yml", map[string]string{"h100": "unknown"}, []string{"EG202", "EG501", "EG407"},
			[]string{"EG409 could not check tensorflow 2.14.0 against target h100: tensorflow-cpu==2.14.0 (line 210) and tensorflow==2.14.0 (line 209) both install the tensorflow package"}},
		// cuda-version constrains only conda packages: no EG201 on it
		// against pip's torch wheel (line 24).
		{"016.yml", nil, nil, nil},
		// TensorFlow's own 2.13 recipe: pip tensorflow==2.13.*, conda
		// cudatoolkit 11.8 and pip's cuDNN 8.6 wheel ask for the CUDA build.
		{"110.yml", nil, nil, []string{"canonical name tf213_cu118"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(tt.file, src, Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			text := verdictText(r)
			for _, f := range r.Findings {
				if f.Code == "EG201" && tt.file == "016.yml" && f.Line == 24 {
					t.Errorf("EG201 on cuda-version against a pip wheel: %s", f.Message)
				}
				if f.Code == "EG502" || f.Code == "EG501" {
					text += "\n" + f.Message
				}
			}
			for _, tg := range r.Targets {
				if w, ok := tt.want[tg.Name]; ok && string(tg.Verdict) != w {
					t.Errorf("target %s: %s, want %s\n%s", tg.Name, tg.Verdict, w, text)
				}
			}
			for _, f := range r.Findings {
				for _, c := range tt.notCodes {
					if f.Code == c {
						t.Errorf("%s at line %d: %s", f.Code, f.Line, f.Message)
					}
				}
			}
			for _, s := range tt.has {
				if !strings.Contains(text, s) {
					t.Errorf("no %q in:\n%s", s, text)
				}
			}
		})
	}
}
