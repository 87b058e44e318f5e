package resolver

import (
	"strings"
	"testing"
)

func TestEG302(t *testing.T) {
	checkRuleCases(t, ruleEG302, []ruleCase{
		{name: "cudatoolkit and pip torch", src: `dependencies:
  - python=3.9
  - cudatoolkit=11.8
  - pip:
    - torch==2.0.1+cu118
    - torchvision==0.15.2+cu118
    - numpy`,
			want: []string{
				"test.yml:5:7: pip installs torch (torch==2.0.1+cu118, line 5) while conda provides the CUDA stack (cudatoolkit=11.8, line 3)",
				"test.yml:6:7: pip installs torchvision",
			}},
		{name: "cuda-toolkit and cupy wheel", src: `dependencies:
  - nvidia::cuda-toolkit=12.1
  - pip:
    - cupy-cuda12x`,
			want: []string{"pip installs cupy (cupy-cuda12x, line 4)"}},
		{name: "silent: no conda CUDA stack", src: `dependencies:
  - python=3.10
  - pip:
    - torch==2.1.0+cu121`},
		{name: "silent: duplicate is EG301's", src: `dependencies:
  - pytorch
  - pytorch-cuda=12.1
  - pip:
    - torch==2.1.0`},
		{name: "silent: nvidia wheels are EG303's", src: `dependencies:
  - cudatoolkit=11.8
  - pip:
    - nvidia-cudnn-cu11==8.5.0.96`},
	})
}

func TestEG302NamesTheStack(t *testing.T) {
	// cuda-cccl (headers) comes first in an export; the message names cudatoolkit.
	env := fakeEnv(t, `dependencies:
  - cuda-cccl=12.2.140
  - cudatoolkit=11.8
  - pip:
    - cupy-cuda11x`)
	ds := ruleEG302.Run(&Context{Env: env})
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "(cudatoolkit=11.8, line 3)") {
		t.Fatalf("got %v", ds)
	}
}
