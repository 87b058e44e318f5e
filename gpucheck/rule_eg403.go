package gpucheck

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG403: the build has no code a GPU can run. Its step judges every
// GPU architecture of the host, and also raises EG408 (PTX only) and EG409
// where the architecture list is not known.
var ruleEG403 = &Rule{
	Rule: finding.Rule{
		Code: "EG403", Name: "no-kernel-image", Severity: finding.SeverityError,
		Title: "the framework build can run no code on a GPU: no SASS for its architecture or a lower minor of the same major, and no PTX at or below it",
		Why: "A GPU runs machine code (SASS) built for its own architecture or a lower minor of the same major, or JIT-compiles PTX built " +
			"for an architecture at or below its own. A build with neither fails on that GPU with \"no kernel image is available for " +
			"execution on the device\" (an sm_80/sm_86 build on an H100, sm_90).",
		Fix:    "Use a framework release and CUDA variant whose architecture list includes the GPU (for Hopper: a CUDA 11.8 or 12.x build of torch 2.0 or later).",
		Before: "# target: H100 (9.0)\ndependencies:\n  - pytorch=1.13\n  - pytorch-cuda=11.7",
		After:  "# target: H100 (9.0)\ndependencies:\n  - pytorch=2.1\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	run: runEG403,
}

// runEG403 judges the host's GPU architectures against the build.
func runEG403(c *checker) bool {
	c.checkArch(c.driverCUDA)
	return true
}

// checkArch raises EG403/EG408 per distinct compute capability, from the
// build's architecture list where the knowledge base has it, else from what
// its CUDA toolkit's compiler can target at all; EG409 where neither
// decides.
func (c *checker) checkArch(driverCUDA string) {
	fw := c.st.Framework
	rt := c.runtime()
	if len(c.h.GPUs) == 0 {
		return
	}
	if cu := c.st.CUDA; cu != nil && cu.NotPublished != "" {
		// No such build exists (EG205 says so): reasoning about what "its"
		// CUDA's compiler targets would describe a build no one can install,
		// whichever variant the file leaves open (cudatoolkit=12.1 beside
		// conda-forge's pytorch=2.1.0); the target fails on the file
		// (uninstallableFile)
		return
	}
	if fw != nil && fw.Variant != "cuda" {
		return
	}
	if fw != nil && fw.NotPublished != "" {
		// No such release where the file asks for it (EG205 says so): an
		// architecture list "not known" would describe a phantom build;
		// the target fails on the file (uninstallableFile)
		return
	}
	if fw != nil && fw.CUDAUnloadable != "" {
		c.tfCUDAUnloadable()
		return
	}
	var list *kb.ArchList
	why, whyKey := "", ""
	switch {
	case rt == "" && c.runtimeMajor() > 0 && fw != nil:
		c.checkArchMajor(c.runtimeMajor(), driverCUDA)
		return
	case rt == "" && fw != nil && len(fw.RuntimeCandidates) == 0 && c.driverRunsEveryCandidate(driverCUDA):
		// every runtime the closed distribution built the releases the
		// file admits with runs on this driver (closedDistRuntimes); which
		// build the solver takes, and so its code, is still open
		rts := c.closedDistRuntimes()
		slices.SortFunc(rts, compareVersions)
		c.eachCC(func(gcc cc, gs []GPU) {
			c.undecide(c.fwPos(), "architecture", "arch-list-unknown", c.build(),
				fmt.Sprintf("the file leaves the %s release and its CUDA variant to the solver, so which build it gets, and so its architecture list, is not known, nor whether it runs on %s (%s); the driver runs every CUDA runtime the %s channel built them with (%s)",
					fw.Name, gcc.sm(), gpuLabel(c.h, gs), fw.Channel, resolver.RangeOf(rts)),
				"pin the release and its CUDA variant (pytorch=X.Y.Z with pytorch-cuda=X.Y)")
		})
		return
	case rt == "" && c.driverRunsEveryCandidate(driverCUDA):
		// checkDriver passed the driver for every runtime the build may
		// use; which one it uses, and so its architecture list, stays
		// unknown, except where every build the file admits shares code.
		from := fw.VariantFrom
		switch {
		case from != "":
		case fw.Version == "" && len(fw.Candidates) > 0:
			from = fmt.Sprintf("the %s channel built the %s releases the file admits (%s) with CUDA %s", orStr(fw.Channel, string(fw.Dist)), fw.Name, resolver.RangeOf(fw.Candidates), resolver.OrList(fw.RuntimeCandidates))
		default:
			from = fmt.Sprintf("the %s channel built %s %s with CUDA %s", orStr(fw.Channel, string(fw.Dist)), fw.Name, fw.Version, resolver.OrList(fw.RuntimeCandidates))
		}
		// the same for every GPU: worked out once
		listsKnown, hint := c.choiceListsKnown(), c.runtimeChoiceHint()
		c.eachCC(func(gcc cc, gs []GPU) {
			if c.commonArchDecides(gcc, gs) || c.ptxEveryCandidate(gcc, gs) {
				return
			}
			c.undecide(c.fwPos(), "architecture", "arch-list-unknown", c.build(),
				fmt.Sprintf("%s, and which of those runtimes it uses is not known, so neither is its architecture list%s, nor whether it runs on %s (%s); the driver runs every one of them",
					from, listsKnown, gcc.sm(), gpuLabel(c.h, gs)),
				hint)
		})
		return
	case rt == "":
		// checkDriver has said the runtime is unknown; the architectures
		// depend on it as much as the driver does.
		return
	case fw == nil:
		why, whyKey = "no framework build whose architecture list is known carries the GPU code", "no-framework"
	case fw.Series() == "" && fw.Installed == "":
		// Every release the spec admits may carry one list (tensorflow==2.13.*:
		// the series' row holds for 2.13.0 and 2.13.1; review ten #833):
		// then the release need not be known.
		if l, ok := c.candidatesArch(fw); ok {
			list = l
			break
		}
		why, whyKey = "its exact release is not known, so neither is its architecture list", "release-unknown"
		if fw.CommonArch != nil && fw.CommonArch.CommonOnly {
			// the admitted builds' lists differ, but all carry these
			// (the defaults channel's tensorflow-gpu 2.0.0 … 2.4.1)
			list = fw.CommonArch
			why = fmt.Sprintf("its exact release is not known, and the lists of the builds it admits differ beyond what all of them carry (%s: %s)", fw.CommonWhy, archSummary(fw.CommonArch))
		}
	default:
		if l, ok := c.binaryArch(); ok {
			list = l
		} else if fw.Installed != "" {
			// a source build of the series (an installed pre-release): the
			// knowledge base lists the published builds' architectures only
			why, whyKey = "it is a source build ("+fw.Installed+") whose architecture list only its binaries hold, and none of them was read", "arch-list-unknown"
		} else if l, ok := c.archList(fw, c.compilerCUDA()); ok && l != nil && l.Known && fw.ArchFor(l) {
			list = l
		} else if ok && l != nil && l.Known {
			// A nightly or release candidate: the scripts that built them
			// changed within some series (+PTX kept for nightlies only,
			// architectures added), so the releases' list is not theirs.
			why, whyKey = fmt.Sprintf("it is a development build (%s), and the knowledge base's architecture list of the %s series holds for its releases only", fw.Version, fw.Series()), "arch-list-unknown"
		} else {
			why, whyKey = "the build's architecture list is not known", "arch-list-unknown"
		}
	}
	if list != nil && list.CommonOnly && why == "" {
		why, whyKey = fmt.Sprintf("the recipe set more than one architecture list for this build, and which the upload has is not known beyond what all of them carry (%s)", archSummary(list)), "arch-list-unknown"
	}
	c.eachCC(func(gcc cc, gs []GPU) {
		switch {
		case list != nil && list.CommonOnly:
			// Only what every list carries is known: a GPU its SASS serves
			// is decided, and so is one no list can have SASS for (the
			// compiler targets nothing of its major), through the shared
			// PTX; another is judged as if no list were known.
			_, _, beyond := c.compilerBelow(c.compilerCUDA(), gcc)
			if v, _ := archVerdict(gcc, &kb.ArchList{SASS: list.SASS, Known: true}); v == runsSASS || beyond {
				c.judgeList(gcc, gs, list, driverCUDA)
			} else if !c.sharedPTXRuns(gcc, gs, list, driverCUDA) {
				c.judgeToolkit(gcc, gs, why, whyKey, driverCUDA)
			}
		case list != nil:
			c.judgeList(gcc, gs, list, driverCUDA)
		default:
			c.judgeToolkit(gcc, gs, why, whyKey, driverCUDA)
		}
	})
}

// runtimeChoiceHint is the hint where the build's runtime is one of
// several and its architecture list open with it: for the defaults
// channel's tensorflow-gpu a cudatoolkit pin picks the build, so the hint
// names the toolkits whose build's list envguard knows (review forty-four
// F44, corpus 007: the feature-package hint of old pytorch releases was
// given for tensorflow-gpu=1.13.1).
func (c *checker) runtimeChoiceHint() string {
	fw := c.st.Framework
	if fw == nil || fw.Name != "tensorflow" || fw.Dist != kb.DistDefaults {
		return preTableHint("the GPU architectures")
	}
	known, _ := c.choiceLists()
	probe := archProbe(fw)
	if len(known) == 0 {
		return "pin the CUDA toolkit beside it (cudatoolkit=X.Y picks the build made with it), or " + probe
	}
	pins := make([]string, len(known))
	for i, rt := range known {
		pins[i] = "cudatoolkit=" + rt
	}
	return fmt.Sprintf("pin the CUDA toolkit beside it, which picks the build made with it: %s, whose build's architecture list envguard knows; or %s", resolver.OrList(pins), probe)
}

// choiceLists splits a pinned defaults tensorflow-gpu release's toolkits
// by whether the knowledge base knows the list of the build made with each.
func (c *checker) choiceLists() (known, open []string) {
	fw := c.st.Framework
	if fw == nil || fw.Name != "tensorflow" || fw.Dist != kb.DistDefaults || fw.Version == "" {
		return nil, nil
	}
	for _, rt := range fw.RuntimeCandidates {
		if l, ok := c.archList(fw, rt); ok && l != nil && l.Known && !l.CommonOnly {
			known = append(known, rt)
		} else {
			open = append(open, rt)
		}
	}
	return known, open
}

// choiceListsKnown says, for the message, which of those builds' lists
// the knowledge base has; "" where it has none or all.
func (c *checker) choiceListsKnown() string {
	known, open := c.choiceLists()
	if len(known) == 0 || len(open) == 0 {
		return ""
	}
	and := func(xs []string) string { return strings.Replace(resolver.OrList(xs), " or ", " and ", 1) }
	return fmt.Sprintf(" (the knowledge base has the lists of the builds for CUDA %s, not of the one for CUDA %s)", and(known), and(open))
}

// tfPTXEveryListed is the knowledge-base row saying that every release
// the file admits of the framework, a TensorFlow of a known distribution,
// carries PTX for each architecture its build lists; false where a release
// is open beyond the knowledge base's list of them, or no row says so.
func (c *checker) tfPTXEveryListed() (*kb.TFPTXEveryListed, bool) {
	fw := c.st.Framework
	if fw == nil || fw.Name != "tensorflow" {
		return nil, false
	}
	dist := fw.Dist
	if fw.From == envspec.ProviderPip {
		dist = kb.DistPyPI
	}
	releases := fw.Candidates
	if fw.Version != "" {
		releases = []string{fw.Version}
	}
	var row *kb.TFPTXEveryListed
	for _, v := range releases {
		r, ok := c.k.TensorFlowPTXEveryListed(dist, v)
		if !ok {
			return nil, false
		}
		row = r
	}
	return row, row != nil
}

// tfDistName names a TensorFlow distribution in a message.
func tfDistName(d kb.Distribution) string {
	switch d {
	case kb.DistPyPI:
		return "the package index's"
	case kb.DistDefaults:
		return "the defaults channel's"
	}
	return string(d) + "'s"
}

// candidatesArch is the architecture list every release an open spec
// admits carries, where the knowledge base lists the releases (at most
// maxCandidates) and gives each the same known list, for the build's
// compiler CUDA; false otherwise.
func (c *checker) candidatesArch(fw *resolver.Framework) (*kb.ArchList, bool) {
	if len(fw.Candidates) == 0 || len(fw.Candidates) > maxCandidates {
		return nil, false
	}
	var first *kb.ArchList
	for _, v := range fw.Candidates {
		one := *fw
		one.Version = v
		l, ok := c.archList(&one, c.compilerCUDA())
		if !ok || l == nil || !l.Known || !one.ArchFor(l) || l.PTXOpen() {
			return nil, false
		}
		if first == nil {
			first = l
			continue
		}
		if !slices.Equal(first.SASS, l.SASS) || !slices.Equal(first.PTX, l.PTX) {
			return nil, false
		}
	}
	return first, first != nil
}

// commonArchDecides judges a GPU by the code every build the file admits
// carries, where the build's runtime (and so its own list) is left open
// (Framework.CommonArch): SASS of the GPU's major at or below its minor in
// every build runs on it; a GPU below the lowest architecture any build
// has code for runs in none of them (EG403). It says whether it decided;
// otherwise (the builds differ, or only PTX serves it) the caller leaves
// the GPU undecided.
func (c *checker) commonArchDecides(gcc cc, gs []GPU) bool {
	fw := c.st.Framework
	if fw == nil || fw.CommonArch == nil {
		return false
	}
	if v, by := archVerdict(gcc, &kb.ArchList{SASS: fw.CommonArch.SASS, Known: true}); v == runsSASS {
		c.commonArchLibs(gcc, gs, by)
		return true
	}
	low, ok := parseCC(fw.LowestCode)
	if ok && gcc.Suffix == "" && gcc.less(low) {
		c.noKernel(fmt.Sprintf("%s (%s: the lowest architecture any of them has code for is %s)", fwName(fw), fw.CommonWhy, low.sm()), gs, gcc,
			"use a GPU of compute capability "+fw.LowestCode+" or newer, or a newer framework release built for this architecture")
		return true
	}
	return false
}

// commonArchLibs judges, for a GPU every build the file admits carries
// SASS for (commonArchDecides), the CUDA libraries those builds load: the
// toolkit's own at each runtime the build may use, and the cuDNN, whose
// release the knowledge base does not give for these builds. As on any
// build's SASS path (judgeCUDALibs), a library whose code is not known
// leaves the GPU undecided only where the knowledge base says the library
// dropped that architecture in some release (cuDNN's Kepler rows); one that
// lacks code in one build's libraries is no proof for the build conda
// installs, so it too leaves the GPU undecided, saying which.
func (c *checker) commonArchLibs(gcc cc, gs []GPU, by cc) {
	fw := c.st.Framework
	var unknown, names []string
	seen := map[string]bool{}
	note := func(lib, why string) {
		if !contains(unknown, why) {
			unknown = append(unknown, why)
		}
		if !seen[lib] {
			seen[lib] = true
			names = append(names, lib)
		}
	}
	with := resolver.FrameworkPackage(fw.Name)
	for _, rt := range fw.RuntimeCandidates {
		for _, lib := range resolver.FrameworkCUDALibsOf(fw.Name) {
			p := resolver.GPUPackage{Name: lib, Role: resolver.RoleCUDALibrary, Lib: lib, BundledWith: with, Unknown: "which " + lib + " release " + with + " loads is not known"}
			if cl, ok := c.k.CUDALibByName(lib); ok && cl.Toolkit {
				p = resolver.ToolkitLib(lib, rt)
			}
			switch has, why := c.libCarries(&p, gcc); has {
			case carriesNo:
				note(lib, fmt.Sprintf("the build made with CUDA %s loads %s, which carries no code for %s: %s", rt, pkgLabel(&p), gcc.sm(), why))
			case carriesUnknown:
				if c.libMayLack(&p, gcc) {
					note(lib, why)
				}
			}
		}
	}
	if len(unknown) == 0 {
		return
	}
	c.undecide(c.fwPos(), "architecture", "cuda-lib-arch-unknown", "the CUDA libraries "+c.build()+" loads ("+strings.Join(names, ", ")+")",
		fmt.Sprintf("%s carries %s SASS, which runs on %s (%s), but %s", fw.CommonWhy, by.sm(), gcc.sm(), gpuLabel(c.h, gs), strings.Join(unknown, "; ")),
		"run envguard check on the machine, which reads the libraries, or pin a release the knowledge base covers (pytorch 1.0 or later) with its CUDA variant")
}

// binaryArch is the framework's architecture list as its own libraries
// carry it (envguard check reads them), which wins over the knowledge
// base's row.
func (c *checker) binaryArch() (*kb.ArchList, bool) {
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		if p.Role == resolver.RoleFramework && p.FromBinary() {
			return &kb.ArchList{SASS: p.Code.SASS, PTX: p.Code.PTX, Known: true, Source: "the binary"}, true
		}
	}
	return nil, false
}

