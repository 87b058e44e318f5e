package gpucheck

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG410: a GPU-code package other than the framework (an extension,
// or a CUDA library the build loads) can run no code on a GPU. Its step
// also leaves the target unknown (EG409) for each such package whose code
// is not known, and for the CUDA libraries on the framework's PTX path.
var ruleEG410 = &Rule{
	Rule: finding.Rule{
		Code: "EG410", Name: "package-no-kernel-image", Severity: finding.SeverityError,
		Title: "an extension or a CUDA library the build loads can run no code on a GPU: no SASS for its architecture or a lower minor of the same major, and no PTX at or below it",
		Why: "The framework is not the only GPU code a job runs: every extension (vLLM, flash-attn, xformers, bitsandbytes, …) and every " +
			"CUDA library the build loads (cuBLAS, cuDNN, …) carries its own kernels. One built without the GPU's architecture fails " +
			"with \"no kernel image is available for execution on the device\" or refuses the GPU (a compute capability floor), " +
			"however well the framework itself runs.",
		Fix:    "Use a release of the package built for the GPU's architecture (for Blackwell: CUDA 12.8 or later builds), or run on a GPU it supports.",
		Before: "# target: GTX 1080 Ti (6.1)\ndependencies:\n  - pip:\n    - vllm==0.6.3",
		After:  "# target: L4 (8.9)\ndependencies:\n  - pip:\n    - vllm==0.6.3",
		Since:  "0.3.0",
	},
	run: runEG410,
}

// runEG410 judges every GPU-code package beside the framework against
// every GPU of the host.
func runEG410(c *checker) bool {
	if len(c.h.GPUs) == 0 || !c.h.Available {
		return true
	}
	var libs []*resolver.GPUPackage
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		switch p.Role {
		case resolver.RoleExtension:
			c.judgeExtension(p)
		case resolver.RoleCUDALibrary:
			if c.linkedIntoFramework(p) {
				continue
			}
			libs = append(libs, p)
		}
	}
	c.judgeCUDALibs(libs)
	return true
}

// frameworkRunsNoCode is the architecture (sm_120) of a GPU of the target
// that the framework's known code cannot run on at all (no SASS, no PTX
// that serves it), "" where it runs on every GPU or its code is not known.
func (c *checker) frameworkRunsNoCode() string {
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		if p.Role != resolver.RoleFramework || !p.Code.Known {
			continue
		}
		list := &kb.ArchList{SASS: p.Code.SASS, PTX: p.Code.PTX, Known: true}
		for _, g := range c.h.GPUs {
			if gcc, ok := parseCC(g.CC); ok {
				if v, _ := archVerdict(gcc, list); v == runsNone {
					return gcc.sm()
				}
			}
		}
	}
	return ""
}

// linkedIntoFramework says whether the framework's build links its own copy
// of a CUDA library the file installs (the pytorch channel's torch links
// NCCL statically: torch_static_libs), so that the file's package is not
// what it loads and says nothing of its GPU path (review eleven #1422:
// pytorch 1.4.0 said to load the environment's nccl 2.4.6.1).
func (c *checker) linkedIntoFramework(p *resolver.GPUPackage) bool {
	fw := c.st.Framework
	if fw == nil || fw.Name != "pytorch" || fw.Version == "" || p.BundledWith != "" || p.Lib == "" {
		return false
	}
	_, ok := c.k.TorchLinksStatically(fw.Dist, fw.Version, p.Lib)
	return ok
}

func pkgLabel(p *resolver.GPUPackage) string {
	if p.BundledWith != "" && p.BundledWith == resolver.RuntimeBundled(p.Version) {
		// a toolkit library at the runtime's release: its own version is
		// another number (CUDA 12.1 ships cuSOLVER 11.4), so the label
		// names the toolkit, not a "cusolver 12.1" (review forty F14)
		return p.Name + " of CUDA " + p.Version + " (loaded with the CUDA " + p.Version + " runtime)"
	}
	s := p.Name
	if rel := p.Release(); rel != "" {
		s += " " + rel
	}
	if p.BundledWith != "" {
		s += " (loaded by " + p.BundledWith + ")"
	}
	return s
}

// libLabel is pkgLabel, and for a library the framework loads where the
// framework is one a conda companion pulls in (review twenty-nine F11:
// 173, where a reader took pip's torch line for the torch that loads it),
// which that is.
func (c *checker) libLabel(p *resolver.GPUPackage) string {
	fw := c.st.Framework
	if !strings.HasPrefix(p.BundledWith, "torch ") || fw == nil || fw.PulledBy == "" || fw.From != envspec.ProviderConda {
		return pkgLabel(p)
	}
	s := p.Name
	if rel := p.Release(); rel != "" {
		s += " " + rel
	}
	pulls := "pytorch"
	if fw.PulledRelease != "" {
		pulls += " " + fw.PulledRelease
	}
	if fw.PipSkipped != "" {
		pulls += " before pip runs, so that " + fw.PipSkipped + " finds it installed and does nothing"
	}
	return s + " (loaded by " + p.BundledWith + ": " + fw.PulledBy + " pulls " + pulls + ")"
}

// pkgPos points at the package's item, else at the framework.
func (c *checker) pkgPos(p *resolver.GPUPackage) finding.Pos {
	if p.Pos.IsValid() {
		return p.Pos
	}
	return c.fwPos()
}

// judgeExtension holds one extension against each GPU: from its known
// SASS and PTX, else its compute-capability floor, else the range its
// CUDA toolkit can target; what none decides leaves the target unknown.
func (c *checker) judgeExtension(p *resolver.GPUPackage) {
	if !p.Known {
		if !c.belowEveryRelease(p) {
			return // every GPU is below a floor no release goes under
		}
		why := p.Unknown + ", so neither what it was built for nor the GPU code it carries can be checked"
		if !c.belowNVCCMin(p) {
			return // every GPU is below what the oldest toolkit its build accepts targets
		}
		if !c.condaBuildBelowNVCC(p) {
			return // every GPU is below what torch's CUDA major compiles for
		}
		if ext, ok := c.k.ExtensionByName(p.Name); ok && ext.BuiltOnMachine {
			if !c.builtOnMachineBelowNVCC(p) {
				return // every GPU is below what the only nvcc it may use targets
			}
			why = p.Name + " ships no prebuilt GPU code: its CUDA ops are compiled on the machine, at first use or at install, so what they carry is decided there and not by the release"
		}
		if p.NotInstallable {
			return // the target fails on the file (uninstallableFile)
		}
		cause, hint := c.unknownExtension(p)
		c.undecideFor(c.pkgPos(p), cause, "extension", "extension-unknown", pkgLabel(p), why, hint)
		return
	}
	if why, torch := c.optionalOps(p); why != "" && p.Code.Known {
		c.judgeOptionalOps(p, why, torch)
		return
	}
	if !p.Code.Known && len(p.Code.SupportedCC) > 0 {
		c.judgeOwnRuntimeDriver(p)
	}
	floorAll := ""
	if ext, ok := c.k.ExtensionByName(p.Name); ok && ext.FloorEveryRelease && p.Role == resolver.RoleExtension && !(p.Code.Known && p.Code.NoDeviceCode) {
		// a release with no GPU code of its own (librmm 0.14.0: host
		// code calling the CUDA runtime) lacks no kernel on an older GPU,
		// whatever the project supports (review forty-nine F43)
		floorAll = ext.MinCC
	}
	if p.FromMachine != "" && !c.machineRuntimeBelowDriver(p) {
		// Its code is judged below; the CUDA libraries it needs come
		// from the machine, which leaves the target open where that code
		// does not already fail.
		defer c.undecideFor(c.pkgPos(p), CauseMachine, "extension", "extension-lib-from-machine", pkgLabel(p), p.FromMachine,
			c.machineLibsHint(p))
	}
	if p.Code.Known && p.Code.NoDeviceCode {
		// the driver decides one whose kernels NVRTC compiles at run time
		c.judgeRuntimePTX(p)
	}
	fence, fenced := c.dispatchFence(p)
	c.eachCC(func(gcc cc, gs []GPU) {
		if lo, ok := parseCC(floorAll); ok && gcc.less(lo) {
			// Every release keeps the floor: say so, rather than which
			// builds lack the GPU, and propose no other release.
			msg, hint := floorEveryReleaseText(p, floorAll, gcc, gpuLabel(c.h, gs))
			c.add("EG410", c.pkgPos(p), msg, hint)
			return
		}
		if p.Code.MinCC != "" && !(p.Code.Known && p.Code.NoDeviceCode) {
			// a package with no GPU code of its own lacks no kernel below
			// the floor its project supports (librmm 0.14.0, host code
			// calling the CUDA runtime, review forty-nine F43): the
			// packages with kernels carry the floor
			if lo, ok := parseCC(p.Code.MinCC); ok && gcc.less(lo) {
				hint := fmt.Sprintf("run on a GPU of compute capability %s or newer", p.Code.MinCC)
				if c.someReleaseRuns(p.Name, gcc) {
					hint += fmt.Sprintf(", or use a release of %s that supports %s", p.Name, gcc.sm())
				}
				c.add("EG410", c.pkgPos(p),
					fmt.Sprintf("%s needs compute capability %s or newer and cannot run on %s", pkgLabel(p), p.Code.MinCC, gpuLabel(c.h, gs)),
					hint)
				return
			}
			if p.Code.JIT {
				return // a compiler: it makes code for any GPU at or above its floor
			}
		}
		if p.Code.Known && p.Code.NoDeviceCode {
			return // no kernel of its own: no GPU lacks one
		}
		if !p.Code.Known && len(p.Code.SupportedCC) > 0 {
			c.judgeSupportedCC(p, gcc, gs)
			return
		}
		if p.CUDAFromMachine != "" {
			c.judgeMachineLibs(p, gcc, gs)
			return
		}
		if fenced && !gcc.less(fence) {
			c.add("EG410", c.pkgPos(p),
				fmt.Sprintf("%s selects its own kernels by the GPU's compute capability from tables that end below %d.%d, so on %s (%s) it finds none to launch (\"no kernel found to launch\"), whatever SASS or PTX it carries", pkgLabel(p), fence.Major, fence.Minor, gcc.sm(), gpuLabel(c.h, gs)),
				c.otherReleaseHint(p, gcc))
			return
		}
		if len(p.Builds) > 1 {
			c.judgeBuilds(p, gcc, gs)
			return
		}
		if p.Code.Known {
			list := &kb.ArchList{SASS: p.Code.SASS, PTX: p.Code.PTX, Known: true}
			switch v, by := archVerdict(gcc, list); v {
			case runsNone:
				c.add("EG410", c.pkgPos(p),
					fmt.Sprintf("%s (%s) can run no code on %s: no SASS for %s or a lower %d.x, and no PTX at or below compute_%d%d (\"no kernel image is available for execution on the device\")",
						pkgLabel(p), archSummary(list), gpuLabel(c.h, gs), gcc.sm(), gcc.Major, gcc.Major, gcc.Minor),
					c.torchCUDALibHint(p, gcc, c.otherReleaseHint(p, gcc)))
			case runsSASS:
				// Its shipped SASS serves its precompiled kernels only: the
				// ones it compiles at run time come from whatever NVRTC it
				// finds (a cupy-cuda12x with sm_120 SASS beside an NVRTC
				// 12.0 makes sm_90 code for an RTX 5090).
				if p.FromBinary() {
					break
				}
				if why, verdict, _ := c.nvrtcBelowGPU(p, gcc); why != "" {
					msg := fmt.Sprintf("%s (%s) carries SASS for %s (%s) in its precompiled kernels, but %s", pkgLabel(p), archSummary(list), gcc.sm(), gpuLabel(c.h, gs), why)
					if verdict == carriesNo {
						c.add("EG410", c.pkgPos(p), msg, fmt.Sprintf("use a build of %s for a CUDA whose NVRTC targets %s", p.Name, gcc.sm()))
					} else {
						c.undecide(c.pkgPos(p), "architecture", "nvrtc-target-unknown", pkgLabel(p), msg,
							fmt.Sprintf("install an NVRTC that targets %s beside it (a CUDA toolkit, or the nvidia-cuda-nvrtc wheel, of a release that does), or run envguard check on the machine", gcc.sm()))
					}
				}
			case runsPTX:
				if p.FromBinary() {
					break
				}
				if why, verdict, fixedIn := c.nvrtcBelowGPU(p, gcc); why != "" {
					msg := fmt.Sprintf("%s (%s) reaches %s (%s) only through PTX, and %s", pkgLabel(p), archSummary(list), gcc.sm(), gpuLabel(c.h, gs), why)
					switch {
					case verdict == carriesNo && fixedIn != "":
						c.add("EG410", c.pkgPos(p), msg,
							fmt.Sprintf("use %s %s or later together with a CUDA whose NVRTC targets %s: from %s it caps the architecture it asks for at what its NVRTC compiles, but with an older NVRTC that cap makes code for an older architecture, which does not run on %s either", p.Name, fixedIn, gcc.sm(), fixedIn, gcc.sm()))
					case verdict == carriesNo:
						c.add("EG410", c.pkgPos(p), msg,
							fmt.Sprintf("use a build of %s for a CUDA whose NVRTC targets %s", p.Name, gcc.sm()))
					default:
						c.undecide(c.pkgPos(p), "architecture", "nvrtc-target-unknown", pkgLabel(p), msg,
							fmt.Sprintf("use a build of %s for a CUDA whose NVRTC targets %s, or run envguard check on the machine", p.Name, gcc.sm()))
					}
					return
				}
				c.extensionPTXOnly(p, list, by, gcc, gs)
			}
			return
		}
		if c.belowToolkit(p, gcc, gs) || c.everySdistPathRuns(p, gcc) {
			return
		}
		if p.BuiltOnMachine != "" {
			c.undecideFor(c.pkgPos(p), CauseMachine, "architecture", "extension-built-on-machine", pkgLabel(p),
				fmt.Sprintf("%s, so whether it runs on %s (%s) is decided there", builtOnMachineWhy(p), gcc.sm(), gpuLabel(c.h, gs)),
				builtOnMachineRowHint)
			return
		}
		if p.CodeUnknown != "" {
			c.undecide(c.pkgPos(p), "architecture", "extension-arch-unknown", pkgLabel(p),
				fmt.Sprintf("%s, so whether it runs on %s (%s) is not known", p.CodeUnknown, gcc.sm(), gpuLabel(c.h, gs)),
				"install it beside a torch of its wheel's CUDA major (the package index's torch), or run envguard check on the machine, which reads the binaries")
			return
		}
		c.undecide(c.pkgPos(p), "architecture", "extension-arch-unknown", pkgLabel(p),
			fmt.Sprintf("which architectures its GPU code is built for is not known, so whether it runs on %s (%s) is not known", gcc.sm(), gpuLabel(c.h, gs)),
			"run envguard check on the machine, which reads the binaries, or cuobjdump --list-elf --list-ptx on its shared libraries")
	})
}

// builtOnMachineWhy says how a release whose build row has
// built_on_machine gets its GPU code.
func builtOnMachineWhy(p *resolver.GPUPackage) string {
	return p.Name + " " + p.Version + " ships no GPU code of its own: " + p.BuiltOnMachine
}

// builtOnMachineRowHint is the hint for such a release.
const builtOnMachineRowHint = "make sure the machine has an nvcc of the CUDA major torch was built with (CUDA_HOME or PATH) for the kernels to compile, or the package's prebuilt kernels for that CUDA where it publishes them"

