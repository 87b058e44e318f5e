package resolver

import "testing"

// TestCondaForgeCPUOnlyReleases: conda-forge built onnxruntime with CUDA
// from 1.15.1 on (gpu_libs' conda_forge_cuda_since); an older conda-forge
// release is CPU-only and no GPU-code package (review r7 #596), while a
// newer one, or one from another channel, still is.
func TestCondaForgeCPUOnlyReleases(t *testing.T) {
	tests := []struct {
		name, src string
		gpu       bool
	}{
		{"1.12.1 from conda-forge", "channels: [pytorch, conda-forge]\ndependencies:\n  - pytorch==1.12.1\n  - onnxruntime==1.12.1\n", false},
		{"explicit conda-forge", "channels: [defaults]\ndependencies:\n  - pytorch==1.12.1\n  - conda-forge::onnxruntime=1.14.1\n", false},
		{"1.16.3 from conda-forge", "channels: [conda-forge]\ndependencies:\n  - pytorch==2.1.0\n  - onnxruntime==1.16.3\n", true},
		{"release left open", "channels: [conda-forge]\ndependencies:\n  - pytorch==2.1.0\n  - onnxruntime\n", true},
		{"from defaults", "channels: [defaults]\ndependencies:\n  - pytorch==1.12.1\n  - onnxruntime==1.12.1\n", true},
		// conda's fuzzy =1.14 is the series 1.14.*, every release of which
		// is older than 1.15.1; =1.15 admits 1.15.1 and 1.15.* admits it too.
		{"series 1.14 from conda-forge", "channels: [conda-forge]\ndependencies:\n  - pytorch==1.12.1\n  - onnxruntime=1.14\n", false},
		{"series 1.14.* from conda-forge", "channels: [conda-forge]\ndependencies:\n  - pytorch==1.12.1\n  - onnxruntime=1.14.*\n", false},
		{"series 1.15 from conda-forge", "channels: [conda-forge]\ndependencies:\n  - pytorch==2.1.0\n  - onnxruntime=1.15\n", true},
		{"series 1.15.* from conda-forge", "channels: [conda-forge]\ndependencies:\n  - pytorch==2.1.0\n  - onnxruntime 1.15.*\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			got := false
			for _, p := range st.GPUPackages {
				if p.Name == "onnxruntime" {
					got = true
				}
			}
			if got != tt.gpu {
				t.Errorf("onnxruntime a GPU-code package: %v, want %v (%+v)", got, tt.gpu, st.GPUPackages)
			}
		})
	}
}
