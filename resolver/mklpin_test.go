package resolver

import (
	"strings"
	"testing"
)

// A conda-forge pytorch beside an mkl pin of another major than its
// builds run with: its CUDA builds cannot install, and which build conda
// takes instead is left open (review fifty-six F10, corpus 034).
func TestMKLExcludes(t *testing.T) {
	for _, tt := range []struct {
		src, want string
	}{
		{"channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.0\n  - mkl=2021.1.1\n",
			"conda-forge's builds of pytorch 2.0.0 run with mkl 2022.*, which mkl=2021.1.1 (line 5) excludes: its CUDA builds cannot install beside it, and its CPU builds without mkl (cpu_generic) do not"},
		{"channels:\n  - conda-forge\ndependencies:\n  - pytorch=1.12.1\n  - mkl=2021\n",
			"conda-forge's builds of pytorch 1.12.1 run with mkl 2022.*, which mkl=2021 (line 5) excludes: its CUDA builds cannot install beside it, and its CPU builds too"},
		// a release built with two majors: a pin of either admits a build
		{"channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.5.1\n  - mkl=2023\n", ""},
		{"channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.0\n  - mkl=2022\n", ""},
		{"channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.0\n  - mkl\n", ""},
		// the pytorch channel's builds run with any mkl >=2018
		{"channels:\n  - pytorch\n  - conda-forge\ndependencies:\n  - pytorch::pytorch=2.0.1\n  - mkl=2021.1.1\n", ""},
	} {
		st, _ := lintSrc(t, tt.src)
		got := st.Framework.MKLExcludes
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.src, got, tt.want)
		}
	}
}