// builtOnMachineBelowNVCC raises EG410 for each GPU that an extension
// compiled on the machine (DeepSpeed's ops) cannot get code for: torch's
// extension build refuses an nvcc of another CUDA major than torch's own
// (torch.utils.cpp_extension's CUDA version check; DeepSpeed's
// assert_no_cuda_mismatch, X2_DEEPSPEED), and the oldest compiler of that
// major targets nothing below its floor (CUDA 12.0: sm_50), so a K80 gets
// no code whatever nvcc 12.x the machine has (review eighteen F42). It
// reports whether some GPU is left undecided.
func (c *checker) builtOnMachineBelowNVCC(p *resolver.GPUPackage) bool {
	return c.belowTorchCUDAMajor(p, func(major, cu string, lo cc) string {
		return fmt.Sprintf("%s compiles its CUDA ops on the machine with an nvcc of torch's CUDA major (%s, from torch's CUDA %s build; its build refuses another major), and no CUDA %s compiler targets anything below %s, so they",
			pkgLabel(p), major, cu, major, lo.sm())
	})
}

// belowNVCCMin raises EG410 for each GPU that no build of the release can
// carry code for: its build refuses a CUDA toolkit older than the
// extension's nvcc_min (TransformerEngine from 1.10: 12.0), and no
// compiler of that major targets anything below its floor (CUDA 12: sm_50),
// so even a local build made on another machine has none for a K80
// (review thirty-nine F27: transformer-engine 2.2.0+c55e425). It reports
// whether some GPU is left undecided.
func (c *checker) belowNVCCMin(p *resolver.GPUPackage) bool {
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok || p.Version == "" {
		return true
	}
	cu := ext.NVCCMinOf(p.Version)
	if cu == "" {
		return true
	}
	lo, ok := c.toolkitFloor(cu)
	if !ok {
		return true
	}
	return c.failBelow(p, lo, func(gcc cc, gs []GPU) (string, string) {
		return fmt.Sprintf("every build of %s %s is made with CUDA %s or newer (its build refuses an older toolkit), and no CUDA %d compiler targets anything below %s, so %s carries no code for %s on %s",
				p.Name, p.Version, cu, majorOf(cu), lo.sm(), pkgLabel(p), gcc.sm(), gpuLabel(c.h, gs)),
			fmt.Sprintf("run on a GPU of compute capability %s or newer, or use a release of %s whose build accepts a CUDA toolkit that targets %s", lo.String(), p.Name, gcc.sm())
	})
}

// toolkitFloor is the lowest architecture a CUDA release's compiler emits
// SASS for (CUDA 12.0: sm_50), false where the knowledge base does not say.
func (c *checker) toolkitFloor(cuda string) (cc, bool) {
	ta, ok := c.k.ToolkitArch(cuda)
	if !ok {
		return cc{}, false
	}
	return parseCC(ta.MinSASS)
}

// condaBuildBelowNVCC raises EG410 for each GPU that a conda extension
// built against the environment's conda pytorch cannot have code for,
// whichever of its builds the solver takes: each build depends on the
// pytorch-cuda (or cudatoolkit) of the CUDA it was compiled with (the pyg
// channel's py312_torch_2.4.0_cu121 builds need pytorch-cuda 12.1), so it
// is a build of torch's CUDA, and no compiler of that major targets
// anything below its floor (review thirty-eight F18, F20: pytorch-cluster
// beside pytorch-cuda=12.1 on a K80). It reports whether some GPU is at
// or above the floor.
func (c *checker) condaBuildBelowNVCC(p *resolver.GPUPackage) bool {
	fw := c.st.Framework
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok || !ext.TorchABI || p.From != envspec.ProviderConda || fw == nil || fw.From != envspec.ProviderConda {
		return true
	}
	return c.belowTorchCUDAMajor(p, func(major, cu string, lo cc) string {
		return fmt.Sprintf("%s's conda builds for this pytorch are compiled with pytorch's CUDA %s (each build requires the pytorch-cuda or cudatoolkit it was built with), and no CUDA %s compiler targets anything below %s, so they",
			pkgLabel(p), cu, major, lo.sm())
	})
}

// belowTorchCUDAMajor raises EG410 at p for each GPU below the lowest
// architecture any compiler of torch's CUDA major targets, saying why p
// is compiled with that major in the words why gives (ending in the
// subject of "can carry no code"), and reports whether
// some GPU is at or above it (true too where it cannot tell).
func (c *checker) belowTorchCUDAMajor(p *resolver.GPUPackage, why func(major, cu string, lo cc) string) bool {
	fw := c.st.Framework
	cu := c.compilerCUDA()
	if fw == nil || fw.Name != "pytorch" || fw.Variant != "cuda" || !strings.Contains(cu, ".") || !c.h.Available || len(c.h.GPUs) == 0 {
		return true
	}
	major, _, _ := strings.Cut(cu, ".")
	lo, ok := c.toolkitFloor(major + ".0")
	if !ok {
		return true
	}
	return c.failBelow(p, lo, func(gcc cc, gs []GPU) (string, string) {
		return fmt.Sprintf("%s can carry no code for %s", why(major, cu, lo), gpuLabel(c.h, gs)),
			fmt.Sprintf("use a torch build for a CUDA whose compiler still targets %s, or run on a newer GPU", gcc.sm())
	})
}

// failBelow raises EG410 at p for each of the target's GPUs below lo, in
// the words say gives, and reports whether some GPU is at or above it.
func (c *checker) failBelow(p *resolver.GPUPackage, lo cc, say func(gcc cc, gs []GPU) (msg, hint string)) bool {
	rest := false
	c.eachCC(func(gcc cc, gs []GPU) {
		if !gcc.less(lo) {
			rest = true
			return
		}
		msg, hint := say(gcc, gs)
		c.add("EG410", c.pkgPos(p), msg, hint)
	})
	return rest
}

// unknownExtension is the cause and the hint of a GPU-code package whose
// code is not known: built on the machine (DeepSpeed's ops, a pip source
// build, a +commit local build), not installable as written (EG205), a
// local project's GPU extra, or a fact the knowledge base lacks or that no
// public source holds.
func (c *checker) unknownExtension(p *resolver.GPUPackage) (cause, hint string) {
	hint = c.unknownPkgHint(p)
	ext, ok := c.k.ExtensionByName(p.Name)
	switch {
	case ok && ext.BuiltOnMachine:
		return CauseMachine, hint
	case p.LocalProject:
		return CauseKB, "list the GPU packages the extra brings in this file, pinned, so that envguard checks them; or run envguard check on the machine after installing it, which reads the binaries"
	case p.LocalBuild:
		return CauseMachine, "run envguard check on the machine, which reads the binaries, or pin a published release"
	case p.SourceBuild:
		// pip compiles it with the install machine's toolkit and
		// architecture list, which no file states
		return CauseMachine, c.sourceHint(p)
	case ok && ext.ArchUnknown != "":
		return CauseNoSource, hint
	}
	return CauseKB, hint
}

// nvrtcBelowGPU judges a package that compiles most of its kernels at run
// time with its CUDA's NVRTC (CuPy) on a GPU that NVRTC cannot target. A
// release that caps the architecture it asks for at what NVRTC compiles
// gets PTX the driver JIT-compiles ("", false: the shipped PTX path
// decides); one that compares capabilities as strings asks for a
// three-digit one as it is, which fails (why, and the release that fixed
// it: cupy before 13.4.0 on an RTX 5090, review fourteen #23); a release
// not known to cap is open (why, ""). "" where the package does not
// compile at run time, its build's CUDA is not known, or that NVRTC
// targets the GPU.
func (c *checker) nvrtcBelowGPU(p *resolver.GPUPackage, gcc cc) (why string, verdict carries, fixedIn string) {
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok || !ext.NVRTC {
		return "", carriesYes, ""
	}
	cu := minorCUDA(p.BuiltFor.CUDA)
	major := ""
	if cu == "" {
		// A wheel for a CUDA major (cupy-cuda12x) uses the NVRTC of
		// whichever release of that major it finds: judge by the oldest,
		// and never call it failing, since a newer one may serve.
		if len(p.BuiltFor.CUDA) != 1 || strings.Contains(p.BuiltFor.CUDA[0], ".") {
			return "", carriesYes, ""
		}
		major = p.BuiltFor.CUDA[0]
		cu = major + ".0"
	}
	ta, ok := c.k.ToolkitArch(cu)
	if !ok {
		return "", carriesYes, ""
	}
	hi, ok := parseCC(ta.MaxPTX)
	if !ok || !hi.less(gcc) {
		return "", carriesYes, ""
	}
	compiles := fmt.Sprintf("it compiles most of its kernels at run time with the NVRTC of CUDA %s, which targets nothing above %s", cu, hi.compute())
	if major != "" {
		compiles = fmt.Sprintf("it compiles most of its kernels at run time with the NVRTC of the CUDA %s.x it finds, which release is not known, and that of CUDA %s targets nothing above %s", major, cu, hi.compute())
	}
	rel := p.Version
	switch {
	case rel == "" && c.everyReleaseClamps(ext, p, gcc, cu, hi):
		return "", carriesYes, "" // capped at what NVRTC compiles, whichever release
	case rel == "" && major == "" && gcc.Major >= 10 && c.everyReleaseStringCompares(ext, p, cu):
		// review thirty-seven F29 (corpus 003: cupy beside cudatoolkit
		// 10.1 on an RTX 5090)
		return compiles + fmt.Sprintf("; every release of %s conda-forge built for CUDA %s predates %s, and before %s it caps the architecture it asks for by comparing capabilities as strings, so for compute capability %d.%d it asks NVRTC for %s, which that NVRTC cannot compile",
			p.Name, cu, ext.NVRTCIntCompareFrom, ext.NVRTCIntCompareFrom, gcc.Major, gcc.Minor, gcc.compute()), carriesNo, ext.NVRTCIntCompareFrom
	case rel == "" || ext.NVRTCClampFrom == "" || compareVersions(rel, ext.NVRTCClampFrom) < 0:
		return compiles + "; whether this release asks NVRTC for an architecture it can compile, whose PTX the driver then JIT-compiles, is not known", carriesUnknown, ""
	case gcc.Major >= 10 && ext.NVRTCIntCompareFrom != "" && compareVersions(rel, ext.NVRTCIntCompareFrom) < 0 && major != "":
		return compiles + fmt.Sprintf("; before %s it caps the architecture it asks for by comparing capabilities as strings, so for compute capability %d.%d it asks NVRTC for %s, which only an NVRTC that targets it compiles", ext.NVRTCIntCompareFrom, gcc.Major, gcc.Minor, gcc.compute()), carriesUnknown, ""
	case gcc.Major >= 10 && ext.NVRTCIntCompareFrom != "" && compareVersions(rel, ext.NVRTCIntCompareFrom) < 0:
		// "120" < "75" as strings: the cap lets the GPU's own
		// architecture through, which that NVRTC cannot compile
		fixed := ext.NVRTCIntCompareFrom
		if c.nvrtcCubin(ext, fixed, cu) && hi.Major != gcc.Major {
			// the release that caps it compiles the capped architecture
			// to machine code, which does not run here either
			fixed = ""
		}
		return compiles + fmt.Sprintf("; before %s it caps the architecture it asks for by comparing capabilities as strings, so for compute capability %d.%d it asks NVRTC for %s, which that NVRTC cannot compile", ext.NVRTCIntCompareFrom, gcc.Major, gcc.Minor, gcc.compute()), carriesNo, fixed
	case c.nvrtcCubin(ext, rel, cu):
		// capped at what NVRTC compiles, and compiled to machine code for
		// that architecture, which runs only on its own major
		if hi.Major == gcc.Major {
			return "", carriesYes, ""
		}
		cubin := fmt.Sprintf("; from %s, built for CUDA %s or later, it compiles them to machine code (-arch=sm_XX) for the architecture it asks for, capped at what NVRTC targets", ext.NVRTCCubinFrom, ext.NVRTCCubinCUDA)
		if major != "" {
			return compiles + cubin + fmt.Sprintf(", so with an NVRTC that stops below %s it makes machine code for an architecture of major %d, which does not run on %s, and with a newer one code for %s itself: which it finds is not known", gcc.compute(), hi.Major, gcc.sm(), gcc.sm()), carriesUnknown, ""
		}
		return compiles + cubin + fmt.Sprintf(", so it makes machine code for an architecture of major %d, which does not run on %s (\"no kernel image is available\")", hi.Major, gcc.sm()), carriesNo, ""
	}
	return "", carriesYes, "" // capped at what NVRTC compiles: its PTX the driver JIT-compiles
}

// torchCUDALibHint puts first, for an extension whose wheel carries one
// library per CUDA release and loads the one of torch's CUDA (bitsandbytes:
// torch_cuda_lib), the CUDA releases whose library of the same release has
// SASS for gcc and which the target's driver runs: a torch build for one of
// them fixes it without another release of the extension (review
// twenty-one F27: bitsandbytes 0.45.5 beside a cu124 torch on an RTX 5090,
// whose CUDA 12.8 library carries sm_120). Otherwise it returns fallback.
func (c *checker) torchCUDALibHint(p *resolver.GPUPackage, gcc cc, fallback string) string {
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok || !ext.TorchCUDALib || p.Version == "" {
		return fallback
	}
	var cudas []string
	for _, b := range c.k.ExtensionReleases(p.Name) {
		if b.Version != p.Version || !b.ArchKnown {
			continue
		}
		if v, _ := archVerdict(gcc, &kb.ArchList{SASS: b.SASS, PTX: b.PTX, Known: true}); v != runsSASS {
			continue
		}
		for _, cu := range b.CUDA {
			if c.driverCUDA != "" && compareVersions(cu, c.driverCUDA) > 0 {
				continue // the driver does not run a torch of that CUDA
			}
			if !slices.Contains(cudas, cu) && !slices.Contains(p.BuiltFor.CUDA, cu) {
				cudas = append(cudas, cu)
			}
		}
	}
	if len(cudas) == 0 {
		return fallback
	}
	return fmt.Sprintf("%s %s loads the library built for torch's CUDA (torch.version.cuda), and its library for CUDA %s has SASS for %s: use a torch build for that CUDA, or %s",
		p.Name, p.Version, strings.Join(cudas, " or "), gcc.sm(), strings.TrimPrefix(fallback, "use "))
}

// everyReleaseClamps says, for an NVRTC package whose release the file
// leaves open, whether every release its distribution ever published
// (conda_forge_releases for a conda package, index_releases for a wheel)
// caps the architecture it asks NVRTC for and compiles it to PTX on gcc:
// the oldest is at or after nvrtc_clamp_from, none compares capabilities
// as strings on a GPU of major 10 or later, and none compiles machine
// code of another major (review twenty-two F22: conda-forge's cupy, whose
// oldest release is 6.4.0, beside CUDA 10.1 on an H100).
func (c *checker) everyReleaseClamps(ext *kb.Extension, p *resolver.GPUPackage, gcc cc, cu string, hi cc) bool {
	rels := ext.IndexReleases
	if p.From == envspec.ProviderConda {
		rels = ext.CondaForgeReleases
	}
	if len(rels) == 0 || ext.NVRTCClampFrom == "" {
		return false
	}
	oldest, newest := releaseSpan(rels)
	switch {
	case compareVersions(oldest, ext.NVRTCClampFrom) < 0:
		return false
	case gcc.Major >= 10 && ext.NVRTCIntCompareFrom != "" && compareVersions(oldest, ext.NVRTCIntCompareFrom) < 0:
		return false
	case c.nvrtcCubin(ext, newest, cu) && hi.Major != gcc.Major:
		return false
	}
	return true
}

// everyReleaseStringCompares reports whether every conda-forge release of
// the package with a build for CUDA cu both caps the architecture it asks
// NVRTC for (NVRTCClampFrom or later) and compares capabilities as strings
// (before NVRTCIntCompareFrom): every release conda-forge published is at
// or after the clamp, the rows are whole from a release no later than the
// integer compare, and no row from the integer compare on has a build for
// cu (cupy 13.4.0 and later are built for CUDA 11.2 or newer).
func (c *checker) everyReleaseStringCompares(ext *kb.Extension, p *resolver.GPUPackage, cu string) bool {
	if p.From != envspec.ProviderConda || ext.NVRTCClampFrom == "" || ext.NVRTCIntCompareFrom == "" || ext.CondaForgeCompleteFrom == "" || len(ext.CondaForgeReleases) == 0 {
		return false
	}
	if oldest, _ := releaseSpan(ext.CondaForgeReleases); compareVersions(oldest, ext.NVRTCClampFrom) < 0 {
		return false
	}
	if compareVersions(ext.CondaForgeCompleteFrom, ext.NVRTCIntCompareFrom) > 0 {
		return false
	}
	for _, b := range c.k.ExtensionReleases(p.Name) {
		if b.Dist == "conda-forge" && compareVersions(b.Version, ext.NVRTCIntCompareFrom) >= 0 && slices.Contains(b.CUDA, cu) {
			return false
		}
	}
	return true
}

