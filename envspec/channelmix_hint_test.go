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
		// anaconda.org's anaconda channel carries defaults' own builds:
		// kept, it would bring them back (review 8 #824).
		{"[defaults, pytorch, anaconda, conda-forge]", "replace `defaults` with `nodefaults`, and remove `anaconda`, which serves defaults' own packages, keeping conda-forge and `pytorch` for", "`anaconda` for"},
		{"[defaults, anaconda, conda-forge]", "use conda-forge alone and add `nodefaults` to the channels, and remove `anaconda`", "keeping"},
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

// TestEG108ExportPinnedBuilds: a `conda env export` pins each item's build,
// which only its own channel has; EG108 says to drop the builds first and
// offers no channel edit, which would leave them unsolvable (review 8,
// #896 and #661).
func TestEG108ExportPinnedBuilds(t *testing.T) {
	export := "name: x\nchannels: [conda-forge, defaults]\ndependencies:\n  - mkl=2017.0.3=0\n  - numpy=1.13.1=py36_0\n  - python=3.6.2=0\n  - _libgcc_mutex=0.1=main\n"
	plain := "name: x\nchannels: [conda-forge, defaults]\ndependencies:\n  - mkl=2017.0.3\n  - numpy=1.13.1\n  - python=3.6.2\n  - zlib\n"
	for _, c := range []struct {
		src      string
		exported bool
	}{{export, true}, {plain, false}} {
		env := Parse("environment.yml", []byte(c.src), ParseOptions{Platform: "linux-64"})
		found := false
		for _, d := range env.Diags {
			if d.Code != "EG108" {
				continue
			}
			found = true
			says := strings.HasPrefix(d.Hint, "this file pins exact builds on 4 of its 4 conda packages")
			if says != c.exported || (len(d.Edits) > 0) == c.exported {
				t.Errorf("exported %v: hint %q, %d edits", c.exported, d.Hint, len(d.Edits))
			}
		}
		if !found {
			t.Errorf("exported %v: no EG108", c.exported)
		}
	}
}
