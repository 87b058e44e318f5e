package gpucheck

import (
	"slices"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// testFacts is a copy of knowledge-base rows, kept so the checks can be
// tested apart from the knowledge base's indexing. A copy drifts: this test
// holds every fact in it (not the wording of its source) to the row of
// kb.Default() with the same key, so a KB correction that the copy misses
// fails here instead of leaving the checks tested on stale numbers.
func TestTestFactsMatchDefaultKB(t *testing.T) {
	real := kb.Default().Facts
	for _, d := range testFacts.CUDADrivers {
		i := slices.IndexFunc(real.CUDADrivers, func(r kb.CUDADriver) bool { return r.CUDA == d.CUDA })
		if i < 0 {
			t.Errorf("testFacts: CUDA %s driver row is not in the knowledge base", d.CUDA)
		} else if r := real.CUDADrivers[i]; r.LinuxMin != d.LinuxMin {
			t.Errorf("testFacts: CUDA %s needs Linux driver %s in testFacts, %s in the knowledge base", d.CUDA, d.LinuxMin, r.LinuxMin)
		}
	}
	for _, m := range testFacts.MinorCompat {
		i := slices.IndexFunc(real.MinorCompat, func(r kb.MinorCompat) bool { return r.Major == m.Major })
		if i < 0 {
			t.Errorf("testFacts: minor-compatibility row for CUDA %d is not in the knowledge base", m.Major)
		} else if r := real.MinorCompat[i]; r.LinuxFloor != m.LinuxFloor {
			t.Errorf("testFacts: CUDA %d minor-compatibility floor %s in testFacts, %s in the knowledge base", m.Major, m.LinuxFloor, r.LinuxFloor)
		}
	}
	for _, g := range testFacts.GPUs {
		// The copy spells names as users and NVML do; the knowledge base
		// must read each spelling as a GPU of the same capability.
		for _, name := range append([]string{g.Name}, g.Aliases...) {
			r, ok := kb.Default().GPUByName(name)
			if !ok {
				t.Errorf("testFacts: the knowledge base does not know the GPU %q", name)
			} else if r.CC != g.CC || r.Arch != g.Arch {
				t.Errorf("testFacts: %q is %s %s in testFacts, %s %s in the knowledge base (%s)", name, g.CC, g.Arch, r.CC, r.Arch, r.Name)
			}
		}
	}
	for _, a := range testFacts.ToolkitArch {
		i := slices.IndexFunc(real.ToolkitArch, func(r kb.ToolkitArch) bool { return r.CUDA == a.CUDA })
		if i < 0 {
			t.Errorf("testFacts: toolkit architecture row for CUDA %s is not in the knowledge base", a.CUDA)
		} else if r := real.ToolkitArch[i]; r.MinSASS != a.MinSASS || r.MaxSASS != a.MaxSASS || r.MaxPTX != a.MaxPTX {
			t.Errorf("testFacts: CUDA %s targets sm %s-%s, PTX %s in testFacts; sm %s-%s, PTX %s in the knowledge base",
				a.CUDA, a.MinSASS, a.MaxSASS, a.MaxPTX, r.MinSASS, r.MaxSASS, r.MaxPTX)
		}
	}
	for _, a := range testFacts.Arch {
		if !a.Known {
			// A row that says "the sources do not say" exists to test the
			// unknown path; it stands for any row the KB lacks.
			continue
		}
		i := slices.IndexFunc(real.Arch, func(r kb.ArchList) bool {
			return r.Framework == "" && r.Series == a.Series && r.CUDA == a.CUDA && r.Dist == a.Dist
		})
		if i < 0 {
			t.Errorf("testFacts: architecture row %s %s %s is not in the knowledge base", a.Series, a.CUDA, a.Dist)
		} else if r := real.Arch[i]; !slices.Equal(r.SASS, a.SASS) || !slices.Equal(r.PTX, a.PTX) || !r.Known {
			t.Errorf("testFacts: %s %s %s carries SASS %v PTX %v in testFacts, SASS %v PTX %v (known %v) in the knowledge base",
				a.Series, a.CUDA, a.Dist, a.SASS, a.PTX, r.SASS, r.PTX, r.Known)
		}
	}
}