// releaseSpan is the oldest and the newest of a non-empty list of releases.
func releaseSpan(rels []string) (oldest, newest string) {
	oldest, newest = rels[0], rels[0]
	for _, r := range rels {
		if compareVersions(r, oldest) < 0 {
			oldest = r
		}
		if compareVersions(r, newest) > 0 {
			newest = r
		}
	}
	return oldest, newest
}

// dispatchFence is where a pinned extension release's own kernels stop,
// where every row of the release says so (dispatch_below_cc: xformers
// 0.0.17 … 0.0.28.post3 pick their memory-efficient attention kernels from
// tables that end below 9.0 or 10.0).
func (c *checker) dispatchFence(p *resolver.GPUPackage) (cc, bool) {
	if p.Version == "" {
		return cc{}, false
	}
	fence := ""
	for _, b := range c.k.ExtensionReleases(p.Name) {
		if b.Version != p.Version {
			continue
		}
		if b.DispatchBelowCC == "" || (fence != "" && b.DispatchBelowCC != fence) {
			return cc{}, false
		}
		fence = b.DispatchBelowCC
	}
	return parseCC(fence)
}

// fencedBelow says whether a release row's own kernels stop below gcc.
func fencedBelow(b kb.ExtensionBuild, gcc cc) bool {
	f, ok := parseCC(b.DispatchBelowCC)
	return ok && !gcc.less(f)
}

// nvrtcCubin says whether a release of an NVRTC package built for CUDA cu
// compiles its kernels to machine code rather than PTX (CuPy's
// _get_arch_for_options_for_nvrtc: from 9.6.0, for a build for CUDA 11.1
// or later; 9.4.0 and 9.5.x did so only below NVRTC's newest architecture).
func (c *checker) nvrtcCubin(ext *kb.Extension, rel, cu string) bool {
	if ext.NVRTCCubinFrom == "" || rel == "" || compareVersions(rel, ext.NVRTCCubinFrom) < 0 {
		return false
	}
	return ext.NVRTCCubinCUDA == "" || compareVersions(cu, ext.NVRTCCubinCUDA) >= 0
}

// extensionPTXOnly raises EG408 at an extension that has no SASS for a
// GPU but carries PTX the driver JIT-compiles for it (onnxruntime-gpu
// 1.20.0's compute_80 on an H100), and, where the environment has no
// framework, marks the GPU as reached through PTX, so that the CUDA
// libraries the extension loads must be known to carry code for it.
func (c *checker) extensionPTXOnly(p *resolver.GPUPackage, list *kb.ArchList, by cc, gcc cc, gs []GPU) {
	c.add("EG408", c.pkgPos(p),
		fmt.Sprintf("%s (%s) has no SASS for %s or a lower %d.x, but carries %s PTX, which the driver JIT-compiles at first use on %s: its own kernels run, with a slow first start and without kernels built for that architecture; CUDA libraries it links statically are not judged (no knowledge-base row reads them)",
			pkgLabel(p), archSummary(list), gcc.sm(), gcc.Major, by.compute(), gpuLabel(c.h, gs)),
		c.torchCUDALibHint(p, gcc, fmt.Sprintf("use a release of %s with SASS for %s, or run on a GPU its SASS covers", p.Name, gcc.sm())))
	if c.st.Framework != nil {
		// the framework's own verdict decides its libraries; a conda
		// extension built for another CUDA (a conda cudatoolkit pin beside
		// a pip torch) links that CUDA's, which nothing else holds
		if ext, ok := c.k.ExtensionByName(p.Name); ok && len(ext.ToolkitLibs) > 0 && p.From == envspec.ProviderConda {
			if cu := minorCUDA(p.BuiltFor.CUDA); cu != "" && cu != resolver.SeriesOf(c.runtime()) {
				c.linkedLibs(p, ext.ToolkitLibs, []string{cu}, false, gcc, gs)
			}
		}
		return
	}
	if c.extPTX == nil {
		c.extPTX = map[string]string{}
	}
	if _, seen := c.extPTX[gcc.key()]; !seen {
		c.extPTX[gcc.key()] = pkgLabel(p)
	}
}

// judgeSupportedCC holds an extension release its vendor describes by the
// GPUs it supports (p.Code.SupportedCC, TensorRT's support matrix) against
// one compute capability at or above its floor: a listed one runs it; any
// other is left undecided, for the reason the knowledge base gives.
func (c *checker) judgeSupportedCC(p *resolver.GPUPackage, gcc cc, gs []GPU) {
	for _, s := range p.Code.SupportedCC {
		if l, ok := parseCC(s); ok && l.Major == gcc.Major && l.Minor == gcc.Minor {
			return
		}
	}
	why := fmt.Sprintf("the sources read list compute capability %s as supported without condition; of %s (%s) they say: %s",
		strings.Join(p.Code.SupportedCC, ", "), gcc.key(), gpuLabel(c.h, gs), p.Code.UnlistedCC)
	// the condition is the row's: the hint points at it rather than at
	// another GPU (review fifteen #1220: TensorRT 10.8 supports the RTX
	// 5090 with a CUDA 12.8 runtime, which the file can pin)
	cause := CauseKB
	if ext, ok := c.k.ExtensionByName(p.Name); ok && ext.ArchUnknown != "" {
		// its build flags are not public (libcumlprims 23.08): beyond the
		// GPUs its vendor names, no public source decides it
		cause = CauseNoSource
	}
	c.undecideFor(c.pkgPos(p), cause, "architecture", "extension-cc-unlisted", pkgLabel(p), why,
		fmt.Sprintf("meet the condition above for %s where there is one (pin what it names in this file), or run envguard check on the machine, which reads the binaries", gcc.sm()))
}

// judgeOwnRuntimeDriver holds the driver against the CUDA runtime of an
// extension that brings its own, of another major than the environment's
// (TensorRT's tensorrt-cu12 beside a CUDA 11.8 conda stack: EG302): the
// driver check of the environment's runtime says nothing of it. A driver
// of an older CUDA major runs none of it (EG401); one of the same major at
// or above the major's minor-version-compatibility floor runs it, through
// that compatibility where pip's runtime is newer (EG402); anything else
// is left undecided. Only for packages the knowledge base describes by the
// GPUs they support (SupportedCC), whose GPU check otherwise decides them.
func (c *checker) judgeOwnRuntimeDriver(p *resolver.GPUPackage) {
	m := 0
	for _, cu := range p.BuiltFor.CUDA {
		n := majorOf(cu)
		if n <= 0 || (m != 0 && n != m) {
			m = -1
			break
		}
		m = n
	}
	if m == 0 {
		return // no CUDA of its own named: the environment's runtime is its
	}
	if rt := c.runtime(); m > 0 && rt != "" && majorOf(rt) == m {
		return // the environment's runtime, which EG401 judged
	}
	if rm := c.runtimeMajor(); m > 0 && rm == m {
		return
	}
	driverCUDA := c.hostDriverCUDA()
	what := fmt.Sprintf("%s is a CUDA %d build with a CUDA %d runtime of its own", pkgLabel(p), m, m)
	if m < 0 || driverCUDA == "" {
		why := "the CUDA major of its build is not known, so whether the driver runs its CUDA runtime is not known"
		if m > 0 {
			why = what + ", and the CUDA version the driver supports is not known, so whether it runs that runtime is not known"
		}
		c.undecide(c.pkgPos(p), "driver", "extension-runtime-driver", pkgLabel(p), why,
			"name the target's driver version (driver: \"550.54.15\"), or run envguard check on the machine")
		return
	}
	dm := majorOf(driverCUDA)
	switch {
	case dm > m:
		return
	case dm < m:
		c.add("EG401", c.pkgPos(p),
			fmt.Sprintf("%s supports CUDA %s; %s, which does not run on a CUDA %d driver", c.driverLabel(), driverCUDA, what, dm),
			c.driverBelowMajorHint(m, p.Name, func(string) string { return "run on a newer GPU" }))
		return
	}
	if !c.reachesCompatFloor(m, driverCUDA) {
		c.undecide(c.pkgPos(p), "driver", "extension-runtime-driver", pkgLabel(p),
			fmt.Sprintf("%s, and whether the driver (CUDA %s) reaches CUDA %d's minor-version-compatibility floor is not known", what, driverCUDA, m),
			"run envguard check on the machine")
		return
	}
	if newest := c.k.NewestCUDAOfMajor(m); newest != "" && compareVersions(driverCUDA, newest) >= 0 {
		return
	}
	c.add("EG402", c.pkgPos(p),
		fmt.Sprintf("%s supports CUDA %s; %s, whichever %d.x pip installs: one newer than %s runs only through minor-version compatibility (PTX JIT and newer APIs fail)", c.driverLabel(), driverCUDA, what, m, driverCUDA),
		fmt.Sprintf("upgrade the driver to the newest for CUDA %d, or pin the runtime wheel (nvidia-cuda-runtime-cu%d==%s.*)", m, m, driverCUDA))
}

// machineLibsHint is the hint for a wheel that loads its CUDA libraries
// from the machine: install them with it, through its [ctk] extra where
// the release declares one (CuPy from 14.0.0).
func (c *checker) machineLibsHint(p *resolver.GPUPackage) string {
	with := "NVIDIA's CUDA library wheels of that major, or conda's cuda-toolkit of that major"
	if ext, ok := c.k.ExtensionByName(p.Name); ok && ext.CTKExtraFrom != "" {
		switch {
		case p.Version != "" && compareVersions(p.Version, ext.CTKExtraFrom) >= 0:
			with = "the wheel's [ctk] extra, or conda's cuda-toolkit of that major"
		default:
			with = fmt.Sprintf("%s %s or later with its [ctk] extra, NVIDIA's CUDA library wheels of that major, or conda's cuda-toolkit of that major", p.Name, ext.CTKExtraFrom)
		}
	}
	return "install the CUDA libraries of its major with it (" + with + "), or run envguard check on the machine"
}

// machineRuntimeBelowDriver decides a wheel that loads the CUDA libraries
// of its major from the machine (cupy-cuda12x without [ctk]) on a driver
// of an older CUDA major: whichever CUDA 12.x the machine has, its runtime
// does not run on a CUDA 11 driver, so it fails there (EG401) and the
// machine has nothing left to decide (review twenty-two F29: cupy-cuda12x
// on a K80, whose last driver branch runs CUDA 11.4). It says whether the
// driver is below the wheel's major, raising the finding unless the
// environment's own runtime of that major already has it.
func (c *checker) machineRuntimeBelowDriver(p *resolver.GPUPackage) bool {
	if len(p.BuiltFor.CUDA) != 1 {
		return false
	}
	m, driverCUDA := majorOf(p.BuiltFor.CUDA[0]), c.hostDriverCUDA()
	if m <= 0 || driverCUDA == "" || majorOf(driverCUDA) >= m {
		return false
	}
	if rt := c.runtime(); (rt != "" && majorOf(rt) == m) || c.runtimeMajor() == m {
		return true // the environment's CUDA m runtime, which EG401 judged
	}
	c.add("EG401", c.pkgPos(p),
		fmt.Sprintf("%s supports CUDA %s; %s is a CUDA %d build that loads the CUDA %d runtime and libraries it finds on the machine, and no CUDA %d runtime runs on a CUDA %d driver", c.driverLabel(), driverCUDA, pkgLabel(p), m, m, m, majorOf(driverCUDA)),
		c.driverBelowMajorHint(m, p.Name, func(last string) string { return "use a build for CUDA " + last + " or older, or run on a newer GPU" }))
	return true
}

// driverBelowMajorHint is the hint for a package of CUDA major m on a
// driver of an older major: the driver floor for that major, or, on a GPU
// whose last driver branch runs no CUDA m runtime at all, that and the
// way out instead (given the newest CUDA that branch runs).
func (c *checker) driverBelowMajorHint(m int, name string, way func(last string) string) string {
	if lim, ok := c.retired(); ok && majorOf(lim.cuda) < m {
		return fmt.Sprintf("the %s runs no driver after R%d, which runs CUDA %s at most, so no CUDA %d build of %s runs on it: %s", lim.gpu.Name, lim.arch.LastBranch, lim.cuda, m, name, way(lim.cuda))
	}
	if f, ok := c.k.MinorCompatFloor(m); ok && f.LinuxFloor != "" && f.LinuxFloor != "unknown" {
		return fmt.Sprintf("upgrade the driver to %s or newer, the floor at which a CUDA %d.x runtime runs (minor-version compatibility)", f.LinuxFloor, m)
	}
	return fmt.Sprintf("upgrade the driver to one for CUDA %d.0 or newer", m)
}

// judgeMachineLibs holds an extension release that loads the library of
// the CUDA runtime its setup finds on the machine (p.CUDAFromMachine)
// against one compute capability: every library its wheel carries may be
// the one, so it fails (EG410) only where none of them has SASS or PTX
// for the GPU, and is left unknown otherwise, even where all of them do
// (whether the wheel has a library for the machine's runtime at all is
// decided there).
func (c *checker) judgeMachineLibs(p *resolver.GPUPackage, gcc cc, gs []GPU) {
	builds := p.Builds
	if len(builds) == 0 {
		builds = []resolver.BuildCode{{Label: "every CUDA", Code: p.Code}}
	}
	var runs, fails []string
	for _, b := range builds {
		list := &kb.ArchList{SASS: b.Code.SASS, PTX: b.Code.PTX, Known: true}
		if v, _ := archVerdict(gcc, list); v == runsNone {
			fails = append(fails, b.Label+" ("+archSummary(list)+")")
		} else {
			runs = append(runs, b.Label)
		}
	}
	if len(runs) == 0 {
		c.add("EG410", c.pkgPos(p),
			fmt.Sprintf("%s can run no code on %s whichever of its libraries loads: %s, and none of them has SASS for %s or a lower %d.x, or PTX at or below compute_%d%d (its libraries for %s) (\"no kernel image is available for execution on the device\")",
				pkgLabel(p), gpuLabel(c.h, gs), p.CUDAFromMachine, gcc.sm(), gcc.Major, gcc.Major, gcc.Minor, strings.Join(fails, ", ")),
			c.otherReleaseHint(p, gcc))
		return
	}
	why := fmt.Sprintf("%s; every library its wheel carries has code for %s (%s), but which one loads, and whether the wheel has one for the machine's CUDA runtime, is decided on the machine", p.CUDAFromMachine, gcc.sm(), gpuLabel(c.h, gs))
	if len(fails) > 0 {
		why = fmt.Sprintf("%s; of the libraries its wheel carries, those for %s have no code for %s (%s) while those for %s do, so whether it runs depends on the machine's CUDA runtime", p.CUDAFromMachine, strings.Join(fails, ", "), gcc.sm(), gpuLabel(c.h, gs), strings.Join(runs, ", "))
	}
	c.undecide(c.pkgPos(p), "architecture", "extension-lib-from-machine", pkgLabel(p), why,
		"run envguard check on the machine, which reads the binaries, or run python -m bitsandbytes there, which names the library it loads")
}

