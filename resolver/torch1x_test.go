package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// A plain pip pin of a torch release gets the build PyPI serves for it, per
// platform: its CUDA version, name and architecture list, as +cuXXX does.
func TestPyPIDefaultBuild(t *testing.T) {
	k := kb.Default()
	tests := []struct {
		name, platform, src  string
		variant, cuda, canon string
	}{
		{"2.0.1 linux", "linux-64", "  - pip:\n    - torch==2.0.1\n", "cuda", "11.7", "pt20_cu117"},
		{"1.10.1 linux", "linux-64", "  - pip:\n    - torch==1.10.1\n", "cuda", "10.2", "pt110_cu102"},
		{"1.2.0 linux", "linux-64", "  - pip:\n    - torch==1.2.0\n", "cuda", "10.0", "pt12_cu100"},
		{"2.5.1 linux", "linux-64", "  - pip:\n    - torch==2.5.1\n", "cuda", "12.4", "pt25_cu124"},
		{"2.8.0 linux", "linux-64", "  - pip:\n    - torch==2.8.0\n", "cuda", "12.8", "pt28_cu128"},
		{"2.11.0 linux", "linux-64", "  - pip:\n    - torch==2.11.0\n", "cuda", "13.0", "pt211_cu130"},
		{"windows is cpu", "win-64", "  - pip:\n    - torch==2.0.1\n", "cpu", "", "pt20_cpu"},
		{"macos is cpu", "osx-arm64", "  - pip:\n    - torch==2.3.1\n", "cpu", "", "pt23_cpu"},
		{"1.7 on windows: not recorded", "win-64", "  - pip:\n    - torch==1.7.1\n", "", "", ""},
		{"linux aarch64: another build", "linux-aarch64", "  - pip:\n    - torch==2.0.1\n", "", "", ""},
		{"linux and windows differ", "linux-64", "  - pip:\n    - torch==2.0.1\nplatforms:\n  - linux-64\n  - win-64\n", "", "", ""},
		{"no pypi row for 1.0", "linux-64", "  - pip:\n    - torch==1.0.1\n", "", "", ""},
		{"open spec decides nothing", "linux-64", "  - pip:\n    - torch>=2.0\n", "", "", ""},
		{"local version wins", "linux-64", "  - pip:\n    - torch==2.0.1+cu118\n", "cuda", "11.8", "pt20_cu118"},
		{"wheel index, not pypi", "linux-64", "  - pip:\n    - --index-url https://download.pytorch.org/whl/cpu\n    - torch==2.0.1\n", "cpu", "", "pt20_cpu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "dependencies:\n  - python=3.10\n  - pip\n" + tt.src
			env := envspec.Parse("env.yml", []byte(src), envspec.ParseOptions{Platform: tt.platform})
			st := Resolve(env, k)
			if st.Framework == nil {
				t.Fatal("no framework")
			}
			if st.Framework.Variant != tt.variant {
				t.Errorf("variant = %q, want %q", st.Framework.Variant, tt.variant)
			}
			cu := ""
			if st.CUDA != nil && tt.variant == "cuda" {
				cu = st.CUDA.Version
			}
			if cu != tt.cuda {
				t.Errorf("CUDA = %q, want %q", cu, tt.cuda)
			}
			name, _ := CanonicalName(st)
			if name != tt.canon {
				t.Errorf("name = %q, want %q", name, tt.canon)
			}
		})
	}
}

// The architecture list of a plain PyPI pin is the wheel build's.
func TestPyPIDefaultArch(t *testing.T) {
	k := kb.Default()
	for _, tt := range []struct{ version, cuda, first string }{
		{"1.10.1", "10.2", "3.7"}, {"2.0.1", "11.7", "3.7"}, {"2.8.0", "12.8", "7.0"},
	} {
		a, ok := k.Arch(tt.version, tt.cuda, kb.DistPyPI)
		if !ok || !a.Known || a.SASS[0] != tt.first || a.Dist != kb.DistWheel {
			t.Errorf("Arch(%s, %s, pypi) = %+v", tt.version, tt.cuda, a)
		}
	}
}

// EG304 keeps firing for a plain pin, and says which build PyPI serves.
func TestEG304NamesPyPIBuild(t *testing.T) {
	tests := []struct {
		name, platform, src string
		has, not            string
	}{
		{"linux", "linux-64", "    - torch==2.0.1\n", "PyPI serves torch 2.0.1 as the CUDA 11.7 build on Linux x86_64 (the CPU build on Windows and macOS), which the checks take as this file's build", ""},
		{"1.x", "linux-64", "    - torch==1.11.0\n", "the CUDA 10.2 build on Linux x86_64 (the CPU build on Windows and macOS)", ""},
		{"unknown release", "linux-64", "    - torch==1.0.1\n", "the build is whatever the index serves [", "PyPI serves"},
		{"open spec", "linux-64", "    - torch>=2.0\n", "the build is whatever the index serves [", "PyPI serves"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n" + tt.src
			env := envspec.Parse("env.yml", []byte(src), envspec.ParseOptions{Platform: tt.platform})
			k := kb.Default()
			ctx := &Context{Env: env, Stack: Resolve(env, k), KB: k}
			ds := ruleEG304.Run(ctx)
			if len(ds) != 1 {
				t.Fatalf("EG304 findings: %v", ds)
			}
			msg := ds[0].Error()
			if !strings.Contains(msg, tt.has) {
				t.Errorf("%q lacks %q", msg, tt.has)
			}
			if tt.not != "" && strings.Contains(msg, tt.not) {
				t.Errorf("%q has %q", msg, tt.not)
			}
		})
	}
}
