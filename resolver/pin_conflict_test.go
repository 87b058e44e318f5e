package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// A pip line of an nvidia-* wheel that excludes the release the torch wheel
// pins exactly (Requires-Dist ==; torch_cuda_libs) cannot be installed
// beside it: pip reports ResolutionImpossible. The release torch pins, a
// range that admits it, a line with a marker and a file read for Windows
// (where torch pins none) are left alone.
func TestPinConflictWithTorchWheel(t *testing.T) {
	const head = "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n"
	const idx = head + "    - --extra-index-url https://download.pytorch.org/whl/cu128\n    - torch==2.7.0+cu128\n"
	for _, tt := range []struct {
		name, src, want string
	}{
		{"older cudnn", idx + "    - nvidia-cudnn-cu12==9.1.0.70\n", "pip cannot install nvidia-cudnn-cu12==9.1.0.70 (line 8) beside torch 2.7.0+cu128, which pins nvidia-cudnn-cu12==9.7.1.26"},
		{"range excludes", idx + "    - nvidia-nccl-cu12>=2.27\n", "which pins nvidia-nccl-cu12==2.26.2"},
		{"package index build", head + "    - torch==2.7.0\n    - nvidia-cudnn-cu12==9.7.1.26\n", "beside torch 2.7.0 (the package index's CUDA 12.6 build), which pins nvidia-cudnn-cu12==9.5.1.17"},
		{"the pinned release", idx + "    - nvidia-cudnn-cu12==9.7.1.26\n", ""},
		{"a range that admits it", idx + "    - nvidia-cudnn-cu12>=9.5\n", ""},
		{"unpinned", idx + "    - nvidia-cudnn-cu12\n", ""},
		{"marker", idx + "    - nvidia-cudnn-cu12==9.1.0.70; sys_platform == 'win32'\n", ""},
	} {
		_, _, ds := lintFile(t, "environment.yml", []byte(tt.src))
		var got []string
		for _, d := range findingsOf(ds, "EG205") {
			got = append(got, d.Message)
		}
		msg := strings.Join(got, "\n")
		if tt.want == "" && msg != "" || tt.want != "" && !strings.Contains(msg, tt.want) {
			t.Errorf("%s: EG205 %q, want %q", tt.name, msg, tt.want)
		}
	}
	env := envspec.Parse("environment.yml", []byte(idx+"    - nvidia-cudnn-cu12==9.1.0.70\n"), envspec.ParseOptions{Platform: "win-64"})
	if st := Resolve(env, kb.Default()); len(st.PinConflicts) > 0 {
		t.Errorf("win-64: %+v", st.PinConflicts)
	}
	// an installed prefix holds what pip installed (with a warning), and
	// nothing resolves it again
	env = envspec.Parse("environment.yml", []byte(idx+"    - nvidia-cudnn-cu12==9.1.0.70\n"), envspec.ParseOptions{Platform: "linux-64"})
	if st := Resolve(env, kb.Default()); len(st.PinConflicts) != 1 {
		t.Errorf("environment.yml: %+v", st.PinConflicts)
	}
	env.Kind = envspec.KindPrefix
	if st := Resolve(env, kb.Default()); len(st.PinConflicts) > 0 {
		t.Errorf("prefix: %+v", st.PinConflicts)
	}
}

// What an exact release's extra requires (extra_requirements) meets the
// torch wheel's pins and the file's own lines: jax[cuda12]==0.4.30 wants
// cuDNN 9 where torch 2.3.1 pins 8.9.2.26; tensorflow[and-cuda]==2.17.0
// pins the CUDA 12.3 wheels, torch 2.3.1 the 12.1 ones (one finding for
// the pair); jax's extra pins its jaxlib. torch 2.5.1 (cuDNN 9.1.0.70)
// meets jax 0.4.35's plugin (>=9.1), so nothing is said there.
func TestPinConflictWithExtras(t *testing.T) {
	const head = "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n"
	for _, tt := range []struct {
		name, pip string
		want      []string
	}{
		{"jax beside torch", "    - torch==2.3.1\n    - jax[cuda12]==0.4.30\n", []string{"pip cannot install jax[cuda12]==0.4.30 beside torch 2.3.1 (the package index's CUDA 12.1 build)", "which pins nvidia-cudnn-cu12==8.9.2.26", "whose cuda12 extra requires nvidia-cudnn-cu12>=9.0,<10.0"}},
		{"tensorflow beside torch", "    - tensorflow[and-cuda]==2.17.0\n    - torch==2.3.1\n", []string{"whose and-cuda extra requires nvidia-cublas-cu12==12.3.4.1", "and 7 more"}},
		{"a line against an extra", "    - tensorflow[and-cuda]==2.15.1\n    - nvidia-cudnn-cu12==9.1.0.70\n", []string{"pip cannot install nvidia-cudnn-cu12==9.1.0.70 (line 7) beside tensorflow[and-cuda]==2.15.1 (line 6), whose and-cuda extra requires nvidia-cudnn-cu12==8.9.4.25"}},
		{"jax's own jaxlib", "    - jax[cuda12]==0.4.30\n    - jaxlib==0.4.29\n", []string{"whose cuda12 extra requires jaxlib==0.4.30"}},
		{"agreeing", "    - torch==2.5.1\n    - jax[cuda12]==0.4.35\n", nil},
	} {
		_, _, ds := lintFile(t, "environment.yml", []byte(head+tt.pip))
		got := findingsOf(ds, "EG205")
		if len(tt.want) == 0 {
			if len(got) != 0 {
				t.Errorf("%s: %v", tt.name, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s: %d EG205 findings, want 1: %v", tt.name, len(got), got)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got[0].Message, w) {
				t.Errorf("%s: %q lacks %q", tt.name, got[0].Message, w)
			}
		}
	}
}
