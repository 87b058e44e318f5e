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
		// CuPy's wheels bring no CUDA library: beside conda's CUDA 12 they
		// load conda's (one runtime); with [ctk] pip brings NVIDIA's.
		{name: "silent: cuda-toolkit and a cupy wheel of its major", src: `dependencies:
  - nvidia::cuda-toolkit=12.1
  - pip:
    - cupy-cuda12x`},
		{name: "cuda-toolkit and cupy wheel with its ctk extra", src: `dependencies:
  - nvidia::cuda-toolkit=12.1
  - pip:
    - cupy-cuda12x[ctk]`,
			want: []string{"pip installs cupy (cupy-cuda12x[ctk], line 4) while conda provides the CUDA stack"}},
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
    - cupy-cuda11x[ctk]`)
	ds := ruleEG302.Run(&Context{Env: env})
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "(cudatoolkit=11.8, line 3)") {
		t.Fatalf("got %v", ds)
	}
}

// A jaxlib CUDA wheel of a release before jax's pip CUDA extras
// (JAXPipCUDASince) bundles no runtime: it loads the CUDA it finds, conda's
// here, so EG302 says nothing; a jaxlib built for another CUDA than conda's
// is EG201's finding. From the pip extras on (cuda11_pip, 0.4.7) jax brings
// NVIDIA's runtime wheels and EG302 holds.
func TestEG302OldJaxlibUsesHostCUDA(t *testing.T) {
	tests := []struct {
		name, pip  string
		eg302      bool
		eg201Parts string
	}{
		{"URL wheel of 0.1.51, matching", "    - https://storage.googleapis.com/jax-releases/cuda101/jaxlib-0.1.51-cp37-none-manylinux2010_x86_64.whl\n    - jax==0.1.72", false, ""},
		{"local version, matching", "    - -f https://storage.googleapis.com/jax-releases/jax_releases.html\n    - jaxlib==0.1.57+cuda101\n    - jax==0.2.5", false, ""},
		{"local version, another CUDA", "    - -f https://storage.googleapis.com/jax-releases/jax_releases.html\n    - jaxlib==0.1.69+cuda111\n    - jax==0.2.17", false, "is the CUDA 11.1 wheel but cudatoolkit=10.1"},
		{"jax[cuda] of 0.3.10", "    - -f https://storage.googleapis.com/jax-releases/jax_releases.html\n    - jax[cuda]==0.3.10", false, ""},
		{"jax[cuda11_pip] of 0.4.7", "    - -f https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n    - jax[cuda11_pip]==0.4.7", true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := lintSrc(t, "channels:\n  - conda-forge\ndependencies:\n  - python=3.8\n  - pip\n  - cudatoolkit=10.1\n  - pip:\n"+tc.pip+"\n")
			if got := len(findingsOf(ds, "EG302")) > 0; got != tc.eg302 {
				t.Errorf("EG302 reported = %v, want %v: %v", got, tc.eg302, findingsOf(ds, "EG302"))
			}
			if tc.eg201Parts == "" {
				return
			}
			var msgs []string
			for _, d := range findingsOf(ds, "EG201") {
				msgs = append(msgs, d.Message)
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tc.eg201Parts) {
				t.Errorf("EG201 = %q, want %q", msgs, tc.eg201Parts)
			}
		})
	}
}

// TestEG302CupyWheelOfAnotherMajor: a CuPy wheel loads the CUDA libraries
// it finds; beside a conda CUDA 11 stack a cupy-cuda12x finds no CUDA 12
// ones and fails at import (the README's demo). Said as that, not as two
// runtimes; the hint names the wheel for conda's major.
func TestEG302CupyWheelOfAnotherMajor(t *testing.T) {
	checkRuleCases(t, ruleEG302, []ruleCase{
		{name: "cudatoolkit 11.3 and cupy-cuda12x", src: `dependencies:
  - cudatoolkit=11.3
  - pip:
    - cupy-cuda12x`, stack: &Stack{CUDA: &CUDAInfo{Version: "11.3"}},
			want: []string{"pip installs cupy (cupy-cuda12x, line 4), a build for CUDA 12 that brings no CUDA libraries and loads the environment's, while conda provides a CUDA 11 stack (cudatoolkit=11.3, line 2): it finds no CUDA 12 libraries there and fails at import"}},
	})
}

// TestEG302OnePerLibrary (review forty-five F9, corpus 010): jax[cuda12]
// and jaxlib[cuda12] both install jax, whose CUDA runtime comes with
// jax's extra (jaxlib defines no cuda12 extra): one EG302, on the jax
// line, not a second on jaxlib's, wherever the lines stand.
func TestEG302OnePerLibrary(t *testing.T) {
	for _, pip := range []string{
		"      - jax[cuda12]>=0.4.20\n      - jaxlib[cuda12]>=0.4.20\n",
		"      - jaxlib[cuda12]>=0.4.20\n      - jax[cuda12]>=0.4.20\n",
	} {
		src := "channels: [nvidia, conda-forge]\ndependencies:\n  - python=3.11\n  - cuda-toolkit=12\n  - pip\n  - pip:\n" + pip
		_, ds := lintSrc(t, src)
		got := findingsOf(ds, "EG302")
		if len(got) != 1 || !strings.Contains(got[0].Message, "(jax[cuda12]>=0.4.20,") {
			t.Errorf("%q: %d EG302 %v, want one on the jax line", pip, len(got), got)
		}
	}
}
