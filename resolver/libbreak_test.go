package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
)

// The pytorch channel's linux-64 pytorch runs with any mkl and fails at
// import with MKL 2024.1 or later (pytorch/pytorch#123097): a LibBreak
// (EG411 on every target) where the file gets conda-forge's newest mkl,
// and nothing where it pins an older one, takes mkl from defaults or a
// channel the knowledge base does not know, or takes pytorch from
// conda-forge.
func TestLibBreakMKL(t *testing.T) {
	const head = "channels:\n  - pytorch\n  - nvidia\n  - conda-forge\n  - nodefaults\ndependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::pytorch-cuda=11.8\n"
	for _, tt := range []struct {
		name, src string
		want      []string // substrings of the one LibBreak; nil: none
	}{
		{"conda-forge's newest mkl", head,
			[]string{"pytorch::pytorch=2.0.1 (line 7) is the pytorch channel's linux-64 build, which runs with mkl >=2018 but needs mkl older than 2024.1: mkl comes from conda-forge (the first channel of the file that publishes it), whose newest release is 2026.0.0", "undefined symbol: iJIT_NotifyEvent"}},
		{"an open mkl pin", head + "  - mkl>=2023\n",
			[]string{"the newest release there that mkl>=2023 (line 9) admits is 2026.0.0"}},
		{"mkl pinned to a failing release", head + "  - mkl=2024.1\n",
			[]string{"admits is 2024.1.0"}},
		{"mkl pinned before 2024.1", head + "  - mkl=2024.0\n", nil},
		{"mkl capped", head + "  - mkl<2024.1\n", nil},
		{"nomkl", head + "  - nomkl\n", nil},
		{"defaults before conda-forge", "channels:\n  - pytorch\n  - nvidia\n  - defaults\n  - conda-forge\ndependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::pytorch-cuda=11.8\n", nil},
		{"an unknown channel before conda-forge", "channels:\n  - pytorch\n  - nvidia\n  - intel\n  - conda-forge\ndependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::pytorch-cuda=11.8\n", nil},
		{"conda-forge's pytorch", "channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.1.0\n", nil},
		{"a release older than the reports", "channels:\n  - pytorch\n  - conda-forge\ndependencies:\n  - pytorch=1.8.1\n  - cudatoolkit=11.1\n", nil},
		{"an open release whose every pytorch-cuda build fails", "channels:\n  - pytorch\n  - nvidia\n  - conda-forge\ndependencies:\n  - pytorch>=2.0\n  - pytorch-cuda=12.1\n",
			[]string{"pytorch>=2.0 (line 6) is the pytorch channel's linux-64 build"}},
		{"an open release reaching before the reports", "channels:\n  - pytorch\n  - conda-forge\ndependencies:\n  - pytorch>=1.8\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, _ := lintSrc(t, tt.src)
			got := st.LibBreaks
			if tt.want == nil {
				if len(got) != 0 {
					t.Fatalf("a LibBreak where none is due: %v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d LibBreaks, want 1: %v", len(got), got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got[0].Message, w) {
					t.Errorf("no %q in %q", w, got[0].Message)
				}
			}
			if !strings.HasPrefix(got[0].Hint, "pin mkl=2024.0") && !strings.HasPrefix(got[0].Hint, "change line") {
				t.Errorf("hint %q", got[0].Hint)
			}
		})
	}
}

// A file is judged for the platform it is read for (linux-64 where none is
// given), unless its platforms list leaves that one out.
func TestReadPlatform(t *testing.T) {
	for _, tt := range []struct {
		src, platform, want string
	}{
		{"dependencies:\n  - python\n", "linux-64", "linux-64"},
		{"dependencies:\n  - python\nplatforms:\n  - osx-arm64\n", "linux-64", ""},
		{"dependencies:\n  - python\nplatforms:\n  - osx-arm64\n  - linux-64\n", "linux-64", "linux-64"},
		{"dependencies:\n  - python\n", "win-64", "win-64"},
	} {
		env := envspec.Parse("t.yml", []byte(tt.src), envspec.ParseOptions{Platform: tt.platform})
		if got := readPlatform(env); got != tt.want {
			t.Errorf("%q read for %q: %q, want %q", tt.src, tt.platform, got, tt.want)
		}
	}
}
