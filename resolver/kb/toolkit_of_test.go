package kb

import "testing"

// TestToolkitOfComponentVersions: a toolkit library's own version names
// its toolkit only from CUDA 12 and only for some (cuBLAS 12.4.5.8, but
// cuFFT 11.2.1.3 in CUDA 12.4.1), so the releases rows pair them
// (CUDA_COMPONENT_VERSIONS, NV_RPM_CURAND). Review forty-three F37: 108's
// libcufft 10.7.2.124 (CUDA 11.6.2, which sorts above 11.7's 10.7.2.91)
// and libcurand 10.3.1.124 (CUDA 12.0) beside pytorch-cuda=11.7 read as
// of unknown toolkits.
func TestToolkitOfComponentVersions(t *testing.T) {
	k := Default()
	for _, tt := range []struct{ lib, version, cuda string }{
		{"cufft", "10.7.2.124", "11.6"},
		{"cufft", "10.7.2.91", "11.7"},
		{"cufft", "11.2.1.3", "12.4"},
		{"curand", "10.3.1.124", "12.0"},
		{"curand", "10.3.0.86", "11.8"},
		{"cusolver", "11.4.0.1", "11.7"},
		{"cusparse", "11.7.4.91", "11.7"},
		{"cusparse", "12.3.1.170", "12.4"},
		{"cublas", "11.4.1.1043", "11.2"},
		{"cublas", "11.10.3.66", "11.7"},
		{"curand", "10.3.2.106", ""}, // no source pairs it
	} {
		row, ok := k.CUDALibByName(tt.lib)
		if !ok {
			t.Fatalf("no row for %s", tt.lib)
		}
		got, _ := row.ToolkitOf(tt.version)
		if got != tt.cuda {
			t.Errorf("%s %s: CUDA %q, want %q", tt.lib, tt.version, got, tt.cuda)
		}
	}
}

// TestLibToolkitOfTorchPins: a release no releases row pairs is the CUDA
// of the torch wheel builds that pin it (torch 2.2.0+cu121 pins
// nvidia-curand-cu12 10.3.2.106 beside the 12.1 runtime).
func TestLibToolkitOfTorchPins(t *testing.T) {
	k := Default()
	for _, tt := range []struct{ lib, version, cuda string }{
		{"curand", "10.3.2.106", "12.1"},
		{"curand", "10.3.5.147", "12.4"},
		{"cufft", "10.7.2.124", "11.6"}, // the releases row
		{"curand", "10.3.4.107", ""},    // pinned by no torch build read
		{"cudnn", "8.9.2.26", ""},       // not a toolkit library
	} {
		got, _ := k.LibToolkitOf(tt.lib, tt.version)
		if got != tt.cuda {
			t.Errorf("%s %s: %q, want %q", tt.lib, tt.version, got, tt.cuda)
		}
	}
}
