package resolver

import (
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

func resolveFile(t *testing.T, name, src string) *Stack {
	t.Helper()
	env := envspec.Parse(name, []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	return Resolve(env, kb.Default())
}

// PipPick: which torch build pip takes beside --extra-index-url (an
// environment.yml's pip section here; requirements files and pixi manifests
// in report's TestPipPickVerdict), and none for an --index-url or an extension's own
// index (flashinfer's …/whl/cu124/torch2.4 serves flashinfer, not torch).
func TestPipPick(t *testing.T) {
	cases := []struct {
		name, file, src string
		release         string // "" for no PipPick
		fromIndex       bool
		pypi            string
		dist            kb.Distribution
		cuda            string // the stack's CUDA runtime
	}{
		{"open spec, newest not on index", "environment.yml", "dependencies:\n  - pip\n  - pip:\n    - --extra-index-url https://example.org/whl/cu118\n    - torch>=2.7.0\n", "2.14.0", false, "13.0", kb.DistPyPI, "13.0"},
		{"open spec, newest on index", "environment.yml", "dependencies:\n  - pip\n  - pip:\n    - --extra-index-url https://example.org/whl/cu118\n    - torch>=2.7.0,<2.8\n", "2.7.1", true, "", kb.DistWheel, "11.8"},
		{"exact pin not on index", "environment.yml", "dependencies:\n  - pip\n  - pip:\n    - --extra-index-url https://example.org/whl/cu118\n    - torch==2.8.0\n", "2.8.0", false, "12.8", kb.DistPyPI, "12.8"},
		{"Python 3.9: 2.8.0 is the newest with its wheels", "environment.yml", "dependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - --extra-index-url https://example.org/whl/cu118\n    - torch>=2.7.0\n", "2.8.0", false, "12.8", kb.DistPyPI, "12.8"},
		// === is arbitrary equality (PEP 440): the text 2.7.1 is not the
		// index's 2.7.1+cu118, so pip takes PyPI's 2.7.1.
		{"=== pin on the index: the index's build does not match", "environment.yml", "dependencies:\n  - pip\n  - pip:\n    - --extra-index-url https://example.org/whl/cu118\n    - torch===2.7.1\n", "2.7.1", false, "12.6", kb.DistPyPI, "12.6"},
		{"no release in the knowledge base", "environment.yml", "dependencies:\n  - pip\n  - pip:\n    - --extra-index-url https://example.org/whl/cu118\n    - torch>=9.0\n", "", false, "", kb.DistWheel, ""},
		{"an --index-url replaces PyPI", "environment.yml", "dependencies:\n  - pip\n  - pip:\n    - --index-url https://example.org/whl/cu118\n    - torch>=2.7.0\n", "-", false, "", kb.DistWheel, "11.8"},
		{"an extension's own index is not PyTorch's", "environment.yml", "dependencies:\n  - pip\n  - pip:\n    - --extra-index-url https://flashinfer.ai/whl/cu124/torch2.4/\n    - torch==2.4.1\n", "-", false, "", kb.DistPyPI, "12.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := resolveFile(t, c.file, c.src)
			fw := st.Framework
			if fw == nil {
				t.Fatal("no framework")
			}
			p := fw.PipPick
			switch {
			case c.release == "-":
				if p != nil {
					t.Errorf("PipPick %+v, want none", p)
				}
			case p == nil:
				t.Fatalf("no PipPick, want release %q", c.release)
			case p.Release != c.release || p.FromIndex != c.fromIndex || p.PyPI != c.pypi:
				t.Errorf("PipPick %+v, want release %q from index %v, PyPI %q", p, c.release, c.fromIndex, c.pypi)
			}
			if fw.Dist != c.dist {
				t.Errorf("distribution %q, want %q", fw.Dist, c.dist)
			}
			got := ""
			if st.CUDA != nil {
				got = st.CUDA.Version
			}
			if got != c.cuda {
				t.Errorf("CUDA %q, want %q (evidence %+v)", got, c.cuda, st.CUDA)
			}
		})
	}
}
