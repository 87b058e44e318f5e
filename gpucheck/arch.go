package gpucheck

import (
	"strings"

	"github.com/envguard/envguard/resolver/kb"
)

// archRun says how a GPU runs a build, by CUDA's compatibility rules (CUDA
// C++ Programming Guide, "Binary Compatibility" and "Application
// Compatibility"):
//   - SASS (a cubin) for sm_XY runs on sm_XZ with Z ≥ Y, same major only:
//     an sm_86 build runs on an sm_89 L4, an sm_80 build does not run on
//     an sm_90 H100;
//   - PTX for compute_XY can be JIT-compiled by the driver for any GPU of
//     capability XY or higher;
//   - arch-specific targets (sm_90a, sm_100f) run on their own capability
//     only and carry no forward compatibility.
type archRun int

const (
	runsSASS archRun = iota // machine code for this GPU or a lower minor of its major
	runsPTX                 // no machine code, but PTX the driver can JIT
	runsNone                // neither: "no kernel image is available"
)

// archVerdict judges one GPU against a build's architecture list. by is
// the list entry that makes it run (the best SASS, else the highest PTX).
func archVerdict(gpu cc, list *kb.ArchList) (v archRun, by cc) {
	best, found := cc{}, false
	for _, s := range list.SASS {
		c, ok := parseCC(s)
		if !ok || c.Major != gpu.Major || c.Minor > gpu.Minor {
			continue
		}
		if c.Suffix != "" && c.Minor != gpu.Minor {
			continue
		}
		if !found || best.less(c) {
			best, found = c, true
		}
	}
	if found {
		return runsSASS, best
	}
	for _, s := range list.PTX {
		c, ok := parseCC(s)
		if !ok || c.Suffix != "" || gpu.less(c) {
			continue
		}
		if !found || best.less(c) {
			best, found = c, true
		}
	}
	if found {
		return runsPTX, best
	}
	if len(list.PTXOneOf) > 0 {
		// one of these, by build: it runs where every one serves
		for _, s := range list.PTXOneOf {
			c, ok := parseCC(s)
			if !ok || c.Suffix != "" || gpu.less(c) {
				return runsNone, cc{}
			}
			if !found || best.less(c) {
				best, found = c, true
			}
		}
		return runsPTX, best
	}
	return runsNone, cc{}
}

// archSummary renders a list for messages: "SASS sm_50…sm_86, PTX compute_86".
func archSummary(list *kb.ArchList) string {
	var sass, ptx []string
	for _, s := range list.SASS {
		if c, ok := parseCC(s); ok {
			sass = append(sass, c.sm())
		}
	}
	for _, s := range list.PTX {
		if c, ok := parseCC(s); ok {
			ptx = append(ptx, c.compute())
		}
	}
	out := "SASS " + orNone(sass)
	if len(list.PTXOneOf) > 0 && len(ptx) == 0 {
		var one []string
		for _, s := range list.PTXOneOf {
			if c, ok := parseCC(s); ok {
				one = append(one, c.compute())
			}
		}
		return out + ", PTX " + strings.Join(one, " or ") + " (by build number)"
	}
	if list.PTXUnknown && len(ptx) == 0 {
		// The row knows the SASS only: "PTX none" would say it has none.
		return out + ", PTX unknown"
	}
	return out + ", PTX " + orNone(ptx)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}