// anyReleaseHint is the hint where no release the knowledge base knows is
// proposed: it asks for a release built for the GPU only where one could
// exist. Where every release known is built with a CUDA whose compiler
// targets nothing as old as the GPU (sgl-kernel's CUDA 12 wheels on a
// K80, review thirteen #724), no release of it can be: it says so.
func (c *checker) anyReleaseHint(p *resolver.GPUPackage, gcc cc) string {
	if h := c.channelBuildHint(p, gcc); h != "" {
		return h
	}
	if h := c.noKnownBuildHint(p, gcc); h != "" {
		return h
	}
	if cu := minorCUDA(p.BuiltFor.CUDA); cu != "" && strings.Contains(p.Name, "cuda"+cu) {
		// The name fixes the CUDA (dgl-cuda10.1): every release of it is
		// a build for that CUDA, whose compiler may stop below the GPU
		// (review nineteen F37).
		if ta, ok := c.k.ToolkitArch(cu); ok {
			if hi, ok := parseCC(ta.MaxSASS); ok && hi.Major < gcc.Major {
				return fmt.Sprintf("no release of %s can carry machine code for %s: each is a build for CUDA %s, whose compiler targets nothing above %s; use a build of the project for a CUDA whose compiler targets %s, or run on a GPU its code serves", p.Name, gcc.sm(), cu, hi.sm(), gcc.sm())
			}
		}
	}
	cudas := map[string]bool{}
	for _, b := range c.k.ExtensionReleases(p.Name) {
		for _, cu := range b.CUDA {
			cudas[cu] = true
		}
	}
	for _, cu := range p.BuiltFor.CUDA {
		cudas[cu] = true
	}
	var lows []string
	for cu := range cudas {
		ta, ok := c.k.ToolkitArch(cu)
		if !ok {
			return fmt.Sprintf("use a release of %s built for %s", p.Name, gcc.sm())
		}
		lo, okLo := parseCC(ta.MinSASS)
		if !okLo || !gcc.less(lo) {
			return fmt.Sprintf("use a release of %s built for %s", p.Name, gcc.sm())
		}
		lows = append(lows, "CUDA "+cu+" (nothing below "+lo.sm()+")")
	}
	if len(lows) == 0 {
		return fmt.Sprintf("use a release of %s built for %s", p.Name, gcc.sm())
	}
	sort.Strings(lows)
	return fmt.Sprintf("no release of %s can carry code for %s: the ones envguard knows are built with %s, whose compilers target no GPU that old; run it on a GPU it supports, or leave it out on this machine", p.Name, gcc.sm(), strings.Join(lows, ", "))
}

// channelBuildHint names, for a package whose builds one channel workflow
// made (the pyg channel's), the CUDA releases whose builds carry code for
// the GPU (review fifty F12, corpus 057: the CUDA 10.2 … 11.8 builds' sm_35
// SASS runs on a K80, the CUDA 12 builds' does not); "" where none does or
// the package is not such.
func (c *checker) channelBuildHint(p *resolver.GPUPackage, gcc cc) string {
	if p.ChannelBuilt == "" {
		return ""
	}
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok {
		return ""
	}
	var spans []string
	for _, row := range c.k.ChannelBuildCodeOf(ext.Name, p.ChannelBuilt) {
		list := &kb.ArchList{SASS: row.SASS, PTX: row.PTX, Known: true}
		if v, _ := archVerdict(gcc, list); v == runsNone {
			continue
		}
		span := "CUDA " + row.CUDAFrom + " and later"
		if row.CUDABelow != "" {
			span = "CUDA " + row.CUDAFrom + " to below " + row.CUDABelow
		}
		spans = append(spans, span+" ("+archSummary(list)+")")
	}
	if len(spans) == 0 {
		return ""
	}
	return fmt.Sprintf("the %s channel's builds of %s for %s carry code for %s: take one beside a framework build for one of those CUDA releases (its CUDA pin picks the build), with a driver the target runs it on", p.ChannelBuilt, p.Name, strings.Join(spans, "; "), gcc.sm())
}

// noKnownBuildHint says, where every release the knowledge base knows of
// an extension has a build for the package's CUDA and none of those
// builds carries code for the GPU, that no release known serves it there
// (bitsandbytes' CUDA 11.8 libraries never had Kepler code, review
// fourteen #359); "" where the package's CUDA is not known or some build
// serves the GPU.
func (c *checker) noKnownBuildHint(p *resolver.GPUPackage, gcc cc) string {
	cu := minorCUDA(p.BuiltFor.CUDA)
	if cu == "" {
		return ""
	}
	var vers []string
	for _, b := range c.k.ExtensionReleases(p.Name) {
		if !b.ArchKnown || !slices.Contains(b.CUDA, cu) {
			continue
		}
		if v, _ := archVerdict(gcc, &kb.ArchList{SASS: b.SASS, PTX: b.PTX, Known: true}); v != runsNone {
			return ""
		}
		if !slices.Contains(vers, b.Version) {
			vers = append(vers, b.Version)
		}
	}
	if len(vers) < 2 {
		return "" // the release itself alone says nothing of the others
	}
	sort.Slice(vers, func(i, j int) bool { return compareVersions(vers[i], vers[j]) < 0 })
	head := fmt.Sprintf("no release of %s envguard knows has a CUDA %s build with code for %s (%s … %s read)", p.Name, cu, gcc.sm(), vers[0], vers[len(vers)-1])
	if up := c.firstServingBuild(p, gcc); up != "" {
		// a later release built for another CUDA serves it (review
		// forty-seven F37: onnxruntime-gpu 1.9.0's compute_80 PTX)
		return head + "; " + up + ", or run it on a GPU those builds support"
	}
	return head + ": run it on a GPU those builds support"
}

// firstServingBuild names the oldest release newer than the package's
// whose known build, for any CUDA, carries code for the GPU, and how
// ("" where none does): the upgrade a build for the package's own CUDA
// cannot offer.
func (c *checker) firstServingBuild(p *resolver.GPUPackage, gcc cc) string {
	var best *kb.ExtensionBuild
	var how archRun
	for _, b := range c.k.ExtensionReleases(p.Name) {
		if !b.ArchKnown || (p.From != "" && resolver.CondaBuildDist(b.Dist) != (p.From == envspec.ProviderConda)) || (p.Version != "" && compareVersions(b.Version, p.Version) <= 0) {
			continue
		}
		v, _ := archVerdict(gcc, &kb.ArchList{SASS: b.SASS, PTX: b.PTX, Known: true})
		if v == runsNone {
			continue
		}
		if best == nil || compareVersions(b.Version, best.Version) < 0 {
			b := b
			best, how = &b, v
		}
	}
	if best == nil {
		return ""
	}
	through := "with SASS for " + gcc.sm()
	if how == runsPTX {
		through = "through PTX the driver JIT-compiles for " + gcc.sm()
	}
	return fmt.Sprintf("%s %s, a build for CUDA %s, is the oldest later release whose own kernels reach it (%s): move to it or a newer one, with the CUDA and cuDNN that build needs, whose libraries envguard judges once it is pinned", p.Name, best.Version, strings.Join(best.CUDA, ", "), through)
}

// otherReleaseHint is the hint of an extension release with no code for
// a GPU: the releases the knowledge base knows to carry code for it
// (SASS or PTX in some build) and whose torch requirement admits the
// environment's torch, or, where none does, that no release envguard
// knows supports both.
func (c *checker) otherReleaseHint(p *resolver.GPUPackage, gcc cc) string {
	torch := c.fileTorch()
	if ext, ok := c.k.ExtensionByName(p.Name); !ok || ext.Framework != "torch" || torch == "" || !c.statesTorchRequires(p.Name) {
		// Only where a release's torch requirement is known does the
		// hint name releases: elsewhere it cannot say one installs beside
		// the file's framework.
		return c.anyReleaseHint(p, gcc)
	}
	byDist := map[string][]string{}
	var dists, excluded []string
	rows := c.k.ExtensionReleases(p.Name)
	for _, b := range rows {
		if b.Version == p.Version || !b.ArchKnown || c.floorAboveSomeGPU(b.MinCC) {
			continue
		}
		if v, _ := archVerdict(gcc, &kb.ArchList{SASS: b.SASS, PTX: b.PTX, Known: true}); v == runsNone || fencedBelow(b, gcc) {
			continue
		}
		if b.CUDAFromMachine && someRowLacks(rows, b.Version, b.Dist, gcc) {
			// Which of its libraries loads is the machine's choice: it is
			// proposed only where every one carries code for the GPU.
			continue
		}
		if torch != "" {
			if ok, known := b.AdmitsTorch(torch); known && !ok {
				if e := b.Version + " requires torch" + b.TorchRequires; !slices.Contains(excluded, e) {
					excluded = append(excluded, e)
				}
				continue
			}
		}
		if _, seen := byDist[b.Dist]; !seen {
			dists = append(dists, b.Dist)
		}
		if !slices.Contains(byDist[b.Dist], b.Version) {
			byDist[b.Dist] = append(byDist[b.Dist], b.Version)
		}
	}
	if len(dists) == 0 {
		if len(excluded) > 0 {
			sort.Slice(excluded, func(i, j int) bool { return compareVersions(excluded[i], excluded[j]) < 0 })
			return fmt.Sprintf("no release of %s envguard knows supports both torch %s and %s (%s): run on a GPU that %s supports, or move to a torch those releases admit", p.Name, torch, gcc.sm(), strings.Join(excluded, "; "), pkgLabel(p))
		}
		return c.anyReleaseHint(p, gcc)
	}
	sort.Strings(dists)
	var parts []string
	for _, d := range dists {
		vs := byDist[d]
		sort.Slice(vs, func(i, j int) bool { return compareVersions(vs[i], vs[j]) < 0 })
		parts = append(parts, d+": "+strings.Join(vs, ", "))
	}
	return fmt.Sprintf("use a release of %s built for %s whose requirements admit torch %s (envguard knows %s with code for it)", p.Name, gcc.sm(), torch, strings.Join(parts, "; "))
}

// statesTorchRequires reports whether some row of an extension states the
// torch requirement of its release.
func (c *checker) statesTorchRequires(name string) bool {
	for _, b := range c.k.ExtensionReleases(name) {
		if b.TorchRequires != "" {
			return true
		}
	}
	return false
}

// someRowLacks reports whether a row of one release and distribution
// has no SASS or PTX for a compute capability.
func someRowLacks(rows []kb.ExtensionBuild, version, dist string, gcc cc) bool {
	for _, b := range rows {
		if b.Version != version || b.Dist != dist {
			continue
		}
		if v, _ := archVerdict(gcc, &kb.ArchList{SASS: b.SASS, PTX: b.PTX, Known: true}); !b.ArchKnown || v == runsNone {
			return true
		}
	}
	return false
}

// fileTorch is the torch release the environment fixes ("1.13.1"), ""
// where it has no torch or leaves the release open.
func (c *checker) fileTorch() string {
	fw := c.st.Framework
	if fw == nil || fw.Name != "pytorch" || fw.Version == "" {
		return ""
	}
	v, _, _ := strings.Cut(fw.Version, "+")
	return v
}

// judgeBuilds holds each build an extension may be (p.Builds: the builds
// of every release an open conda-forge spec admits, or of one release made
// with two nvcc releases) against one compute capability: it runs where
// every build has SASS or PTX for it, fails (EG410) where none has, and is
// left unknown, naming the builds of each kind, where they differ.
func (c *checker) judgeBuilds(p *resolver.GPUPackage, gcc cc, gs []GPU) {
	var runs, fails, open, nvrtcFails []string
	ptxBy := ""
	for _, b := range p.Builds {
		list := &kb.ArchList{SASS: b.Code.SASS, PTX: b.Code.PTX, Known: true}
		v, by := archVerdict(gcc, list)
		if v == runsPTX || v == runsSASS {
			// A package that compiles its kernels with NVRTC at run
			// time is decided, beside its shipped code, by each
			// release's cap and the code it asks NVRTC for.
			switch verdict, why := c.nvrtcSpan(p, b, gcc); verdict {
			case carriesNo:
				// its shipped code would serve: NVRTC is why it fails
				// (review forty-nine F11, corpus 073)
				nvrtcFails = append(nvrtcFails, b.Label+" ("+archSummary(list)+": "+why+")")
				continue
			case carriesUnknown:
				open = append(open, b.Label+" ("+why+")")
				continue
			}
		}
		if v == runsNone {
			fails = append(fails, b.Label+" ("+archSummary(list)+")")
			continue
		}
		runs = append(runs, b.Label)
		if v == runsPTX && ptxBy == "" {
			ptxBy = b.Label + ": " + by.compute()
		}
	}
	switch {
	case len(open) > 0:
		why := fmt.Sprintf("on %s (%s) %s reach it only through PTX, so whether they run is not known", gcc.sm(), gpuLabel(c.h, gs), strings.Join(open, "; "))
		if len(fails) > 0 {
			why += "; " + strings.Join(fails, ", ") + " carry no code for it"
		}
		if len(nvrtcFails) > 0 {
			why += "; the run-time compiled kernels of " + strings.Join(nvrtcFails, ", ") + " fail"
		}
		c.undecide(c.pkgPos(p), "architecture", "nvrtc-target-unknown", pkgLabel(p), why,
			fmt.Sprintf("pin a release of %s with SASS for %s, or run envguard check on the machine", p.Name, gcc.sm()))
	case len(fails) == 0 && len(nvrtcFails) == 0:
		if ptxBy != "" && c.st.Framework == nil {
			// Its own kernels run through PTX: the libraries it loads
			// must then be known to carry code for the GPU.
			if c.extPTX == nil {
				c.extPTX = map[string]string{}
			}
			if _, seen := c.extPTX[gcc.key()]; !seen {
				c.extPTX[gcc.key()] = pkgLabel(p)
			}
		}
	case len(runs) == 0:
		var parts []string
		if len(fails) > 0 {
			parts = append(parts, fmt.Sprintf("no SASS for %s or a lower %d.x, and no PTX at or below compute_%d%d, in %s (\"no kernel image is available for execution on the device\")",
				gcc.sm(), gcc.Major, gcc.Major, gcc.Minor, strings.Join(fails, ", ")))
		}
		if len(nvrtcFails) > 0 {
			parts = append(parts, "its run-time compiled kernels fail in "+strings.Join(nvrtcFails, ", "))
		}
		c.add("EG410", c.pkgPos(p),
			fmt.Sprintf("%s can run no code on %s whichever build the solver installs: %s", pkgLabel(p), gpuLabel(c.h, gs), strings.Join(parts, "; ")),
			fmt.Sprintf("use a release of %s built for %s", p.Name, gcc.sm()))
	default:
		fails = append(fails, nvrtcFails...)
		c.undecide(c.pkgPos(p), "architecture", "extension-builds-differ", pkgLabel(p),
			fmt.Sprintf("the builds the file admits differ on %s (%s): %s carry no code for it, while %s do", gcc.sm(), gpuLabel(c.h, gs), strings.Join(fails, ", "), strings.Join(runs, ", ")),
			fmt.Sprintf("pin a build of %s that carries %s (%s): a CUDA pin in the file (cuda-version, cudatoolkit, or pytorch-cuda beside a pytorch-channel torch) picks the build for that CUDA, and a build string's last number is the build number", p.Name, gcc.sm(), strings.Join(runs, ", ")))
	}
}

// nvrtcSpan judges, for a build of an NVRTC package that reaches gcc only
// through PTX, the span of releases it stands for: carriesYes where every
// one caps what it asks NVRTC for (its PTX path decides), carriesNo where
// every one asks for what its NVRTC cannot compile, carriesUnknown
// otherwise.
func (c *checker) nvrtcSpan(p *resolver.GPUPackage, b resolver.BuildCode, gcc cc) (carries, string) {
	verdict := func(rel string) (carries, string) {
		one := *p
		one.Version = rel
		why, verdict, _ := c.nvrtcBelowGPU(&one, gcc)
		return verdict, why
	}
	first, why := verdict(b.From)
	if b.From == "" {
		return first, why
	}
	last, lastWhy := verdict(b.Through)
	if last != first {
		if why == "" {
			why = lastWhy
		}
		return carriesUnknown, why + " (for some of these releases)"
	}
	if lastWhy != "" && lastWhy != why {
		// the same outcome for another reason (cupy 13.4.0 on caps the
		// architecture, and its cubin for the cap does not run)
		why += "; and " + b.Through + ": " + lastWhy
	}
	return first, why
}

