package resolver

import (
	"slices"
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
