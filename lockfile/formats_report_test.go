package lockfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/golden"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// TestOneEnvironmentEveryFormat holds the readers together: the same
// environment (PyTorch 2.1.2 for CUDA 12.1) written as environment.yml,
// conda-lock.yml, pixi.lock and pixi.toml on the conda side and as
// requirements.txt, uv.lock and pylock.toml on the pip side gets the same
// stack, canonical name and target verdicts, each finding on a line of its
// own file.
func TestOneEnvironmentEveryFormat(t *testing.T) {
	k := kb.Default()
	var hosts []*gpucheck.Host
	for _, tg := range []gpucheck.Target{
		{Name: "a100", Driver: "535.104.05", GPUs: []string{"A100"}},
		{Name: "old-driver", Driver: "470.57.02", GPUs: []string{"V100"}},
	} {
		h, err := tg.Host(k)
		if err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, h)
	}
	tests := []struct {
		file   string
		python string // "" where the file does not say
		eg401  int    // the line the driver finding points at
	}{
		{"environment.yml", "3.11", 11},
		{"conda-lock.yml", "3.11", 0},
		{"pixi.lock", "3.11", 0},
		{"pixi.toml", "3.11", 0},
		{"requirements.txt", "", 6},
		{"uv.lock", "3.11", 45},
		{"pylock.toml", "3.11", 22},
	}
	for _, tt := range tests {
		path := "testdata/lock/pt21_cu121/" + tt.file
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r := report.Validate(path, src, report.Options{Platform: "linux-64", KB: k, Hosts: hosts})
		fw := r.Stack.Framework
		got := fmt.Sprintf("name=%s", r.Name.Canonical)
		if fw != nil {
			got += fmt.Sprintf(" fw=%s %s %s", fw.Name, fw.Version, fw.Variant)
		}
		if r.Stack.CUDA != nil {
			got += " cuda=" + r.Stack.CUDA.Version
		}
		for _, tr := range r.Targets {
			got += fmt.Sprintf(" %s=%s", tr.Name, tr.Verdict)
		}
		want := "name=pt21_cu121 fw=pytorch 2.1.2 cuda cuda=12.1 a100=ok old-driver=fail"
		wantCodes := "[EG401]"
		if tt.file == "pixi.toml" {
			// the manifest leaves mkl to pixi, which takes conda-forge's
			// newest, which the pytorch channel's pytorch cannot load
			// (EG411 on both targets); environment.yml pins mkl=2024.0,
			// and the lock files list no mkl
			want = "name=pt21_cu121 fw=pytorch 2.1.2 cuda cuda=12.1 a100=fail old-driver=fail"
			wantCodes = "[EG411 EG411 EG401]"
		}
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", tt.file, got, want)
		}
		if r.Stack.Python != tt.python {
			t.Errorf("%s: python %q, want %q", tt.file, r.Stack.Python, tt.python)
		}
		var codes []string
		for _, f := range r.Findings {
			codes = append(codes, f.Code)
			if f.Line < 1 || f.Snippet == "" {
				t.Errorf("%s: %s at line %d has no snippet of its file", tt.file, f.Code, f.Line)
			}
			if f.Code == "EG401" && tt.eg401 > 0 && f.Line != tt.eg401 {
				t.Errorf("%s: EG401 at line %d, want %d", tt.file, f.Line, tt.eg401)
			}
		}
		if fmt.Sprint(codes) != wantCodes {
			t.Errorf("%s: findings %v, want %s", tt.file, codes, wantCodes)
		}
	}
}

