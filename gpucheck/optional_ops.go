package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// optionalOps is the knowledge base's word that the release's compiled
// ops are optional (a failed load is caught at import), with the torch
// releases its build was made against; "" where they are not.
func (c *checker) optionalOps(p *resolver.GPUPackage) (string, []string) {
	if p.From != envspec.ProviderPip || p.Version == "" {
		return "", nil
	}
	if b, ok := c.k.OptionalOpsBuild(p.Name, p.Version); ok && b.Dist == "pypi" {
		return b.OptionalOps, b.Torch
	}
	return "", nil
}

// judgeOptionalOps holds a release whose compiled ops are optional against
// each GPU: neither a torch other than the one they were built against nor
// a GPU they carry no code for stops its import, only calls to those ops,
// which the job makes or not. Where either applies the target is open,
// decided on the machine (envguard check there reads the symbols the ops
// import from the installed torch); where neither does, it runs.
func (c *checker) judgeOptionalOps(p *resolver.GPUPackage, why string, torch []string) {
	if c.st.Binaries != nil {
		// an installed prefix: its libraries say whether the ops load
		if gap := resolver.OptionalOpsUnloadable(c.st, p.Name); gap != "" {
			c.undecideFor(c.pkgPos(p), CauseMachine, "extension", "optional-ops-unloadable", pkgLabel(p),
				fmt.Sprintf("its compiled ops do not load (%s), so calls to them fail, and whether the job calls them is decided when it runs; %s", gap, why),
				fmt.Sprintf("reinstall the %s release built against this torch, or the torch it was built against (%s)", p.Name, strings.Join(torch, ", ")))
			return
		}
	}
	fw := c.st.Framework
	rel := ""
	if fw != nil && fw.Name == "pytorch" {
		rel = fw.Version
	}
	if len(torch) > 0 && (rel == "" || !torchSeriesIn(torch, rel)) {
		env := "the torch the solver picks"
		if rel != "" {
			env = "torch " + rel
		}
		c.undecideFor(c.pkgPos(p), CauseMachine, "extension", "optional-ops-other-torch", pkgLabel(p),
			fmt.Sprintf("its compiled ops were built against torch %s, and whether they load beside %s is decided on the machine (a build for another torch release fails to load on undefined symbols, or loads where the symbols it uses did not change); %s",
				strings.Join(torch, ", "), env, why),
			fmt.Sprintf("pin the %s release built against this torch, or the torch it was built against (%s); or run envguard check on the machine, which reads the symbols its ops need", p.Name, strings.Join(torch, ", ")))
		return
	}
	list := &kb.ArchList{SASS: p.Code.SASS, PTX: p.Code.PTX, Known: true}
	c.eachCC(func(gcc cc, gs []GPU) {
		if v, _ := archVerdict(gcc, list); v != runsNone {
			return
		}
		c.undecideFor(c.pkgPos(p), CauseMachine, "extension", "optional-ops-no-code", pkgLabel(p),
			fmt.Sprintf("its compiled ops carry %s, no code for %s (%s), so calls to them fail there (\"no kernel image is available\"), and whether the job calls them is decided when it runs; %s",
				archSummary(list), gcc.sm(), gpuLabel(c.h, gs), why),
			fmt.Sprintf("use a release of %s whose ops carry code for %s, or check that the job calls none of them", p.Name, gcc.sm()))
	})
}

// torchSeriesIn reports whether a torch release is of a series one of the
// listed releases or series is.
func torchSeriesIn(torch []string, rel string) bool {
	s := resolver.SeriesOf(rel)
	for _, t := range torch {
		if resolver.SeriesOf(t) == s {
			return true
		}
	}
	return false
}