// archList finds the build's architecture list. TensorFlow's and JAX's
// lists are those of their official pip wheels: a conda build (conda-forge,
// defaults) is compiled by its own recipe, so it gets only a row of its own
// distribution (defaults' tensorflow-gpu, from Anaconda's recipe;
// conda-forge's tensorflow, from its feedstock's build script), never the
// wheel's.
func (c *checker) archList(fw *resolver.Framework, rt string) (*kb.ArchList, bool) {
	switch fw.Name {
	case "tensorflow", "jax":
		if fw.Name == "jax" && fw.JAXLib != "" && fw.From == envspec.ProviderPip {
			// the rows are jaxlib's releases, which carry the GPU code
			return c.k.FrameworkArch(fw.Name, fw.JAXLib, rt, kb.DistPyPI)
		}
		if fw.From != envspec.ProviderPip {
			if fw.Name == "tensorflow" && fw.Dist == kb.DistDefaults {
				return c.k.FrameworkArch(fw.Name, fw.Version, rt, kb.DistDefaults)
			}
			if fw.Name == "tensorflow" && fw.Dist == kb.DistCondaForge {
				// conda-forge's recipe sets its own list per CUDA
				// (arch-tfjax-2.yaml); FrameworkArch falls back to the
				// wheel's row where it has none, which never speaks
				// for a conda build.
				if l, ok := c.k.FrameworkArch(fw.Name, fw.Version, rt, kb.DistCondaForge); ok && l != nil && l.Dist == kb.DistCondaForge {
					return l, true
				}
			}
			return nil, false
		}
		return c.k.FrameworkArch(fw.Name, fw.Version, rt, kb.DistPyPI)
	}
	return c.k.Arch(fw.ArchRelease(), rt, fw.Dist)
}

