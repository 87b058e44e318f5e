package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoverageCommand: coverage counts the (environment, target) pairs of
// the files that need a GPU, says how many were decided among the
// determined pairs and among all, names the reasons of the rest, and exits
// 1 under --min-decided (the corpus-wide share).
func TestCoverageCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// decided everywhere: a pinned pytorch-channel build
	write("decided.yml", "name: pt20_cu118\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - pytorch-cuda=11.8\n")
	// undecided: a wheel of a release newer than the knowledge base
	write("open.yml", "name: x\nchannels: [conda-forge]\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n      - --index-url https://download.pytorch.org/whl/cu126\n      - torch==2.15.0+cu126\n")
	// release left to the solver: a pair, but not a determined one; it is
	// decided over the releases the pytorch channel built for CUDA 11.8,
	// each of which runs on an H100
	write("solver.yml", "name: x\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch\n  - pytorch-cuda=11.8\n")
	// no GPU needed: not a pair
	write("cpu.yml", "name: x\nchannels: [conda-forge]\ndependencies:\n  - python=3.12\n  - numpy\n")
	targets := egWrite(t, "t.yml", "targets:\n  - name: h100\n    driver: \"570.124.06\"\n    gpus: [\"H100\"]\n")

	code, out, errs := egRun(t, "", "coverage", "--targets", targets, dir)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"4 files, 3 need a GPU; 3 (environment, target) pairs, 2 of them determined",
		"determined share: 1 of 2 decided (50.0%): 1 ok, 0 fail; unknown: 1",
		"corpus-wide share: 2 of 3 decided (66.7%): 2 ok, 0 fail; unknown: 1",
		"determined but undecided, by reason:\n      1  architecture: arch-list-unknown",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, _, _ := egRun(t, "", "coverage", "--targets", targets, "--min-decided", "70", dir); code != ExitFindings {
		t.Errorf("--min-decided 70 with 67%% decided: exit %d, want %d", code, ExitFindings)
	}
	code, js, _ := egRun(t, "", "coverage", "--format", "json", "--targets", targets, dir)
	var got struct {
		Pairs      int     `json:"pairs"`
		Determined int     `json:"determined_pairs"`
		Percent    float64 `json:"decided_percent"`
		DetPercent float64 `json:"determined_decided_percent"`
	}
	if code != 0 || json.Unmarshal([]byte(js), &got) != nil || got.Pairs != 3 || got.Determined != 2 || got.DetPercent != 50 || got.Percent >= 67 || got.Percent <= 66 {
		t.Errorf("json: exit %d, %+v\n%s", code, got, js)
	}
	// The standard fleet is what --show-fleet prints, and is the default.
	if code, fleet, _ := egRun(t, "", "coverage", "--show-fleet"); code != 0 || !strings.Contains(fleet, "RTX 5090") || !strings.Contains(fleet, "470.82.01") {
		t.Errorf("--show-fleet: exit %d\n%s", code, fleet)
	}
	if _, out, _ := egRun(t, "", "coverage", dir); !strings.Contains(out, "3 need a GPU; 42 (environment, target) pairs, 28 of them determined") {
		t.Errorf("standard fleet: %s", out)
	}
	for _, bad := range [][]string{{"coverage"}, {"coverage", "--format", "xml", dir}, {"coverage", "--min-decided", "120", dir}, {"coverage", filepath.Join(dir, "missing")}} {
		if code, _, _ := egRun(t, "", bad...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, ExitUsage)
		}
	}
}
