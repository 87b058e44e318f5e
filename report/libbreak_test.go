package report

import (
	"strings"
	"testing"
)

// EG108's conda-forge-alone route gives the pytorch channel's pytorch
// conda-forge's newest mkl: the hint adds the pin that keeps it loading
// (review fifty-three F22, corpus 064), and says nothing of it where mkl
// is pinned already or the route keeps another channel's mkl.
func TestChannelMixRouteKeepsMKL(t *testing.T) {
	const src = "channels:\n  - pytorch\n  - defaults\n  - nvidia\n  - conda-forge\ndependencies:\n  - pytorch>=1.9\n  - pytorch-cuda>=11.6\n  - numpy\n"
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{src, true},
		{src + "  - mkl=2024.0\n", false},
		{strings.Replace(src, "  - nvidia\n", "  - nvidia\n  - intel\n", 1), false},
	} {
		var mix []Finding
		for _, f := range Validate("environment.yml", []byte(tt.src), Options{Platform: "linux-64"}).Findings {
			if f.Code == "EG108" {
				mix = append(mix, f)
			}
		}
		if len(mix) != 1 {
			t.Fatalf("%q: %d EG108", tt.src, len(mix))
		}
		got := strings.Contains(mix[0].Hint, "; pin mkl=2024.0 as well: the pytorch channel's linux-64 build of pytorch>=1.9 runs with mkl >=2018, and conda-forge's newest mkl (2026.0.0) makes `import torch` fail")
		if got != tt.want {
			t.Errorf("%q: hint %q", tt.src, mix[0].Hint)
		}
	}
}
