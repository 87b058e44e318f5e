package gpucheck

import (
	"testing"

	"github.com/envguard/envguard/resolver"
)

// TestRuntimeMajorIgnoresVersionlessEvidence: evidence that names no CUDA
// version (a --find-links page, which says only "cuda") neither gives nor
// contradicts the major the rest gives (corpus 010: cuda-toolkit=12 and
// jax[cuda12] beside the jax_cuda_releases page); two majors still do.
func TestRuntimeMajorIgnoresVersionlessEvidence(t *testing.T) {
	ev := func(says ...string) *resolver.Stack {
		st := &resolver.Stack{CUDA: &resolver.CUDAInfo{}}
		for _, s := range says {
			st.CUDA.Evidence = append(st.CUDA.Evidence, resolver.Evidence{Says: s})
		}
		return st
	}
	for _, tt := range []struct {
		says []string
		want int
	}{
		{[]string{"12", "cuda"}, 12},
		{[]string{"cuda", "12", "12"}, 12},
		{[]string{"cuda"}, 0},
		{[]string{"12", "11"}, 0},
		{[]string{"12", "cuda", "11"}, 0},
	} {
		c := &checker{st: ev(tt.says...)}
		if got := c.runtimeMajor(); got != tt.want {
			t.Errorf("evidence %q: major %d, want %d", tt.says, got, tt.want)
		}
	}
}
