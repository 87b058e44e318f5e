package resolver

import (
	"strings"
	"testing"
)

// TestNoNameSaysWhereAFrameworkMayCome: a file that names no framework but
// reads a requirements file (-r) or installs a local project with a GPU
// extra may still get one there; the refusal says so instead of "no
// framework in the environment" (review sixteen's 059 and 181, review
// seventeen's 122).
func TestNoNameSaysWhereAFrameworkMayCome(t *testing.T) {
	tests := []struct{ src, want string }{
		{"dependencies:\n  - python=3.12\n  - pip\n  - pip:\n    - -r requirements_cuda.txt\n", "the pip section reads requirements_cuda.txt (line 5), which envguard does not read"},
		{"dependencies:\n  - python=3.12\n  - pip\n  - pip:\n    - -e .[gpu]\n", "installs a local project with a GPU extra"},
		{"dependencies:\n  - python=3.12\n  - numpy\n", "no framework (pytorch, tensorflow or jax) is named in the file"},
	}
	for _, tt := range tests {
		st := resolveSrc(t, tt.src)
		if _, err := st.Canonical(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want it to say %q", tt.src, err, tt.want)
		}
	}
}

// TestNoNamePipTensorFlowWithoutLibraries: the package index's tensorflow
// 2.9 is one wheel for CPU and GPU, built for CUDA 11.2; a file that
// installs none of its CUDA libraries leaves the accelerator to the
// machine, which the refusal says (review seventeen's 145), not that the
// file failed to pin a variant it could not pin.
func TestNoNamePipTensorFlowWithoutLibraries(t *testing.T) {
	st := resolveSrc(t, "dependencies:\n  - python=3.9\n  - pip:\n    - tensorflow==2.9\n")
	_, err := st.Canonical()
	if err == nil || !strings.Contains(err.Error(), "tensorflow 2.9.0's package-index wheel is built for CUDA 11.2") || !strings.Contains(err.Error(), "which the file does not install") {
		t.Errorf("got %v", err)
	}
	st = resolveSrc(t, "dependencies:\n  - python=3.9\n  - cudatoolkit=11.2\n  - pip:\n    - tensorflow==2.9\n")
	if _, err := st.Canonical(); err == nil || !strings.Contains(err.Error(), "the file installs no cuDNN") {
		t.Errorf("with cudatoolkit: got %v", err)
	}
}
