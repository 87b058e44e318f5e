package kb

import (
	"regexp"
	"strings"
	"testing"
)

// normalizePEP503 must agree with PEP 503's own definition,
// re.sub(r"[-_.]+", "-", name).lower().
func TestNormalizePEP503(t *testing.T) {
	ref := regexp.MustCompile(`[-_.]+`)
	for _, in := range []string{
		"torch", "Torch", "cupy-cuda12x", "nvidia_cublas_cu12", "Foo.Bar--baz__qux", "-a", "a-", "..", "a-_.b",
		"jax", "JAX", "x", "", "ray", "A_B.C-D", "a--b", "a.-_b",
	} {
		want := ref.ReplaceAllString(strings.ToLower(in), "-")
		if got := normalizePEP503(in); got != want {
			t.Errorf("normalizePEP503(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzNormalizePEP503(f *testing.F) {
	ref := regexp.MustCompile(`[-_.]+`)
	for _, s := range []string{"Foo.Bar--baz__qux", "a-_.b", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for i := 0; i < len(in); i++ {
			if in[i] >= 0x80 {
				return // PEP 508 names are ASCII; ToLower differs beyond it.
			}
		}
		if got, want := normalizePEP503(in), ref.ReplaceAllString(strings.ToLower(in), "-"); got != want {
			t.Fatalf("normalizePEP503(%q) = %q, want %q", in, got, want)
		}
	})
}
