package gpucheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG409: a check could not be decided. Its step is the variant
// check; every other step raises it through undecide where a fact is
// missing, and the target's verdict is then unknown.
var ruleEG409 = &Rule{
	Rule: finding.Rule{
		Code: "EG409", Name: "undecided", Severity: finding.SeverityWarning,
		Title: "a check against a target could not be decided (the build's architecture list, PTX, the driver floor or the variant is not known): the target's verdict is unknown, never ok",
		Why: "A target is ok only when its driver, its GPU architectures (SASS and PTX) and the CPU or CUDA variant were each " +
			"decided. Where the knowledge base lacks a fact (an architecture list, whether a build carries PTX, a driver's CUDA " +
			"version) envguard says so instead of guessing; where it can, it reasons from the CUDA toolkit's own limits: a GPU " +
			"older than anything the toolkit can target fails (EG403), and one newer than everything it targets runs only through " +
			"PTX. A file with an item conda may read otherwise than envguard (EG103) leaves every target unknown at best: what " +
			"it installs is not known. A file conda or pip cannot read (EG100, EG101, EG104), one that asks for what does not exist " +
			"where it asks for it (EG205), and a conda env export made on macOS or Windows (its prefix) that pins that platform's builds of " +
			"compiled packages, read for Linux, are not unknown but fail every target: conda or pip stops before anything runs, and the " +
			"target's uninstallable field says why. Each undecided check names its cause: a fact the knowledge base lacks, one no public source holds, " +
			"the machine, or a file to fix. " +
			"`--fail-on unknown` (or fail_on: unknown in .envguard.yml) makes an unknown verdict fail CI.",
		Fix: "Pin what decides the check (the CUDA variant, a build whose architecture list is known), describe the target fully " +
			"(driver, GPUs), or confirm on the machine: python -c 'import torch; print(torch.cuda.get_arch_list())'.",
		Before: "# target: RTX 5090 (12.0)\ndependencies:\n  - pip:\n    - torch==2.5.1+cu124",
		After:  "# target: RTX 5090 (12.0)\ndependencies:\n  - pip:\n    - torch==2.7.1+cu128",
		Since:  "0.2.0",
	},
	run: runEG409,
}

