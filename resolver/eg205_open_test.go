package resolver

import (
	"strings"
	"testing"
)

// An open spec written with the pytorch channel admits only that channel's
// releases: where it published none of them, no build exists, and the
// checks say so rather than that the release is not known (review twelve
// #795, corpus 096: pytorch::pytorch>=2.7.0, the channel ending at 2.5).
// A spec the channel has releases for keeps its candidates.
func TestOpenSpecNotOnPytorchChannel(t *testing.T) {
	for _, tt := range []struct {
		src, want string
	}{
		{"channels: [pytorch, nvidia]\ndependencies:\n  - pytorch::pytorch>=2.7.0\n  - pytorch-cuda=12.1\n", "the pytorch channel published none of the releases pytorch::pytorch>=2.7.0 admits"},
		{"channels: [pytorch, nvidia]\ndependencies:\n  - pytorch::pytorch>=2.4.0\n  - pytorch-cuda=12.1\n", ""},
	} {
		st, _ := lintSrc(t, tt.src)
		got := st.Framework.NotPublished
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%q: NotPublished %q, want %q", tt.src, got, tt.want)
		}
	}
}
