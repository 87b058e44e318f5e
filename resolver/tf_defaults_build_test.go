package resolver

import (
	"strings"
	"testing"
)

// The defaults channel built tensorflow-gpu 2.4.1 with cudatoolkit 10.1
// only (tensorflow_defaults_builds), so its runtime is known though the
// file pins none (review twelve #409, #411, corpus 045); 2.0.0, built for
// 10.0 and 10.1, stays open, and a cudatoolkit the file pins still counts.
func TestTensorFlowDefaultsBuildCUDA(t *testing.T) {
	for _, tt := range []struct{ src, cuda string }{
		{"channels: [conda-forge]\ndependencies:\n  - python=3.8\n  - tensorflow-gpu=2.4.1\n", "10.1"},
		{"channels: [conda-forge]\ndependencies:\n  - python=3.7\n  - tensorflow-gpu=2.0.0\n", ""},
	} {
		st, _ := lintSrc(t, tt.src)
		got := ""
		if st.CUDA != nil {
			got = st.CUDA.Version
		}
		if got != tt.cuda {
			t.Errorf("%q: CUDA %q, want %q", tt.src, got, tt.cuda)
		}
	}
}

// The same row names the cuDNN the build was made with (7.6), so the
// cudnn it loads is a cuDNN 7 (libcudnn.so.7): review twelve #409 and
// #411 read cuDNN 7.6 as failing sm_80 and newer, which the checks could
// not decide while the release was open. A release built with several
// toolkits (2.0.0: CUDA 10.0 or 10.1) opens a cuDNN 7 whichever it is
// (tensorflow_defaults_cuda_choices' cudnn_major), and so does every
// build an open release admits (044: python=3.7, 1.13.1 … 2.4.1). Before
// review forty-three, 1.13.1 on an A100 read ok for want of it.
func TestTensorFlowDefaultsBuildCuDNN(t *testing.T) {
	for _, tt := range []struct{ src, within, why string }{
		{"channels: [conda-forge]\ndependencies:\n  - python=3.8\n  - tensorflow-gpu=2.4.1\n", "7", "built with cuDNN 7.6 and opens libcudnn.so.7"},
		{"channels: [defaults]\ndependencies:\n  - python=3.7\n  - tensorflow-gpu=1.15.0\n", "7", "built with cuDNN 7.6 and opens libcudnn.so.7"},
		{"channels: [conda-forge]\ndependencies:\n  - python=3.7\n  - tensorflow-gpu=2.0.0\n", "7", "every build of defaults' tensorflow-gpu 2.0.0 (CUDA 10.0 or 10.1) was built with cuDNN 7 and opens libcudnn.so.7"},
		{"channels: [defaults]\ndependencies:\n  - python=3.7\n  - tensorflow-gpu\n", "7", "every defaults tensorflow-gpu build the file admits (1.13.1 … 2.4.1) was built with cuDNN 7"},
		// Python 3.6 admits releases before 1.13.1, which the tables do
		// not list: nothing is said of them
		{"channels: [defaults]\ndependencies:\n  - python=3.6\n  - tensorflow-gpu\n", "", ""},
	} {
		st, _ := lintSrc(t, tt.src)
		found := false
		for _, p := range st.GPUPackages {
			if p.Lib != "cudnn" {
				continue
			}
			found = true
			if p.Within != tt.within {
				t.Errorf("%q: cudnn within %q (%s), want %q", tt.src, p.Within, p.WithinWhy, tt.within)
			}
			if tt.within != "" && !strings.Contains(p.WithinWhy, tt.why) {
				t.Errorf("%q: why %q does not name the build's cuDNN", tt.src, p.WithinWhy)
			}
		}
		if !found && tt.within != "" {
			t.Errorf("%q: no cudnn among the GPU packages", tt.src)
		}
	}
}
