package resolver

import (
	"slices"
	"testing"
)

// A CUDA library a torch wheel pins is a build for the wheel's CUDA
// variant: gpucheck reads the cuda_lib_arch rows' CUDA condition and a
// toolkit library's release from it, never from the library's own
// version. The runtime's own libraries keep their release as version.
func TestPinnedLibsCarryTheWheelCUDA(t *testing.T) {
	st := resolveSrc(t, "dependencies:\n  - pip\n  - pip:\n    - torch==2.6.0\n")
	if st.CUDA == nil || st.CUDA.Version != "12.4" {
		t.Fatalf("CUDA %+v, want PyPI's 12.4 build", st.CUDA)
	}
	var cudnn, cublas *GPUPackage
	for i := range st.GPUPackages {
		switch st.GPUPackages[i].Lib {
		case "cudnn":
			cudnn = &st.GPUPackages[i]
		case "cublas":
			cublas = &st.GPUPackages[i]
		}
	}
	if cudnn == nil || cudnn.Name != "nvidia-cudnn-cu12" || cudnn.Version != "9.1.0.70" || !slices.Equal(cudnn.BuiltFor.CUDA, []string{"12.4"}) {
		t.Errorf("cudnn %+v, want torch's pin nvidia-cudnn-cu12 9.1.0.70 built for CUDA 12.4", cudnn)
	}
	if cublas == nil || cublas.Version != "12.4" || cublas.BundledWith != RuntimeBundled("12.4") || len(cublas.BuiltFor.CUDA) != 0 {
		t.Errorf("cublas %+v, want the CUDA 12.4 runtime's", cublas)
	}
}
