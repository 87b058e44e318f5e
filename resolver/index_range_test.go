package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// TestIndexRangeNeedsTheNewestRelease: an open pip spec is judged over
// the rows of the releases it admits only while the extension's release
// list reaches the newest release the package index listing names; a
// newer one (which pip would take) leaves it unknown, and so does a spec
// that admits a release older than the rows reach.
func TestIndexRangeNeedsTheNewestRelease(t *testing.T) {
	resolve := func(k *kb.KB, line string) GPUPackage {
		src := "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - " + line + "\n"
		env := envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
		for _, p := range Resolve(env, k).GPUPackages {
			if p.Name == "cupy-cuda12x" {
				return p
			}
		}
		t.Fatalf("%s: no cupy-cuda12x package", line)
		return GPUPackage{}
	}
	if p := resolve(kb.Default(), "cupy-cuda12x>=13.0.0"); !p.Known || len(p.Builds) != 2 {
		t.Errorf("today's knowledge base: known %v, %d builds (%s); want known over two builds", p.Known, len(p.Builds), p.Unknown)
	}

	facts := kb.Default().Facts
	facts.IndexReleases = append(append([]kb.IndexRelease(nil), facts.IndexReleases...), kb.IndexRelease{Package: "cupy-cuda12x", Version: "14.3.0", Read: "2027-01-01", Source: "PKG_INDEX_LISTING"})
	if p := resolve(&kb.KB{Facts: facts}, "cupy-cuda12x>=13.0.0"); p.Known || !strings.Contains(p.Unknown, "14.3.0, newer than every release the knowledge base describes (14.2.0)") {
		t.Errorf("a newer release on the index: known %v, %q", p.Known, p.Unknown)
	}

	facts = kb.Default().Facts
	exts := append([]kb.Extension(nil), facts.Extensions...)
	for i := range exts {
		if exts[i].Name == "cupy-cuda12x" {
			exts[i].IndexCompleteFrom = "13.0.0"
		}
	}
	facts.Extensions = exts
	if p := resolve(&kb.KB{Facts: facts}, "cupy-cuda12x>=12.0"); p.Known || !strings.Contains(p.Unknown, "admits releases older than 13.0.0 (12.0.0 to 12.3.0)") {
		t.Errorf("releases older than the rows: known %v, %q", p.Known, p.Unknown)
	}
}