// archProbe says how to read a build's architecture list on the machine,
// for the framework at hand.
func archProbe(fw *resolver.Framework) string {
	switch {
	case fw != nil && fw.Name == "tensorflow" && tfBuildInfo(fw):
		return "check on the machine: python -c 'import tensorflow as tf; print(tf.sysconfig.get_build_info())' (cuda_compute_capabilities)"
	case fw != nil && fw.Name == "tensorflow":
		// tf.sysconfig.get_build_info() came in 2.3 (RELEASE.md 2.3.0:
		// "Added `tf.sysconfig.get_build_info()`"); before it only the
		// binaries say which architectures the build carries.
		return "check on the machine: cuobjdump --list-elf --list-ptx on the build's _pywrap_tensorflow_internal.so (tf.sysconfig.get_build_info() exists only from TensorFlow 2.3), or run envguard check there, which reads the binaries"
	case fw != nil && fw.Name == "jax":
		return "run a small jax computation on the machine and read its compilation warnings"
	case fw == nil:
		return "check each GPU library on the machine (cuobjdump --list-elf, --list-ptx)"
	}
	return "check on the machine: python -c 'import torch; print(torch.cuda.get_arch_list())'"
}

// tfBuildInfo says whether a TensorFlow release has
// tf.sysconfig.get_build_info(), which 2.3.0 added (TF_RELNOTES_2_3's
// RELEASE.md): true for 2.3 and later, and where the release is not
// known (the newest, which has it, is what an open spec most often gets).
func tfBuildInfo(fw *resolver.Framework) bool {
	v := fw.Version
	if v == "" && len(fw.Candidates) > 0 {
		v = fw.Candidates[0] // the oldest the spec admits
	}
	if v == "" {
		return true
	}
	c, ok := kb.CompareDotted(resolver.SeriesOf(v), "2.3")
	return !ok || c >= 0
}

