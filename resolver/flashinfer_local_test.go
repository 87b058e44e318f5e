package resolver

import (
	"strings"
	"testing"
)

// A flashinfer wheel's local version (+cu124torch2.6, from
// scripts/run-ci-build-wheel.sh) names the build the file gets even where
// the file names no flashinfer index, so the knowledge base's row for that
// pair decides its GPU code; a pair the release's workflow did not build
// (docs-only, or no local version at all) leaves the code unknown.
func TestFlashinferLocalVersion(t *testing.T) {
	cases := []struct {
		name, pin   string
		torch, cuda string
		known       bool
		sass, ptx   string
	}{
		{"workflow-built pair the docs do not list", "flashinfer-python==0.2.2.post1+cu124torch2.6", "2.6", "12.4", true, "7.5 8.0 8.9 9.0", "9.0"},
		{"pair both list", "flashinfer-python==0.2.2.post1+cu121torch2.4", "2.4", "12.1", true, "7.5 8.0 8.9 9.0", "9.0"},
		{"before sm75 support", "flashinfer==0.1.5+cu121torch2.3", "2.3", "12.1", true, "8.0 8.9 9.0", "9.0"},
		{"docs-only pair, not built", "flashinfer-python==0.2.2.post1+cu121torch2.3", "2.3", "12.1", false, "", ""},
		{"no local version, no index", "flashinfer-python==0.2.2.post1", "", "", false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu124\n    - torch==2.6.0+cu124\n    - " + c.pin + "\n"
			st := resolveFile(t, "environment.yml", src)
			name := c.pin[:strings.Index(c.pin, "==")]
			var p *GPUPackage
			for i := range st.GPUPackages {
				if st.GPUPackages[i].Name == name {
					p = &st.GPUPackages[i]
				}
			}
			if p == nil {
				t.Fatalf("no GPU package %s", name)
			}
			if got := strings.Join(p.BuiltFor.Torch, " "); got != c.torch {
				t.Errorf("built for torch %q, want %q", got, c.torch)
			}
			if got := strings.Join(p.BuiltFor.CUDA, " "); got != c.cuda {
				t.Errorf("built for CUDA %q, want %q", got, c.cuda)
			}
			if p.Code.Known != c.known || strings.Join(p.Code.SASS, " ") != c.sass || strings.Join(p.Code.PTX, " ") != c.ptx {
				t.Errorf("code %+v, want known %v SASS %q PTX %q", p.Code, c.known, c.sass, c.ptx)
			}
		})
	}
}
