package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

func TestEG304(t *testing.T) {
	checkRuleCases(t, ruleEG304, []ruleCase{
		{name: "plain torch", src: `dependencies:
  - python=3.10
  - pip:
    - torch==2.1.0
    - torchvision`,
			want: []string{"test.yml:4:7: pip torch==2.1.0 (line 4) pins no CUDA variant"}},
		{name: "torch_stable find-links pins nothing", src: `dependencies:
  - pip:
    - -f https://example.org/whl/torch_stable.html
    - torch>=1.8`,
			want: []string{"pip torch>=1.8 (line 4) pins no CUDA variant"}},
		{name: "silent: local version", src: `dependencies:
  - pip:
    - torch==2.1.0+cu121`},
		{name: "silent: wheel index", src: `dependencies:
  - pip:
    - --extra-index-url https://example.org/whl/cu118
    - torch==2.0.1`},
		{name: "silent: cpu index", src: `dependencies:
  - pip:
    - --index-url=https://example.org/whl/cpu
    - torch`},
		{name: "silent: conda torch duplicate is EG301's", src: `dependencies:
  - pytorch
  - pip:
    - torch`},
	})
}

// An installed environment got one build, which torch/version.py names:
// the index's choice is no longer open.
func TestEG304SilentOnPrefix(t *testing.T) {
	env := &envspec.Env{
		File: "/opt/venv", Kind: envspec.KindPrefix,
		Pip: []*envspec.PipDep{{
			Raw:       envspec.String{Value: "torch==2.11.0", Pos: finding.Pos{File: "/opt/venv/lib/python3.12/site-packages/torch-2.11.0.dist-info/METADATA"}},
			Line:      &envspec.PipLine{Raw: "torch==2.11.0", Req: &envspec.PipRequirement{Name: "torch", Normalized: "torch", Specifiers: []envspec.PipSpecifier{{Op: "==", Version: "2.11.0"}}}},
			Installed: &envspec.Installed{Name: "torch", Version: "2.11.0", Installer: "pip"},
		}},
		Torch: &envspec.TorchInfo{Version: "2.11.0+cu130", CUDA: "13.0"},
	}
	k := kb.Default()
	ctx := &Context{Env: env, Stack: Resolve(env, k), KB: k}
	if ds := ruleEG304.Run(ctx); len(ds) != 0 {
		t.Errorf("EG304 on an installed torch: %v", ds)
	}
	env.Kind = envspec.KindEnvFile
	if ds := ruleEG304.Run(ctx); len(ds) != 1 {
		t.Errorf("the same line in a file: want one EG304, got %v", ds)
	}
}

// TestEG304HintFollowsNvidiaPins: review thirty-four F8 (018, a pip
// freeze). Where the file's exact nvidia-* pins are one wheel variant's
// (torch_cuda_libs), the hint names that variant, whose pins resolve
// beside them; pins of two variants, or none, leave the usual hint.
func TestEG304HintFollowsNvidiaPins(t *testing.T) {
	k := kb.Default()
	file := func(pins string) string {
		return "dependencies:\n  - python=3.10\n  - pip:\n    - torch==2.6.0\n" + pins
	}
	for _, tt := range []struct {
		name, src string
		has, not  string
	}{
		{"cu124 pins", file("    - nvidia-cublas-cu12==12.4.5.8\n    - nvidia-cudnn-cu12==9.1.0.70\n"),
			"are those torch 2.6.0+cu124 pins: add …/whl/cu124 with --extra-index-url and pin torch==2.6.0+cu124", "cu126"},
		{"cu126 pins", file("    - nvidia-cublas-cu12==12.6.4.1\n"),
			"pin torch==2.6.0+cu126", "cu124 pins"},
		{"pins of two variants", file("    - nvidia-cublas-cu12==12.4.5.8\n    - nvidia-cudnn-cu12==9.5.1.17\n"),
			"torch 2.6.0 has the wheel indexes", "nvidia-* pins"},
		{"a pin two variants share", file("    - nvidia-nccl-cu12==2.21.5\n"),
			"torch 2.6.0 has the wheel indexes", "nvidia-* pins"}, // cu124 and cu126 both pin nccl 2.21.5
		{"no pins", file(""), "torch 2.6.0 has the wheel indexes", "nvidia-* pins"},
	} {
		ctx := &Context{Env: fakeEnv(t, tt.src), KB: k}
		ds := ruleEG304.Run(ctx)
		if len(ds) != 1 {
			t.Fatalf("%s: %d findings, want 1", tt.name, len(ds))
		}
		if !strings.Contains(ds[0].Hint, tt.has) || strings.Contains(ds[0].Hint, tt.not) {
			t.Errorf("%s: hint %q, want %q and not %q", tt.name, ds[0].Hint, tt.has, tt.not)
		}
	}
}
