package gpucheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
)

// checker carries one run's inputs and what it found.
type checker struct {
	st        *resolver.Stack
	h         *Host
	k         knowledge
	opt       CheckOptions
	ds        []finding.Diagnostic
	notes     []string
	undecided []Undecided
	// uninstallable says why the file cannot be installed as written
	// (cannotInstall): the target fails whatever its GPUs.
	uninstallable string

	// driverCUDA is the CUDA version the host's driver supports, as EG401's
	// step worked it out ("" when unknown), for EG403's.
	driverCUDA string
	// ptxPath holds the compute capabilities ("12.0") the framework reaches
	// only through PTX (EG408), whose CUDA libraries EG410's step must
	// then find carrying code for them.
	ptxPath map[string]bool
	// noCode holds the compute capabilities the framework can run no code
	// on (EG403): its libraries are not in question there.
	noCode map[string]bool
	// extPTX holds, in an environment with no framework, the compute
	// capabilities an extension reaches only through PTX (EG408), with
	// that extension's label: the CUDA libraries it loads must then be
	// known to carry code for them, as on a framework's PTX path.
	extPTX map[string]string
	// unsourced maps a reason libCarries gave (its why) to the knowledge
	// base's word that no public source decides it, so that the check it
	// leaves open is listed as such, and that word said once.
	unsourced map[string]string
}

// check holds st against h: the rules' steps in the registry's order, until
// one stops them; then, where the file leaves the build to the solver and
// something was left undecided (or the CUDA pin read as the variant does not
// select it in every release admitted), every build it admits. The findings take
// their rules' severities and are sorted.
func check(st *resolver.Stack, h *Host, k knowledge, opt CheckOptions) *checker {
	c := &checker{st: st, h: h, k: k, opt: opt}
	if st == nil || h == nil {
		if h != nil {
			c.undecideUnread()
		}
		return c
	}
	for _, r := range rules {
		if r.run != nil && !r.run(c) {
			break
		}
	}
	// An open spec whose pip pick is PyPI's build is judged as that build
	// (or PyPI's builds of the release), whatever the stack as read decided.
	// A CUDA pin no channel published (EG205) admits no build: the
	// candidates would each be judged with a CUDA the file cannot get.
	unpublished := st.CUDA != nil && st.CUDA.NotPublished != ""
	switch {
	case st.Framework != nil && st.Framework.MKLExcludes != "":
		c.mklExcludes()
	case !unpublished && (len(c.undecided) > 0 || pinLeavesVariantOpen(st, k) || (pickBuilds(st.Framework) && st.Framework.Version == "")) && openBuild(st):
		c.overCandidates()
	}
	c.undecideUnread()
	c.uninstallableFile()
	for i := range c.ds {
		c.ds[i].Severity = severity(c.ds[i].Code)
	}
	ds := finding.Diagnostics(c.ds)
	ds.Sort()
	c.ds = ds
	return c
}

// cannotInstall fails the target because the file cannot be installed as
// written (EG205: a release, variant or package that does not exist where
// the file asks for it, requirements pip cannot meet together; an export
// of another platform pinning that platform's own packages): conda or
// pip stops before anything runs, on every machine, so the target fails
// whatever its GPUs (reviews forty-four F1, F10, forty-seven F25 and
// fifty-three F42 judged "could not check" there wrong). What the fixed
// file would run is judged once it is fixed. An export of another
// platform's builds (undecideUnread) is such a file too.
func (c *checker) cannotInstall(why string) {
	if c.uninstallable == "" {
		c.uninstallable = why
	}
}