// checkArchMajor judges the GPUs against a build known by its CUDA major
// only (JAX's cuda12 wheels, whose list is per major): SASS and its absence
// are certain; PTX can be JIT-compiled only by a driver at least as new as
// the runtime, which is decided where the driver is newer than every m.x.
func (c *checker) checkArchMajor(m int, driverCUDA string) {
	fw := c.st.Framework
	if fw.Name == "jax" && fw.From == envspec.ProviderPip && fw.Version == "" && fw.Installed == "" && fw.Spec != "" {
		c.checkArchMajorRange(m)
		return
	}
	list, ok := c.k.FrameworkArch(fw.Name, fw.Version, fmt.Sprint(m), kb.DistPyPI)
	if fw.Name != "jax" || fw.From != envspec.ProviderPip || !ok || list == nil || !list.Known {
		c.undecide(c.fwPos(), "architecture", "arch-list-unknown", c.build(),
			"the build's architecture list is not known", "pin a build whose architecture list envguard knows, or "+archProbe(fw))
		return
	}
	newest := c.k.NewestCUDAOfMajor(m)
	driverNewer := driverCUDA != "" && (majorOf(driverCUDA) > m || (newest != "" && compareVersions(driverCUDA, newest) >= 0))
	c.eachCC(func(gcc cc, gs []GPU) {
		v, by := archVerdict(gcc, list)
		what := fmt.Sprintf("%s (%s)", fwName(fw), archSummary(list))
		switch {
		case v == runsSASS:
		case v == runsNone && !list.PTXOpen():
			c.noKernel(what, gs, gcc, noKernelHint(gcc, list, "a newer framework release", "an older framework release"))
		case v == runsPTX && c.xlaCompiles(gcc, gs, what):
		case v == runsPTX && driverNewer:
			c.ptxOnlyRuns(gcc,
				fmt.Sprintf("%s has no SASS for %s on %s but carries %s PTX, which the driver JIT-compiles: its own kernels run, with a slow first start and without %s kernels",
					what, gcc.sm(), gpuLabel(c.h, gs), by.compute(), gcc.sm()),
				c.sassBuildHint(gcc, "use a build that includes this architecture (a newer framework release)"))
		default:
			c.undecide(c.fwPos(), "architecture", "ptx-unknown", c.build(),
				fmt.Sprintf("%s has no SASS for %s on %s, and whether its PTX can be JIT-compiled depends on which CUDA %d.x runtime pip installs", what, gcc.sm(), gpuLabel(c.h, gs), m),
				"pin the runtime wheel (nvidia-cuda-runtime-cu"+fmt.Sprint(m)+"==X.Y.*) to the driver's CUDA version or older")
		}
	})
}

// checkArchMajorRange judges the GPUs against every release an open JAX
// spec (jax>=0.4.20) admits, each by its own CUDA m wheels' architecture
// row: the spec is no release to look a row up by, but each release it
// admits is. A GPU is decided where every admitted release agrees (SASS in
// all: it runs; neither SASS nor PTX in any: EG403); where they differ, or
// some release has no row or only PTX for the GPU (which XLA's run-time
// compilation leaves open), the finding names which releases do what.
func (c *checker) checkArchMajorRange(m int) {
	fw := c.st.Framework
	vs, err := envspec.ParseVersionSpec(fw.Spec)
	if err != nil || vs == nil {
		c.undecide(c.fwPos(), "architecture", "arch-list-unknown", c.build(),
			fmt.Sprintf("its version spec %q does not read, so which releases it admits is not known", fw.Spec), "pin a jax release (jax==X.Y.Z)")
		return
	}
	// The spec's lower bound stands for the releases between it and the
	// next probe; without one the spec admits every release down to the
	// first, which "0" stands for.
	probes := []string{lowerBound(fw.Spec)}
	if f := fw.JAXFirstInstallable; f != "" && compareVersions(f, probes[0]) > 0 {
		// older releases the spec admits need JAX's find-links page,
		// which the file does not name: pip installs none of them
		probes[0] = f
	}
	for _, p := range c.k.JAXArchProbes(fmt.Sprint(m)) {
		if vs.MatchString(p) && compareVersions(p, probes[0]) > 0 {
			probes = append(probes, p)
		}
	}
	c.eachCC(func(gcc cc, gs []GPU) {
		// each probe's verdict holds from it up to the next probe: runs of
		// equal verdicts are merged into one span of releases
		type span struct{ from, to, v string }
		var spans []span
		for i, rel := range probes {
			v := "norow"
			if list, ok := c.k.FrameworkArch(fw.Name, rel, fmt.Sprint(m), kb.DistPyPI); ok && list != nil && list.Known {
				switch r, _ := archVerdict(gcc, list); {
				default:
					v = "open"
				case r == runsSASS:
					v = "runs"
				case r == runsNone && !list.PTXOpen():
					v = "fails"
				}
				if st, ok := c.k.JAXLibAt(rel); v != "runs" && ok && st.XLANewerTarget == "sm_90a" && (cc{Major: 9}).less(gcc) {
					// its XLA compiles for sm_90a there (xlaForcesHopperTarget)
					v = "xla"
				}
			}
			if n := len(spans); n > 0 && spans[n-1].v == v {
				spans[n-1].to = next(probes, i)
				continue
			}
			spans = append(spans, span{from: rel, to: next(probes, i), v: v})
		}
		by := map[string][]string{}
		for _, sp := range spans {
			label := "releases from " + sp.from + " on"
			switch {
			case sp.from == "0" && sp.to != "":
				label = "releases before " + sp.to
			case sp.from == "0":
				label = "every release"
			case sp.to != "":
				label = "releases " + sp.from + " up to " + sp.to
			}
			by[sp.v] = append(by[sp.v], label)
		}
		what := fmt.Sprintf("%s (every release it admits, by the architecture row each takes)", fwName(fw))
		switch {
		case len(by["fails"]) == 0 && len(by["xla"]) == 0 && len(by["open"]) == 0 && len(by["norow"]) == 0:
			// every admitted release carries SASS for the GPU
		case len(by["runs"]) == 0 && len(by["open"]) == 0 && len(by["norow"]) == 0 && len(by["xla"]) > 0:
			// every release fails, some of them through XLA's target
			why := "fails with " + strings.Join(by["xla"], ", ") + xlaSM90aWhy
			if l := by["fails"]; len(l) > 0 {
				why = "fails with " + strings.Join(l, ", ") + " (no SASS for " + gcc.sm() + ", and no PTX at or below " + gcc.compute() + "); " + why
			}
			c.noCodeRuns(gcc, fmt.Sprintf("%s has no code that runs on %s (%s): it %s", what, gcc.sm(), gpuLabel(c.h, gs), why), c.jaxMajorNoKernelHint(m, gcc))
		case len(by["runs"]) == 0 && len(by["open"]) == 0 && len(by["norow"]) == 0:
			c.noKernel(what, gs, gcc, c.jaxMajorNoKernelHint(m, gcc))
		default:
			var parts []string
			if l := by["fails"]; len(l) > 0 {
				parts = append(parts, "fails with "+strings.Join(l, ", "))
			}
			if l := by["xla"]; len(l) > 0 {
				parts = append(parts, "fails with "+strings.Join(l, ", ")+xlaSM90aWhy)
			}
			if l := by["runs"]; len(l) > 0 {
				parts = append(parts, "runs with "+strings.Join(l, ", "))
			}
			if l := by["open"]; len(l) > 0 {
				parts = append(parts, "cannot be checked with "+strings.Join(l, ", ")+" (no SASS for "+gcc.sm()+", and XLA compiles the model's kernels for the GPU at run time, so the wheels' PTX does not decide it)")
			}
			if l := by["norow"]; len(l) > 0 {
				parts = append(parts, "cannot be checked with "+strings.Join(l, ", ")+" (the knowledge base has no architecture row for them)")
			}
			hint := "pin a jax release, or run a small jax computation on the machine and read its compilation warnings"
			if last := spans[len(spans)-1]; last.v == "runs" && last.from != "0" {
				hint = "require a jax release that runs (jax>=" + last.from + "), or run a small jax computation on the machine and read its compilation warnings"
			}
			c.undecide(c.fwPos(), "architecture", "candidates-differ", c.build(),
				fmt.Sprintf("which release of %s pip installs is open, and on %s (%s) it %s", fwName(fw), gcc.sm(), gpuLabel(c.h, gs), strings.Join(parts, "; ")),
				hint)
		}
	})
}

