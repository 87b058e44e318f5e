package envspec

import (
	"strings"
	"testing"
)

// TestMixHintNamesAnacondaURLs: review sixteen #1066 (corpus 130).
// Anaconda's channels written by URL are defaults too; the fix removes
// them, and EG108's hint names them, so that following it by hand does
// not leave pkgs/main in place. Without a literal defaults, the first of
// them is the one nodefaults replaces.
func TestMixHintNamesAnacondaURLs(t *testing.T) {
	ch := func(vs ...string) []String {
		var out []String
		for _, v := range vs {
			out = append(out, String{Value: v})
		}
		return out
	}
	h := mixHint(ch("conda-forge", "bioconda", "defaults", "https://repo.anaconda.com/pkgs/main", "https://repo.anaconda.com/pkgs/free"))
	for _, want := range []string{"replace `defaults` with `nodefaults`", "remove `https://repo.anaconda.com/pkgs/main`, `https://repo.anaconda.com/pkgs/free`", "`bioconda`"} {
		if !strings.Contains(h, want) {
			t.Errorf("hint %q lacks %q", h, want)
		}
	}
	h = mixHint(ch("conda-forge", "bioconda", "https://repo.anaconda.com/pkgs/main"))
	if !strings.Contains(h, "replace `https://repo.anaconda.com/pkgs/main` with `nodefaults`") || strings.Contains(h, "`defaults`") {
		t.Errorf("hint %q", h)
	}
}
