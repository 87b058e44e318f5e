package resolver

import (
	"strings"
	"testing"
)

// TestTorchCommonArch: the architectures every conda pytorch build before
// 0.4.0 carries (torch_conda_cuda_only's common_sass / common_ptx) are the
// framework's only where the file admits no release outside 0.1.7 … 0.3.0
// that it could get: 0.3.1 (defaults left its list to the build machine)
// never, 0.1.3 … 0.1.6 (TORCH_CUDA_ARCH_LIST All, Python 2.7, 3.4 and 3.5
// builds only) unless the file's Python is another.
func TestTorchCommonArch(t *testing.T) {
	tests := []struct {
		name, deps string
		want       bool
	}{
		{"corpus 083: <=0.3.0 with Python 3.6", "  - python=3.6\n  - pytorch<=0.3.0\n", true},
		{"no Python pin admits 0.1.3 … 0.1.6", "  - pytorch<=0.3.0\n", false},
		{"Python 2.7 has 0.1.3 … 0.1.6 builds", "  - python=2.7\n  - pytorch<=0.3.0\n", false},
		{"python=3 admits 3.4 and 3.5", "  - python=3\n  - pytorch<=0.3.0\n", false},
		{"<0.4 admits 0.3.1", "  - python=3.6\n  - pytorch<0.4\n", false},
		{"a lower bound at 0.1.7 needs no Python", "  - pytorch>=0.2.0,<=0.3.0\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, "name: x\nchannels:\n  - pytorch\n  - defaults\ndependencies:\n"+tt.deps)
			fw := st.Framework
			if fw == nil || fw.Variant != "cuda" || len(fw.RuntimeCandidates) == 0 {
				t.Fatalf("framework %+v: want the pre-0.4 CUDA-only row to apply", fw)
			}
			if got := fw.CommonArch != nil; got != tt.want {
				t.Fatalf("CommonArch %v, want %v", fw.CommonArch, tt.want)
			}
			if !tt.want {
				return
			}
			if strings.Join(fw.CommonArch.SASS, ",") != "3.5" || strings.Join(fw.CommonArch.PTX, ",") != "5.2" || fw.LowestCode != "3.0" {
				t.Errorf("common SASS %v, PTX %v, lowest %q; want 3.5, 5.2, 3.0", fw.CommonArch.SASS, fw.CommonArch.PTX, fw.LowestCode)
			}
			if !strings.Contains(fw.CommonWhy, "0.1.7 … 0.3.0") {
				t.Errorf("CommonWhy %q", fw.CommonWhy)
			}
		})
	}
}
