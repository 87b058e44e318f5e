package resolver

import (
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

func torchStack(version string, candidates ...string) *Stack {
	return &Stack{Framework: &Framework{Name: "pytorch", Version: version, Candidates: candidates,
		Pos: finding.Pos{File: "test.yml", Line: 2, Col: 5}}}
}

func TestEG504(t *testing.T) {
	const file = `dependencies:
  - pytorch=2.0.1
variables:
  PYTORCH_CUDA_ALLOC_CONF: max_split_size_mb:256,expandable_segments:True`
	checkRuleCases(t, ruleEG504, []ruleCase{
		{name: "expandable_segments on 2.0.1", src: file, stack: torchStack("2.0.1"),
			want: []string{"test.yml:4:50: PYTORCH_CUDA_ALLOC_CONF: expandable_segments needs torch 2.1 or newer, but the environment gets torch 2.0.1 [EG504]"}},
		{name: "every candidate too old", src: file, stack: torchStack("", "1.13.0", "1.13.1", "2.0.0", "2.0.1"),
			want: []string{"but the environment gets torch 2.0.1 at newest"}},
		{name: "process environment", src: "dependencies:\n  - pytorch=1.13", stack: torchStack("1.13.1"),
			env:  map[string]string{"PYTORCH_ALLOC_CONF": "expandable_segments:True"},
			want: []string{"$PYTORCH_ALLOC_CONF:1:1: PYTORCH_ALLOC_CONF: expandable_segments needs torch 2.1"}},
		{name: "silent: torch 2.1", src: file, stack: torchStack("2.1.0")},
		{name: "silent: open spec admits a new enough torch", src: file, stack: torchStack("", "2.0.1", "2.1.0")},
		{name: "silent: torch unknown", src: file},
		{name: "silent: not pytorch", src: file, stack: &Stack{Framework: &Framework{Name: "tensorflow", Version: "2.0.1"}}},
		{name: "silent: option without an established version", src: `variables:
  PYTORCH_CUDA_ALLOC_CONF: pinned_use_background_threads:True`, stack: torchStack("1.12.0")},
	})
}

func TestEG504InstalledTorch(t *testing.T) {
	env := fakeEnv(t, "variables:\n  PYTORCH_CUDA_ALLOC_CONF: expandable_segments:True")
	env.Torch = &envspec.TorchInfo{Version: "2.0.1+cu118", CUDA: "11.8"}
	ds := ruleEG504.Run(&Context{Env: env})
	if len(ds) != 1 {
		t.Fatalf("got %d findings, want 1", len(ds))
	}
	env.Torch.Version = "2.3.0+cu121"
	if ds := ruleEG504.Run(&Context{Env: env}); len(ds) != 0 {
		t.Fatalf("torch 2.3: got %v", ds)
	}
}
