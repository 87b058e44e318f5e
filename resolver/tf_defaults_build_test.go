package resolver

import "testing"

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
