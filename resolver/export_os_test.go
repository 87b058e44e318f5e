package resolver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// A `conda env export` made on macOS or Windows names its machine in its
// prefix. Where PyPI serves the file's plain torch pin as another build
// there than on the platform the file is read for, the name, a property of
// the file, is not canonical (review nine, N90: 091.yml, a macOS export
// of torch==1.11.0, was named pt111_cu102 after Linux's wheel). The name
// stands for a Linux prefix, for the export's own platform, and for a
// build the file pins itself.
func TestExportedElsewhereName(t *testing.T) {
	const pip = "dependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - %s\nprefix: %s\n"
	tests := []struct {
		name, torch, prefix, platform string
		want                          string // the name, or a part of the reason there is none
	}{
		{"macOS export read for Linux", "torch==1.11.0", "/Users/ada/anaconda3/envs/x", "linux-64",
			"made on macOS (its prefix, line 6, is /Users/ada/anaconda3/envs/x), where PyPI's torch 1.11.0 is the CPU build, and it is read for linux-64, where it is the CUDA 10.2 build"},
		{"Windows export read for Linux", "torch==1.10.0", `C:\Users\ada\miniconda3\envs\x`, "linux-64", "made on Windows"},
		{"Windows export, a release whose Windows build the KB does not name", "torch==1.8.0", `D:\envs\x`, "linux-64",
			"a build the knowledge base does not name"},
		{"Apple-silicon Homebrew export", "torch==2.0.0", "/opt/homebrew/Caskroom/miniforge/base/envs/x", "linux-64", "made on macOS"},
		{"a path either may have", "torch==1.11.0", "/opt/anaconda3", "linux-64", "pt111_cu102"},
		{"Linux export", "torch==1.11.0", "/home/ada/miniconda3/envs/x", "linux-64", "pt111_cu102"},
		{"macOS export read for macOS", "torch==1.11.0", "/Users/ada/anaconda3/envs/x", "osx-64", "pt111_cpu"},
		{"a pinned build", "torch==1.11.0+cu113", "/Users/ada/anaconda3/envs/x", "linux-64", "pt111_cu113"},
	}
	for _, tt := range tests {
		src := fmt.Sprintf(pip, tt.torch, tt.prefix)
		env := envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: tt.platform})
		st := Resolve(env, kb.Default())
		name, err := st.Canonical()
		got := name
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: name %q, reason %v; want %q", tt.name, name, err, tt.want)
		}
	}
}