// belowEveryRelease raises EG410 for each GPU below a compute-capability
// floor the project keeps in every release (floor_every_release): whatever
// release the file gets, and whether or not the knowledge base describes
// it, none runs there. It reports whether some GPU is left undecided: one
// at or above the floor, or every GPU where no such floor is stated.
func (c *checker) belowEveryRelease(p *resolver.GPUPackage) bool {
	if p.Role != resolver.RoleExtension || !c.h.Available || len(c.h.GPUs) == 0 {
		return true
	}
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok || !ext.FloorEveryRelease || (p.Code.Known && p.Code.NoDeviceCode) {
		return true
	}
	lo, ok := parseCC(ext.MinCC)
	if !ok {
		return true
	}
	return c.failBelow(p, lo, func(gcc cc, gs []GPU) (string, string) {
		return floorEveryReleaseText(p, ext.MinCC, gcc, gpuLabel(c.h, gs))
	})
}

// floorEveryReleaseText is EG410's message and hint for a GPU below a floor
// every release of the package keeps.
func floorEveryReleaseText(p *resolver.GPUPackage, floor string, gcc cc, gpu string) (msg, hint string) {
	return fmt.Sprintf("%s needs compute capability %s or newer, as every release of %s does, and cannot run on %s", pkgLabel(p), floor, p.Name, gpu),
		fmt.Sprintf("run on a GPU of compute capability %s or newer: no release of %s supports %s", floor, p.Name, gcc.sm())
}

// everySdistPathRuns reports whether an extension pip installs from the
// package index's source distribution runs on a GPU whichever way that
// install goes: the release wheel its setup.py downloads (every
// release-asset row of the release has SASS for the GPU) or, where that
// fails, the source build's default list (the extension's sdist_build).
// A pip item with a wheel tag or a wheel page is not such an install.
func (c *checker) everySdistPathRuns(p *resolver.GPUPackage, gcc cc) bool {
	if p.From != envspec.ProviderPip || p.Version == "" || strings.Contains(p.Item, "+") {
		return false
	}
	for _, e := range p.Evidence {
		if e.Kind == resolver.EvidenceIndex || e.Kind == resolver.EvidenceWheelTag {
			return false
		}
	}
	ext, ok := c.k.ExtensionByName(p.Name)
	if !ok || ext.SdistBuild.From == "" {
		return false
	}
	sb := ext.SdistBuild
	if compareVersions(p.Version, sb.From) < 0 || compareVersions(p.Version, sb.Through) > 0 {
		return false
	}
	runs := func(sass []string) bool {
		v, _ := archVerdict(gcc, &kb.ArchList{SASS: sass, Known: true})
		return v == runsSASS
	}
	if !runs(sb.SASSWithNVCCAtLeast(c.sdistNVCCFloor(sb))) {
		return false
	}
	for _, b := range c.k.ExtensionReleases(p.Name) {
		if b.Version == p.Version && b.Dist == "release-asset" && (!b.ArchKnown || !runs(b.SASS)) {
			return false
		}
	}
	return true
}

// sdistNVCCFloor is the oldest nvcc a source build can have been made
// with where that is known from the environment: with nvcc_torch_major,
// torch's BuildExtension refuses an nvcc of another major than the torch
// build's CUDA, so a build that happens used an nvcc of that major, at
// least major.0 (torch 2.6.0's CUDA 12.4: 12.0, so flash-attn's sm_90,
// which needs 11.8, is in it). "" where the build's torch is not a CUDA
// torch of a known CUDA.
func (c *checker) sdistNVCCFloor(sb kb.SdistBuild) string {
	fw := c.st.Framework
	if !sb.NVCCTorchMajor || fw == nil || fw.Name != "pytorch" || fw.Variant != "cuda" {
		return ""
	}
	cu := c.compilerCUDA()
	major, _, ok := strings.Cut(cu, ".")
	if !ok || major == "" {
		return ""
	}
	return major + ".0"
}

// unknownPkgHint is the hint for a GPU-code package whose release the
// knowledge base does not describe. Where it has no facts on the package
// at all, pinning "a release envguard knows" cannot work: the hint names
// the packages of the same project (the name before its CUDA segment)
// that the knowledge base has releases of, where there are any.
func (c *checker) unknownPkgHint(p *resolver.GPUPackage) string {
	ext, ok := c.k.ExtensionByName(p.Name)
	if ok && ext.BuiltOnMachine {
		return builtOnMachineHint(p.Name, c.st.Framework)
	}
	if ok && ext.ArchUnknown != "" {
		// No release can be described: pinning one does not help.
		return "run envguard check on the machine, which reads the binaries, or cuobjdump --list-elf --list-ptx on its shared libraries"
	}
	if p.CUDAOpen {
		// the release is known; the CUDA that picks its build is not
		// (review fifty-eight F10, corpus 025: openmm=7.7 is 7.7.0)
		return fmt.Sprintf("pin the environment's CUDA in this file (cudatoolkit=X.Y, or cuda-version=X.Y from CUDA 12), so that conda installs %s's build for it, or run envguard check on the machine, which reads the binaries", p.Name)
	}
	if ok || p.Role != resolver.RoleExtension {
		if known := c.knownReleases(p, true); known != "" {
			return "pin a release envguard knows (" + known + "), or run envguard check on the machine, which reads the binaries"
		}
		if known := c.knownReleases(p, false); known != "" {
			// Every release the knowledge base describes has a floor
			// above one of the target's GPUs (tensorrt 10.8.0.43 on a
			// P100): pinning one of them would fail there.
			if lo := c.lowestFloor(p.Name); c.floorAboveSomeGPU(lo) {
				return "the releases envguard knows (" + known + ") need compute capability " + lo + " or newer, above this target's GPU, so pinning one would not help: run envguard check on the machine, which reads the binaries"
			}
			// Or their builds carry no code for one of the GPUs
			// (bitsandbytes 0.36.0 … 0.39.1 on sm_120).
			return "the releases envguard knows (" + known + ") do not carry code for this target's GPU in every build they may load, so pinning one would not help: run envguard check on the machine, which reads the binaries"
		}
		if p.From == envspec.ProviderConda && len(c.k.ExtensionReleases(p.Name)) > 0 && !c.hasCondaRows(p.Name) {
			return "the knowledge base describes no conda build of " + p.Name + " (only pip's), so pinning another release would not decide it either: run envguard check on the machine, which reads the binaries, or cuobjdump --list-elf --list-ptx on its shared libraries"
		}
		if ex := c.torchExcluded(p.Name); len(ex) > 0 {
			return "no release of " + p.Name + " envguard knows admits torch " + c.fileTorch() + " (" + strings.Join(ex, "; ") + "), so pinning one would make pip replace torch: run envguard check on the machine, which reads the binaries"
		}
		// No release row at all (cucim, review 9 #25): pinning one would
		// still leave it unknown.
		return "the knowledge base describes no release of " + p.Name + "'s builds, so pinning one would not decide it either: run envguard check on the machine, which reads the binaries, or cuobjdump --list-elf --list-ptx on its shared libraries"
	}
	s := "the knowledge base has no release of " + p.Name
	if len(p.BuiltFor.CUDA) == 1 {
		s += " (its name says a CUDA " + p.BuiltFor.CUDA[0] + " build)"
	}
	if names := c.k.ExtensionsOfStem(kb.PipNameStem(p.Name)); len(names) > 0 {
		return s + "; it has releases of " + strings.Join(names, ", ") + ": pin one of those whose CUDA the target's driver runs, or run envguard check on the machine, which reads the binaries"
	}
	return s + ": run envguard check on the machine, which reads the binaries"
}

// someReleaseRuns says whether another release of an extension may run on
// a compute capability: false only where the knowledge base states a floor
// for the project (which every release without a floor of its own keeps)
// and no release row of it has a floor at or below the GPU's, so that no
// release the knowledge base knows of runs there (triton keeps 7.0 in
// every release).
func (c *checker) someReleaseRuns(name string, gcc cc) bool {
	ext, ok := c.k.ExtensionByName(name)
	if !ok || ext.MinCC == "" {
		return true
	}
	if lo, ok := parseCC(ext.MinCC); !ok || !gcc.less(lo) {
		return true
	}
	for _, b := range c.k.ExtensionReleases(name) {
		if b.MinCC == "" {
			continue
		}
		if lo, ok := parseCC(b.MinCC); !ok || !gcc.less(lo) {
			return true
		}
	}
	return false
}

// belowToolkit raises EG410 where a package built for a CUDA major.minor
// is held against a GPU older than anything that toolkit's compiler
// targets: no build made with it can carry code for that GPU.
func (c *checker) belowToolkit(p *resolver.GPUPackage, gcc cc, gs []GPU) bool {
	for _, cu := range p.BuiltFor.CUDA {
		if !strings.Contains(cu, ".") {
			continue
		}
		if lo, ok := c.toolkitFloor(cu); ok && gcc.less(lo) {
			c.add("EG410", c.pkgPos(p),
				fmt.Sprintf("%s was built with CUDA %s, whose compiler targets nothing below %s, so it can run no code on %s", pkgLabel(p), cu, lo.sm(), gpuLabel(c.h, gs)),
				fmt.Sprintf("use a build of %s made with an older CUDA toolkit that still targets %s", p.Name, gcc.sm()))
			return true
		}
	}
	return false
}

// judgeCUDALibs holds the CUDA libraries against each GPU. A library the
// knowledge base knows lacks code for a GPU is EG410; where it cannot say,
// the target is unknown only on the framework's PTX path, since a build
// with SASS for the GPU is made with libraries of its own toolkit. What is
// unknown is said once per GPU architecture, every library in it.
func (c *checker) judgeCUDALibs(libs []*resolver.GPUPackage) {
	if len(libs) == 0 {
		return
	}
	if fw := c.st.Framework; fw != nil && fw.CUDAUnloadable != "" {
		// The framework cannot load the file's CUDA libraries (a pip
		// TensorFlow beside another CUDA): the ones it runs with, if any,
		// come from outside the environment, so these decide nothing.
		return
	}
	if fw := c.st.Framework; (fw != nil && fw.NotPublished != "") || (c.st.CUDA != nil && c.st.CUDA.NotPublished != "") {
		// No such build exists (EG205, and the framework's EG409 says
		// so): the libraries "it loads" are a phantom build's (review
		// seventeen F23: pytorch-cuda=5.7), and with no framework the
		// toolkit's are (corpus 104: cudatoolkit=12.2).
		return
	}
	c.eachCC(func(gcc cc, gs []GPU) {
		var unknown []string
		var names []string
		machine := false
		pos := finding.Pos{}
		for _, p := range libs {
			has, why := c.libCarries(p, gcc)
			switch has {
			case carriesNo:
				c.add("EG410", c.pkgPos(p),
					fmt.Sprintf("%s carries no code for %s on %s: %s", c.libLabel(p), gcc.sm(), gpuLabel(c.h, gs), why),
					fmt.Sprintf("use a framework build whose CUDA libraries support %s, or run on a GPU they support", gcc.sm()))
			case carriesUnknown:
				if !c.ptxPath[gcc.key()] && c.extPTX[gcc.key()] == "" && !c.libMayLack(p, gcc) {
					continue
				}
				if !contains(unknown, why) {
					unknown = append(unknown, why)
				}
				machine = machine || p.FromMachine != ""
				names = append(names, p.Lib)
				if !pos.IsValid() {
					pos = c.pkgPos(p)
				}
			}
		}
		if len(unknown) == 0 {
			return
		}
		// every library left open on a fact no public source holds; the
		// knowledge base's reason is said once, after them all
		cause := CauseNoSource
		var reasons []string
		for _, why := range unknown {
			r, ok := c.unsourced[why]
			if !ok {
				cause = reasonCause["cuda-lib-arch-unknown"]
			} else if !contains(reasons, r) {
				reasons = append(reasons, r)
			}
		}
		if len(reasons) > 0 {
			unknown = append(unknown, "and of these: "+strings.Join(reasons, "; "))
		}
		what := "the CUDA libraries " + c.build() + " loads (" + strings.Join(names, ", ") + ")"
		if c.st.Framework == nil {
			// No framework loads them: the extensions beside the toolkit do.
			what = "the CUDA libraries the environment's GPU packages load from its CUDA " + c.runtime() + " toolkit (" + strings.Join(names, ", ") + ")"
		}
		if ext := c.extPTX[gcc.key()]; ext != "" && !c.ptxPath[gcc.key()] {
			c.undecideFor(pos, cause, "architecture", "cuda-lib-arch-unknown", what,
				fmt.Sprintf("%s reaches %s only through PTX, and %s", ext, gcc.sm(), strings.Join(unknown, "; ")),
				// a release "with SASS" may not exist (review thirty-eight
				// F22: no libraft 23.8 has sm_120): what does is a build
				// made with a CUDA whose compiler targets the GPU
				"use a build of "+strings.Fields(ext)[0]+" made with a CUDA whose compiler targets "+gcc.sm()+", so that it and the CUDA libraries beside it carry code for it, or run envguard check on the machine, which reads the libraries")
			return
		}
		if !c.ptxPath[gcc.key()] {
			hint := "pin the library to a release known to carry code for " + gcc.sm() + ", or run envguard check on the machine, which reads the libraries"
			if machine {
				cause = CauseMachine
				hint = "install the cuDNN it was built with in the file (conda's cudnn), or run envguard check on the machine, which reads the libraries"
				if fw := c.st.Framework; fw != nil && fw.Name == "tensorflow" {
					// a pip TensorFlow does not search the conda
					// environment's lib/ (review thirty-eight F40): its
					// install guide puts it on LD_LIBRARY_PATH
					hint = "install the cuDNN it was built with in the file: TensorFlow's [and-cuda] extra from 2.14, or conda's cudnn with $CONDA_PREFIX/lib on LD_LIBRARY_PATH, as TensorFlow's install guide sets it for a pip TensorFlow; or run envguard check on the machine, which reads the libraries"
					if fw.From != envspec.ProviderPip {
						hint = "install the cuDNN it was built with in the file (conda's cudnn), or run envguard check on the machine, which reads the libraries"
					}
				}
			}
			lead := fmt.Sprintf("the framework has SASS for %s, but ", gcc.sm())
			if c.frameworkArchOpen() {
				// its own code is open as well (review forty-nine F3,
				// corpus 012: tensorflow 0.12.1's list is not known)
				lead = fmt.Sprintf("whatever code the framework carries for %s, ", gcc.sm())
			}
			c.undecideFor(pos, cause, "architecture", "cuda-lib-arch-unknown", what, lead+strings.Join(unknown, "; "), hint)
			return
		}
		c.undecideFor(pos, cause, "architecture", "cuda-lib-arch-unknown", what,
			fmt.Sprintf("the framework reaches %s only through PTX, and %s", gcc.sm(), strings.Join(unknown, "; ")),
			c.sassBuildHint(gcc, "use a framework build with SASS for this GPU ("+c.newerBuild(gcc)+")")+", or run envguard check on the machine, which reads the libraries")
	})
}