// runEG409 leaves the check undecided where the file leaves the framework's
// variant (CPU or CUDA build) to the solver.
func runEG409(c *checker) bool {
	if c.h.Available && len(c.h.GPUs) > 0 {
		// a pip companion over a conda pytorch whose wheel's CUDA is not
		// known loads beside it or refuses to, on every GPU machine
		for _, o := range c.st.CompanionsOpen {
			c.undecide(o.Pos, "extension", "companion-cuda-unknown", o.Item, o.Why,
				"install it from conda beside pytorch (same channel, the release that pairs with it), or from the PyTorch wheel index built for pytorch's CUDA (+cuXYZ)")
		}
	}
	fw := c.st.Framework
	if fw != nil && fw.Variant == "" && gpuFramework(fw) {
		if fw.VariantWhy != "" {
			// the file names a variant but cannot give one (two pip
			// distributions writing one package): the resolver says why
			c.undecide(c.fwPos(), "variant", "variant-two-distributions", fwName(fw), fw.VariantWhy,
				"keep one distribution: the CPU-only one for a CPU-only environment, the one with GPU support to use the GPU")
		} else if fw.Name == "tensorflow" && fw.From == envspec.ProviderPip {
			// One Linux wheel for CPU and GPU since 2.1: it uses the GPU only
			// if it finds CUDA and cuDNN libraries when it starts. A GPU its
			// known architecture list cannot serve stays idle either way.
			if c.tfWheelServesNone() || c.tfCuDNNMajorFails() {
				return true
			}
			provides, hint := "and the file provides none", tfCUDAHint(c.k, fw.Version)
			if cu := c.st.CUDA; cu != nil && cu.Version != "" && len(cu.Evidence) > 0 && condaCUDAEvidence(cu.Evidence[0].Kind) {
				// a conda CUDA beside it (review forty F37, corpus 158:
				// cudatoolkit=11.3.1, which the pytorch build pins): a pip
				// TensorFlow finds it only where the loader searches
				// $CONDA_PREFIX/lib, and it brings no cuDNN
				e := cu.Evidence[0]
				provides = fmt.Sprintf("and the file's CUDA %s (%s, line %d) serves it only where $CONDA_PREFIX/lib is on LD_LIBRARY_PATH, which a pip TensorFlow does not search by itself", cu.Version, e.Item, e.Pos.Line)
				hint = "put $CONDA_PREFIX/lib on LD_LIBRARY_PATH (TensorFlow's install guide sets it in the environment's activate.d), with a cuDNN of the major TensorFlow was built with beside it"
			}
			c.undecide(c.fwPos(), "variant", "cuda-libraries-not-in-file", fwName(fw),
				"the pip wheel uses the GPU only if it finds CUDA and cuDNN libraries at run time, "+provides+", so "+c.tfWhereLibsFound(fw),
				hint+c.tfPTXOnly())
		} else if fw.Name == "pytorch" && fw.From == envspec.ProviderPip && fw.Version == "" {
			// PyPI's torch has one build per release and platform (a CUDA
			// build on Linux x86_64, the CPU build on Windows and macOS):
			// what is open is the release, and with it the CUDA version
			// and the architecture list, not a CPU/CUDA choice on Linux.
			// The newest release the tables list is no bound: pip takes
			// the index's newest on the day, which may be one they lack
			// (review 8 #787: 2.15.0 beside tables ending at 2.14.0).
			newest, hint := "", "pin the release: torch==X.Y.Z, which PyPI serves as one CUDA build on Linux x86_64, or torch==X.Y.Z+cuXYZ with the PyTorch wheel index"
			if rels := c.k.TorchReleases(); len(rels) > 0 {
				top := newestRelease(rels)
				newest = " (the knowledge base lists releases through " + top + "; the index may serve a newer one)"
				if why, runs := c.pypiTorchBeyondDriver(c.withPython(rels), top); why != "" {
					// review twelve #308: say what pip takes today where
					// this driver cannot run it, and a release it can,
					// with a wheel for the file's Python (review
					// forty-five F10: torch==2.0.1 offered beside
					// python=3.12, which it has no wheel for)
					newest = " (the knowledge base lists releases through " + top + why + "; the index may serve a newer one)"
					switch {
					case runs != "":
						hint = "pin a release whose CUDA this driver runs: torch==" + runs + ", or another release with torch==X.Y.Z+cuXYZ from the PyTorch wheel index"
					case c.st.Python != "":
						lead := "no release the package index serves as a build this driver runs has a Python " + c.st.Python + " wheel: "
						hint = lead + "take one from the PyTorch wheel index (torch==X.Y.Z+cuXYZ)"
						if drv := c.hostDriverCUDA(); drv != "" {
							if b := c.olderBuild(c.k.NewestCUDAOfMajor(majorOf(drv)), c.st.Python, false); b != "" {
								hint = lead + "install " + b
							}
						}
						with := c.withPythonWheel(rels)
						if m := c.pypiTorchMajorsBeyond(with); m != "" {
							// every release pip can install for this
							// Python is a build of a newer CUDA major than
							// the driver's: whichever it takes fails
							// (review fifty-three F12, corpus 033: python
							// 3.12 on a K80's R470)
							c.add("EG401", c.fwPos(),
								fmt.Sprintf("%s supports CUDA %s; pip installs whichever torch release the index serves, and every release with a Python %s wheel (%s) is a package-index build for CUDA %s, whose major this driver cannot run",
									c.driverLabel(), c.hostDriverCUDA(), c.st.Python, resolver.RangeOf(with), m),
								hint)
							return true
						}
					}
				}
			}
			c.undecide(c.fwPos(), "variant", "variant-left-to-solver", fwName(fw),
				"pip installs whatever torch release the index serves that day"+newest+", and with it the build (PyPI serves each release as one CUDA build on Linux x86_64, each with its own CUDA version and architecture list, and as the CPU build on Windows and macOS), so neither the driver nor the GPU architectures can be checked for it",
				hint)
		} else {
			open := ""
			if fw.VariantOpen != "" {
				open = " (" + fw.VariantOpen + ")"
			}
			hint := variantHint(c.k, fw, false) + c.selectorRouteFails(fw)
			if fw.Dist == kb.DistPytorchConda && fw.ForeignSelector == "" {
				// the selectors it names pick builds none of which may run
				// here (review fifty-two F40, corpus 161: an RTX 5090)
				hint += c.channelLastFails()
			}
			if fw.ForeignSelector != "" {
				hint = resolver.SelectorRoute(c.k, fw.ForeignSelector) + c.channelLastFails() + "; or drop it and " + hint
			}
			what := "whether the CPU or the CUDA build is installed is left to " + solverOf(fw) + c.bothInstall()
			if fw.VariantOpen != "" {
				// what the channels publish is not known, not a choice
				// between builds known to exist (review fifty-five F20)
				what = "whether the CPU or the CUDA build is installed is not known"
			}
			c.undecide(c.fwPos(), "variant", "variant-left-to-solver", fwName(fw),
				what+open+", so neither the driver nor the GPU architectures can be checked for it",
				hint)
		}
	}
	return true
}

