package resolver

import (
	"strings"
	"testing"
)

// TestCuDNNWithin: where the cuDNN release is open, what every release
// it can be starts with: a conda cudnn=8.7 admits only 8.7.x; a pip
// TensorFlow opens libcudnn.so.<the major it was built with> (2.1.0: cuDNN
// 7.6, so a cuDNN 7), whether the file names cudnn or not; a cudnn pin of
// another major than TensorFlow's is left as the file says (TensorFlow
// cannot load it, EG208's matter), and a range says nothing.
func TestCuDNNWithin(t *testing.T) {
	tests := []struct {
		name, src, within, why string
	}{
		{"conda series", "channels: [pytorch, nvidia, conda-forge]\ndependencies:\n  - pytorch=2.1.1\n  - pytorch-cuda=11.8\n  - cudnn=8.7\n", "8.7", "cudnn=8.7 admits only cuDNN 8.7.x"},
		{"tensorflow beside an open cudnn", "dependencies:\n  - python=3.6\n  - cudatoolkit=10.1.*\n  - cudnn\n  - pip\n  - pip:\n    - tensorflow==2.1\n", "7", "tensorflow 2.1.0 was built with cuDNN 7.6 and opens libcudnn.so.7"},
		{"tensorflow, no cudnn named", "dependencies:\n  - python=3.7\n  - cudatoolkit=10.1\n  - pip\n  - pip:\n    - tensorflow-gpu==2.1.0\n", "7", "opens libcudnn.so.7"},
		{"tensorflow beside the same major", "dependencies:\n  - python=3.6\n  - cudatoolkit=10.1\n  - cudnn=7.6\n  - pip\n  - pip:\n    - tensorflow==2.1.0\n", "7.6", "cudnn=7.6 admits only cuDNN 7.6.x, and tensorflow 2.1.0 was built with cuDNN 7.6"},
		{"tensorflow beside another major", "dependencies:\n  - python=3.6\n  - cudatoolkit=10.1\n  - cudnn=8.0\n  - pip\n  - pip:\n    - tensorflow==2.1.0\n", "8.0", "cudnn=8.0 admits only cuDNN 8.0.x"},
		{"a range", "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.2\n  - cudnn>=8.1\n  - pip\n  - pip:\n    - torch==1.13.1\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			got := cudnnOf(t, st)
			if got.Within != tt.within || !strings.Contains(got.WithinWhy, tt.why) {
				t.Errorf("within %q (%q), want %q with %q", got.Within, got.WithinWhy, tt.within, tt.why)
			}
			if tt.name == "tensorflow beside another major" && strings.Contains(got.WithinWhy, "tensorflow") {
				t.Errorf("another major took TensorFlow's: %q", got.WithinWhy)
			}
		})
	}
}
