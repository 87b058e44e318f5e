package resolver

import (
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestUndeclaredJAXExtras: only a pinned jax's CUDA extras that its
// release lacks are dropped; open specs, other packages, non-CUDA extras
// and releases past the table keep theirs.
func TestUndeclaredJAXExtras(t *testing.T) {
	k := kb.Default()
	for _, c := range []struct {
		name, exact string
		extras      []string
		want        []string
	}{
		{"jax", "0.4.20", []string{"cuda12"}, []string{"cuda12"}},
		{"JAX", "0.4.20", []string{" cuda12 ", "cpu"}, []string{"cuda12"}},
		{"jax", "0.4.20", []string{"cuda12-pip"}, nil}, // PEP 685: cuda12_pip
		{"jax", "0.6.0", []string{"CUDA12_PIP"}, []string{"CUDA12_PIP"}},
		{"jax", "0.6.0", []string{"cuda12_local"}, nil}, // respelt cuda12-local
		{"jax", "0.4.22", []string{"cuda12"}, nil},
		{"jax", "", []string{"cuda12"}, nil},          // an open spec decides nothing
		{"jax", "0.99.0", []string{"cuda12"}, nil},    // past the newest tag read
		{"jaxlib", "0.4.20", []string{"cuda12"}, nil}, // jax's table only
		{"jax", "0.4.20", []string{"tpu"}, nil},
	} {
		got := undeclaredJAXExtras(k, c.name, c.exact, c.extras)
		if !slices.Equal(got, c.want) {
			t.Errorf("undeclaredJAXExtras(%s, %q, %q) = %q; want %q", c.name, c.exact, c.extras, got, c.want)
		}
	}
	if got := undeclaredJAXExtras(nil, "jax", "0.4.20", []string{"cuda12"}); got != nil {
		t.Errorf("with no KB: %q; want none", got)
	}
}

// TestJAXCudaExtraMajor: jax[cuda] names no CUDA major, but each release's
// setup.py pins a jaxlib (or plugin) built for one (jax_extra_cuda):
// jax[cuda]==0.3.10 is jaxlib==0.3.10+cuda11.cudnn82, a CUDA 11 runtime,
// 0.4.26 a CUDA 12 one (review r7 #1054, corpus 179). An open release
// names no major.
func TestJAXCudaExtraMajor(t *testing.T) {
	for _, c := range []struct {
		spec, want string
	}{
		{"jax[cuda]==0.3.10", "11"},
		{"jax[cuda]==0.4.25", "11"},
		{"jax[cuda]==0.4.26", "12"},
		{"jax[cuda]>=0.3", "cuda"},
	} {
		st, _ := lintSrc(t, "channels:\n  - conda-forge\ndependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - -f https://storage.googleapis.com/jax-releases/jax_releases.html\n    - "+c.spec+"\n")
		if st == nil || st.CUDA == nil {
			t.Fatalf("%s: no CUDA stack", c.spec)
		}
		var says []string
		for _, e := range st.CUDA.Evidence {
			if e.Package == "jax" || strings.HasPrefix(e.Item, "jax[") {
				says = append(says, e.Says)
			}
		}
		if !slices.Contains(says, c.want) {
			t.Errorf("%s: jax evidence says %q, want %q", c.spec, says, c.want)
		}
	}
}

func TestJAXExtraCUDAMajorKB(t *testing.T) {
	k := kb.Default()
	for _, c := range []struct {
		release, extra string
		want           int
		ok             bool
	}{
		{"0.3.10", "cuda", 11, true},
		{"0.2.22", "cuda", 0, false}, // before the extra
		{"0.4.30", "CUDA", 12, true},
		{"9.0.0", "cuda", 0, false}, // past the newest release read
		{"0.3.10", "cuda11_cudnn82", 0, false},
	} {
		if m, ok := k.JAXExtraCUDAMajor(c.release, c.extra); m != c.want || ok != c.ok {
			t.Errorf("JAXExtraCUDAMajor(%s, %s) = %d %v; want %d %v", c.release, c.extra, m, ok, c.want, c.ok)
		}
	}
}
