package resolver

import (
	"strings"
	"testing"
)

// TestMessagesHintsNames pins the messages, hints and names the corpus review
// (docs/corpus-review.md) corrected, so the wrong advice cannot come back.
func TestMessagesHintsNames(t *testing.T) {
	tests := []struct {
		name, src, code  string
		msgHas, hintHas  []string
		hintNot, nameNot string
	}{
		{
			name: "pytorch-cuda ROCm version",
			src:  "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.10\n  - pytorch=2.1.0\n  - pytorch-cuda=5.7\n",
			code: "EG205", msgHas: []string{"pytorch-cuda=5.7 (line 7)", "ROCm"},
			hintHas: []string{"pytorch-cuda 11.8, 12.1 (the CUDA variants published for pytorch 2.1.0)", "rocmX.Y"},
			hintNot: "CUDA 5.7", nameNot: "pt21_cu57",
		},
		{
			name: "pytorch-cuda unpublished newer version names the series' variants",
			src:  "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.11\n  - pytorch=2.5.1\n  - pytorch-cuda=12.6\n",
			code: "EG205", msgHas: []string{"pytorch-cuda=12.6 (line 7)"},
			hintHas: []string{"11.8, 12.1, 12.4 (the CUDA variants published for pytorch 2.5.1)"},
			nameNot: "pt25_cu126",
		},
		{
			name: "older than the knowledge base",
			src:  "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.6\n  - pytorch=0.4.1\n",
			code: "EG206", msgHas: []string{"pytorch 0.4.1 (line 6) is older than", "1.0.0"},
			hintHas: []string{"covers pytorch 1.0.0", "ignore EG206"}, hintNot: "update envguard",
		},
		{
			name: "companion hint offers both directions",
			src:  "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - torch==2.7.0\n    - torchvision==0.17.2\n",
			code: "EG203", msgHas: []string{"torchvision==0.17.2 (line 9)", "pytorch 2.7.0 (line 8)"},
			hintHas: []string{"change line 9 to torchvision==0.22.0", "or keep torchvision 0.17.2 and change pytorch to 2.2.2 (line 8)"},
		},
		{
			name: "pip torch hint names the release's wheel indexes and, as the example, the build PyPI serves (review forty-nine F21)",
			src:  "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - torch==2.7.0\n",
			code: "EG304", msgHas: []string{"torch==2.7.0 (line 8)"},
			hintHas: []string{"…/whl/cu118, …/whl/cu126, …/whl/cu128", "torch==2.7.0+cu126, the CUDA 12.6 build PyPI serves today"}, hintNot: "cu121",
		},
		{
			name: "old pytorch-channel release selects with cudatoolkit",
			src:  "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.7\n  - pytorch=1.5.0\n",
			code: "EG207", msgHas: []string{"pytorch=1.5.0 (line 6)"},
			hintHas: []string{"add cudatoolkit=X.Y"}, hintNot: "add pytorch-cuda",
		},
		{
			name: "pytorch-channel release names its CUDA variants",
			src:  "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.0.1\n",
			code: "EG207", hintHas: []string{"pytorch-cuda=X.Y", "CUDA 11.7, 11.8"},
		},
		{
			name: "unversioned pytorch-channel item gets a release the channel has",
			src:  "name: x\nchannels:\n  - pytorch\ndependencies:\n  - pytorch::pytorch\n",
			code: "EG502", hintHas: []string{"line 5, e.g. pytorch::pytorch=2.5.1"},
		},
		{
			// The tables start at 1.0.0: a spec reaching below them admits
			// releases they do not name, and no listed release is offered.
			name: "open spec reaching below the tables",
			src:  "name: x\nchannels:\n  - pytorch\ndependencies:\n  - cuda90\n  - pytorch>=0.2.0\n",
			code: "EG502", msgHas: []string{"admits 1.0.0 … 2.5.1", "also admits releases before 1.0.0, which the knowledge base does not list"},
			hintHas: []string{"pin the exact release you run on line 6"}, hintNot: "e.g.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, st, ds := lintFile(t, "env.yml", []byte(tt.src))
			found := false
			for _, d := range ds {
				if d.Code != tt.code {
					continue
				}
				found = true
				for _, s := range tt.msgHas {
					if !strings.Contains(d.Message, s) {
						t.Errorf("message %q lacks %q", d.Message, s)
					}
				}
				for _, s := range tt.hintHas {
					if !strings.Contains(d.Hint, s) {
						t.Errorf("hint %q lacks %q", d.Hint, s)
					}
				}
				if tt.hintNot != "" && strings.Contains(d.Hint, tt.hintNot) {
					t.Errorf("hint %q still says %q", d.Hint, tt.hintNot)
				}
			}
			if !found {
				t.Fatalf("no %s finding in %v", tt.code, ds)
			}
			if tt.nameNot != "" {
				if n, err := CanonicalName(st); err == nil && n == tt.nameNot {
					t.Errorf("canonical name %s built from an unpublished pytorch-cuda", n)
				}
			}
		})
	}
}
