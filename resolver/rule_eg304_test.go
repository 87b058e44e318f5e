package resolver

import "testing"

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
