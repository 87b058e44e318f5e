package resolver

import "testing"

func TestEG305(t *testing.T) {
	checkRuleCases(t, ruleEG305, []ruleCase{
		{name: "cupy 11 with torch cu121", src: `dependencies:
  - pip:
    - cupy-cuda11x
    - torch==2.1.0+cu121`,
			want: []string{"test.yml:3:7: cupy-cuda11x is built for CUDA 11 but torch==2.1.0+cu121 (line 4) is built for CUDA 12 [EG305]"}},
		{name: "nvidia cu11 with jax cuda12", src: `dependencies:
  - pip:
    - jax[cuda12]==0.4.30
    - nvidia-cudnn-cu11==8.6.0.163`,
			want: []string{"nvidia-cudnn-cu11==8.6.0.163 is built for CUDA 11 but jax[cuda12]==0.4.30"}},
		{name: "index decides torch", src: `dependencies:
  - pip:
    - --index-url https://example.org/whl/cu118
    - torch==2.1.0
    - cupy-cuda12x`,
			want: []string{"cupy-cuda12x is built for CUDA 12 but torch==2.1.0 (line 4) is built for CUDA 11"}},
		{name: "silent: all CUDA 12", src: `dependencies:
  - pip:
    - torch==2.4.0+cu124
    - cupy-cuda12x
    - nvidia-nccl-cu12`},
		{name: "silent: unknown majors", src: `dependencies:
  - pip:
    - torch
    - cupy`},
	})
}
