package kb

import "testing"

// TestTorchCommonArchValidation: torch_conda_cuda_only's common
// architectures load only whole and consistent: each a compute capability,
// none below lowest_code, over a span of releases inside the row's.
func TestTorchCommonArchValidation(t *testing.T) {
	const file = "torch-0x.yaml"
	tests := []struct{ name, old, new, want string }{
		{"sass not a cc", `common_sass: ["3.5"]`, `common_sass: ["sm_35"]`, `common_sass "sm_35" is not a version`},
		{"common below lowest", `common_sass: ["3.5"]`, `common_sass: ["2.1"]`, `common_sass "2\.1" is below lowest_code "3\.0"`},
		{"span reversed", `common_from: "0.1.7"`, `common_from: "0.3.1"`, `common_from "0\.3\.1" is after common_through "0\.3\.0"`},
		{"span reaches before", `common_through: "0.3.0"`, `common_through: "0.4.0"`, `common_through "0\.4\.0" is not before "0\.4\.0"`},
		{"lowest missing", `lowest_code: "3.0", `, ``, `go together`},
		{"python not a minor", `early_pythons: ["2.7", "3.4", "3.5"]`, `early_pythons: ["py27"]`, `early_pythons "py27" is not a Python minor`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertLoadRejects(t, file, tt.old, tt.new, tt.want) })
	}
}