// xlaSM90aWhy says why a jax release whose XLA takes a newer GPU for a
// Hopper fails there (xlaForcesHopperTarget).
const xlaSM90aWhy = " (their XLA compiles every program's kernels for a GPU newer than it knows with the sm_90a target, whose PTX compiles for compute capability 9.0 only)"

// jaxMajorNoKernelHint points a GPU no admitted jax release of CUDA major
// m has code for the right way: one below what CUDA m's compiler targets
// (a K80 under CUDA 12, whose nvcc starts at sm_50) gets it from no CUDA m
// release at all, newer ones included (review twenty-three F9); otherwise
// a newer release may add it.
func (c *checker) jaxMajorNoKernelHint(m int, gcc cc) string {
	if lo, ok := c.toolkitFloor(fmt.Sprintf("%d.0", m)); ok && gcc.less(lo) {
		return fmt.Sprintf("no jax release for CUDA %d can carry code for %s (CUDA %d's compiler targets nothing below %s): use a release whose wheels are for an older CUDA that targets it and that the driver runs, or a newer GPU", m, gcc.sm(), m, lo.sm())
	}
	return fmt.Sprintf("use a jax release whose CUDA %d wheels include this architecture (a newer release)", m)
}

// lowerBound is the version of a spec's ">=" or ">" clause (the lowest it
// admits, or the release a ">" bound sits in the architecture row of), or
// "0" where it has none.
func lowerBound(spec string) string {
	for _, cl := range strings.Split(spec, ",") {
		cl = strings.TrimSpace(cl)
		switch {
		case strings.HasPrefix(cl, ">="):
			return strings.TrimSpace(cl[2:])
		case strings.HasPrefix(cl, "=="), strings.HasPrefix(cl, "~="):
			return strings.TrimSuffix(strings.TrimSpace(cl[2:]), ".*")
		case strings.HasPrefix(cl, ">"):
			return strings.TrimSpace(cl[1:])
		}
	}
	return "0"
}

// next is the probe after i, or "".
func next(xs []string, i int) string {
	if i+1 < len(xs) {
		return xs[i+1]
	}
	return ""
}

// xlaCompiles leaves a JAX build that has no SASS for a GPU undecided and
// says so (true): XLA generates the model's kernels at run time for the
// GPU it finds, through its own LLVM and ptxas, so the PTX of the wheel's
// prebuilt kernels does not say whether the release can target the GPU.
// Releases older than an architecture fail there even with PTX present:
// "ptxas does not support CC 8.9" and then "named symbol not found" on an
// RTX 4080 (jax-ml/jax#13570), an LLVM fatal error for sm_107a
// (openxla/xla#47982).
func (c *checker) xlaCompiles(gcc cc, gs []GPU, what string) bool {
	fw := c.st.Framework
	if fw == nil || fw.Name != "jax" {
		return false
	}
	if c.xlaForcesHopperTarget(gcc, gs, what) {
		return true
	}
	if jaxUsesHostCUDA(fw, c.k) {
		// Its CUDA jaxlib ships no ptxas: XLA runs the one of the CUDA
		// installed on the machine, and where that ptxas does not know
		// the GPU, the XLA of these releases hands the PTX to the driver's
		// JIT compiler (tensorflow/tensorflow#43888), which is reported to
		// work (tensorflow/serving#1821, sm_86) and to fail
		// (jax-ml/jax#13570, sm_89): open either way, and not only the
		// machine's (review thirty-two C17, C20).
		first := ""
		for _, g := range gs {
			if m, ok := c.k.GPUByName(g.Name); ok && m.MinCUDA != "" {
				first = " (CUDA " + m.MinCUDA + " or newer)"
				break
			}
		}
		why := fmt.Sprintf("%s has no SASS for %s on %s, and XLA compiles the model's own kernels for the GPU at run time with the ptxas of the CUDA installed on the machine (jax %s's CUDA jaxlib ships none); a ptxas that does not know %s leaves the PTX to the driver's JIT compiler, which is reported both to serve such GPUs and to fail on them, so whether this release's kernels run on %s is not established",
			what, gcc.sm(), gpuLabel(c.h, gs), fw.Version, gcc.sm(), gcc.sm())
		hint := "install on the machine a CUDA toolkit whose ptxas targets " + gcc.sm() + first + ", which keeps the driver's JIT out of it, or use a jax release whose wheels carry SASS for this architecture"
		if fw.JAXLibUnfindable != "" {
			// pip installs no such jaxlib: the target fails on the file
			// (uninstallableFile)
			return true
		}
		c.undecide(c.fwPos(), "architecture", "xla-target-unknown", c.build(), why, hint)
		return true
	}
	if c.pipPTXASRejects(gcc, gs, what) {
		return true
	}
	c.undecide(c.fwPos(), "architecture", "xla-target-unknown", c.build(),
		fmt.Sprintf("%s has no SASS for %s on %s, and XLA compiles the model's own kernels for the GPU at run time with its bundled LLVM and ptxas, so its PTX does not decide whether this release can target %s (releases older than an architecture fail to compile for it)",
			what, gcc.sm(), gpuLabel(c.h, gs), gcc.sm()),
		"use a jax release whose wheels carry SASS for this architecture, or run a small jax computation on the machine and read its compilation warnings")
	return true
}

// xlaForcesHopperTarget fails a GPU above compute capability 9.0 under a
// jaxlib whose XLA takes any such GPU it does not know for a Hopper and
// compiles the program's kernels for sm_90a (jaxlib 0.4.20 to 0.4.31):
// PTX for an architecture-specific target compiles for that architecture
// only, so ptxas, or the driver it falls back to, refuses it on Blackwell
// whatever the PTX of the wheel's own kernels (BindCraft#269: jaxlib
// 0.4.29 on an RTX 5090).
func (c *checker) xlaForcesHopperTarget(gcc cc, gs []GPU, what string) bool {
	fw := c.st.Framework
	jaxlib := fw.JAXLib
	if jaxlib == "" {
		jaxlib = fw.Version
	}
	if jaxlib == "" || !(cc{Major: 9}).less(gcc) {
		return false
	}
	st, ok := c.k.JAXLibAt(jaxlib)
	if !ok || st.XLANewerTarget != "sm_90a" {
		return false
	}
	hint := "use a jax release whose XLA knows " + gcc.sm()
	if st.XLANewerTargetTo != "" {
		hint = fmt.Sprintf("use jax and jaxlib %s or newer, whose XLA keeps sm_90a to Hopper and compiles for a GPU it does not know with the portable sm_90 target, or a release whose wheels carry SASS for %s", st.XLANewerTargetTo, gcc.sm())
	}
	release, _, _ := strings.Cut(jaxlib, "+")
	c.noCodeRuns(gcc,
		fmt.Sprintf("%s has no SASS for %s on %s, and the XLA of jaxlib %s compiles every program's kernels for a GPU newer than it knows as a Hopper, with the sm_90a target, whose PTX compiles for compute capability 9.0 only: ptxas, or the driver's JIT compiler, refuses it for %s, so no jitted computation runs",
			what, gcc.sm(), gpuLabel(c.h, gs), release, gcc.sm()),
		hint)
	return true
}