// libMayLack reports whether a CUDA library the framework loads may lack
// code for a GPU the framework itself has SASS for: the knowledge base
// says the library dropped that architecture somewhere between two
// releases (carries_through … until: cuDNN carried Kepler through 8.7.0
// and lacks it from 8.8.0), and the release loaded may come after the last
// one known to carry it (cudnn=8.7 admits any 8.7.x). On the
// framework's SASS path a library whose code is otherwise unknown is taken
// to carry what its toolkit compiled the framework for, so it is no reason
// to doubt the verdict there; a library known to have left the GPU behind
// is (a conda cudnn=8.7 beside the pytorch channel's 2.1 CUDA 11.8 build
// on a K80).
func (c *checker) libMayLack(p *resolver.GPUPackage, gcc cc) bool {
	if p.FromBinary() || c.noCode[gcc.key()] {
		return false
	}
	var gaps []kb.CUDALibArch
	for _, r := range c.k.CUDALibArchOf(p.Lib, gcc.key()) {
		if r.CarriesThrough != "" {
			gaps = append(gaps, r)
		}
	}
	if len(gaps) == 0 {
		return false
	}
	ver := p.Version
	switch {
	case ver != "":
	case p.Within != "" && p.Lib == "cudnn":
		if last, ok := c.k.LastCuDNNOfMajor(p.Within); ok {
			ver = last.Last
		} else if strings.Contains(p.Within, ".") {
			ver = p.Within + ".999" // any release of that minor
		}
	case p.Within != "" && strings.Contains(p.Within, "."):
		ver = p.Within + ".999" // any release of that minor
	}
	for _, r := range gaps {
		if ver == "" || (compareVersions(ver, r.CarriesThrough) > 0 && !strings.HasPrefix(ver, r.CarriesThrough+".")) {
			return true
		}
	}
	return false
}

// newerBuild names where a build with SASS for gcc comes from: a newer
// release of a framework that builds each release with one CUDA
// (TensorFlow's pip wheel, defaults' tensorflow-gpu); for a pytorch whose
// every CUDA variant of the release has a known architecture list, a newer
// CUDA variant where one of them has SASS for gcc and a newer release where
// none does (no variant of pytorch 1.3 has sm_120: it came with CUDA 12.8
// builds of 2.7); else either.
func (c *checker) newerBuild(gcc cc) string {
	fw := c.st.Framework
	if fw != nil && fw.Name == "tensorflow" && fw.Dist != kb.DistCondaForge {
		return "a newer tensorflow release: each is built with one CUDA version"
	}
	if fw == nil || fw.Name != "pytorch" || fw.Version == "" || c.k == nil {
		return "a newer CUDA variant or release"
	}
	if v, ok := c.k.Variants(fw.Series(), fw.Dist); ok && len(v.CUDA) > 0 {
		decided := true
		for _, cu := range v.CUDA {
			a, ok := c.k.Arch(fw.Version, cu, fw.Dist)
			if !ok || !a.Known {
				decided = false
				continue
			}
			if verdict, _ := archVerdict(gcc, a); verdict == runsSASS {
				return "a newer CUDA variant: CUDA " + cu + " of pytorch " + fw.Series() + " has SASS for " + gcc.sm()
			}
		}
		if decided {
			return "a newer pytorch release: no CUDA variant of pytorch " + fw.Series() + " (" + strings.Join(v.CUDA, ", ") + ") has SASS for " + gcc.sm() + c.firstTorchWithSASS(gcc, fw.Dist)
		}
	}
	// Whatever the distribution, a build cannot carry SASS its CUDA's
	// compiler does not emit: where no CUDA any distribution built the
	// series with targets gcc, a newer release is the only way.
	var cudas []string
	for _, d := range []kb.Distribution{kb.DistWheel, kb.DistPyPI, kb.DistPytorchConda, kb.DistCondaForge, kb.DistDefaults} {
		if v, ok := c.k.Variants(fw.Series(), d); ok {
			for _, cu := range v.CUDA {
				if !contains(cudas, cu) {
					cudas = append(cudas, cu)
				}
			}
		}
	}
	if len(cudas) == 0 {
		return "a newer CUDA variant or release"
	}
	for _, cu := range cudas {
		ta, ok := c.k.ToolkitArch(cu)
		if !ok {
			return "a newer CUDA variant or release"
		}
		// A cubin runs on a later minor of its major (sm_80 on 8.6), so
		// only a compiler whose newest SASS is of an older major cannot
		// serve gcc.
		if hi, ok := parseCC(ta.MaxSASS); !ok || hi.Major >= gcc.Major {
			return "a newer CUDA variant or release"
		}
	}
	sort.Slice(cudas, func(i, j int) bool { return compareVersions(cudas[i], cudas[j]) < 0 })
	return "a newer pytorch release: pytorch " + fw.Series() + " was built with CUDA " + strings.Join(cudas, ", ") + ", whose compilers emit no SASS for " + gcc.sm() + c.firstTorchWithSASS(gcc, fw.Dist)
}

type carries int

const (
	carriesUnknown carries = iota
	carriesYes
	carriesNo
)

// libCarries decides from the knowledge base whether a CUDA library
// release carries code for a compute capability, and says why.
func (c *checker) libCarries(p *resolver.GPUPackage, gcc cc) (carries, string) {
	name := p.Lib
	if p.FromBinary() {
		// Its own libraries were read: what they carry decides.
		list := &kb.ArchList{SASS: p.Code.SASS, PTX: p.Code.PTX, Known: true}
		if v, _ := archVerdict(gcc, list); v == runsNone {
			// Not proof that it fails: CUDA's own libraries build kernels
			// at run time too (cuFFT 12.0.0.61 of CUDA 13.0 lists one sm_75
			// cubin and runs on an H200; cuDNN runtime-compiles engines),
			// so the fatbin alone does not decide.
			return carriesUnknown, fmt.Sprintf("its libraries carry %s, no SASS for %s or a lower %d.x and no PTX at or below it, and whether it builds kernels for %s at run time is not known", archSummary(list), gcc.sm(), gcc.Major, gcc.sm())
		}
		return carriesYes, ""
	}
	if p.FloatFrom != "" {
		return c.floatCarries(p, gcc)
	}
	if p.Version == "" {
		if why := c.cudnnCeilingFails(p, gcc); why != "" {
			return carriesNo, why
		}
		if why := c.cudnnWithinFails(p, gcc); why != "" {
			return carriesNo, why
		}
		if why := c.withinUntilFails(p, gcc); why != "" {
			return carriesNo, why
		}
		if c.withinSinceCarries(p, gcc) || c.cudnnSpanCarries(p, gcc) {
			return carriesYes, ""
		}
		if p.FromMachine != "" {
			return carriesUnknown, p.FromMachine
		}
		if p.Within != "" {
			return carriesUnknown, "which " + name + " " + p.Within + ".x release it loads is not known"
		}
		return carriesUnknown, "which " + name + " release it loads is not known"
	}
	ver := p.Version
	row, ok := c.k.CUDALibByName(name)
	toolkit := ok && row.Toolkit
	if toolkit {
		// The toolkit libraries' rows count in CUDA toolkit releases; a
		// library wheel's own version is not one (cuFFT 11.3.3.41 is CUDA
		// 12.8's), so it is read as the release it shipped in.
		tk, why := toolkitRelease(p, row, c.k)
		if tk == "" {
			return carriesUnknown, why
		}
		ver = tk
	}
	rows := c.k.CUDALibArchOf(name, gcc.key())
	if len(rows) == 0 {
		if toolkit {
			// the toolkit's compiler bounds what its libraries hold:
			// CUDA 9.0 targets nothing above sm_70, so its libraries have
			// no SASS for sm_90 (review sixteen #1390); only their PTX is
			// open
			if ta, hi, ok := c.compilerBelow(resolver.SeriesOf(ver), gcc); ok {
				return carriesUnknown, c.libsForwardOpen(ta, fmt.Sprintf("%s %s has no code of its own for %s (CUDA %s's compiler targets nothing above %s), and whether PTX in it serves it is not known", name, ver, gcc.sm(), ta.CUDA, hi.sm()))
			}
		}
		return carriesUnknown, fmt.Sprintf("whether %s %s carries code for %s is not known", name, ver, gcc.sm())
	}
	// A row with a CUDA condition speaks only for builds for a CUDA that
	// meets it; where the build's CUDA is not known, neither is the row.
	cuda, cudaWhy := c.libBuildCUDA(p)
	applies := func(r kb.CUDALibArch) (bool, string) {
		if r.CUDA == "" {
			return true, ""
		}
		cond, err := kb.ParseCUDACond(r.CUDA)
		if err != nil { // the loader refuses such a row
			return false, fmt.Sprintf("the knowledge base's condition %q on %s is not readable", r.CUDA, name)
		}
		holds, decided := cond.Holds(cuda)
		if !decided {
			return false, fmt.Sprintf("%s %s carries code for %s only in builds for CUDA %s, and %s", name, ver, gcc.sm(), r.CUDA, cudaWhy)
		}
		return holds, ""
	}
	// NoneThrough is certain too: no release at or below it carries code
	// for the GPU, and the library has no PTX path to it (cuDNN before
	// 9.0.0 is not hardware forward compatible).
	if through, ok := noneThrough(rows, ver, cuda); ok {
		return carriesNo, noneThroughWhy(name, through, gcc)
	}
	// A none_through row says nothing of a release past it: without a row
	// that says when the code came or went, the later release is open.
	claims := false
	for _, r := range rows {
		claims = claims || r.Since != "" || r.Until != ""
	}
	if !claims {
		return carriesUnknown, fmt.Sprintf("whether %s %s carries code for %s is not known", name, ver, gcc.sm())
	}
	// Until is certain: the release removed the architecture. Before Since
	// the library has no code of its own for it, but may still carry PTX
	// of an older architecture that the driver could JIT: not decided.
	var open string
	for _, r := range rows {
		if r.Until == "" {
			continue
		}
		ok, why := applies(r)
		if why != "" && open == "" {
			open = why
		}
		if ok && compareVersions(ver, r.Until) >= 0 {
			// a toolkit library's rows count in toolkit releases, not in
			// its own version (review forty F14: "cusolver dropped sm_37 in
			// 12.0" read as cuSOLVER's 12.0, which CUDA 12.0 ships as 11.4)
			until, through := r.Until, r.CarriesThrough
			if toolkit {
				until, through = "CUDA "+until, "CUDA "+through
			}
			if r.CarriesThrough != "" {
				// Which release between the two first dropped it is not known.
				return carriesNo, fmt.Sprintf("%s has no code for %s from %s on (it dropped %s after %s)", name, gcc.sm(), until, gcc.sm(), through)
			}
			return carriesNo, fmt.Sprintf("%s dropped %s in %s", name, gcc.sm(), until)
		}
	}
	if open != "" {
		return carriesUnknown, open
	}
	// Between the last release known to carry the code (CarriesThrough)
	// and the first known to lack it (Until) no source decides: a release
	// there is neither counted as carrying it nor as lacking it.
	for _, r := range rows {
		// A wheel's build of the release (8.5.0.96 of 8.5.0) is that release.
		if r.CarriesThrough == "" || compareVersions(ver, r.CarriesThrough) <= 0 || strings.HasPrefix(ver, r.CarriesThrough+".") {
			continue
		}
		if ok, why := applies(r); ok || why != "" {
			return carriesUnknown, fmt.Sprintf("%s %s is after %s, the last release known to carry code for %s, and before %s, the first known to lack it; whether it carries code for %s is not known", name, ver, r.CarriesThrough, gcc.sm(), r.Until, gcc.sm())
		}
	}
	// A release before Since is short of it whatever its CUDA; from Since
	// on, the row's CUDA condition must hold too.
	for _, r := range rows {
		if r.Since == "" || compareVersions(ver, r.Since) >= 0 {
			continue
		}
		if toolkit {
			// Since is the first release known to carry the code; only
			// where the release's compiler could not emit it is it known
			// to lack it
			subject, has, carry, their, them := name+" "+ver, "has", "carries", "its", "it"
			if p.BundledWith != "" {
				subject, has, carry, their, them = "the CUDA "+ver+" libraries", "have", "carry", "their", "them"
			}
			if ta, hi, ok := c.compilerBelow(resolver.SeriesOf(ver), gcc); ok {
				return carriesUnknown, c.libsForwardOpen(ta, fmt.Sprintf("%s %s no code of %s own for %s (CUDA %s's compiler targets nothing above %s), and whether PTX in %s serves it is not known", subject, has, their, gcc.sm(), ta.CUDA, hi.sm(), them))
			}
			return carriesUnknown, fmt.Sprintf("whether %s %s code for %s is not known (CUDA %s is the first release known to)", subject, carry, gcc.sm(), r.Since)
		}
		// "known to": an earlier release may carry it too where the
		// sources before Since were not read (cuDNN's 8.6 … 8.9.0
		// matrices), and a library may reach the GPU through PTX
		return carriesUnknown, fmt.Sprintf("%s %s predates %s, the first release known to carry code of its own for %s; whether it carries code or PTX that serves %s is not known", name, ver, r.Since, gcc.sm(), gcc.sm())
	}
	for _, r := range rows {
		if r.Since == "" {
			continue
		}
		ok, why := applies(r)
		switch {
		case why != "":
			return carriesUnknown, why
		case !ok:
			return carriesUnknown, fmt.Sprintf("%s %s is a build for CUDA %s, and %s is known to carry code for %s only in builds for CUDA %s, so whether it serves %s (through PTX or forward compatibility) is not known", name, ver, cuda, name, gcc.sm(), r.CUDA, gcc.sm())
		}
	}
	// An until row says the library kept the architecture up to that
	// release, not that a build made with a CUDA older than the GPU has
	// code for it: no compiler emits SASS for an architecture newer than
	// it knows (cuDNN 7.1.2 for CUDA 8.0 on a V100).
	built := cuda
	if toolkit {
		built = ver
	}
	if strings.Contains(built, ".") {
		if ta, hi, ok := c.compilerBelow(built, gcc); ok {
			why := fmt.Sprintf("%s %s is a build for CUDA %s, whose compiler emits SASS up to %s, so it has no code of its own for %s, and whether PTX in it serves it is not known", name, ver, built, hi.sm(), gcc.sm())
			if toolkit {
				why = c.libsForwardOpen(ta, why)
			}
			return carriesUnknown, why
		}
	}
	return carriesYes, ""
}

// compilerBelow is the architecture range of a CUDA toolkit release
// (major.minor) and the highest compute capability its compiler emits SASS
// for, where that is of an older major than gcc: nothing built with it has
// code of its own for gcc, so only PTX could serve it.
func (c *checker) compilerBelow(cuda string, gcc cc) (*kb.ToolkitArch, cc, bool) {
	ta, ok := c.k.ToolkitArch(cuda)
	if !ok {
		return nil, cc{}, false
	}
	hi, ok := parseCC(ta.MaxSASS)
	if !ok || hi.Major >= gcc.Major {
		return nil, cc{}, false
	}
	return ta, hi, true
}

// libsForwardOpen adds to why, said of a toolkit library on a GPU newer
// than its compiler, the knowledge base's reason that no public source
// decides it, where it records one, and remembers that why names such a
// fact (judgeCUDALibs lists the check under CauseNoSource).
func (c *checker) libsForwardOpen(ta *kb.ToolkitArch, why string) string {
	if ta.LibsForwardOpen == "" {
		return why
	}
	if c.unsourced == nil {
		c.unsourced = map[string]string{}
	}
	c.unsourced[why] = ta.LibsForwardOpen
	return why
}

// toolkitRelease is the CUDA toolkit release (major.minor) whose library
// p is, or "" and why not: the runtime's release for a library the
// framework loads from it, the cuda-toolkit meta package's release, the
// framework build's CUDA for a library its wheel pins (PyTorch pins each
// CUDA variant's own toolkit libraries), and for a package the file names
// the release its version starts with, where the library's versions
// follow the toolkit's.
func toolkitRelease(p *resolver.GPUPackage, row *kb.CUDALibPackage, k knowledge) (string, string) {
	switch {
	case p.BundledWith == resolver.RuntimeBundled(p.Version), strings.HasPrefix(p.Name, "cuda-toolkit["):
		return resolver.SeriesOf(p.Version), ""
	case p.BundledWith == "":
		if follows(row, p.Version) {
			return resolver.SeriesOf(p.Version), ""
		}
		if cu, ok := k.LibToolkitOf(row.Lib, p.Version); ok {
			return cu, ""
		}
	default:
		if cu := minorCUDA(p.BuiltFor.CUDA); cu != "" {
			return cu, ""
		}
	}
	return "", fmt.Sprintf("which CUDA toolkit release %s %s belongs to is not known", p.Name, p.Version)
}