// uninstallableFile fails the target on each EG205 the stack records,
// whatever the checks reached: a framework release or CUDA package no
// channel published, a conda package by a name no listed channel has,
// requirements pip cannot meet together, and a GPU package or jaxlib line
// pip finds no distribution for.
func (c *checker) uninstallableFile() {
	st := c.st
	if st.CUDA != nil && st.CUDA.NotPublished != "" {
		c.cannotInstall(st.CUDA.NotPublished)
	}
	if fw := st.Framework; fw != nil && fw.NotPublished != "" {
		c.cannotInstall(fw.NotPublished)
	}
	if nf := st.NotFound; len(nf) > 0 {
		c.cannotInstall(nf[0].Why)
	}
	if pcs := st.PinConflicts; len(pcs) > 0 {
		c.cannotInstall(pcs[0].Why)
	}
	if fw := st.Framework; fw != nil && fw.JAXLibUnfindable != "" {
		c.cannotInstall(fw.JAXLibUnfindable)
	}
	for i := range st.GPUPackages {
		if p := &st.GPUPackages[i]; p.NotInstallable {
			c.cannotInstall(p.Unknown)
		}
	}
}

// verdict is the target's verdict from what the checks found.
func (c *checker) verdict() Verdict {
	return TargetVerdict(c.ds, len(c.undecided) > 0, c.uninstallable)
}

// undecideUnread leaves the target undecided where the file was not read
// whole: the packages in the part not read are not known, so a green
// verdict would cover only what was read (review ten: an invalid YAML
// file, corpus 171 and 172, and a dependencies: mapping, 168, read ok).
func (c *checker) undecideUnread() {
	u := c.opt.Unread
	if u == nil {
		return
	}
	if u.Refused != "" {
		// conda or pip refuses the file itself (review fifty-four F42,
		// corpus 168: a dependencies: mapping)
		c.cannotInstall(u.Refused)
		return
	}
	if u.Reason == "foreign-export" {
		// its Windows-only runtime (vc, vs2015_runtime) or another
		// platform's builds exist for no package of the target's
		// platform: conda stops there (reviews forty-four F1, fifty-three
		// F42, corpus 169)
		c.cannotInstall(u.Why + "; " + u.Hint)
		return
	}
	reason, hint := "file-not-read", fmt.Sprintf("fix the error on line %d; envguard then checks what the file installs", u.Pos.Line)
	if u.Reason != "" {
		reason, hint = u.Reason, u.Hint
	}
	c.undecideFor(u.Pos, CauseFile, "file", reason, "everything the file installs", u.Why, hint)
}

// add records a finding of the rule with the code; check gives it the
// rule's severity.
func (c *checker) add(code string, pos finding.Pos, msg, hint string) {
	c.ds = append(c.ds, finding.Diagnostic{Pos: pos, Code: code, Message: msg, Hint: hint})
}

func (c *checker) note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// build names the framework build in messages: "pytorch 2.5.1 (CUDA 12.4,
// wheel)", or the runtime alone when there is no framework.
func (c *checker) build() string {
	fw, rt := c.st.Framework, c.runtime()
	if fw == nil {
		if rt != "" {
			return "this environment's CUDA " + rt + " runtime"
		}
		return "this environment"
	}
	var parts []string
	if fw.CUDAUnloadable != "" {
		// the runtime the file provides is one the build cannot load
		parts = append(parts, "built with CUDA "+c.compilerCUDA())
	} else if cc := c.compilerCUDA(); rt != "" && cc != rt {
		parts = append(parts, "CUDA "+rt+" runtime, built with "+cc)
	} else if rt != "" {
		parts = append(parts, "CUDA "+rt)
	}
	if fw.Dist != "" {
		parts = append(parts, string(fw.Dist))
	}
	if fw.ChannelMoved != "" {
		// the channel named is not the file's first: say why
		parts = append(parts, fw.ChannelMoved)
	}
	if len(parts) == 0 {
		return fwName(fw)
	}
	return fwName(fw) + " (" + strings.Join(parts, ", ") + ")"
}

