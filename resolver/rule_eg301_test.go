package resolver

import "testing"

func TestEG301(t *testing.T) {
	checkRuleCases(t, ruleEG301, []ruleCase{
		{name: "conda pytorch and pip torch", src: `name: t
dependencies:
  - pytorch=2.1
  - pytorch-cuda=12.1
  - pip
  - pip:
    - torch==2.1.0`,
			want: []string{"test.yml:7:7: torch comes from both conda (pytorch=2.1, line 3) and pip (torch==2.1.0, line 7) [EG301]"}},
		{name: "conda cupy and pip cupy-cuda12x", src: `dependencies:
  - cupy
  - pip:
    - cupy-cuda12x`,
			want: []string{"test.yml:4:7: cupy comes from both conda (cupy, line 2)"}},
		{name: "tensorflow both", src: `dependencies:
  - conda-forge::tensorflow-gpu=2.11
  - pip:
    - tensorflow==2.11.0`,
			want: []string{"tensorflow comes from both"}},
		{name: "jaxlib and jax cuda extra", src: `dependencies:
  - jaxlib=0.4.23
  - pip:
    - jax[cuda12]==0.4.23`,
			want: []string{"jax comes from both"}},
		{name: "silent: pip torch only", src: `dependencies:
  - python=3.10
  - pip:
    - torch==2.1.0`},
		{name: "silent: conda only", src: `dependencies:
  - pytorch=2.1
  - torchvision
  - cupy`},
		{name: "silent: plain pip jax is pure python", src: `dependencies:
  - jaxlib
  - pip:
    - jax==0.4.23`},
	})
}

func TestEG301Hint(t *testing.T) {
	// pip pins the CUDA build and conda has no CUDA packages: drop conda's.
	env := fakeEnv(t, `dependencies:
  - pytorch
  - pip:
    - torch==2.1.0+cu121`)
	ds := ruleEG301.Run(&Context{Env: env})
	if len(ds) != 1 || ds[0].Hint != "drop pytorch from the conda dependencies: the pip line pins the CUDA build" {
		t.Fatalf("got %+v", ds)
	}
	if len(ds[0].Related) != 1 || ds[0].Related[0].Line != 2 {
		t.Errorf("related = %v, want the conda line 2", ds[0].Related)
	}
}
