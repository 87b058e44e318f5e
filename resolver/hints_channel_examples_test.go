package resolver

import (
	"strings"
	"testing"
)

// TestHintsChannelAndExamples pins the hints the second corpus review (docs/corpus-review.md,
// 2026-11-30) found misleading: EG207 on the defaults channel, whose build
// strings changed at 2.5.1, and EG502 examples the file could not install.
func TestHintsChannelAndExamples(t *testing.T) {
	tests := []struct {
		name, src, code string
		msgHas, hintHas []string
		msgNot, hintNot []string
	}{
		{
			name:    "defaults, unpinned pytorch: newest builds are gpu_cuda*",
			src:     "name: x\nchannels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.10\n  - pytorch\n",
			code:    "EG207",
			hintHas: []string{"pytorch-gpu", "pytorch=*=gpu_cuda*"},
			hintNot: []string{"pytorch=*=cuda* with"},
		},
		{
			name:    "defaults, pytorch 2.0: cuda* builds, no metapackage",
			src:     "name: x\nchannels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.10\n  - pytorch=2.0\n",
			code:    "EG207",
			hintHas: []string{"pytorch=*=cuda*", "pytorch=*=cpu*"},
			hintNot: []string{"pytorch-gpu", "gpu_cuda"},
		},
		{
			name:    "conda-forge hint unchanged",
			src:     "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.10\n  - pytorch=2.4.1\n",
			code:    "EG207",
			hintHas: []string{"pytorch=*=cuda* with cuda-version=X.Y"},
		},
		{
			name:    "EG502 example respects the file's Python",
			src:     "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.8\n  - pytorch\n",
			code:    "EG502",
			hintHas: []string{"e.g. pytorch=2.4.1"},
		},
		{
			name: "EG502 example without a Python pin is the newest conda-forge release",
			src:  "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - pytorch\n",
			code: "EG502",
			// conda-forge's newest known build (2.13.0), not the torch
			// table's newest release (2.14.0), which no conda-forge row has
			hintHas: []string{"e.g. pytorch=2.13.0"},
		},
		{
			name:    "EG502 open spec on the pytorch channel names only what the channel published",
			src:     "name: x\nchannels:\n  - pytorch\ndependencies:\n  - pytorch>=1.9\n  - pytorch-cuda>=11.6\n",
			code:    "EG502",
			msgHas:  []string{"admits 1.9.0 … 2.5.1"},
			hintHas: []string{"e.g. pytorch=2.5.1"},
			msgNot:  []string{"2.14.0"},
		},
		{
			name:    "EG502 open spec narrowed by Python",
			src:     "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.7\n  - pytorch>=1.9\n",
			code:    "EG502",
			hintHas: []string{"e.g. pytorch=1.13.1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, ds := lintFile(t, "env.yml", []byte(tt.src))
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
				for _, s := range tt.msgNot {
					if strings.Contains(d.Message, s) {
						t.Errorf("message %q still says %q", d.Message, s)
					}
				}
				for _, s := range tt.hintHas {
					if !strings.Contains(d.Hint, s) {
						t.Errorf("hint %q lacks %q", d.Hint, s)
					}
				}
				for _, s := range tt.hintNot {
					if strings.Contains(d.Hint, s) {
						t.Errorf("hint %q still says %q", d.Hint, s)
					}
				}
			}
			if !found {
				t.Fatalf("no %s finding in %v", tt.code, ds)
			}
		})
	}
}
