package envspec

import (
	"strings"
	"testing"
)

// A file with no channels and no dependencies makes an empty environment:
// EG107 says so, rather than that its packages come from .condarc's
// channels (review forty-one F38, corpus 151). With dependencies it keeps
// the channel wording.
func TestEG107NoDependencies(t *testing.T) {
	for src, want := range map[string]string{
		"name: CUDA_PROFILING\n":                          "no `channels:` and no dependencies: conda env create makes an empty environment",
		"name: x\ndependencies:\n  - numpy\n":             "no `channels:`: the packages come from whatever channels",
		"name: x\ndependencies:\n  - pip:\n    - torch\n": "no `channels:`: the packages come from whatever channels",
	} {
		env := Parse("environment.yml", []byte(src), ParseOptions{Platform: "linux-64"})
		got := ""
		for _, d := range env.Diags {
			if d.Code == "EG107" {
				got = d.Message
			}
		}
		if !strings.Contains(got, want) {
			t.Errorf("%q: EG107 %q, want %q", src, got, want)
		}
	}
}
