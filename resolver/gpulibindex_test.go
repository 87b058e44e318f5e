package resolver

import (
	"strings"
	"testing"
)

// The index answers as a scan of gpuLibs in order would: the first row
// naming a package wins, and no exact pip name starts with a prefix (which
// would let a prefix of an earlier row win in the scan).
func TestGPULibIndexMatchesTableOrder(t *testing.T) {
	scan := func(name string, pip bool) string {
		for _, l := range gpuLibs {
			names := l.Conda
			if pip {
				names = l.Pip
			}
			for _, n := range names {
				if n == name {
					return l.Lib
				}
			}
			if pip {
				for _, p := range l.PipPrefix {
					if strings.HasPrefix(name, p) {
						return l.Lib
					}
				}
			}
		}
		return ""
	}
	for _, l := range gpuLibs {
		for _, n := range l.Conda {
			if got, want := libOfConda(nil, n), scan(n, false); got != want {
				t.Errorf("libOfConda(%q) = %q, the table says %q", n, got, want)
			}
		}
		for _, n := range l.Pip {
			if got, want := libOfPip(nil, pipItem{Name: n}), scan(n, true); n != "jax" && got != want {
				t.Errorf("libOfPip(%q) = %q, the table says %q", n, got, want)
			}
			for _, o := range gpuLibs {
				for _, p := range o.PipPrefix {
					if strings.HasPrefix(n, p) {
						t.Errorf("exact pip name %q (%s) starts with prefix %q (%s): the index would answer out of table order", n, l.Lib, p, o.Lib)
					}
				}
			}
		}
	}
	if got := libOfConda(nil, "numpy"); got != "" {
		t.Errorf("libOfConda(numpy) = %q, want none", got)
	}
	if got := libOfPip(nil, pipItem{Name: "cupy-cuda12x"}); got != "cupy" {
		t.Errorf("libOfPip(cupy-cuda12x) = %q, want cupy (by prefix)", got)
	}
}
