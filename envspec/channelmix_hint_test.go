package envspec

import (
	"strings"
	"testing"
)

// TestEG108HintKeepsOtherChannels: "use conda-forge alone" is the advice
// only where conda-forge and defaults are the file's only channels; where
// another channel is listed (pytorch-cuda 11.x comes from nvidia, whose CUDA
// 11 packages conda-forge does not have), the hint keeps it and says what
// the fix does: defaults gives way to nodefaults.
func TestEG108HintKeepsOtherChannels(t *testing.T) {
	cases := []struct {
		channels, want, notWant string
	}{
		{"[conda-forge, defaults]", "use conda-forge alone", "replace"},
		{"[pytorch, nvidia, conda-forge, defaults]", "replace `defaults` with `nodefaults`, keeping conda-forge and `pytorch`, `nvidia` for the packages only they publish", "alone"},
		{"[defaults, conda-forge, bioconda, bioconda]", "keeping conda-forge and `bioconda` for the packages only it publishes", "alone"},
	}
	for _, c := range cases {
		env := Parse("environment.yml", []byte("name: x\nchannels: "+c.channels+"\ndependencies:\n  - numpy=1.26\n"), ParseOptions{Platform: "linux-64"})
		var hint string
		for _, d := range env.Diags {
			if d.Code == "EG108" {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, c.want) || strings.Contains(hint, c.notWant) {
			t.Errorf("channels %s: EG108 hint %q, want it to contain %q and not %q", c.channels, hint, c.want, c.notWant)
		}
	}
}