// tfWhereLibsFound says what is known of a pip TensorFlow that finds its
// CUDA libraries outside the environment: where the release's tested CUDA
// runs on the host's driver and its wheel's known list has SASS for every
// GPU, that much is decided, and only whether it finds the libraries is
// left to the machine (review fourteen #388: tf-nightly 2.6 on a K80,
// whose driver runs CUDA 11.2 and whose sm_35 SASS runs on sm_37).
func (c *checker) tfWhereLibsFound(fw *resolver.Framework) string {
	const none = "neither the driver nor the GPU architectures can be checked for it"
	t, ok := c.k.TensorFlow(fw.Version)
	drv := c.hostDriverCUDA()
	if !ok || t.CUDA == "" || drv == "" || len(c.h.GPUs) == 0 {
		return none
	}
	runs := compareVersions(drv, t.CUDA) >= 0 || (majorOf(drv) == majorOf(t.CUDA) && c.reachesCompatFloor(majorOf(t.CUDA), drv))
	if !runs {
		return none
	}
	list, ok := c.k.FrameworkArch("tensorflow", resolver.SeriesOf(fw.Version), t.CUDA, kb.DistPyPI)
	if !ok || !c.sassForHostGPUs(list) {
		return none
	}
	return fmt.Sprintf("whether it uses the GPU is decided on the machine; where it finds CUDA %s libraries, the driver (CUDA %s) runs them and its wheel's code (%s) has SASS for this target's GPUs, and which cuDNN it finds, and whether that cuDNN supports them, is the machine's too", t.CUDA, drv, archSummary(list))
}

// selectorRouteFails says, where the variant hint proposes taking pytorch
// from the pytorch channel to use the file's pytorch-cuda (a selector
// beside defaults' pytorch), that the build it would select fails on
// this target too (review fifteen #347: the pytorch channel's 2.0 CUDA
// 11.8 build, whose cuDNN 8.7 has no code for an RTX 5090); "" where it
// does not fail or cannot be judged.
func (c *checker) selectorRouteFails(fw *resolver.Framework) string {
	cu := fw.IgnoredSelectorCUDA
	if fw.IgnoredSelector == "" || cu == "" || c.k == nil {
		return ""
	}
	version := fw.Version
	series := fw.Series()
	if version == "" {
		series = resolver.OneSeries(fw.Candidates)
	}
	if series == "" {
		return ""
	}
	v, ok := c.k.Variants(series, kb.DistPytorchConda)
	if !ok || !contains(v.CUDA, cu) {
		return ""
	}
	if version == "" {
		version = c.newestRelease(series, v, kb.DistPytorchConda, cu, "")
	}
	if version == "" {
		return ""
	}
	pfw := *fw
	pfw.Dist, pfw.Channel, pfw.IgnoredSelector, pfw.IgnoredSelectorCUDA = kb.DistPytorchConda, "pytorch", "", ""
	st := *c.st
	st.Framework = &pfw
	sub := checkBuild(buildStack(&st, c.k, version, "cuda", cu), c.h, c.k, c.opt)
	if sub.verdict() != VerdictFail {
		return ""
	}
	for _, d := range sub.ds {
		if d.Severity == finding.SeverityError {
			return fmt.Sprintf("; but on %s the pytorch channel's pytorch %s CUDA %s build would fail too (%s: %s)", c.h.label(), version, cu, d.Code, envspec.Clip(d.Message, 160))
		}
	}
	return ""
}

