package gpucheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
)

// judgeRuntimePTX holds a package that compiles its kernels at run time
// with its CUDA's NVRTC (OpenMM's CUDA platform) against the target's
// driver, once per target: the driver loads the PTX NVRTC makes only if
// it supports that CUDA release, whatever the GPU. The CUDA releases its
// builds can load are the rows' lists, narrowed by a conda CUDA pin the
// file writes; where some of them are newer than the driver's CUDA and
// some are not, which build and NVRTC the solver installs decides it where
// the environment is created. It is called once per target.
func (c *checker) judgeRuntimePTX(p *resolver.GPUPackage) {
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok || ext.RuntimePTX == "" || c.driverCUDA == "" || p.From != envspec.ProviderConda {
		return
	}
	cudas, pin := c.runtimePTXCUDAs(p)
	if len(cudas) == 0 {
		return
	}
	var newer, runs []string
	for _, cu := range cudas {
		if compareVersions(cu, c.driverCUDA) > 0 {
			newer = append(newer, cu)
		} else {
			runs = append(runs, cu)
		}
	}
	label := pkgLabel(p)
	pinHint := c.runtimePTXPinHint()
	switch {
	case len(newer) == 0:
		c.runtimePTXLibs(p, ext.ToolkitLibs, cudas)
	case len(runs) == 0:
		c.add("EG410", c.pkgPos(p),
			fmt.Sprintf("%s can run no kernel on %s: it compiles them at run time with the NVRTC of CUDA %s%s, and the driver (CUDA %s) refuses PTX newer than its CUDA (\"CUDA_ERROR_UNSUPPORTED_PTX_VERSION\", openmm/openmm#3585, #4149)",
				label, c.h.label(), resolver.RangeOf(newer), pin, c.driverCUDA),
			c.runtimePTXDriverHint(newer[len(newer)-1], pinHint))
	default:
		c.undecideFor(c.pkgPos(p), CauseMachine, "extension", "nvrtc-release-open", label,
			fmt.Sprintf("%s compiles its kernels at run time with the NVRTC of its build's CUDA, and the builds the file admits load CUDA %s; the driver (CUDA %s) loads the PTX of %s and refuses that of %s (\"CUDA_ERROR_UNSUPPORTED_PTX_VERSION\", openmm/openmm#3585), so which build and NVRTC the solver installs where the environment is created decides it",
				label, resolver.RangeOf(cudas), c.driverCUDA, resolver.RangeOf(runs), resolver.RangeOf(newer)),
			"pin the CUDA of "+p.Name+" to the driver's: "+pinHint)
	}
}

// runtimePTXPinHint says how to hold the package's NVRTC to the driver's
// CUDA: replace the file's own CUDA pin where it has one (adding a second
// pin beside it would leave the file unsolvable, review forty-three F24),
// add one otherwise.
func (c *checker) runtimePTXPinHint() string {
	want, what := "cuda-version="+c.driverCUDA, "its CUDA 12 build's cuda-nvrtc"
	if strings.HasPrefix(c.driverCUDA, "11.") {
		want, what = "cudatoolkit="+c.driverCUDA, "its NVRTC"
	}
	if e, ok := resolver.CondaCUDAPinEvidence(c.st); ok && e.Item != "" {
		where := ""
		if e.Line > 0 {
			where = fmt.Sprintf(" (line %d)", e.Line)
		}
		return fmt.Sprintf("replace %s%s with %s, which holds %s to the driver's CUDA", e.Item, where, want, what)
	}
	return fmt.Sprintf("add %s to the file, which holds %s to the driver's CUDA", want, what)
}

// runtimePTXDriverHint offers a driver upgrade only where one exists: a
// GPU past its last driver branch (a K80 on R470) runs no driver for a
// newer CUDA, so only the pin is left.
func (c *checker) runtimePTXDriverHint(newest, pinHint string) string {
	if lim, ok := c.retired(); ok && compareVersions(newest, lim.cuda) > 0 {
		return fmt.Sprintf("the %s (%s) runs no driver after R%d, which supports CUDA %s; pin a CUDA that driver supports: %s",
			lim.gpuName(), lim.arch.Arch, lim.arch.LastBranch, lim.cuda, pinHint)
	}
	return fmt.Sprintf("install a driver that supports CUDA %s, or pin a CUDA the driver supports instead: %s", newest, pinHint)
}