// libBuildCUDA is the CUDA toolkit release a library build is for, as a
// major.minor or a major alone, or "" and why it is not known: what the
// package says of itself (a torch wheel's pins carry the wheel's CUDA, a
// pip name its major), else, for a library the framework bundles, the
// framework build's CUDA. A package the file names whose name gives only
// a major is a build for that major (cuDNN ships one package per CUDA
// major), which is all it says.
func (c *checker) libBuildCUDA(p *resolver.GPUPackage) (string, string) {
	if cu := minorCUDA(p.BuiltFor.CUDA); cu != "" {
		return cu, ""
	}
	if p.BundledWith != "" && c.st.CUDA != nil && c.st.CUDA.NotPublished == "" && strings.Contains(c.st.CUDA.Version, ".") {
		return c.st.CUDA.Version, ""
	}
	if len(p.BuiltFor.CUDA) == 1 {
		return p.BuiltFor.CUDA[0], fmt.Sprintf("%s names CUDA %s only, not which %s.x release the build is for", p.Name, p.BuiltFor.CUDA[0], p.BuiltFor.CUDA[0])
	}
	return "", fmt.Sprintf("which CUDA release the %s build is for is not known", p.Name)
}

// cudnnCeilingFails decides a cuDNN whose release is not known where the
// build's CUDA bounds it: NVIDIA built no cuDNN newer than the ceiling for
// that CUDA, so where a none_through row covers the ceiling every release
// the build can load fails on gcc. It says why, or "" where the bound does
// not decide; it never turns an unknown release into one that runs.
func (c *checker) cudnnCeilingFails(p *resolver.GPUPackage, gcc cc) string {
	if p.Lib != "cudnn" {
		return ""
	}
	cuda, why := c.libBuildCUDA(p)
	if cuda == "" || why != "" {
		return ""
	}
	top, ok := c.k.NewestCuDNNFor(cuda)
	if !ok {
		return ""
	}
	through, ok := noneThrough(c.k.CUDALibArchOf(p.Lib, gcc.key()), top.CuDNN, cuda)
	if !ok {
		return ""
	}
	return fmt.Sprintf("which cudnn release it loads is not known, but none built for CUDA %s is newer than %s, %s", cuda, top.CuDNN, noneThroughWhy("cudnn", through, gcc))
}

// cudnnWithinFails decides a cuDNN whose release is open but whose
// releases all start with p.Within ("8.7" of cudnn=8.7, "7" of the
// libcudnn.so.7 a TensorFlow opens): where a none_through row covers every
// such release (all of major 7 are at or below the last, 7.6.5) none of
// them runs on gcc. It says why, or "" where that does not decide.
func (c *checker) cudnnWithinFails(p *resolver.GPUPackage, gcc cc) string {
	through, last, hasLast := c.cudnnWithinThrough(p, gcc)
	if through == "" {
		return ""
	}
	n := strings.Count(p.Within, ".") + 1
	why := p.WithinWhy
	if hasLast && compareVersions(p.Within, versionPrefix(through, n)) >= 0 && !strings.Contains(why, "the last cuDNN "+last.Major+" is") {
		// the series' last release, not its number, decided it
		why += ", and the last cuDNN " + last.Major + " is " + last.Last
	}
	return fmt.Sprintf("which cudnn release it loads is not known, but %s; %s", why, noneThroughWhy("cudnn", through, gcc))
}

// cudnnWithinThrough is the none_through release that covers every cuDNN
// release starting with p.Within for gcc ("" where no row does), with the
// last release of p.Within's major where the knowledge base has it.
func (c *checker) cudnnWithinThrough(p *resolver.GPUPackage, gcc cc) (string, *kb.CuDNNLastOfMajor, bool) {
	if p.Lib != "cudnn" || p.Within == "" {
		return "", nil, false
	}
	major, _, _ := strings.Cut(p.Within, ".")
	last, hasLast := c.k.LastCuDNNOfMajor(p.Within) // 8.7: NVIDIA's one 8.7 release
	if !hasLast {
		last, hasLast = c.k.LastCuDNNOfMajor(major)
	}
	n := strings.Count(p.Within, ".") + 1
	cuda, _ := c.libBuildCUDA(p)
	through, _ := noneThroughIf(c.k.CUDALibArchOf(p.Lib, gcc.key()), cuda, func(t string) bool {
		// every release starting with Within is at or below t: Within is
		// below t's own prefix of its length (8.7 < 8.9 of 8.9.7), or the
		// last release of its major is at or below t
		if compareVersions(p.Within, versionPrefix(t, n)) < 0 {
			return true
		}
		return hasLast && compareVersions(last.Last, t) <= 0
	})
	return through, last, hasLast
}

// noneThroughWhy says that no release of lib through a none_through row's
// release runs on gcc.
func noneThroughWhy(lib, through string, gcc cc) string {
	return fmt.Sprintf("no %s release through %s carries code of its own for %s, and those releases do not run on a GPU newer than they support (not hardware forward compatible)", lib, through, gcc.sm())
}

// withinSinceCarries decides a library whose release is open but whose
// releases all start with p.Within (cudnn=9.1 admits only 9.1.x) where a
// since row covers every such release for this build: each is after the
// first release known to carry code of its own for the GPU (cuDNN 8.9.1
// for Hopper), the row's CUDA condition holds for the build's CUDA (a
// major is enough where every minor of it agrees), and no until or
// carries_through row of the GPU says a later release dropped it.
func (c *checker) withinSinceCarries(p *resolver.GPUPackage, gcc cc) bool {
	if p.Within == "" {
		return false
	}
	if row, ok := c.k.CUDALibByName(p.Lib); ok && row.Toolkit {
		return false // their rows count in toolkit releases
	}
	n := strings.Count(p.Within, ".") + 1
	cuda, _ := c.libBuildCUDA(p)
	rows := c.k.CUDALibArchOf(p.Lib, gcc.key())
	covered := false
	for _, r := range rows {
		switch {
		case r.CarriesThrough != "":
			// carried from Since through CarriesThrough, then dropped:
			// every release of the series must be at or below it
			if !c.withinAtOrBelow(p, r.CarriesThrough) {
				return false
			}
		case r.Until != "":
			return false
		}
		if r.Since == "" || compareVersions(p.Within, versionPrefix(r.Since, n)) <= 0 || !rowHoldsFor(r, cuda) {
			continue
		}
		covered = true
	}
	return covered
}

// withinAtOrBelow reports whether every release of the series p.Within
// names is at or below release v: the series is below v's own prefix (8.0
// below 8.7 of 8.7.0), or the knowledge base gives the series' last
// release and it is at or below v (cudnn=8.7 admits only 8.7.0, NVIDIA's
// one 8.7 release).
func (c *checker) withinAtOrBelow(p *resolver.GPUPackage, v string) bool {
	n := strings.Count(p.Within, ".") + 1
	if compareVersions(p.Within, versionPrefix(v, n)) < 0 {
		return true
	}
	if p.Lib != "cudnn" {
		return false
	}
	last, ok := c.k.LastCuDNNOfMajor(p.Within)
	return ok && compareVersions(last.Last, v) <= 0
}

// cudnnSpanCarries decides a cuDNN whose release is open but whose build's
// CUDA is known: NVIDIA built that CUDA's cuDNN from one release to another
// (7.5.0 … 8.0.5 for CUDA 10.1), so where one row says every release of
// that span carries code for gcc, and no row says any of them lacks it,
// whichever the build loads carries it (review sixteen #19: CUDA 10.1 on a
// K80).
func (c *checker) cudnnSpanCarries(p *resolver.GPUPackage, gcc cc) bool {
	if p.Lib != "cudnn" {
		return false
	}
	cuda, why := c.libBuildCUDA(p)
	if cuda == "" || why != "" {
		return false
	}
	span, ok := c.k.NewestCuDNNFor(cuda)
	if !ok || span.Oldest == "" {
		return false
	}
	lo, hi := span.Oldest, span.CuDNN
	covered := false
	for _, r := range c.k.CUDALibArchOf(p.Lib, gcc.key()) {
		if !rowHoldsFor(r, cuda) {
			continue
		}
		if r.NoneThrough != "" && compareVersions(lo, r.NoneThrough) <= 0 {
			return false // some release of the span is known to lack it
		}
		if r.Until != "" && compareVersions(hi, r.Until) >= 0 && (r.CarriesThrough == "" || compareVersions(hi, r.CarriesThrough) > 0) {
			return false // the span reaches releases without it, or not known to have it
		}
		if r.Since == "" || compareVersions(r.Since, lo) > 0 {
			continue
		}
		if r.CarriesThrough != "" && compareVersions(hi, r.CarriesThrough) > 0 {
			continue
		}
		covered = true
	}
	return covered
}

// rowHoldsFor says whether a row speaks for a build for CUDA cuda: it has
// no CUDA condition, or the condition is known to hold.
func rowHoldsFor(r kb.CUDALibArch, cuda string) bool {
	if r.CUDA == "" {
		return true
	}
	cond, err := kb.ParseCUDACond(r.CUDA)
	if err != nil {
		return false
	}
	holds, decided := cond.Holds(cuda)
	return holds && decided
}

// withinUntilFails decides a library whose release is open but whose
// releases all start with what the file or the framework fixes (cudnn=8.8
// admits only 8.8.x) where an until row covers every such release: each is
// at or after the first release known to lack code for the GPU (cuDNN
// lists no Kepler from 8.8.0 on). A row with a CUDA condition counts only
// for a build whose CUDA is known to meet it; the toolkit's own libraries
// count in toolkit releases, not their own, and are left alone.
func (c *checker) withinUntilFails(p *resolver.GPUPackage, gcc cc) string {
	if p.Within == "" {
		return ""
	}
	if row, ok := c.k.CUDALibByName(p.Lib); ok && row.Toolkit {
		return ""
	}
	n := strings.Count(p.Within, ".") + 1
	cuda, _ := c.libBuildCUDA(p)
	for _, r := range c.k.CUDALibArchOf(p.Lib, gcc.key()) {
		if r.Until == "" || !rowHoldsFor(r, cuda) {
			continue
		}
		// Every release starting with Within is at or after Until: Within
		// is above Until's prefix of its length (8.9 > 8.8 of 8.8.0), or
		// equal to it where the rest of Until is zeros (8.8 of 8.8.0).
		cmp := compareVersions(p.Within, versionPrefix(r.Until, n))
		if cmp < 0 || (cmp == 0 && !restZero(r.Until, n)) {
			continue
		}
		dropped := fmt.Sprintf("%s dropped %s in %s", p.Lib, gcc.sm(), r.Until)
		if r.CarriesThrough != "" {
			dropped = fmt.Sprintf("%s has no code for %s from %s on (it dropped %s after %s)", p.Lib, gcc.sm(), r.Until, gcc.sm(), r.CarriesThrough)
		}
		return fmt.Sprintf("which %s release it loads is not known, but %s; %s", p.Lib, p.WithinWhy, dropped)
	}
	return ""
}

// restZero reports whether every dot-separated part of v after the first n
// is zero (8.8.0 after 8.8).
func restZero(v string, n int) bool {
	parts := strings.Split(v, ".")
	for i := n; i < len(parts); i++ {
		if strings.TrimLeft(parts[i], "0") != "" {
			return false
		}
	}
	return true
}

// versionPrefix is the first n dot-separated parts of v.
func versionPrefix(v string, n int) string {
	parts := strings.SplitN(v, ".", n+1)
	if len(parts) > n {
		parts = parts[:n]
	}
	return strings.Join(parts, ".")
}

// noneThrough finds the none_through row that covers release ver of a
// library built for CUDA cuda: no release at or below the row's carries
// code for the GPU. A row with a CUDA condition covers only a build whose
// CUDA is known to meet it. It returns the row's release.
func noneThrough(rows []kb.CUDALibArch, ver, cuda string) (string, bool) {
	return noneThroughIf(rows, cuda, func(t string) bool { return compareVersions(ver, t) <= 0 })
}

// noneThroughIf is noneThrough for the releases covered(t) says are all at
// or below a row's none_through t.
func noneThroughIf(rows []kb.CUDALibArch, cuda string, covered func(string) bool) (string, bool) {
	for _, r := range rows {
		if r.NoneThrough == "" || !covered(r.NoneThrough) || !rowHoldsFor(r, cuda) {
			continue
		}
		return r.NoneThrough, true
	}
	return "", false
}

// minorCUDA is the one major.minor of a BuiltFor.CUDA list, else "".
func minorCUDA(cs []string) string {
	if len(cs) == 1 && strings.Contains(cs[0], ".") {
		return cs[0]
	}
	return ""
}

func follows(row *kb.CUDALibPackage, ver string) bool {
	return contains(row.VersionFollowsToolkit, majorOfStr(ver))
}

// sourceHint is the hint for a package pip compiles on the install
// machine: PyG's find-links page for a PyG extension (one with an index
// pattern), else the project's prebuilt packages the knowledge base has
// releases of (cupy's per-CUDA wheels for the source package cupy).
func (c *checker) sourceHint(p *resolver.GPUPackage) string {
	if ext, ok := c.k.ExtensionByName(p.Name); ok && ext.IndexURL != "" {
		if fw := c.st.Framework; fw != nil && fw.Dist == kb.DistCondaForge {
			return condaForgeTorchHint(ext)
		}
		if sm := c.frameworkRunsNoCode(); sm != "" {
			// the page of the file's own torch would bring wheels for a
			// torch that cannot run here (review eleven #1030: PyG's cu102
			// page offered to an RTX 5090 beside torch 1.11 CUDA 10.2)
			return "the file's " + fwName(c.st.Framework) + " itself carries no code for " + sm + " (EG403): change it first to a release with a CUDA build for this GPU, then take the prebuilt wheels from PyG's page for that torch and CUDA, or check on the install machine with envguard check, which reads the binaries"
		}
		return sourceBuildHint(c.st.Framework, c.runtime())
	}
	s := "pip builds " + p.Name + " from source with the install machine's CUDA toolkit"
	// The prebuilt packages are offered only where one is built for the
	// environment's CUDA major: cupy-cuda12x beside a CUDA 10.1 stack
	// would bring a second CUDA runtime the K80's driver cannot run
	// (review nine #186).
	// A package whose rows name no CUDA is not ruled out.
	rt := c.runtime()
	var prebuilt, majors []string
	for _, n := range c.k.ExtensionsOfStem(p.Name) {
		name, _, _ := strings.Cut(n, " (")
		if name == p.Name {
			continue
		}
		ms := c.releaseCUDAMajors(name)
		if rt == "" || len(ms) == 0 || contains(ms, majorOfStr(rt)) {
			prebuilt = append(prebuilt, n)
		}
		for _, m := range ms {
			if !contains(majors, m) {
				majors = append(majors, m)
			}
		}
	}
	switch {
	case len(prebuilt) > 0:
		env := "the environment's CUDA"
		if rt != "" {
			env += " " + rt
		}
		s += "; to take a prebuilt build instead, install the package built for " + env + " (the knowledge base has releases of " + strings.Join(prebuilt, ", ") + ")"
	case len(majors) > 0:
		slices.SortFunc(majors, func(a, b string) int { return majorOf(a) - majorOf(b) })
		s += "; the prebuilt packages the knowledge base has releases of are built for CUDA " + strings.Join(majors, ", ") +
			", none for this environment's CUDA " + rt + ", beside which they would load a second CUDA runtime: a prebuilt build must be the project's package for CUDA " + rt +
			", of which the knowledge base has no release"
	}
	return s + "; or check on the install machine, after the build, with envguard check, which reads the binaries"
}

