package resolver

import (
	"strings"
	"testing"
)

// Review thirty-eight F1 (corpus 003): conda-forge built tensorflow-gpu
// only from 2.6.0, for CUDA 10.2 … 12.x, none of which installs beside a
// cudatoolkit pin of 10.1, so an open tensorflow-gpu>=2.0 there comes from
// the next channel that publishes it (defaults), not from conda-forge. A
// pin that fits a conda-forge build (11.2) keeps conda-forge.
func TestTFGPUPastCondaForgeForToolkit(t *testing.T) {
	for _, tt := range []struct{ tk, channel, moved string }{
		{"cudatoolkit<10.2,>10.0", "defaults", "conda-forge never built tensorflow-gpu >=2.0 (2.0.0 … 2.21.0) for cudatoolkit<10.2,>10.0"},
		{"cudatoolkit=11.2", "conda-forge", ""},
	} {
		src := "channels: [conda-forge, defaults]\ndependencies:\n  - python=3.9\n  - tensorflow-gpu>=2.0\n  - " + tt.tk + "\n"
		st, _ := lintSrc(t, src)
		fw := st.Framework
		if fw == nil || fw.Channel != tt.channel || !strings.Contains(fw.ChannelMoved, tt.moved) {
			t.Errorf("%s: %+v", tt.tk, fw)
		}
	}
}