// channelLastFails says, where every CUDA build of the pytorch channel's
// last release fails on the target, that the route to that channel cannot
// serve it (review forty-eight F4, corpus 014: its CUDA 12 builds carry no
// code for an RTX 5090), naming the first build's error; "" otherwise.
func (c *checker) channelLastFails() string {
	rels := closedDist(c.k, kb.DistPytorchConda)
	if len(rels) == 0 || c.h == nil || len(c.h.GPUs) == 0 {
		return ""
	}
	var last string
	var v *kb.TorchVariants
	for i := len(rels) - 1; i >= 0 && last == ""; i-- {
		if vs, ok := c.k.Variants(resolver.SeriesOf(rels[i]), kb.DistPytorchConda); ok && !vs.NotPublished && len(vs.CUDA) > 0 && (len(vs.Releases) == 0 || contains(vs.Releases, rels[i])) {
			last, v = rels[i], vs
		}
	}
	if last == "" {
		return ""
	}
	pfw := *c.st.Framework
	pfw.Dist, pfw.Channel, pfw.ForeignSelector, pfw.IgnoredSelector, pfw.IgnoredSelectorCUDA = kb.DistPytorchConda, "pytorch", "", "", ""
	first := c.cudaBuildsFail(&pfw, last, v.CUDA)
	if first == "" {
		return ""
	}
	return fmt.Sprintf(" (but on %s no CUDA build of the channel's last release, pytorch %s (CUDA %s), runs: %s)", c.h.label(), last, strings.Join(v.CUDA, ", "), first)
}

// cudaBuildsFail judges fw's CUDA builds of release for each of cudas on
// the target and, where every one fails, returns the first build's
// error (the framework's own first, the one a route to it changes); ""
// where one does not fail.
func (c *checker) cudaBuildsFail(fw *resolver.Framework, release string, cudas []string) string {
	first := ""
	for _, cu := range cudas {
		st := *c.st
		st.Framework = fw
		sub := checkBuild(buildStack(&st, c.k, release, "cuda", cu), c.h, c.k, c.opt)
		if sub.verdict() != VerdictFail {
			return ""
		}
		for _, d := range sub.ds {
			if d.Severity == finding.SeverityError && (first == "" || (d.Code == "EG403" && !strings.HasPrefix(first, "EG403"))) {
				first = d.Code + ": " + envspec.Clip(d.Message, 160)
			}
		}
	}
	return first
}

// checkBuild is check, reached through a variable: a rule's step that
// judges another build would otherwise make the rules table refer to
// itself (Go's initialization cycle).
var checkBuild func(st *resolver.Stack, h *Host, k knowledge, opt CheckOptions) *checker

func init() { checkBuild = check }

// solverOf names what picks a build the file leaves open.
// LeavesBuild opens the reason of an EG409 that a pin of the framework's
// release and variant answers (the fixer counts those); an extension whose
// release is open says otherwise, and a framework pin leaves it open.
const LeavesBuild = "the file leaves the build to "

func solverOf(fw *resolver.Framework) string {
	if fw.From == envspec.ProviderPip {
		return "pip"
	}
	return "the solver"
}

// variantHint is how to pin the variant in the words of the framework's
// distribution and release: the resolver's (EG207's) for a conda
// framework, a +cuXXX wheel with its index for pip; with the release
// first where it is open too.
func variantHint(k knowledge, fw *resolver.Framework, release bool) string {
	if fw.From == envspec.ProviderPip {
		if release {
			return "pin the release and the variant: a +cuXXX wheel with its index"
		}
		return "pin the variant: a +cuXXX wheel with its index"
	}
	h := resolver.VariantHint(k, fw)
	if release {
		return "pin the release, and " + h
	}
	return h
}

// undecide records a check that could not be decided: an EG409 finding on
// the line it concerns, and the reason in the target's Undecided. check is
// which check (variant, driver, architecture), reason a stable key for the
// missing fact, what the thing that was not checked (a build, a runtime),
// why what was missing, in words.
func (c *checker) undecide(pos finding.Pos, check, reason, what, why, hint string) {
	c.undecideFor(pos, reasonCause[reason], check, reason, what, why, hint)
}

// undecideFor is undecide with the cause said by the caller, where the
// reason alone does not settle it (an extension the knowledge base lacks,
// or one whose code no public source describes).
func (c *checker) undecideFor(pos finding.Pos, cause, check, reason, what, why, hint string) {
	msg := fmt.Sprintf("could not check %s against %s: %s", what, c.h.label(), why)
	c.undecided = append(c.undecided, Undecided{Check: check, Reason: reason, What: what, Why: why, Cause: cause})
	c.add("EG409", pos, msg, hint)
}