// TestLockFindings: the rules fire (and stay silent) on lock files and
// requirements files as they do on environment.yml.
func TestLockFindings(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            string // the finding codes, in order
	}{
		{"requirements: torch without a variant", "requirements.txt",
			"torch==2.1.2\nnumpy\n", "[EG304]"},
		{"requirements: the wheel index names the variant", "requirements.txt",
			"--index-url https://download.pytorch.org/whl/cu118\ntorch==2.0.1\n", "[]"},
		{"requirements: +cu121 without an index", "requirements.txt",
			"torch==2.1.2+cu121\n", "[EG205]"},
		{"requirements: two CUDA majors", "requirements.txt",
			"--extra-index-url https://download.pytorch.org/whl/cu121\ntorch==2.1.2+cu121\ncupy-cuda11x==12.3.0\n", "[EG305]"},
		{"requirements: an ignore comment", "requirements.txt",
			"torch==2.1.2  # envguard: ignore EG304 the CPU build is fine here\n", "[]"},
		{"conda-lock: conda pytorch and a pip torch", "conda-lock.yml", `version: 1
metadata:
  channels: [{url: pytorch}]
  platforms: [linux-64]
package:
- name: pytorch
  version: 2.1.2
  manager: conda
  platform: linux-64
  url: https://conda.anaconda.org/pytorch/linux-64/pytorch-2.1.2-py3.11_cuda12.1_cudnn8.9.2_0.tar.bz2
  category: main
  optional: false
- name: torch
  version: 2.1.2+cu118
  manager: pip
  platform: linux-64
  url: https://download.pytorch.org/whl/cu118/torch-2.1.2%2Bcu118-cp311-cp311-linux_x86_64.whl
  category: main
  optional: false
`, "[EG201 EG201 EG301]"}, // the +cu118 version and its index both disagree with conda's build
		{"pylock: a cpu wheel and a CUDA wheel", "pylock.toml", `lock-version = "1.0"
[[packages]]
name = "torch"
version = "2.1.2+cpu"
index = "https://download.pytorch.org/whl/cpu"
wheels = [{ url = "https://download.pytorch.org/whl/cpu/torch-2.1.2%2Bcpu-cp311-cp311-linux_x86_64.whl" }]
[[packages]]
name = "nvidia-cudnn-cu12"
version = "8.9.2.26"
wheels = [{ url = "https://h/nvidia_cudnn_cu12-8.9.2.26-py3-none-manylinux1_x86_64.whl" }]
`, "[EG202 EG202]"}, // the +cpu version and the /whl/cpu index each
	}
	k := kb.Default()
	for _, tt := range tests {
		r := report.Validate(tt.file, []byte(tt.src), report.Options{Platform: "linux-64", KB: k})
		var codes []string
		for _, f := range r.Findings {
			codes = append(codes, f.Code)
		}
		if got := fmt.Sprint(codes); got != tt.want {
			t.Errorf("%s: findings %s, want %s", tt.name, got, tt.want)
			for _, f := range r.Findings {
				t.Logf("  %d:%d %s %s", f.Line, f.Column, f.Code, f.Message)
			}
		}
	}
}

// TestLockGolden: every file of testdata/lock/pt21_cu121 and
// testdata/lock/golden against two targets (an A100 on driver 535, a V100
// on driver 470), for linux-64. FILE.out holds the stack line and one line
// per finding: line:column: severity code message (target).
// go test ./lockfile/ -run TestLockGolden -update rewrites them.
func TestLockGolden(t *testing.T) {
	k := kb.Default()
	var hosts []*gpucheck.Host
	for _, tg := range []gpucheck.Target{
		{Name: "a100", Driver: "535.104.05", GPUs: []string{"A100"}},
		{Name: "old-driver", Driver: "470.57.02", GPUs: []string{"V100"}},
	} {
		h, err := tg.Host(k)
		if err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, h)
	}
	var files []string
	for _, dir := range []string{"testdata/lock/pt21_cu121", "testdata/lock/golden"} {
		all, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range all {
			if !strings.HasSuffix(f, ".out") && !strings.HasSuffix(f, "requirements-dev.txt") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 12 {
		t.Fatalf("only %d golden inputs", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := report.Validate(filepath.Base(f), src, report.Options{Platform: "linux-64", KB: k, Hosts: hosts})
		golden.Check(t, f+".out", []byte(reportSummary(r)))
	}
}

// reportSummary renders what a golden report of a lock or requirements file
// holds: the name, the stack, each target's verdict, and every finding.
func reportSummary(r *report.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name=%q", r.Name.Canonical)
	if fw := r.Stack.Framework; fw != nil {
		fmt.Fprintf(&b, " framework=%s %s %s from %s", fw.Name, fw.Version, fw.Variant, fw.From)
	}
	if r.Stack.CUDA != nil {
		fmt.Fprintf(&b, " cuda=%s", r.Stack.CUDA.Version)
	}
	if r.Stack.Python != "" {
		fmt.Fprintf(&b, " python=%s", r.Stack.Python)
	}
	for _, tr := range r.Targets {
		fmt.Fprintf(&b, " %s=%s", tr.Name, tr.Verdict)
	}
	b.WriteByte('\n')
	for _, fd := range r.Findings {
		fmt.Fprintf(&b, "%d:%d: %s %s %s", fd.Line, fd.Column, fd.Severity, fd.Code, fd.Message)
		if fd.Target != "" {
			fmt.Fprintf(&b, " (target %s)", fd.Target)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