// pipPTXASRejects fails a pip jax whose file pins the nvidia-cuda-nvcc
// wheel that jax points XLA's ptxas search at first, where that CUDA
// release's ptxas cannot target the GPU and the jaxlib's XLA turns the
// rejection into a failed compilation instead of leaving it to the driver
// (jaxlib 0.4.25 on): jax 0.4.34 with nvcc 12.6 on an RTX 5090 calls
// ptxas -arch=sm_120, which CUDA 12.6 does not know.
func (c *checker) pipPTXASRejects(gcc cc, gs []GPU, what string) bool {
	fw := c.st.Framework
	if fw == nil || fw.PipPTXAS == "" {
		return false
	}
	jaxlib := fw.JAXLib
	if jaxlib == "" {
		jaxlib = fw.Version
	}
	st, ok := c.k.JAXLibAt(jaxlib)
	if !ok || !st.PTXASError {
		return false
	}
	series := resolver.SeriesOf(fw.PipPTXAS)
	ta, ok := c.k.ToolkitArch(series)
	if !ok {
		return false
	}
	hi, ok := parseCC(ta.MaxSASS)
	if !ok || !hi.less(gcc) {
		return false
	}
	hint := "pin nvidia-cuda-nvcc to a CUDA release whose ptxas targets " + gcc.sm()
	for _, g := range gs {
		if m, ok := c.k.GPUByName(g.Name); ok && m.MinCUDA != "" {
			hint += " (CUDA " + m.MinCUDA + " or newer)"
			break
		}
	}
	c.noCodeRuns(gcc,
		fmt.Sprintf("%s has no SASS for %s on %s, and XLA compiles the model's kernels with the ptxas of nvidia-cuda-nvcc %s, where jax points it first (a CUDA_ROOT environment variable, which newer jax releases read before it, can point it elsewhere), called with -arch=%s; CUDA %s's ptxas targets nothing above %s, and this XLA reports that as a failed compilation (\"ptxas too old. Falling back to the driver to compile.\") rather than leaving the kernel to the driver, so every jit fails",
			what, gcc.sm(), gpuLabel(c.h, gs), fw.PipPTXAS, gcc.sm(), series, hi.sm()),
		hint+", or use a jax release whose wheels carry SASS for it")
	return true
}

// noKernelHint points a GPU with no code in list the right way: one older
// than everything the list has SASS for needs an older build, since newer
// releases and CUDA variants drop old GPUs rather than add them (review 9
// #322: "a newer release" for a K80 beside conda-forge's 2.9); otherwise a
// newer one.
func noKernelHint(gcc cc, list *kb.ArchList, newer, older string) string {
	below := len(list.SASS) > 0
	for _, a := range list.SASS {
		if lo, ok := parseCC(a); !ok || !gcc.less(lo) {
			below = false
		}
	}
	if below {
		return "use a build that still targets this architecture (" + older + ": newer ones drop old GPUs rather than add them)"
	}
	return "use a build that includes this architecture (" + newer + ")"
}

// noKernel raises EG403 for a GPU a known architecture list has neither
// SASS nor PTX for.
func (c *checker) noKernel(what string, gs []GPU, gcc cc, hint string) {
	// TensorFlow checks the GPU against the lowest architecture it was
	// built for when it starts, and leaves one below it out rather than
	// failing in a kernel (gpu_device.cc; review twenty-four F13)
	happens := `"no kernel image is available for execution on the device"`
	if fw := c.st.Framework; fw != nil && fw.Name == "tensorflow" {
		happens = `TensorFlow leaves the GPU out when it starts, "Ignoring visible gpu device … The minimum required Cuda capability is …", and runs on the CPU`
	}
	c.noCodeRuns(gcc,
		fmt.Sprintf("%s can run no code on %s: no SASS for %s or a lower %d.x, and no PTX at or below compute_%d%d (%s)",
			what, gpuLabel(c.h, gs), gcc.sm(), gcc.Major, gcc.Major, gcc.Minor, happens),
		hint)
}

// eachGPUOfCC calls judge once per distinct readable compute capability of
// the host's GPUs, in order, with the GPUs that have it; unlike eachCC it
// raises nothing for one that does not read.
func (c *checker) eachGPUOfCC(judge func(gcc cc, gs []GPU)) {
	keys, byCC := c.gpusByCC()
	for _, key := range keys {
		if gcc, ok := parseCC(key); ok {
			judge(gcc, byCC[key])
		}
	}
}

// gpusByCC groups the host's GPUs by compute capability, the capabilities
// sorted.
func (c *checker) gpusByCC() ([]string, map[string][]GPU) {
	byCC := map[string][]GPU{}
	var keys []string
	for _, g := range c.h.GPUs {
		if _, ok := byCC[g.CC]; !ok {
			keys = append(keys, g.CC)
		}
		byCC[g.CC] = append(byCC[g.CC], g)
	}
	sort.Strings(keys)
	return keys, byCC
}

// eachCC calls judge once per distinct compute capability of the host's
// GPUs, in order, with the GPUs that have it; a capability that does not
// read as major.minor leaves the architecture check undecided for them.
func (c *checker) eachCC(judge func(gcc cc, gs []GPU)) {
	keys, byCC := c.gpusByCC()
	for _, key := range keys {
		gs := byCC[key]
		gcc, ok := parseCC(key)
		if !ok {
			c.undecide(c.fwPos(), "architecture", "cc-unreadable", c.build(), fmt.Sprintf("%s has an unreadable compute capability %q", gpuLabel(c.h, gs), key),
				"give the GPU's compute capability as major.minor, e.g. 9.0")
			continue
		}
		judge(gcc, gs)
	}
}

