package resolver

import "testing"

// conda-forge's torchvision from 0.9.1 requires a pytorch build named
// cuda…/cpu…, which no pytorch-channel build is: beside the pytorch
// channel's pytorch it comes from that channel too, so EG209 has no split
// to report (review thirty-nine F37, corpus 127). A torchvision conda-forge
// built before that rule, or one written with its channel, keeps the
// split.
func TestCompanionFollowsTorch(t *testing.T) {
	for _, tt := range []struct {
		src   string
		eg209 int
	}{
		{"channels:\n  - conda-forge\n  - pytorch\ndependencies:\n  - pytorch=2.1.1\n  - torchvision=0.16.1\n", 0},
		{"channels:\n  - conda-forge\n  - pytorch\ndependencies:\n  - pytorch=2.1.1\n  - conda-forge::torchvision=0.16.1\n", 1},
		{"channels:\n  - conda-forge\n  - pytorch\ndependencies:\n  - pytorch=1.7.0\n  - torchvision=0.8.2\n", 1},
	} {
		_, ds := lintSrc(t, tt.src)
		if got := len(findingsOf(ds, "EG209")); got != tt.eg209 {
			t.Errorf("%q: %d EG209, want %d: %v", tt.src, got, tt.eg209, findingsOf(ds, "EG209"))
		}
	}
}