// Causes of an undecided check: where the missing fact would come from.
// The goal of a decided verdict for every determined file (issue 26)
// holds for CauseKB only; the others are listed by name.
const (
	// CauseKB: a public source may hold the fact; the knowledge base
	// does not yet (the zero value).
	CauseKB = ""
	// CauseNoSource: the knowledge base records that no public source
	// holds it (cuML's closed-source kernels).
	CauseNoSource = "no-public-source"
	// CauseMachine: the machine decides it, at install or run time (ops
	// compiled at first use, libraries found outside the environment).
	CauseMachine = "machine"
	// CauseFile: the file cannot be installed as written, so there is no
	// environment to judge until it is fixed.
	CauseFile = "file"
)

// reasonCause is the cause every undecided check of a reason has.
var reasonCause = map[string]string{
	"file-not-read": CauseFile,
	// a README or a table named as an input: no environment at all
	"not-environment":            CauseFile,
	"pip-pin-conflict":           CauseFile,
	"conda-package-not-found":    CauseFile,
	"cuda-libraries-unloadable":  CauseMachine,
	"extension-lib-from-machine": CauseMachine,
	// a pip TensorFlow whose CUDA libraries the machine must provide
	"cuda-libraries-not-in-file": CauseMachine,
}

// Undecided is one check that could not be decided.
type Undecided struct {
	// Check is what was not decided: variant, driver or architecture.
	Check string `json:"check"`
	// Reason is a stable key for the missing fact, for counting
	// (arch-list-unknown, ptx-unknown, runtime-unknown, ...).
	Reason string `json:"reason"`
	// What names the thing left unchecked: the build, the package or the
	// libraries, so that the missing fact can be named (coverage lists
	// them by Reason and What).
	What string `json:"what"`
	// Why says it in words.
	Why string `json:"why"`
	// Cause says where the fact would come from: CauseKB (""),
	// CauseNoSource, CauseMachine or CauseFile.
	Cause string `json:"cause,omitempty"`
}

// UndecidedText joins what was left undecided, for one-line verdicts.
func UndecidedText(us []Undecided) string {
	s := make([]string, len(us))
	for i, u := range us {
		s[i] = u.Why
	}
	return strings.Join(s, "; ")
}

// tfWheelServesNone raises EG403 for each GPU that a pinned pip
// TensorFlow's known architecture list has neither SASS nor PTX for, and
// says whether that was every GPU: with CUDA libraries found the wheel has
// no code for them, without them it runs on the CPU, so the variant left
// open does not matter there.
func (c *checker) tfWheelServesNone() bool {
	fw := c.st.Framework
	if fw.Version == "" || len(c.h.GPUs) == 0 {
		return false
	}
	list, ok := c.k.FrameworkArch(fw.Name, fw.Version, "", kb.DistPyPI)
	if !ok || list == nil || !list.Known || list.PTXOpen() {
		return false
	}
	all := true
	c.eachCC(func(gcc cc, gs []GPU) {
		if v, _ := archVerdict(gcc, list); v == runsNone {
			c.noKernel(fmt.Sprintf("%s (%s)", fwName(fw), archSummary(list)), gs, gcc,
				"use a TensorFlow release whose wheels target this architecture, or a newer GPU; with no CUDA libraries the wheel runs on the CPU")
			return
		}
		all = false
	})
	return all
}

// tfCuDNNMajorFails raises EG410 for each GPU that no cuDNN of the major a
// pinned pip TensorFlow opens (libcudnn.so.<major> of the cuDNN it was
// built with) runs on: whatever the machine gives it, its cuDNN operations
// cannot run there, and without a cuDNN it runs on the CPU, so the GPU path
// is decided (review thirty-nine F18: TensorFlow 2.1.0, cuDNN 7, on an
// H100). It reports whether some GPU failed.
func (c *checker) tfCuDNNMajorFails() bool {
	fw := c.st.Framework
	if fw.Version == "" || len(c.h.GPUs) == 0 {
		return false
	}
	t, ok := c.k.TensorFlow(fw.Version)
	if !ok || t.CuDNN == "" {
		return false
	}
	major, _, _ := strings.Cut(t.CuDNN, ".")
	failed := false
	c.eachCC(func(gcc cc, gs []GPU) {
		// every release of the major it opens, as for any cuDNN known by
		// its major only (cudnnWithinFails)
		through, _, _ := c.cudnnWithinThrough(&resolver.GPUPackage{Lib: "cudnn", Within: major}, gcc)
		if through == "" {
			return
		}
		failed = true
		c.add("EG410", c.fwPos(),
			fmt.Sprintf("%s opens libcudnn.so.%s, a cuDNN %s.x (it was built with cuDNN %s), and none runs on %s: %s; with one the machine gives it, its cuDNN operations cannot run there, and without one it runs on the CPU",
				fwName(fw), major, major, t.CuDNN, gpuLabel(c.h, gs), noneThroughWhy("cudnn", through, gcc)),
			fmt.Sprintf("use a TensorFlow release built with a cuDNN that supports %s, or run on a GPU that cuDNN %s supports", gcc.sm(), major))
	})
	return failed
}

