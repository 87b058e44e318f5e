package prefixscan

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A venv with include-system-site-packages imports from its base's sites
// too (issue 27, point 4): their libraries are read, each with its
// RECORD's package, except under a top-level name the venv also has.
func TestBaseSites(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "usr", "lib", "python3", "dist-packages")
	copyFixture(t, "sm90a.so", filepath.Join(base, "torch", "lib", "libtorch_cuda.so"))
	copyFixture(t, "sm80.so", filepath.Join(base, "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"))
	write(t, filepath.Join(base, "flash_attn-2.7.4.post1.dist-info", "RECORD"), "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so,sha256=x,1\n")
	copyFixture(t, "nocompress.so", filepath.Join(base, "cupy", "lib.so"))
	venv := filepath.Join(root, "venv")
	sp := filepath.Join(venv, "lib", "python3.11", "site-packages")
	// the venv's own cupy hides the base's
	copyFixture(t, "nocompress.so", filepath.Join(sp, "cupy", "own.so"))
	write(t, filepath.Join(venv, "pyvenv.cfg"), "home = /usr/bin\ninclude-system-site-packages = true\n")

	got := map[string]string{}
	for _, l := range Scan(venv, Options{BaseSites: []string{base}}).Libraries {
		got[l.Rel] = l.Package
	}
	want := map[string]string{
		"lib/python3.11/site-packages/cupy/own.so":                                           "cupy",
		"../usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so":                        "torch",
		"../usr/lib/python3/dist-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so": "flash-attn",
	}
	if len(got) != len(want) {
		var keys []string
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("libraries %s, want %d", strings.Join(keys, ", "), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: package %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	// Without the base sites only the venv's own are read.
	if n := len(Scan(venv, Options{}).Libraries); n != 1 {
		t.Errorf("without BaseSites: %d libraries, want 1", n)
	}
}
