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

// TestNamePipTensorFlowWithoutLibraries: the package index's tensorflow
// 2.9 is one wheel for CPU and GPU, built for CUDA 11.2; a file that
// installs none of its CUDA libraries is still named for that build, not
// refused for a variant it could not pin (review seventeen's 145).
func TestNamePipTensorFlowWithoutLibraries(t *testing.T) {
	// named for the wheel's own CUDA build, as a CUDA jaxlib is (review
	// fifty-one N15): whether the machine has its libraries is the
	// targets' to say
	for _, src := range []string{
		"dependencies:\n  - python=3.9\n  - pip:\n    - tensorflow==2.9\n",
		"dependencies:\n  - python=3.9\n  - cudatoolkit=11.2\n  - pip:\n    - tensorflow==2.9\n",
	} {
		st := resolveSrc(t, src)
		if name, err := st.Canonical(); err != nil || name != "tf29_cu112" {
			t.Errorf("%q: got %q, %v; want tf29_cu112", src, name, err)
		}
	}
}
