package resolver

import (
	"strings"
	"testing"
)

// TestCondaDependencyByPyPIName: review twenty-two F15 (corpus 166, a pip
// freeze written as conda specs). conda-forge, the pytorch channel and
// defaults publish PyTorch as pytorch only, so a conda `torch` line finds
// no package; a channel the knowledge base does not speak for may have
// one, and a pip line is pip's name.
func TestCondaDependencyByPyPIName(t *testing.T) {
	for _, tt := range []struct {
		name, src, msg, hint string
	}{
		{"defaults", "channels:\n  - defaults\ndependencies:\n  - torch=2.0.1\n", "none of the channels the file lists (defaults) publishes a conda package called torch (its conda package is pytorch)", "write pytorch=2.0.1, or move the line under `- pip:` as torch==2.0.1"},
		{"range", "channels: [conda-forge, nodefaults]\ndependencies:\n  - torch>=2\n", "(conda-forge)", "write pytorch>=2, or move the line under `- pip:` as torch>=2"},
		{"channel written", "channels: [conda-forge]\ndependencies:\n  - pytorch::torch=2.1.0=py3*\n", "the channel it names (pytorch) publishes no conda package called torch", "write pytorch::pytorch=2.1.0=py3*, or move the line under `- pip:` as torch==2.1.0"},
		{"unknown channel", "channels: [conda-forge, mychannel]\ndependencies:\n  - torch=2.0.1\n", "", ""},
		{"no channels", "dependencies:\n  - torch=2.0.1\n", "", ""},
		{"pip line", "channels: [conda-forge]\ndependencies:\n  - pip\n  - pip:\n    - torch==2.0.1\n", "", ""},
		{"conda name", "channels: [conda-forge]\ndependencies:\n  - pytorch=2.0.0\n", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := lintSrc(t, tt.src)
			var got []string
			for _, d := range findingsOf(ds, "EG205") {
				if strings.Contains(d.Message, "by its PyPI name") {
					got = append(got, d.Message+" | "+d.Hint)
				}
			}
			switch {
			case tt.msg == "" && len(got) > 0:
				t.Errorf("got %q, want no such EG205", got)
			case tt.msg != "" && (len(got) != 1 || !strings.Contains(got[0], tt.msg) || !strings.Contains(got[0], tt.hint)):
				t.Errorf("got %q, want one EG205 with %q and hint %q", got, tt.msg, tt.hint)
			}
		})
	}
}