// tfPTXOnly is what tfCUDAHint's way out leaves open on this target: the
// GPUs a pinned pip TensorFlow's known architecture list carries no SASS
// for, which run it, with the CUDA libraries found, only through the
// driver's JIT compilation of its PTX. [and-cuda] alone was offered for an
// RTX 5090 beside TensorFlow 2.17.0 (review nine #1145). "" where every
// GPU has SASS or the list is not known.
func (c *checker) tfPTXOnly() string {
	fw := c.st.Framework
	if fw.Version == "" {
		return ""
	}
	list, ok := c.k.FrameworkArch(fw.Name, fw.Version, "", kb.DistPyPI)
	if !ok || list == nil || !list.Known {
		return ""
	}
	cudnn := ""
	if t, ok := c.k.TensorFlow(fw.Version); ok {
		cudnn = t.CuDNN
	}
	var parts, noCuDNN []string
	c.eachGPUOfCC(func(gcc cc, gs []GPU) {
		if v, by := archVerdict(gcc, list); v == runsPTX {
			parts = append(parts, fmt.Sprintf("%s, which runs it only through the driver's JIT compilation of its %s PTX", gpuLabel(c.h, gs), by.compute()))
			if cudnn != "" {
				// the tested cuDNN may not run there at all (review eleven
				// #471: TensorFlow 2.1.0's cuDNN 7.6 on an A100)
				if why, no := c.cudnnCarriesNo(cudnn, gcc); no {
					noCuDNN = append(noCuDNN, why)
				}
			}
		}
	})
	if len(parts) == 0 {
		return ""
	}
	s := "; even then, " + fwName(fw) + "'s wheels (" + archSummary(list) + ") carry no machine code for " + strings.Join(parts, "; for ") +
		": a slow first start, without that architecture's own kernels; whether XLA, which compiles kernels of its own, supports that GPU the knowledge base does not know"
	if len(noCuDNN) > 0 {
		s += fmt.Sprintf("; and the tested cuDNN %s cannot run there: %s, so use a TensorFlow release built for this GPU", cudnn, strings.Join(noCuDNN, "; "))
	}
	return s
}

// tfCUDAHint is how a pip TensorFlow gets its CUDA libraries: the pip
// extra the knowledge base names (tensorflow_pip_cuda) for a release that
// has it, or from the first release that has it when the release is open;
// else the tested CUDA and cuDNN versions.
func tfCUDAHint(k knowledge, version string) string {
	const tested = "the CUDA and cuDNN versions TensorFlow was tested with"
	if version != "" {
		if r, ok := k.TensorFlowPipCUDA(version); ok {
			return fmt.Sprintf("install tensorflow[%s] (the extra installs NVIDIA's CUDA wheels), or %s", r.Extra, tested)
		}
		return "install " + tested
	}
	if r, ok := k.FirstTensorFlowPipCUDA(); ok {
		return fmt.Sprintf("install tensorflow[%s] (%s and later), or %s", r.Extra, strings.TrimSuffix(r.From, ".0"), tested)
	}
	return "install " + tested
}

