package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestWheelCuDNN: a pip torch that bundles its CUDA libraries loads the
// cuDNN its build image held (torch_wheel_cudnn): the package index's
// 1.7 … 1.12 (the CUDA 10.2 build: 7.6.5) and the wheel index's +cuXYZ
// builds (1.8.0+cu111: 8.0.5, 2.0.0+cu117: 8.5.0). The package index's
// 1.13.x and 2.0.0 pin nvidia-cudnn-cu11==8.5.0.96 instead (torch_cuda_libs, dist
// pypi), a pin the wheel index's 2.0.0+cu117 does not carry; 1.7.0+cu110,
// whose image's cuDNN 8.0.x patch no source gives, stays unknown.
func TestWheelCuDNN(t *testing.T) {
	const idx = "  - pip:\n    - -f https://download.pytorch.org/whl/torch_stable.html\n"
	tests := []struct {
		name, src     string
		dist          kb.Distribution
		version, item string
		kind          string
	}{
		{"package index 1.11", "dependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - torch==1.11.0\n", kb.DistPyPI, "7.6.5", "pytorch 1.11 (pypi, CUDA 10.2)", EvidenceKBRow},
		{"package index 1.8.1", "dependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - torch==1.8.1\n", kb.DistPyPI, "7.6.5", "pytorch 1.8 (pypi, CUDA 10.2)", EvidenceKBRow},
		{"wheel index 1.8.0+cu111", "dependencies:\n  - python=3.8\n  - pip\n" + idx + "    - torch==1.8.0+cu111\n", kb.DistWheel, "8.0.5", "pytorch 1.8 (wheel, CUDA 11.1)", EvidenceKBRow},
		{"wheel index 1.12.1+cu113", "dependencies:\n  - python=3.8\n  - pip\n" + idx + "    - torch==1.12.1+cu113\n", kb.DistWheel, "8.3.2", "pytorch 1.12 (wheel, CUDA 11.3)", EvidenceKBRow},
		{"wheel index 2.0.0+cu117 bundles", "dependencies:\n  - python=3.10\n  - pip\n" + idx + "    - torch==2.0.0+cu117\n", kb.DistWheel, "8.5.0", "pytorch 2.0 (wheel, CUDA 11.7)", EvidenceKBRow},
		{"package index 2.0.0 pins", "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - torch==2.0.0\n", kb.DistPyPI, "8.5.0.96", "nvidia-cudnn-cu11==8.5.0.96", EvidenceRequiresDist},
		{"package index 1.13.1 pins", "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - torch==1.13.1\n", kb.DistPyPI, "8.5.0.96", "nvidia-cudnn-cu11==8.5.0.96", EvidenceRequiresDist},
		{"wheel index 1.13.1+cu117 bundles", "dependencies:\n  - python=3.10\n  - pip\n" + idx + "    - torch==1.13.1+cu117\n", kb.DistWheel, "8.5.0", "pytorch 1.13 (wheel, CUDA 11.7)", EvidenceKBRow},
		{"wheel index 1.7.0+cu110", "dependencies:\n  - python=3.8\n  - pip\n" + idx + "    - torch==1.7.0+cu110\n", kb.DistWheel, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			if st.Framework == nil || st.Framework.Dist != tt.dist {
				t.Fatalf("framework %+v, want dist %s", st.Framework, tt.dist)
			}
			got := cudnnOf(t, st)
			if got.Version != tt.version || got.Known != (tt.version != "") {
				t.Fatalf("cudnn %q known %v, want %q (%+v)", got.Version, got.Known, tt.version, got)
			}
			if tt.version == "" {
				// the 1.7 CUDA 11.0 wheels: a cuDNN 8.0.x, release not known
				if got.Within != "8.0" || !strings.Contains(got.Unknown, "which cudnn 8.0.x release") {
					t.Errorf("within %q, unknown %q, want the 8.0 series", got.Within, got.Unknown)
				}
				return
			}
			if len(got.Evidence) == 0 || got.Evidence[0].Item != tt.item || got.Evidence[0].Kind != tt.kind {
				t.Errorf("evidence %+v, want %q (%s)", got.Evidence, tt.item, tt.kind)
			}
		})
	}
}