// runtimePTXLibs holds the CUDA toolkit libraries such a package links
// (its toolkit_libs: OpenMM's cuFFT, for PME), of whichever CUDA its build
// has, against each GPU of a newer major than that CUDA's compiler targets,
// once its driver passes: there its kernels run through PTX, which says
// nothing of the libraries (within the compiler's range they are taken to
// carry what it targets, as a framework's are on its SASS path).
func (c *checker) runtimePTXLibs(p *resolver.GPUPackage, libs, cudas []string) {
	if len(libs) == 0 {
		return
	}
	c.eachCC(func(gcc cc, gs []GPU) {
		var below []string
		for _, cu := range cudas {
			if _, _, ok := c.compilerBelow(cu, gcc); ok {
				below = append(below, cu)
			}
		}
		c.linkedLibs(p, libs, below, len(cudas) > 1, gcc, gs)
	})
}

// linkedLibs holds the CUDA toolkit libraries an extension links, of each
// CUDA release its build may have, against a GPU its own code reaches only
// through PTX: a library that lacks code for it fails the target (EG410),
// unless the environment already holds that library at that release, which
// judgeCUDALibs reports; one not known to carry code leaves it open, never
// ok. open says that which release it gets is the solver's pick: then what
// only some of them lack leaves the target open too.
func (c *checker) linkedLibs(p *resolver.GPUPackage, libs, cudas []string, open bool, gcc cc, gs []GPU) {
	held := func(lib, cu string) bool {
		for _, q := range c.st.GPUPackages {
			if q.Role == resolver.RoleCUDALibrary && q.Lib == lib && q.Version == cu {
				return true
			}
		}
		return false
	}
	var whys, reasons, lack []string
	cause := CauseNoSource
	for _, cu := range cudas {
		for _, lib := range libs {
			lp := resolver.ToolkitLib(lib, cu)
			has, why := c.libCarries(&lp, gcc)
			switch {
			case has == carriesYes, has == carriesNo && held(lib, cu):
				continue
			case has == carriesNo && !open:
				lack = append(lack, fmt.Sprintf("%s %s: %s", lib, cu, why))
				continue
			case has == carriesNo:
				why = fmt.Sprintf("%s %s carries no code for %s: %s", lib, cu, gcc.sm(), why)
			case c.unsourced[why] == "":
				if cause == CauseNoSource {
					cause = reasonCause["cuda-lib-arch-unknown"]
				}
			default:
				if r := c.unsourced[why]; !slices.Contains(reasons, r) {
					reasons = append(reasons, r)
				}
			}
			if !slices.Contains(whys, why) {
				whys = append(whys, why)
			}
		}
	}
	what := "the CUDA libraries " + pkgLabel(p) + " links (" + strings.Join(libs, ", ") + ")"
	hint := fmt.Sprintf("pin the CUDA toolkit %s runs with (cudatoolkit or cuda-version in this file) to a release whose %s carries code for %s, or run envguard check on the machine, which reads the libraries", p.Name, strings.Join(libs, ", "), gcc.sm())
	if len(lack) > 0 {
		c.add("EG410", c.pkgPos(p), fmt.Sprintf("%s carries no code for %s on %s: %s", what, gcc.sm(), gpuLabel(c.h, gs), strings.Join(lack, "; ")), hint)
		return
	}
	if len(whys) == 0 {
		return
	}
	if open {
		cause = CauseMachine // which build's libraries it links is the solver's pick
	}
	if len(reasons) > 0 {
		whys = append(whys, "and of these: "+strings.Join(reasons, "; "))
	}
	c.undecideFor(c.pkgPos(p), cause, "architecture", "cuda-lib-arch-unknown", what,
		fmt.Sprintf("it links the %s of the CUDA toolkit it runs with (%s), which its kernels' PTX does not vouch for on %s (%s): %s",
			strings.Join(libs, ", "), resolver.RangeOf(cudas), gcc.sm(), gpuLabel(c.h, gs), strings.Join(whys, "; ")),
		hint)
}

// runtimePTXCUDAs lists the CUDA releases (major.minor, sorted) whose
// NVRTC the package's builds of its release may load, and says which
// conda pin narrowed them ("" where none did).
func (c *checker) runtimePTXCUDAs(p *resolver.GPUPackage) ([]string, string) {
	var out []string
	releases := p.Releases
	if p.Version != "" {
		releases = []string{p.Version}
	}
	for _, b := range c.k.ExtensionReleases(p.Name) {
		if !slices.Contains(releases, b.Version) || !b.NoDeviceCode || b.Dist != "conda-forge" {
			continue
		}
		for _, cu := range b.CUDA {
			if !slices.Contains(out, cu) {
				out = append(out, cu)
			}
		}
	}
	pin, item := resolver.CondaCUDAPin(c.st)
	if pin != "" {
		var kept []string
		for _, cu := range out {
			if cu == pin || strings.HasPrefix(cu, pin+".") {
				kept = append(kept, cu)
			}
		}
		if len(kept) > 0 {
			out, item = kept, " ("+item+" fixes it)"
		} else {
			item = ""
		}
	}
	slices.SortFunc(out, compareVersions)
	return out, item
}
