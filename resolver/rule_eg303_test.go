package resolver

import (
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

func TestEG303(t *testing.T) {
	checkRuleCases(t, ruleEG303, []ruleCase{
		{name: "cuda-runtime and nvidia wheels", src: `dependencies:
  - cuda-runtime=12.4
  - pip:
    - nvidia-cuda-runtime-cu12==12.4.127
    - nvidia-cudnn-cu12==9.1.0.70
    - requests`,
			// cuda-runtime installs no cuDNN: the cuDNN wheel is the only one
			want: []string{
				"test.yml:4:7: pip NVIDIA CUDA wheel nvidia-cuda-runtime-cu12==12.4.127 (line 4) alongside conda CUDA packages (cuda-runtime=12.4, line 2): two copies of the CUDA libraries",
			}},
		{name: "cudnn and cudnn wheel", src: `dependencies:
  - cudnn=8.2
  - pip:
    - nvidia-cudnn-cu11`,
			want: []string{"nvidia-cudnn-cu11 (line 4) alongside conda CUDA packages (cudnn=8.2, line 2): two copies of cuDNN"}},
		{name: "many wheels, one finding", src: `dependencies:
  - cudatoolkit=11.8
  - cudnn=8.9
  - pip:
    - nvidia-cublas-cu11==11.11.3.6
    - nvidia-cuda-runtime-cu11==11.8.89
    - nvidia-cudnn-cu11==8.9.2.26`,
			want: []string{"test.yml:5:7: pip NVIDIA CUDA wheels nvidia-cublas-cu11==11.11.3.6 (line 5), nvidia-cuda-runtime-cu11==11.8.89 (line 6), nvidia-cudnn-cu11==8.9.2.26 (line 7) alongside conda CUDA packages (cudatoolkit=11.8, line 2; cudnn=8.9, line 3): two copies of the CUDA libraries and cuDNN in one process"}},
		{name: "silent: cudnn does not carry cuBLAS", src: `dependencies:
  - cudnn=8.2
  - pip:
    - nvidia-cublas-cu11`},
		{name: "silent: no conda CUDA", src: `dependencies:
  - python=3.11
  - pip:
    - nvidia-cudnn-cu12`},
		{name: "silent: nvidia packages that are not CUDA wheels", src: `dependencies:
  - cudatoolkit=11.8
  - pip:
    - nvidia-ml-py
    - nvidia-dali-cuda110`},
	})
}

func TestEG303WithKB(t *testing.T) {
	// CUDA 13 wheels drop the -cuXX suffix; the knowledge base knows them.
	env := fakeEnv(t, `dependencies:
  - cuda-toolkit=13.0
  - pip:
    - nvidia-cublas==13.0.0.19
    - torch==2.9.0`)
	ctx := &Context{Env: env, KB: kb.Default()}
	ds := ruleEG303.Run(ctx)
	if len(ds) != 1 || ds[0].Pos.Line != 4 {
		t.Fatalf("EG303 got %v", ds)
	}
	// ...and EG302 leaves it to EG303 rather than calling it a GPU library.
	for _, d := range ruleEG302.Run(ctx) {
		if d.Pos.Line == 4 {
			t.Errorf("EG302 reported the NVIDIA wheel: %s", d.Error())
		}
	}
}
