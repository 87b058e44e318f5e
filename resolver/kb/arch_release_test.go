package kb

import (
	"slices"
	"testing"
)

// TestArchReleaseRows: the 1.3 series was built from two lists (1.3.0:
// '3.5;5.0+PTX', 1.3.1: '3.7+PTX;5.0'); a release row answers for its own
// release, and the series row (common SASS, PTX unknown) for the rest.
func TestArchReleaseRows(t *testing.T) {
	k := Default()
	tests := []struct {
		version, cuda string
		dist          Distribution
		sass, ptx     []string
		ptxUnknown    bool
	}{
		{"1.3.0", "9.2", DistPytorchConda, []string{"3.5", "5.0", "6.0", "6.1", "7.0"}, []string{"5.0"}, false},
		{"1.3.1", "9.2", DistPytorchConda, []string{"3.7", "5.0", "6.0", "6.1", "7.0"}, []string{"3.7"}, false},
		{"1.3.0", "10.0", DistWheel, []string{"3.5", "5.0", "6.0", "6.1", "7.0", "7.5"}, []string{"5.0"}, false},
		{"1.3.0", "10.0", DistPyPI, []string{"3.5", "5.0", "6.0", "6.1", "7.0", "7.5"}, []string{"5.0"}, false},
		{"1.3.0+cu92", "9.2", DistWheel, []string{"3.5", "5.0", "6.0", "6.1", "7.0"}, []string{"5.0"}, false},
		// the series, and a release with no row of its own
		{"1.3", "9.2", DistPytorchConda, []string{"5.0", "6.0", "6.1", "7.0"}, nil, true},
		{"1.3.1", "10.1", DistPytorchConda, []string{"3.7", "5.0", "6.0", "6.1", "7.0", "7.5"}, []string{"3.7"}, false},
		// 1.3.0's CUDA 10.1 conda build: the list of its release commit or
		// of two days later; what both carry (review forty-three F30)
		{"1.3.0", "10.1", DistPytorchConda, []string{"3.5", "5.0"}, []string{"5.0"}, false},
	}
	for _, tt := range tests {
		a, ok := k.Arch(tt.version, tt.cuda, tt.dist)
		if !ok {
			t.Errorf("%s cuda %s %s: no row", tt.version, tt.cuda, tt.dist)
			continue
		}
		if a.CommonOnly != (tt.version == "1.3.0" && tt.cuda == "10.1") {
			t.Errorf("%s cuda %s %s: common_only %v", tt.version, tt.cuda, tt.dist, a.CommonOnly)
		}
		if !slices.Equal(a.SASS, tt.sass) || !slices.Equal(a.PTX, tt.ptx) && len(a.PTX)+len(tt.ptx) > 0 || a.PTXUnknown != tt.ptxUnknown {
			t.Errorf("%s cuda %s %s: sass %v ptx %v ptx_unknown %v, want %v %v %v", tt.version, tt.cuda, tt.dist, a.SASS, a.PTX, a.PTXUnknown, tt.sass, tt.ptx, tt.ptxUnknown)
		}
	}
}
