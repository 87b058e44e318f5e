package resolver

import (
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