// pypiTorchBeyondDriver says, where the package index's build of top is
// for a CUDA major newer than the one the host's driver supports, that
// this driver cannot run it (", whose package-index build is for CUDA
// 13.0, which this target's driver (CUDA 12.8) cannot run"), and names
// the newest release whose package-index build's CUDA major the driver
// supports ("" where the knowledge base does not say). It says nothing
// where the driver or the index's build of top is not known.
func (c *checker) pypiTorchBeyondDriver(rels []string, top string) (why, runs string) {
	drv := c.hostDriverCUDA()
	cuda := c.pypiTorchCUDA(top)
	if drv == "" || cuda == "" || majorOf(cuda) <= majorOf(drv) {
		return "", ""
	}
	why = ", whose package-index build is for CUDA " + cuda + ", which this target's driver (CUDA " + drv + ") cannot run: its CUDA major is newer"
	for _, r := range rels {
		cu := c.pypiTorchCUDA(r)
		if cu == "" || majorOf(cu) > majorOf(drv) || (majorOf(cu) == majorOf(drv) && compareVersions(cu, drv) > 0 && !c.reachesCompatFloor(majorOf(cu), drv)) {
			continue
		}
		if !c.sassOnEveryGPU(r, cu, kb.DistPyPI) {
			continue // a release this driver runs, but not on these GPUs
		}
		if runs == "" || compareVersions(r, runs) > 0 {
			runs = r
		}
	}
	return why, runs
}

// pypiTorchMajorsBeyond is the CUDA majors ("12 or 13") of the package
// index's builds of rels where every one is of a newer major than the
// driver's, and the releases' Pythons are known, so that no release the
// list stands for runs on this driver; "" otherwise.
func (c *checker) pypiTorchMajorsBeyond(rels []string) string {
	drv := c.hostDriverCUDA()
	if drv == "" || len(rels) == 0 {
		return ""
	}
	var majors []string
	for _, r := range rels {
		t, ok := c.k.Release(r)
		cu := c.pypiTorchCUDA(r)
		if !ok || len(t.Python) == 0 || cu == "" || majorOf(cu) <= majorOf(drv) {
			return ""
		}
		if m := fmt.Sprint(majorOf(cu)); !contains(majors, m) {
			majors = append(majors, m)
		}
	}
	slices.Sort(majors)
	return strings.Join(majors, " or ")
}

// withPythonWheel keeps the releases the knowledge base knows to have a
// wheel for the file's Python, experimental ones included (torch 2.2's
// Python 3.12 wheels): what pip may install there.
func (c *checker) withPythonWheel(rels []string) []string {
	var out []string
	for _, r := range rels {
		if t, ok := c.k.Release(r); ok && (contains(t.Python, c.st.Python) || contains(t.PythonExperimental, c.st.Python)) {
			out = append(out, r)
		}
	}
	return out
}

// withPython keeps the releases that have a wheel for the file's Python
// (every release, where the file pins none or the knowledge base does not
// list a release's Pythons).
func (c *checker) withPython(rels []string) []string {
	py := c.st.Python
	if py == "" {
		return rels
	}
	var out []string
	for _, r := range rels {
		if t, ok := c.k.Release(r); !ok || len(t.Python) == 0 || contains(t.Python, py) {
			out = append(out, r)
		}
	}
	return out
}

// sassOnEveryGPU says whether a distribution's build of a torch release for
// CUDA cu is known to carry SASS for each of the host's GPUs.
func (c *checker) sassOnEveryGPU(release, cu string, dist kb.Distribution) bool {
	list, ok := c.k.Arch(release, cu, dist)
	return ok && c.sassForHostGPUs(list)
}

// sassForHostGPUs says whether a known architecture list has SASS for
// each of the host's GPUs (false where the host lists none).
func (c *checker) sassForHostGPUs(list *kb.ArchList) bool {
	if list == nil || !list.Known || len(c.h.GPUs) == 0 {
		return false
	}
	for _, g := range c.h.GPUs {
		gcc, ok := parseCC(g.CC)
		if !ok {
			return false
		}
		if v, _ := archVerdict(gcc, list); v != runsSASS {
			return false
		}
	}
	return true
}

// pypiTorchCUDA is the CUDA of the package index's build of a torch
// release ("" where the knowledge base does not say).
func (c *checker) pypiTorchCUDA(release string) string {
	if v, ok := c.k.Variants(resolver.SeriesOf(release), kb.DistPyPI); ok {
		return v.Default
	}
	return ""
}

// newestRelease is the newest of rels by version order.
func newestRelease(rels []string) string {
	best := rels[0]
	for _, r := range rels[1:] {
		if compareVersions(r, best) > 0 {
			best = r
		}
	}
	return best
}

// condaCUDAEvidence says whether evidence of this kind is a conda package
// that installs the CUDA libraries into the environment's lib directory.
func condaCUDAEvidence(kind string) bool {
	return kind == resolver.EvidenceCudatoolkit || kind == resolver.EvidenceCUDAPackage
}