// judgeList holds one GPU against a known architecture list.
func (c *checker) judgeList(gcc cc, gs []GPU, list *kb.ArchList, driverCUDA string) {
	fw, rt := c.st.Framework, c.runtime()
	v, by := archVerdict(gcc, list)
	what := fmt.Sprintf("%s (%s)", fwName(fw), archSummary(list))
	switch v {
	case runsNone:
		if list.PTXOpen() {
			// PTX or not, nothing below the toolkit's range can be in it.
			if ta, ok := c.k.ToolkitArch(rt); ok {
				if lo, ok := parseCC(ta.MinSASS); ok && gcc.less(lo) {
					c.noCodeRuns(gcc,
						fmt.Sprintf("%s can run no code on %s: no SASS for %s or a lower %d.x, and CUDA %s's compiler targets nothing below %s, so no PTX either (\"no kernel image is available for execution on the device\")",
							what, gpuLabel(c.h, gs), gcc.sm(), gcc.Major, rt, lo.sm()),
						"use a build that includes this architecture (an older CUDA variant that still targets it)")
					return
				}
			}
			c.undecide(c.fwPos(), "architecture", "ptx-unknown", c.build(),
				fmt.Sprintf("its architecture list (%s) has no SASS for %s on %s, and whether the build carries PTX is not known", archSummary(list), gcc.sm(), gpuLabel(c.h, gs)),
				"use a build whose SASS includes this architecture, or "+archProbe(c.st.Framework)+" (a compute_ entry is PTX)")
			return
		}
		c.noKernel(what, gs, gcc, c.withPythonRoute(noKernelHint(gcc, list, "a newer framework release or CUDA variant", "an older framework release or CUDA variant")))
	case runsPTX:
		c.ptxOnly(gs, gcc, what, by.compute(), driverCUDA, rt)
	}
}

// sharedPTXRuns decides a GPU that a common_only list's shared SASS does
// not serve but its shared PTX does, where the driver can JIT-compile that
// PTX: whichever list the upload has, its own kernels run, from SASS some
// lists carry or from the PTX all carry (pytorch 1.3.0's CUDA 10.1 conda
// build on a P100). It reports whether it decided.
func (c *checker) sharedPTXRuns(gcc cc, gs []GPU, list *kb.ArchList, driverCUDA string) bool {
	v, by := archVerdict(gcc, &kb.ArchList{PTX: list.PTX, Known: true})
	rt := c.runtime()
	if v != runsPTX || rt == "" || driverCUDA == "" || compareVersions(driverCUDA, rt) < 0 {
		return false
	}
	// Not ptxOnlyRuns: the GPU is within the compiler's range, so the
	// CUDA libraries are judged as on the SASS path (they are the
	// toolkit's, which carry what its compiler targets).
	c.add("EG408", c.fwPos(),
		fmt.Sprintf("%s (%s in every list its recipe set for this build) may have no SASS for %s on %s: those lists differ beyond these entries, and which the upload has is not known; all carry %s PTX, which the driver JIT-compiles, so its own kernels run either way, with a slow first start where the SASS is missing; the CUDA libraries it loads are judged apart",
			fwName(c.st.Framework), archSummary(list), gcc.sm(), gpuLabel(c.h, gs), by.compute()),
		c.sassBuildHint(gcc, "use a build that includes this architecture (a newer framework release or CUDA variant)"))
	return true
}

// ptxOnly judges a GPU that only PTX can serve: the driver must be able to
// JIT-compile PTX of the build's CUDA version.
func (c *checker) ptxOnly(gs []GPU, gcc cc, what, ptx, driverCUDA, rt string) {
	// PTX from a newer toolkit than the driver cannot be JIT-compiled:
	// under minor-version compatibility the PTX path is closed.
	if driverCUDA != "" && compareVersions(driverCUDA, rt) < 0 {
		c.noCodeRuns(gcc,
			fmt.Sprintf("%s has no SASS for %s on %s, and its %s PTX needs a driver for CUDA %s to JIT-compile; the driver supports CUDA %s",
				what, gcc.sm(), gpuLabel(c.h, gs), ptx, rt, driverCUDA),
			c.driverHint(rt, driverCUDA, "upgrade the driver, or use a build that includes this architecture"))
		return
	}
	if c.xlaCompiles(gcc, gs, what) {
		return
	}
	c.ptxOnlyRuns(gcc,
		fmt.Sprintf("%s has no SASS for %s on %s but carries %s PTX, which the driver JIT-compiles: its own kernels run, with a slow first start and without %s kernels; the CUDA libraries it loads are judged apart (EG410 or EG409 on this target where they fail or are not known)",
			what, gcc.sm(), gpuLabel(c.h, gs), ptx, gcc.sm()),
		c.sassBuildHint(gcc, "use a build that includes this architecture (a newer framework release or CUDA variant)"))
}

// withPythonRoute adds to a hint that asks for a newer pytorch build what
// the file's Python pin allows: the newer release may need a newer Python
// (review fifty-eight F43, F45: pytorch 1.8.1 beside Python 3.6 on an
// H100, whose first build with sm_90 needs 3.8).
func (c *checker) withPythonRoute(hint string) string {
	fw := c.st.Framework
	if fw == nil || fw.Name != "pytorch" || c.st.Python == "" || c.k == nil || !strings.Contains(hint, "newer") {
		return hint
	}
	return hint + c.pythonRoute(fw)
}

// sassBuildHint is the hint of a framework that reaches a GPU only through
// PTX: a build with SASS for it, unless the knowledge base knows none
// exists. TensorFlow's newest release's wheel carries no SASS for a
// GPU newer than its list (2.21.0's stops at sm_89 and compute_90), so no
// TensorFlow release envguard knows has SASS for an RTX 5090 (review
// fourteen #320): the PTX path is the only one, and the hint says so.
func (c *checker) sassBuildHint(gcc cc, otherwise string) string {
	fw := c.st.Framework
	if fw != nil && fw.Name == "pytorch" {
		return c.withPythonRoute(otherwise)
	}
	if fw == nil || fw.Name != "tensorflow" || c.k == nil {
		return otherwise
	}
	// the newest release whose package-index wheel's list is known
	var t *kb.TFConfig
	var list *kb.ArchList
	for _, r := range c.k.TensorFlowConfigs() {
		if t != nil && compareVersions(r.Version, t.Version) <= 0 {
			continue
		}
		if l, ok := c.k.FrameworkArch("tensorflow", resolver.SeriesOf(r.Version), r.CUDA, kb.DistPyPI); ok && l.Known {
			r := r
			t, list = &r, l
		}
	}
	if t == nil {
		return otherwise
	}
	if v, _ := archVerdict(gcc, list); v == runsSASS {
		return otherwise
	}
	// conda-forge's builds: one with SASS for gcc is a way; a conda-forge
	// TensorFlow row whose PTX is open lists only the SASS common to the
	// recipe states that built it (arch-tfjax-2.yaml), so its builds may
	// hold more, up to what its CUDA compiles (review twenty-one F44:
	// 2.19.1's CUDA 12.8 builds from build number 1 add sm_100 and sm_120).
	var maybe []string
	for _, r := range c.k.FrameworkArchRows("tensorflow", kb.DistCondaForge) {
		if !r.Known {
			continue
		}
		if v, _ := archVerdict(gcc, &r); v == runsSASS {
			return otherwise
		}
		if !r.PTXOpen() {
			continue
		}
		if ta, ok := c.k.ToolkitArch(r.CUDA); ok {
			if hi, ok := parseCC(ta.MaxSASS); ok && !hi.less(gcc) {
				maybe = append(maybe, r.Series+" (CUDA "+r.CUDA+")")
			}
		}
	}
	wheel := fmt.Sprintf("the newest package-index wheel whose architecture list envguard knows, %s (CUDA %s), carries %s", t.Version, t.CUDA, archSummary(list))
	if len(maybe) > 0 {
		return fmt.Sprintf("%s; conda-forge's tensorflow %s builds may carry SASS for %s (the knowledge base lists only the SASS common to every recipe state that built them, which their CUDA can extend to %s): a build with it is the way to native code, else rely on the PTX path and check that the JIT-compiled kernels cover the model", wheel, strings.Join(maybe, ", "), gcc.sm(), gcc.sm())
	}
	return fmt.Sprintf("no TensorFlow release envguard knows has SASS for %s: %s, so the PTX path is the only one; check that the JIT-compiled kernels cover the model, or use a framework with SASS for %s", gcc.sm(), wheel, gcc.sm())
}

