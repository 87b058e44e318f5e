package resolver

import "testing"

func TestEG505(t *testing.T) {
	checkRuleCases(t, ruleEG505, []ruleCase{
		{name: "jupyter and matplotlib with pytorch", src: `dependencies:
  - pytorch=2.1
  - jupyterlab
  - matplotlib=3.8
  - matplotlib-base=3.8
  - pip:
    - seaborn`,
			want: []string{
				"test.yml:3:5: jupyterlab (line 3) in an environment that trains with pytorch",
				"test.yml:4:5: matplotlib=3.8 (line 4) in an environment",
				"test.yml:7:7: seaborn (line 7) in an environment",
			}},
		{name: "pip framework", src: `dependencies:
  - ipykernel
  - pip:
    - tensorflow==2.15`,
			want: []string{"test.yml:2:5: ipykernel (line 2) in an environment that trains with tensorflow"}},
		{name: "stack framework", stack: &Stack{Framework: &Framework{Name: "jax"}}, src: `dependencies:
  - notebook`,
			want: []string{"notebook (line 2) in an environment that trains with jax"}},
		{name: "silent: no framework", src: `dependencies:
  - jupyterlab
  - matplotlib`},
		{name: "silent: framework, nothing interactive", src: `dependencies:
  - pytorch
  - numpy
  - tensorboard`},
	})
}