// releaseCUDAMajors lists the CUDA majors the knowledge base's release rows
// of the extension name are built for.
func (c *checker) releaseCUDAMajors(name string) []string {
	var out []string
	for _, b := range c.k.ExtensionReleases(name) {
		for _, v := range b.CUDA {
			if m := majorOfStr(v); m != "" && !contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// sourceBuildHint points a PyG extension that pip would compile from the
// package index's source at PyG's own wheels: the find-links page for the
// file's torch series and CUDA variant (the READMEs' -f
// https://data.pyg.org/whl/torch-X.Y.0+${CUDA}.html), or its pattern where
// the file leaves either open.
func sourceBuildHint(fw *resolver.Framework, rt string) string {
	page, which := "https://data.pyg.org/whl/torch-X.Y.0+${CUDA}.html", "the page for the torch release and CUDA variant installed"
	if fw != nil && fw.Name == "pytorch" && fw.Version != "" {
		variant := ""
		switch {
		case fw.Variant == "cpu":
			variant = "cpu"
		case rt != "":
			variant = "cu" + strings.ReplaceAll(rt, ".", "")
		}
		if variant != "" {
			series := fw.Series()
			page = "https://data.pyg.org/whl/torch-" + series + ".0+" + variant + ".html"
			which = "PyG's page for this file's torch " + series + " " + map[bool]string{true: "CPU build", false: "CUDA " + rt}[variant == "cpu"]
		}
	}
	return "to take PyG's prebuilt wheel instead, add -f " + page + " to the pip section (" + which + ") and pin a release that page lists; " +
		"or check on the install machine, after the build, with envguard check, which reads the binaries"
}

// condaForgeTorchHint is sourceHint beside conda-forge's torch, where the
// project's find-links wheels are no way out: they are built against
// PyTorch's own torch builds and fail to import beside conda-forge's
// ("undefined symbol", review nine #603). conda-forge's own build of the
// extension (kb's conda_forge_build) is built against its pytorch.
func condaForgeTorchHint(ext *kb.Extension) string {
	s := "PyG's prebuilt wheels (its find-links pages) will not help here: they are built against PyTorch's own torch builds " +
		"and fail to import beside conda-forge's pytorch (\"undefined symbol\")"
	if ext.CondaForgeBuild != "" {
		s += "; take conda-forge's " + ext.CondaForgeBuild + " instead, built against conda-forge's pytorch: list it among the conda " +
			"dependencies and drop " + ext.Name + " from the pip section"
	} else {
		s += "; the knowledge base has no conda-forge build of " + ext.Name + ", so the source build pip makes against this torch is the way"
	}
	return s + "; or check on the install machine, after the build, with envguard check, which reads the binaries"
}

// builtOnMachineHint says what decides a package whose GPU code is compiled
// on the machine (the knowledge base's built_on_machine: deepspeed): the
// machine's nvcc, which must match torch's CUDA, and the GPUs visible at
// build time (or TORCH_CUDA_ARCH_LIST). No release pin changes that.
func builtOnMachineHint(name string, fw *resolver.Framework) string {
	torch := "torch's CUDA version"
	if fw != nil && fw.Name == "pytorch" && fw.Version != "" {
		torch = "the CUDA version of torch " + fw.Version + "'s build"
	}
	return fmt.Sprintf("%s's GPU ops are compiled on the machine by its nvcc against torch (at first use, or at install), for the GPUs visible then or TORCH_CUDA_ARCH_LIST: install a CUDA toolkit whose nvcc matches %s on the machine, then run envguard check there once the ops are built", name, torch)
}

// knownReleases lists the releases of a package the knowledge base has
// build rows for, per distribution, newest last and at most the newest
// maxListed of each ("conda-forge: 11.6.0, 12.0.0"); "" where it has none.
// No command prints them (kb status gives only row counts), so the hint
// names them itself. With runsHere, a release whose row states a
// compute-capability floor above one of the target's GPUs is left out:
// it cannot be the release to pin there.
func (c *checker) knownReleases(p *resolver.GPUPackage, runsHere bool) string {
	const maxListed = 5
	byDist := map[string][]string{}
	var dists []string
	torch := c.fileTorch()
	rows := c.k.ExtensionReleases(p.Name)
	for _, b := range rows {
		if p.From != "" && resolver.CondaBuildDist(b.Dist) != (p.From == envspec.ProviderConda) {
			// a conda item is pinned among conda builds, a pip one among
			// pip's: the other installer's releases are no pin for it
			// (review ten #1163: a defaults bitsandbytes offered PyPI's)
			continue
		}
		if runsHere && (c.floorAboveSomeGPU(b.MinCC) || c.noBuildRunsOnSomeGPU(rows, b.Version, b.Dist)) {
			continue
		}
		if ok, known := b.AdmitsTorch(torch); torch != "" && known && !ok {
			// pip would replace the environment's torch to install it.
			continue
		}
		if !p.SpecAdmits(b.Version) {
			// the file's own spec rules it out (review fourteen #786:
			// 0.39.1 offered to bitsandbytes>=0.41.0)
			continue
		}
		if py := c.st.Python; py != "" {
			// the file's Python cannot install it (review forty-seven
			// F20: cupy 13 offered beside python=3.8.18)
			if floor, ok := c.k.PythonFloorOf(b.Name, kb.Distribution(b.Dist), b.Version); ok && compareVersions(py, floor) < 0 {
				continue
			}
		}
		if _, seen := byDist[b.Dist]; !seen {
			dists = append(dists, b.Dist)
		}
		if !slices.Contains(byDist[b.Dist], b.Version) {
			byDist[b.Dist] = append(byDist[b.Dist], b.Version)
		}
	}
	sort.Strings(dists)
	var parts []string
	for _, d := range dists {
		vs := byDist[d]
		sort.Slice(vs, func(i, j int) bool { return compareVersions(vs[i], vs[j]) < 0 })
		more := ""
		if len(vs) > maxListed {
			more = fmt.Sprintf(" and %d older", len(vs)-maxListed)
			vs = vs[len(vs)-maxListed:]
		}
		parts = append(parts, fmt.Sprintf("%s: %s%s", d, strings.Join(vs, ", "), more))
	}
	return strings.Join(parts, "; ")
}

// hasCondaRows says whether the knowledge base has a release row of an
// extension from a distribution conda installs from.
func (c *checker) hasCondaRows(name string) bool {
	for _, b := range c.k.ExtensionReleases(name) {
		if resolver.CondaBuildDist(b.Dist) {
			return true
		}
	}
	return false
}

// noBuildRunsOnSomeGPU reports whether every row of one release and
// distribution states its architectures and none of them carries SASS or
// PTX for one of the target's GPUs (bitsandbytes 0.45.0 on a K80), so
// that proposing the release there would propose a failure. For a release
// that loads the library of the machine's CUDA runtime (cuda_from_machine)
// one library without code is enough: which one loads is not the file's
// choice (bitsandbytes 0.37.0's CUDA 11.8 libraries on a K80).
func (c *checker) noBuildRunsOnSomeGPU(rows []kb.ExtensionBuild, version, dist string) bool {
	var own []kb.ExtensionBuild
	machine := false
	for _, b := range rows {
		if b.Version == version && b.Dist == dist {
			if !b.ArchKnown || b.NoDeviceCode {
				return false
			}
			own = append(own, b)
			machine = machine || b.CUDAFromMachine
		}
	}
	if len(own) == 0 {
		return false
	}
	for _, g := range c.h.GPUs {
		gcc, ok := parseCC(g.CC)
		if !ok {
			continue
		}
		runs, lacks := false, false
		for _, b := range own {
			if v, _ := archVerdict(gcc, &kb.ArchList{SASS: b.SASS, PTX: b.PTX, Known: true}); v != runsNone {
				runs = true
			} else {
				lacks = true
			}
		}
		if !runs || (machine && lacks) {
			return true
		}
	}
	return false
}

// torchExcluded lists the releases of an extension whose torch
// requirement excludes the environment's torch ("0.45.5 requires
// torch>=2.0,<3"), oldest first; nil where the file fixes no torch.
func (c *checker) torchExcluded(name string) []string {
	torch := c.fileTorch()
	if torch == "" {
		return nil
	}
	var out []string
	for _, b := range c.k.ExtensionReleases(name) {
		if ok, known := b.AdmitsTorch(torch); known && !ok {
			if e := b.Version + " requires torch" + b.TorchRequires; !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return compareVersions(out[i], out[j]) < 0 })
	return out
}

// floorAboveSomeGPU reports whether a compute-capability floor ("7.5")
// lies above one of the target's GPUs; false for no floor or no GPUs.
func (c *checker) floorAboveSomeGPU(minCC string) bool {
	lo, ok := parseCC(minCC)
	if minCC == "" || !ok {
		return false
	}
	for _, g := range c.h.GPUs {
		if gcc, ok := parseCC(g.CC); ok && gcc.less(lo) {
			return true
		}
	}
	return false
}

// lowestFloor is the lowest compute-capability floor the release rows of
// a package state ("7.5"); only called where every row has one.
func (c *checker) lowestFloor(name string) string {
	var low string
	var lowCC cc
	for _, b := range c.k.ExtensionReleases(name) {
		if v, ok := parseCC(b.MinCC); ok && (low == "" || v.less(lowCC)) {
			low, lowCC = b.MinCC, v
		}
	}
	return low
}

// floatCarries judges a toolkit library that is any release of its major
// from p.FloatFrom on (a conda-forge build's, conda_forge_cuda_float): it
// carries code for gcc where every such release does, lacks it where none
// does, and is open otherwise, since which one the solver installs is not
// known (review thirty-nine F34: conda-forge's pytorch 2.4.1 CUDA 12.0
// build was said to load CUDA 12.0's libraries, while its run requirement
// admits every 12.x, of which 12.8 and later carry sm_120 code).
func (c *checker) floatCarries(p *resolver.GPUPackage, gcc cc) (carries, string) {
	major := majorOf(p.FloatFrom)
	newest := c.k.NewestCUDAOfMajor(major)
	single := *p
	single.FloatFrom, single.FloatWhy = "", ""
	if newest == "" || compareVersions(newest, p.FloatFrom) <= 0 {
		return c.libCarries(&single, gcc)
	}
	type verdict struct {
		rel string
		has carries
		why string
	}
	var all []verdict
	yes, no := 0, 0
	for _, rel := range c.releasesOfMajor(p.FloatFrom, newest) {
		q := resolver.ToolkitLib(p.Lib, rel)
		has, why := c.libCarries(&q, gcc)
		all = append(all, verdict{rel, has, why})
		switch has {
		case carriesYes:
			yes++
		case carriesNo:
			no++
		}
	}
	switch {
	case len(all) == 0:
		return c.libCarries(&single, gcc)
	case yes == len(all):
		return carriesYes, ""
	case no == len(all):
		return carriesNo, fmt.Sprintf("the CUDA libraries are whichever %d.x release from %s the solver installs (%s), and %s", major, p.FloatFrom, p.FloatWhy, all[len(all)-1].why)
	}
	from := ""
	for i := len(all) - 1; i >= 0 && all[i].has == carriesYes; i-- {
		from = all[i].rel
	}
	// said of the libraries together, so that judgeCUDALibs says it once
	why := fmt.Sprintf("the CUDA libraries are whichever %d.x release from %s to %s the solver installs (%s)", major, p.FloatFrom, newest, p.FloatWhy)
	if from != "" {
		why += fmt.Sprintf(": from CUDA %s on they carry code for %s, while %s", from, gcc.sm(), all[0].why)
	} else {
		why += ": " + all[0].why
	}
	return carriesUnknown, why
}

// releasesOfMajor lists the CUDA toolkit releases (major.minor) from from
// through newest, of one major, that the knowledge base has an
// architecture row of.
func (c *checker) releasesOfMajor(from, newest string) []string {
	major := majorOf(from)
	_, m, _ := strings.Cut(from, ".")
	minor, err := strconv.Atoi(m)
	if err != nil {
		return nil
	}
	var out []string
	for ; ; minor++ {
		rel := fmt.Sprintf("%d.%d", major, minor)
		if compareVersions(rel, newest) > 0 {
			break
		}
		if _, ok := c.k.ToolkitArch(rel); ok {
			out = append(out, rel)
		}
	}
	return out
}

// firstTorchWithSASS names the oldest pytorch build the knowledge base
// knows to carry SASS for gcc, and says where the file's distribution has
// none (review forty F13: the pytorch channel, whose releases end at 2.5.1,
// has no sm_120 build, while "a newer pytorch release" sent the reader
// there): "; the first with it is pytorch 2.7.0's CUDA 12.8 build (the
// PyTorch wheel index), and the pytorch channel has none". "" where no
// row shows one.
func (c *checker) firstTorchWithSASS(gcc cc, own kb.Distribution) string {
	if k, ok := c.k.(*kb.KB); ok {
		// the answer is the knowledge base's alone: the builder asks it of
		// thousands of candidate environments
		return k.Memo("firstTorchWithSASS "+gcc.key()+" "+string(own), func() string {
			return c.firstTorchWithSASSUncached(gcc, own)
		})
	}
	return c.firstTorchWithSASSUncached(gcc, own)
}

func (c *checker) firstTorchWithSASSUncached(gcc cc, own kb.Distribution) string {
	rels := append([]string(nil), c.k.TorchReleases()...)
	slices.SortFunc(rels, compareVersions)
	dists := []kb.Distribution{kb.DistWheel, kb.DistCondaForge, kb.DistPytorchConda, kb.DistDefaults}
	first, firstCU, firstDist := "", "", kb.Distribution("")
	// builds calls each with the CUDA of every build of release rel on d
	// and its architecture list (nil where not known), until each says stop
	builds := func(rel string, d kb.Distribution, each func(cu string, a *kb.ArchList) bool) {
		v, ok := c.k.Variants(resolver.SeriesOf(rel), d)
		if !ok || v.NotPublished || (len(v.Releases) > 0 && !contains(v.Releases, rel)) {
			return
		}
		for _, cu := range v.CUDA {
			a, ok := c.k.Arch(rel, cu, d)
			if !ok || !a.Known {
				a = nil
			}
			if !each(cu, a) {
				return
			}
		}
	}
	for _, rel := range rels {
		for _, d := range dists {
			builds(rel, d, func(cu string, a *kb.ArchList) bool {
				if a == nil {
					return true
				}
				if verdict, _ := archVerdict(gcc, a); verdict == runsSASS {
					first, firstCU, firstDist = rel, cu, d
					return false
				}
				return true
			})
			if first != "" {
				break
			}
		}
		if first != "" {
			break
		}
	}
	if first == "" {
		return ""
	}
	s := fmt.Sprintf("; the first with it is pytorch %s's CUDA %s build (%s)", first, firstCU, resolver.DistWhere(firstDist))
	if own == "" || own == firstDist || !c.everySeriesListed(own) {
		return s
	}
	// the file's distribution is said to have none only where every build
	// of it whose compiler could emit SASS for gcc is known to lack it
	ownHas := false
	for _, rel := range rels {
		builds(rel, own, func(cu string, a *kb.ArchList) bool {
			if a == nil {
				_, _, below := c.compilerBelow(cu, gcc)
				ownHas = !below // not known to lack it
			} else if verdict, _ := archVerdict(gcc, a); verdict == runsSASS {
				ownHas = true
			}
			return !ownHas
		})
		if ownHas {
			return s
		}
	}
	return s + fmt.Sprintf(", and %s has none", resolver.DistWhere(own))
}

// everySeriesListed says whether the knowledge base lists the CUDA
// variants of every pytorch series a closed distribution published (the
// pytorch channel, which publishes no more), so that "it has none" is a
// fact and not a gap in the rows.
func (c *checker) everySeriesListed(d kb.Distribution) bool {
	rels := closedDist(c.k, d)
	if len(rels) == 0 {
		return false
	}
	for _, rel := range rels {
		if _, ok := c.k.Variants(resolver.SeriesOf(rel), d); !ok {
			return false
		}
	}
	return true
}

// frameworkArchOpen reports whether this target left the framework
// build's own architecture check undecided.
func (c *checker) frameworkArchOpen() bool {
	for _, u := range c.undecided {
		if u.Check == "architecture" && u.What == c.build() {
			return true
		}
	}
	return false
}