// judgeToolkit decides what it can of a GPU against a build whose
// architecture list is not known, from the range its CUDA toolkit's nvcc
// can target: below the range nothing can run (certain); above it only
// PTX can, which the knowledge base cannot confirm.
func (c *checker) judgeToolkit(gcc cc, gs []GPU, why, whyKey, driverCUDA string) {
	rt := c.compilerCUDA()
	hint := "pin a build whose architecture list envguard knows, or " + archProbe(c.st.Framework)
	ta, ok := c.k.ToolkitArch(rt)
	if !ok {
		c.undecide(c.fwPos(), "architecture", whyKey+"+toolkit-range-unknown", c.build(), fmt.Sprintf("%s, nor which architectures CUDA %s's compiler can target, so whether it runs on %s (%s) is not known", why, rt, gcc.sm(), gpuLabel(c.h, gs)), hint)
		return
	}
	lo, ok1 := parseCC(ta.MinSASS)
	hi, ok2 := parseCC(ta.MaxSASS)
	if !ok1 || !ok2 {
		c.undecide(c.fwPos(), "architecture", whyKey, c.build(), fmt.Sprintf("%s, so whether it runs on %s (%s) is not known", why, gcc.sm(), gpuLabel(c.h, gs)), hint)
		return
	}
	rng := fmt.Sprintf("CUDA %s's compiler targets %s … %s", rt, lo.sm(), hi.sm())
	if gcc.less(lo) {
		c.noCodeRuns(gcc,
			fmt.Sprintf("%s can run no code on %s: %s, so no build made with it carries SASS or PTX for %s or below (\"no kernel image is available for execution on the device\")",
				c.build(), gpuLabel(c.h, gs), rng, gcc.sm()),
			fmt.Sprintf("use a build made with an older CUDA toolkit that still targets %s, or run on a newer GPU", gcc.sm()))
		return
	}
	// SASS for this GPU is possible when the toolkit targets some
	// architecture of the GPU's major at or below its minor.
	lowestSame := cc{Major: gcc.Major}
	if lo.Major == gcc.Major {
		lowestSame = lo
	}
	sassPossible := gcc.Major <= hi.Major && !gcc.less(lowestSame) && !hi.less(lowestSame)
	if c.st.Framework == nil && (sassPossible || driverCUDA != "" && compareVersions(driverCUDA, rt) >= 0) {
		// No framework: the environment's prebuilt GPU code is its
		// packages', each judged by its own rule (EG410, the extensions'),
		// and what remains is code built with this toolkit, which can
		// target the GPU (SASS, or PTX the driver can JIT-compile). Only
		// the certain failures above and below stand for the environment.
		return
	}
	if sassPossible {
		c.undecide(c.fwPos(), "architecture", whyKey, c.build(),
			fmt.Sprintf("%s, so whether it carries code for %s on %s is not known (%s)", why, gcc.sm(), gpuLabel(c.h, gs), rng), hint)
		return
	}
	// Newer than anything the toolkit targets: only PTX can run.
	if driverCUDA != "" && compareVersions(driverCUDA, rt) < 0 {
		c.noCodeRuns(gcc,
			fmt.Sprintf("%s has no SASS for %s on %s (%s), and PTX built with CUDA %s cannot be JIT-compiled by a driver for CUDA %s",
				c.build(), gcc.sm(), gpuLabel(c.h, gs), rng, rt, driverCUDA),
			c.driverHint(rt, driverCUDA, "upgrade the driver, or use a build made with a CUDA toolkit that targets this architecture"))
		return
	}
	if row, ok := c.tfPTXEveryListed(); ok {
		c.ptxOnlyRuns(gcc,
			fmt.Sprintf("%s has no SASS for %s on %s (%s), but every build of %s TensorFlow %s lists its architectures as X.Y entries, each SASS and PTX, so it carries PTX the driver JIT-compiles: its own kernels run, with a slow first start and without %s kernels; the CUDA libraries it loads are judged apart",
				c.build(), gcc.sm(), gpuLabel(c.h, gs), rng, tfDistName(row.Dist), row.Releases, gcc.sm()),
			c.sassBuildHint(gcc, "use a build made with a CUDA toolkit that targets this architecture"))
		return
	}
	c.undecide(c.fwPos(), "architecture", whyKey+"+ptx-unknown", c.build(),
		fmt.Sprintf("%s; %s, so no build made with it has SASS for %s on %s: it runs only if the build carries PTX, which is not known",
			why, rng, gcc.sm(), gpuLabel(c.h, gs)),
		"use a build made with a CUDA toolkit that targets this architecture, or "+archProbe(c.st.Framework)+" (a compute_ entry is PTX)")
}

// ptxEveryCandidate decides a TensorFlow whose runtime is one of several
// (the defaults channel's 1.13.1: CUDA 9.0, 9.2 or 10.0) on a GPU newer
// than every one of their compilers targets, where every build of the
// release carries PTX for each architecture it lists
// (tensorflow_ptx_every_listed): whichever it is, the driver JIT-compiles
// that PTX (review thirty-nine F5). It reports whether it decided.
func (c *checker) ptxEveryCandidate(gcc cc, gs []GPU) bool {
	fw := c.st.Framework
	if fw == nil || fw.Name != "tensorflow" || len(fw.RuntimeCandidates) == 0 {
		return false
	}
	hi := ""
	for _, rt := range fw.RuntimeCandidates {
		ta, _, ok := c.compilerBelow(rt, gcc)
		if !ok {
			return false
		}
		if hi == "" || compareVersions(ta.MaxSASS, hi) > 0 {
			hi = ta.MaxSASS
		}
	}
	row, ok := c.tfPTXEveryListed()
	if !ok {
		return false
	}
	c.ptxOnlyRuns(gcc,
		fmt.Sprintf("%s has no SASS for %s on %s: it was built with CUDA %s, whose compilers target nothing above sm_%s, but every build of %s TensorFlow %s lists its architectures as X.Y entries, each SASS and PTX, so it carries PTX the driver JIT-compiles: its own kernels run, with a slow first start and without %s kernels; the CUDA libraries it loads are judged apart",
			c.build(), gcc.sm(), gpuLabel(c.h, gs), resolver.OrList(fw.RuntimeCandidates), strings.ReplaceAll(hi, ".", ""), tfDistName(row.Dist), row.Releases, gcc.sm()),
		c.sassBuildHint(gcc, "use a build made with a CUDA toolkit that targets this architecture"))
	return true
}
