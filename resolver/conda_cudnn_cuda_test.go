package resolver

import (
	"slices"
	"testing"
)

// TestCondaForgeCuDNNBuiltForCudatoolkit: a conda-forge cudnn whose release
// is open beside a cudatoolkit fixed to one CUDA 10.x minor is a build for
// that CUDA (every conda-forge cudnn build for CUDA 10.x requires its own
// cudatoolkit minor, CF_CUDNN_CUDATOOLKIT), which bounds the releases it
// can be (review sixteen #19, corpus 003). Not so where the cudnn comes
// from another channel, where the toolkit is open, or for CUDA 11, whose
// builds took any cudatoolkit 11.*.
func TestCondaForgeCuDNNBuiltForCudatoolkit(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"conda-forge, cudatoolkit 10.1", "channels: [conda-forge]\ndependencies:\n  - cudnn\n  - cudatoolkit<10.2,>10.0\n", []string{"10.1"}},
		{"conda-forge, cudatoolkit=10.2", "channels: [conda-forge]\ndependencies:\n  - cudnn\n  - cudatoolkit=10.2\n", []string{"10.2"}},
		{"a release conda-forge never built", "channels: [conda-forge, defaults]\ndependencies:\n  - cudnn=7.3\n  - cudatoolkit=10.0\n", nil},
		{"defaults", "channels: [defaults]\ndependencies:\n  - cudnn\n  - cudatoolkit=10.1\n", nil},
		{"toolkit open", "channels: [conda-forge]\ndependencies:\n  - cudnn\n  - cudatoolkit\n", nil},
		{"CUDA 11", "channels: [conda-forge]\ndependencies:\n  - cudnn\n  - cudatoolkit=11.2\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			found := false
			for _, p := range st.GPUPackages {
				if p.Lib == "cudnn" && p.Name == "cudnn" {
					found = true
					if !slices.Equal(p.BuiltFor.CUDA, tt.want) {
						t.Errorf("cudnn built for %v, want %v", p.BuiltFor.CUDA, tt.want)
					}
				}
			}
			if !found {
				t.Fatalf("no cudnn package in %+v", st.GPUPackages)
			}
		})
	}
}