// openBuild reports whether the file leaves the framework build to the
// solver: its release, its variant or its CUDA version.
func openBuild(st *resolver.Stack) bool {
	fw := st.Framework
	if fw == nil || !gpuFramework(fw) || fw.Variant == "cpu" || fw.Variant == "rocm" || fw.Installed != "" {
		// an installed pre-release is one build, read as its series
		return false
	}
	return fw.Version == "" || fw.Variant == "" || st.CUDA == nil || st.CUDA.Version == ""
}

// gpuFramework reports whether the framework has CUDA builds at all, so
// that leaving its variant to the solver leaves the check undecided.
func gpuFramework(fw *resolver.Framework) bool {
	switch fw.Name {
	case "pytorch", "tensorflow", "jax":
		return true
	}
	return false
}

// runtime is the environment's CUDA runtime version, "" when unknown.
func (c *checker) runtime() string {
	if c.st.CUDA != nil {
		return c.st.CUDA.Version
	}
	return ""
}

// compilerCUDA is the CUDA the framework build was compiled with, which
// decides its architecture list and the PTX it carries: the resolver's
// BuildCUDA where it knows one apart from the runtime (conda-forge's cuda126
// build beside cuda-version=12.8; a pip TensorFlow wheel, built with its
// release's CUDA whatever cudatoolkit the file pins), else the runtime's.
func (c *checker) compilerCUDA() string {
	if fw := c.st.Framework; fw != nil && fw.BuildCUDA != "" {
		return fw.BuildCUDA
	}
	return c.runtime()
}

// needsCUDA reports whether the environment needs an NVIDIA driver and GPU:
// a CUDA framework build, a CUDA runtime, or a GPU-code package that
// carries GPU code (gpuCodePackage) beside no CPU-only framework.
func (c *checker) needsCUDA() bool {
	fw := c.st.Framework
	return (fw != nil && fw.Variant == "cuda") || c.runtime() != "" || c.gpuCodePackage() != nil
}

// gpuCodePackage is the first GPU-code package whose code is known to hold
// SASS or PTX (read from its binaries, `check` of a prefix or learned
// builds, or a knowledge-base row), where the framework, if any, is not a
// CPU or ROCm build: an extension beside a CPU-only torch never runs its
// CUDA kernels, and a package whose code is unknown or empty is not taken
// to need a GPU. nil when there is none.
func (c *checker) gpuCodePackage() *resolver.GPUPackage {
	if fw := c.st.Framework; fw != nil && (fw.Variant == "cpu" || fw.Variant == "rocm") {
		return nil
	}
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		if p.Code.Known && (len(p.Code.SASS) > 0 || len(p.Code.PTX) > 0) {
			return p
		}
		if !p.Code.Known && len(p.Code.SupportedCC) > 0 {
			return p // described by the GPUs it supports (TensorRT): GPU code all the same
		}
	}
	for i := range c.st.GPUPackages {
		// a CUDA build whose code is not known still links the runtime of
		// its CUDA (vllm 0.26.0's wheel, CUDA 13.0): the driver must run
		// it, whatever the architectures turn out to be
		p := &c.st.GPUPackages[i]
		if p.Role == resolver.RoleExtension && !p.Code.Known && !p.Code.JIT && len(p.BuiltFor.CUDA) > 0 && p.From == envspec.ProviderPip {
			return p
		}
	}
	return nil
}

// uncheckedGPUPackages are the GPU-code packages whose code is not known
// (no row, no binary, or a row without the build's code), beside no CPU or
// ROCm framework build: they may need a GPU, so an environment that needs
// none of what is known is still not ok while they are unchecked.
func (c *checker) uncheckedGPUPackages() []*resolver.GPUPackage {
	if fw := c.st.Framework; fw != nil && (fw.Variant == "cpu" || fw.Variant == "rocm") {
		return nil
	}
	var out []*resolver.GPUPackage
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		if p.Role == resolver.RoleExtension && !p.Code.Known && !p.Code.JIT && len(p.Code.SupportedCC) == 0 {
			out = append(out, p)
		}
	}
	return out
}

