package resolver

import "testing"

func TestEG503(t *testing.T) {
	checkRuleCases(t, ruleEG503, []ruleCase{
		{name: "unknown option in variables", src: `dependencies:
  - pytorch
variables:
  PYTORCH_CUDA_ALLOC_CONF: max_split_size_mb:512,growth_factor:2`,
			want: []string{`test.yml:4:50: PYTORCH_CUDA_ALLOC_CONF: unknown allocator option "growth_factor" [EG503]`}},
		{name: "quoted value, two bad values", src: `variables:
  PYTORCH_CUDA_ALLOC_CONF: "max_split_size_mb:16,expandable_segments:true"`,
			want: []string{
				"test.yml:2:47: PYTORCH_CUDA_ALLOC_CONF: max_split_size_mb:16 is too small",
				"test.yml:2:70: PYTORCH_CUDA_ALLOC_CONF: expandable_segments:true is not accepted",
			}},
		{name: "new variable name", src: `variables:
  PYTORCH_ALLOC_CONF: garbage_collection_threshold:1.5`,
			want: []string{"test.yml:2:52: PYTORCH_ALLOC_CONF: garbage_collection_threshold:1.5 is outside (0, 1)"}},
		{name: "process environment", src: `dependencies:
  - pytorch`, env: map[string]string{"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True,max_split_size_mb:10"},
			want: []string{"$PYTORCH_CUDA_ALLOC_CONF:1:44: PYTORCH_CUDA_ALLOC_CONF: max_split_size_mb:10 is too small"}},
		{name: "silent: process value equal to the file's", src: `variables:
  PYTORCH_CUDA_ALLOC_CONF: growth_factor:2`, env: map[string]string{"PYTORCH_CUDA_ALLOC_CONF": "growth_factor:2"},
			want: []string{"test.yml:2:28: PYTORCH_CUDA_ALLOC_CONF: unknown allocator option"}},
		{name: "silent: valid settings", src: `variables:
  PYTORCH_CUDA_ALLOC_CONF: expandable_segments:True,roundup_power2_divisions:[256:1,512:2,>:8]
  OTHER_VAR: growth_factor:2`},
		{name: "silent: no settings", src: `dependencies:
  - pytorch`, env: map[string]string{}},
	})
}

func TestEG503EndCol(t *testing.T) {
	env := fakeEnv(t, "variables:\n  PYTORCH_CUDA_ALLOC_CONF: growth_factor:2")
	ds := ruleEG503.Run(&Context{Env: env})
	if len(ds) != 1 || ds[0].Pos.Col != 28 || ds[0].EndCol != 28+len("growth_factor") {
		t.Fatalf("got %+v", ds)
	}
	if ds[0].Hint == "" {
		t.Error("no hint")
	}
}
