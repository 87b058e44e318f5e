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
	if st := Resolve(env, kb.Default()); st.Framework != nil && len(st.Framework.PinConflicts) > 0 {
		t.Errorf("win-64: %+v", st.Framework.PinConflicts)
	}
}