// cudaPos points at the item that makes the environment need CUDA: the
// first evidence of its CUDA version, else the framework, else the first
// package that carries GPU code.
func (c *checker) cudaPos() finding.Pos {
	if c.st.CUDA != nil {
		for _, e := range c.st.CUDA.Evidence {
			if e.Pos.IsValid() {
				return e.Pos
			}
		}
	}
	if c.st.Framework != nil {
		return c.st.Framework.Pos
	}
	if p := c.gpuCodePackage(); p != nil {
		return p.Pos
	}
	return finding.Pos{}
}

// fwPos points at the framework, else at the CUDA evidence.
func (c *checker) fwPos() finding.Pos {
	if c.st.Framework != nil && c.st.Framework.Pos.IsValid() {
		return c.st.Framework.Pos
	}
	return c.cudaPos()
}

func gpuLabel(h *Host, gs []GPU) string {
	idx := make([]string, len(gs))
	for i, g := range gs {
		idx[i] = strconv.Itoa(g.Index)
	}
	word := "GPU"
	if len(gs) > 1 {
		word = "GPUs"
	}
	s := fmt.Sprintf("%s %s (compute capability %s)", word, strings.Join(idx, ","), gs[0].CC)
	// A target described by compute capability alone names its GPUs after
	// it; saying it twice reads as a stutter.
	if n := gs[0].Name; n != "" && !strings.HasPrefix(n, "compute capability") {
		s = fmt.Sprintf("%s %s (%s, compute capability %s)", word, strings.Join(idx, ","), n, gs[0].CC)
	}
	if h.Source == SourceTarget {
		s = "target " + h.Name + "'s " + s
	}
	return s
}

func countGPUs(gs []GPU) string {
	if len(gs) == 1 {
		return "1 NVIDIA GPU (" + gs[0].Name + ")"
	}
	return fmt.Sprintf("%d NVIDIA GPUs (%s)", len(gs), gs[0].Name)
}

func fwName(fw *resolver.Framework) string {
	s := fw.Name
	if fw.Version != "" {
		s += " " + fw.Version
	} else if fw.Installed != "" {
		s += " " + fw.Installed
	} else if fw.Spec != "" {
		s += " " + fw.Spec
	}
	if fw.JAXLib != "" && fw.JAXLib != fw.Version {
		s += " with jaxlib " + fw.JAXLib // whose wheels carry the GPU code
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func majorOfStr(v string) string {
	if i := strings.IndexByte(v, '.'); i >= 0 {
		return v[:i]
	}
	return v
}

// mklExcludes replaces what the checks of the build as read found of the
// framework with one open check: the file's mkl pin rules out the builds
// the variant is chosen among (resolver: Framework.MKLExcludes), and which
// build conda takes instead is not decided. What the checks found on the
// other packages' lines stays (openmm's NVRTC of the file's cudatoolkit
// on a K80), with the machine's own findings and the extensions' open
// checks.
func (c *checker) mklExcludes() {
	fw := c.st.Framework
	line := c.fwPos().Line
	var kept []finding.Diagnostic
	for _, d := range c.ds {
		if d.Code == "EG405" || d.Code == "EG406" || d.Pos.Line != line {
			kept = append(kept, d)
		}
	}
	// an open check stays with its EG409 (undecideFor words the finding
	// from the check's what and why)
	var und []Undecided
	for _, u := range c.undecided {
		for _, d := range kept {
			if d.Code == "EG409" && strings.Contains(d.Message, u.What) && strings.Contains(d.Message, u.Why) {
				und = append(und, u)
				break
			}
		}
	}
	c.ds, c.undecided = kept, und
	c.undecide(c.fwPos(), "variant", "mkl-pin-excludes-builds", fwName(fw),
		fw.MKLExcludes+"; so conda takes another build (a CPU build, or another channel's), which is not decided here",
		"pin an mkl of the major those builds run with, or drop the mkl pin, so that conda-forge's CUDA build can install")
}
