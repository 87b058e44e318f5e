package resolver

import (
	"os"
	"strings"
	"testing"
)

func TestCanonicalNameTable(t *testing.T) {
	cu := func(v string) *CUDAInfo { return &CUDAInfo{Version: v} }
	tests := []struct {
		name    string
		st      *Stack
		want    string
		wantErr string
	}{
		{"pt20 cu118", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.0.1", Variant: "cuda"}, CUDA: cu("11.8")}, "pt20_cu118", ""},
		{"pt113 cu116", &Stack{Framework: &Framework{Name: "pytorch", Version: "1.13.1", Variant: "cuda"}, CUDA: cu("11.6")}, "pt113_cu116", ""},
		{"tf212 cu118", &Stack{Framework: &Framework{Name: "tensorflow", Version: "2.12.0", Variant: "cuda"}, CUDA: cu("11.8")}, "tf212_cu118", ""},
		{"pt25 cpu", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.5.1", Variant: "cpu"}}, "pt25_cpu", ""},
		{"cu130", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.9.0", Variant: "cuda"}, CUDA: cu("13.0")}, "pt29_cu130", ""},
		{"pt210", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.10.0", Variant: "cuda"}, CUDA: cu("12.8")}, "pt210_cu128", ""},
		{"jax", &Stack{Framework: &Framework{Name: "jax", Version: "0.4.23", Variant: "cuda"}, CUDA: cu("12.0")}, "jax04_cu120", ""},
		{"nil stack", nil, "", "no framework"},
		{"no framework", &Stack{}, "", "no framework"},
		{"open spec", &Stack{Framework: &Framework{Name: "pytorch", Spec: ">=2.0", Variant: "cuda"}, CUDA: cu("11.8")}, "", "not pinned to a release (>=2.0)"},
		{"no version", &Stack{Framework: &Framework{Name: "pytorch", Variant: "cpu"}}, "", "version is not pinned"},
		{"variant open", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.0.1"}}, "", "accelerator (CUDA or CPU) is not pinned"},
		{"cuda without version", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.0.1", Variant: "cuda"}, CUDA: &CUDAInfo{}}, "", "no item says which CUDA version"},
		{"cuda nil", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.0.1", Variant: "cuda"}}, "", "no item says which CUDA version"},
		{"rocm", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.1.0", Variant: "rocm"}}, "", "ROCm"},
		{"both", &Stack{Framework: &Framework{Name: "pytorch", Version: "2.0.1"}, CPU: []Evidence{{Says: "cpu"}}, CUDA: cu("11.8")}, "", "both as a CPU-only and as a CUDA build"},
		{"bad version", &Stack{Framework: &Framework{Name: "pytorch", Version: "2", Variant: "cpu"}}, "", "no major.minor"},
		{"unknown framework", &Stack{Framework: &Framework{Name: "mxnet", Version: "1.9.1", Variant: "cpu"}}, "", "no name prefix"},
	}
	for _, tt := range tests {
		got, err := CanonicalName(tt.st)
		if got != tt.want {
			t.Errorf("%s: CanonicalName = %q, want %q", tt.name, got, tt.want)
		}
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want it to say %q", tt.name, err, tt.wantErr)
		}
	}
}

// TestCanonicalNameGolden resolves golden inputs and checks the name each
// gets, or that it gets none and why.
func TestCanonicalNameGolden(t *testing.T) {
	tests := []struct{ file, want, why string }{
		{"seed_a_pt113_cu116", "pt113_cu116", ""},
		{"seed_b_cudatoolkit_mismatch", "pt113_cu116", ""},
		{"seed_c_pt20_cu118", "pt20_cu118", ""},
		{"eg202_silent_cpu_only", "pt20_cpu", ""},
		{"eg207_silent_pytorch_gpu", "pt24_cu124", ""},
		{"eg208_silent_tf_tested", "tf212_cu118", ""},
		{"pip_wheel_index_clean", "pt20_cu118", ""},
		{"tf_and_cuda_pip", "tf215_cu122", ""},
		{"jax_conda_cuda", "jax04_cu120", ""},
		{"eg201_cf_atleast_ok", "pt21_cu118", ""},
		// cuda-version=12.4 decides which CUDA build conda-forge's solver may
		// take, though not whether it takes one (EG207 still fires)
		{"eg207_conda_forge_unpinned", "pt24_cu124", ""},
		{"eg207_pytorch_channel_unpinned", "", "accelerator (CUDA or CPU) is not pinned"},
		// =2.0 admits 2.0.0 and 2.0.1: one series, so the name is known
		{"eg502_series", "pt20_cu118", ""},
		{"eg502_open_spec", "", "not pinned to a release"},
		{"eg202_cpuonly_with_pytorch_cuda", "", "both as a CPU-only and as a CUDA build"},
		{"no_framework", "", "no framework"},
		// pip TensorFlow 2.1 loads libcudart.so.10.1 only: tf21_cu100 would
		// name a stack that cannot load its CUDA (corpus 065); EG208 tells
		{"eg208_tf21_cuda100", "", "loads CUDA 10.1 (its tested build configuration), not the CUDA 10.0"},
		// from CUDA 11 a minor other than the tested one still loads
		{"eg208_tf212_pip_cuda112", "tf212_cu112", ""},
		{"eg208_tf212_conda_cudnn_beside_pip", "tf212_cu118", ""},
	}
	for _, tt := range tests {
		src, err := os.ReadFile(goldenPath(tt.file))
		if err != nil {
			t.Fatal(err)
		}
		_, st, _ := lintFile(t, tt.file+".yml", src)
		got, err := st.Canonical() // Resolve's answer, which the knowledge base informs
		if got != tt.want {
			t.Errorf("%s: name %q, want %q (err %v)", tt.file, got, tt.want, err)
		}
		if tt.why != "" && (err == nil || !strings.Contains(err.Error(), tt.why) || st.NoNameReason != err.Error()) {
			t.Errorf("%s: error %v / NoNameReason %q, want %q", tt.file, err, st.NoNameReason, tt.why)
		}
		if tt.why == "" && st.NoNameReason != "" {
			t.Errorf("%s: NoNameReason %q with a name", tt.file, st.NoNameReason)
		}
	}
}

// A major-only cudatoolkit pin names the build where the release was built
// for one CUDA of that major (corpus 183: pytorch 1.1.0 was built for 9.0
// and 10.0, so cudatoolkit=9 is the 9.0 build); where it admits two, or
// does not select the variant, there is still no name.
func TestCanonicalNameOnlyBuildOfTheMajor(t *testing.T) {
	for _, tc := range []struct{ name, src, want, why string }{
		{"one build of the major", "channels: [pytorch]\ndependencies:\n  - python=3.7\n  - pytorch=1.1.0\n  - cudatoolkit=9\n", "pt11_cu90", ""},
		{"two builds of the major", "channels: [pytorch]\ndependencies:\n  - python=3.7\n  - pytorch=1.10.2\n  - cudatoolkit=11\n", "", "no item says which CUDA version"},
		{"one build of major 11", "channels: [pytorch]\ndependencies:\n  - python=3.8\n  - pytorch=1.7.1\n  - cudatoolkit=11\n", "pt17_cu110", ""},
		{"a pin that does not select", "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - pytorch-mutex=1.0=cuda\n  - cudatoolkit=11\n", "", ""},
	} {
		_, st, _ := lintFile(t, "environment.yml", []byte(tc.src))
		got, err := st.Canonical()
		if got != tc.want || (tc.why != "" && (err == nil || !strings.Contains(err.Error(), tc.why))) {
			t.Errorf("%s: name %q, err %v; want %q (%s)", tc.name, got, err, tc.want, tc.why)
		}
	}
}
