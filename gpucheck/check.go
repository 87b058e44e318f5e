package gpucheck

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// knowledge is what the checks ask the knowledge base; *kb.KB answers it.
type knowledge interface {
	Arch(series, cuda string, dist kb.Distribution) (*kb.ArchList, bool)
	FrameworkArch(framework, series, cuda string, dist kb.Distribution) (*kb.ArchList, bool)
	DriverFloor(cuda string) (*kb.CUDADriver, bool)
	MinorCompatFloor(major int) (*kb.MinorCompat, bool)
	DriverCUDA(driver string) string
	GPUByName(name string) (*kb.GPU, bool)
	GPUCandidates(name string) []kb.GPU
	ToolkitArch(cuda string) (*kb.ToolkitArch, bool)
	OldestDriverFloor() (*kb.CUDADriver, bool)
	Variants(series string, dist kb.Distribution) (*kb.TorchVariants, bool)
	TorchReleases() []string
	NewestCUDAOfMajor(major int) string
}

// CheckOptions tune the machine checks.
type CheckOptions struct {
	// MinFree is the free memory, in bytes, each GPU the job will use must
	// have (--min-free); 0 checks only for other processes.
	MinFree uint64
}

// GPUSummary is a GPU as a target result lists it.
type GPUSummary struct {
	Name string `json:"name"`
	CC   string `json:"compute_capability"`
}

// Verdict is what a target's check promises.
type Verdict string

const (
	// VerdictOK: the driver, the GPU architectures (SASS and PTX) and the
	// CPU or CUDA variant were each decided, and none failed.
	VerdictOK Verdict = "ok"
	// VerdictFail: an error-severity EG4xx finding applies.
	VerdictFail Verdict = "fail"
	// VerdictUnknown: no error, but some check could not be decided (each
	// is an EG409 finding saying which and why). A green that was not
	// checked would be a promise envguard cannot keep.
	VerdictUnknown Verdict = "unknown"
)

// TargetResult is the verdict of one environment on one host, the report's
// `targets` entry. Findings are also merged into the report's findings.
type TargetResult struct {
	Name       string               `json:"name"`
	Driver     string               `json:"driver,omitempty"`
	CUDADriver string               `json:"cuda_driver,omitempty"`
	GPUs       []GPUSummary         `json:"gpus"`
	Verdict    Verdict              `json:"verdict"`
	Findings   []envspec.Diagnostic `json:"-"`
	// Undecided names each check that could not be decided, and why; each
	// is also an EG409 finding on the line it concerns.
	Undecided []Undecided `json:"undecided,omitempty"`
	// Notes are what the reader should know that decides nothing ("driver
	// taken as 525.60.13, the first driver for CUDA 12.0").
	Notes []string `json:"notes,omitempty"`
}

// Check holds a resolved stack against a host: EG401–EG408.
func Check(st *resolver.Stack, h *Host, k *kb.KB, opt CheckOptions) []envspec.Diagnostic {
	return check(st, h, kbOrDefault(k), opt).ds
}

// Evaluate is Check with the host's summary, the verdict, and what could
// not be decided.
func Evaluate(st *resolver.Stack, h *Host, k *kb.KB, opt CheckOptions) TargetResult {
	return evaluate(st, h, kbOrDefault(k), opt)
}

func kbOrDefault(k *kb.KB) knowledge {
	if k == nil {
		return kb.Default()
	}
	return k
}

func evaluate(st *resolver.Stack, h *Host, k knowledge, opt CheckOptions) TargetResult {
	r := TargetResult{GPUs: []GPUSummary{}}
	if h != nil {
		r.Name, r.Driver, r.CUDADriver = h.Name, h.Driver, h.CUDADriver
		for _, g := range h.GPUs {
			r.GPUs = append(r.GPUs, GPUSummary{Name: g.Name, CC: g.CC})
		}
		if h.DriverAssumed {
			r.Notes = append(r.Notes, fmt.Sprintf("driver taken as %s, the first driver for CUDA %s", h.Driver, h.CUDADriver))
		}
	}
	c := check(st, h, k, opt)
	r.Findings, r.Notes, r.Undecided = c.ds, append(r.Notes, c.notes...), c.undecided
	r.Verdict = VerdictOf(r.Findings, len(r.Undecided) > 0)
	return r
}

// Undecided is one check that could not be decided.
type Undecided struct {
	// Check is what was not decided: variant, driver or architecture.
	Check string `json:"check"`
	// Reason is a stable key for the missing fact, for counting
	// (arch-list-unknown, ptx-unknown, runtime-unknown, ...).
	Reason string `json:"reason"`
	// Why says it in words.
	Why string `json:"why"`
}

// VerdictOf is fail when a finding is an error, else unknown when a check
// was left undecided, else ok.
func VerdictOf(ds []envspec.Diagnostic, undecided bool) Verdict {
	switch {
	case envspec.Diagnostics(ds).Err() != nil:
		return VerdictFail
	case undecided:
		return VerdictUnknown
	}
	return VerdictOK
}

// checker carries one run's inputs and what it found.
type checker struct {
	st        *resolver.Stack
	h         *Host
	k         knowledge
	opt       CheckOptions
	ds        []envspec.Diagnostic
	notes     []string
	undecided []Undecided
}

func check(st *resolver.Stack, h *Host, k knowledge, opt CheckOptions) *checker {
	c := &checker{st: st, h: h, k: k, opt: opt}
	if st == nil || h == nil {
		return c
	}
	c.run()
	if len(c.undecided) > 0 && openBuild(st) {
		c.overCandidates()
	}
	ds := envspec.Diagnostics(c.ds)
	ds.Sort()
	c.ds = ds
	return c
}

func (c *checker) add(code string, sev envspec.Severity, pos envspec.Pos, msg, hint string) {
	c.ds = append(c.ds, envspec.Diagnostic{Pos: pos, Severity: sev, Code: code, Message: msg, Hint: hint})
}

func (c *checker) note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// undecide records a check that could not be decided: an EG409 finding on
// the line it concerns, and the reason in the target's Undecided. check is
// which check (variant, driver, architecture), reason a stable key for the
// missing fact, what the thing that was not checked (a build, a runtime),
// why what was missing, in words.
func (c *checker) undecide(pos envspec.Pos, check, reason, what, why, hint string) {
	msg := fmt.Sprintf("could not check %s against %s: %s", what, c.h.label(), why)
	c.undecided = append(c.undecided, Undecided{Check: check, Reason: reason, Why: why})
	c.add("EG409", envspec.SeverityWarning, pos, msg, hint)
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
	if cc := c.compilerCUDA(); rt != "" && cc != rt {
		parts = append(parts, "CUDA "+rt+" runtime, built with "+cc)
	} else if rt != "" {
		parts = append(parts, "CUDA "+rt)
	}
	if fw.Dist != "" {
		parts = append(parts, string(fw.Dist))
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
	if fw == nil || !gpuFramework(fw) || fw.Variant == "cpu" || fw.Variant == "rocm" {
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
// decides its architecture list: the build string's where it names one.
// conda-forge's cuda126 build runs on any 12.x from 12.6 on, so a
// cuda-version=12.8 beside it sets the runtime, not the compiler.
func (c *checker) compilerCUDA() string {
	if fw := c.st.Framework; fw != nil && c.st.CUDA != nil {
		for _, e := range c.st.CUDA.Evidence {
			if e.Kind == resolver.EvidenceBuild && e.AtLeast && e.Says != "" && e.Pos.Line == fw.Pos.Line {
				return e.Says
			}
		}
	}
	return c.runtime()
}

func (c *checker) needsCUDA() bool {
	fw := c.st.Framework
	return (fw != nil && fw.Variant == "cuda") || c.runtime() != ""
}

// cudaPos points at the item that makes the environment need CUDA: the
// first evidence of its CUDA version, else the framework.
func (c *checker) cudaPos() envspec.Pos {
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
	return envspec.Pos{}
}

// fwPos points at the framework, else at the CUDA evidence.
func (c *checker) fwPos() envspec.Pos {
	if c.st.Framework != nil && c.st.Framework.Pos.IsValid() {
		return c.st.Framework.Pos
	}
	return c.cudaPos()
}

func (c *checker) run() {
	h := c.h
	fw := c.st.Framework
	if fw != nil && (fw.Variant == "cpu" || fw.Variant == "rocm") && h.Available && len(h.GPUs) > 0 {
		// A ROCm build drives AMD GPUs only: on NVIDIA GPUs it is a
		// CPU-only build, which is what EG407 is about.
		what := "a CPU-only build"
		if fw.Variant == "rocm" {
			what = "a ROCm build, for AMD GPUs: on NVIDIA GPUs it runs on the CPU only"
		}
		c.add("EG407", envspec.SeverityWarning, c.fwPos(),
			fmt.Sprintf("%s is %s; %s has %s: they will sit idle", fwName(fw), what, h.label(), countGPUs(h.GPUs)),
			"install the CUDA build (e.g. pytorch-cuda=12.4 with -c pytorch -c nvidia, or a cuda build string on conda-forge)")
	}
	if fw != nil && fw.Variant == "" && gpuFramework(fw) {
		if fw.Name == "tensorflow" && fw.From == envspec.ProviderPip {
			// One Linux wheel for CPU and GPU since 2.1: it uses the GPU only
			// if it finds CUDA and cuDNN libraries when it starts.
			c.undecide(c.fwPos(), "variant", "cuda-libraries-not-in-file", fwName(fw),
				"the pip wheel uses the GPU only if it finds CUDA and cuDNN libraries at run time, and the file provides none, so neither the driver nor the GPU architectures can be checked for it",
				"install tensorflow[and-cuda] (2.14 and later), or the CUDA and cuDNN versions TensorFlow was tested with")
		} else if fw.Name == "pytorch" && fw.From == envspec.ProviderPip && fw.Version == "" {
			// PyPI's torch has one build per release and platform (a CUDA
			// build on Linux x86_64, the CPU build on Windows and macOS):
			// what is open is the release, and with it the CUDA version
			// and the architecture list, not a CPU/CUDA choice on Linux.
			c.undecide(c.fwPos(), "variant", "variant-left-to-solver", fwName(fw),
				"pip installs whatever torch release the index serves that day, and with it the build (PyPI serves each release as one CUDA build on Linux x86_64, each with its own CUDA version and architecture list, and as the CPU build on Windows and macOS), so neither the driver nor the GPU architectures can be checked for it",
				"pin the release: torch==X.Y.Z, which PyPI serves as one CUDA build on Linux x86_64, or torch==X.Y.Z+cuXYZ with the PyTorch wheel index")
		} else {
			c.undecide(c.fwPos(), "variant", "variant-left-to-solver", fwName(fw),
				"whether the CPU or the CUDA build is installed is left to the solver (or pip), so neither the driver nor the GPU architectures can be checked for it",
				"pin the variant: pytorch-cuda=X.Y or cpuonly (pytorch channel), a cuda*/cpu* build string (conda-forge), a +cuXXX wheel with its index (pip)")
		}
	}
	if !c.needsCUDA() {
		return
	}
	if !h.Available {
		c.add("EG404", envspec.SeverityError, c.cudaPos(),
			fmt.Sprintf("this environment needs CUDA%s but %s cannot run it: %s", c.rtSuffix(), h.label(), orUnknown(h.Reason)),
			"run it on a machine with an NVIDIA driver and GPU, or use a CPU-only build")
		return
	}
	if len(h.GPUs) == 0 {
		// A described machine or an override may leave the GPUs out on
		// purpose; a real machine without one cannot run the job.
		if h.Source == SourceNVML {
			c.add("EG404", envspec.SeverityError, c.cudaPos(),
				fmt.Sprintf("this environment needs CUDA%s but %s has no NVIDIA GPU a job can use: %s", c.rtSuffix(), h.label(), orUnknown(h.Reason)),
				"check CUDA_VISIBLE_DEVICES and nvidia-smi")
		} else {
			c.undecide(c.fwPos(), "architecture", "no-gpu-described", c.build(), "the target names no GPU, so the GPU architectures were not checked",
				"describe the target's GPUs: gpus: [\"H100\"] or compute_capabilities: [\"9.0\"]")
		}
	}
	driverCUDA := c.checkDriver()
	c.checkArch(driverCUDA)
	c.checkMemory()
	for _, g := range h.GPUs {
		if g.MIG {
			c.add("EG406", envspec.SeverityInfo, c.cudaPos(),
				fmt.Sprintf("GPU %d (%s) is in MIG mode: a job sees only the MIG instance it is given, not the whole GPU", g.Index, g.Name),
				"select a MIG instance with CUDA_VISIBLE_DEVICES=MIG-<uuid>, or disable MIG (nvidia-smi -i N -mig 0) for whole-GPU jobs")
		}
	}
}

// runtimeMajor is the CUDA major the environment's runtime is known by when
// its minor is not (jax[cuda12], jax-cuda12-plugin: pip installs whatever
// nvidia-*-cu12 runtime is newest), 0 when none.
func (c *checker) runtimeMajor() int {
	if c.st.CUDA == nil || c.st.CUDA.Version != "" {
		return 0
	}
	m := 0
	for _, e := range c.st.CUDA.Evidence {
		if e.Says == "" || strings.Contains(e.Says, ".") {
			continue
		}
		n := majorOf(e.Says)
		if n <= 0 || (m != 0 && n != m) {
			return 0 // no major, or two that disagree (EG305's finding)
		}
		m = n
	}
	return m
}

// checkDriverMajor decides the driver against a runtime known only by its
// major: any CUDA m.x from m.0 to the newest the knowledge base lists. It
// returns false where the outcome depends on which minor is installed.
func (c *checker) checkDriverMajor(m int, driverCUDA string) bool {
	newest := c.k.NewestCUDAOfMajor(m)
	dm := majorOf(driverCUDA)
	hint := fmt.Sprintf("upgrade the driver to one for CUDA %s or newer", orUnknown(newest))
	switch {
	case dm > m:
		return true
	case dm < m:
		c.add("EG401", envspec.SeverityError, c.cudaPos(),
			fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %d runtime (whichever %d.x is installed) does not run on a CUDA %d driver", c.driverLabel(), driverCUDA, m, m, dm),
			hint)
		return true
	case newest != "" && compareVersions(driverCUDA, newest) >= 0:
		return true
	}
	// Same major, older than the newest minor: the runtime runs natively
	// or, if newer than the driver, through minor-version compatibility,
	// which the driver reaches when it is at or above the major's floor.
	f, ok := c.k.MinorCompatFloor(m)
	drv := c.h.Driver
	if drv == "" {
		if df, ok := c.k.DriverFloor(driverCUDA); ok && !df.BranchOnly {
			drv = df.LinuxMin
		}
	}
	if !ok || f.LinuxFloor == "" || f.LinuxFloor == "unknown" || drv == "" || compareVersions(drv, f.LinuxFloor) < 0 {
		return false
	}
	c.add("EG402", envspec.SeverityWarning, c.cudaPos(),
		fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %d runtime is whichever %d.x pip installs, up to %s: one newer than %s runs only through minor-version compatibility (PTX JIT and newer APIs fail)",
			c.driverLabel(), driverCUDA, m, m, orUnknown(newest), driverCUDA),
		hint+", or pin the runtime wheel (nvidia-cuda-runtime-cu"+fmt.Sprint(m)+"=="+driverCUDA+".*)")
	return true
}

// runtimeUnknownHint says how to fix the CUDA runtime of the build at hand.
// JAX's pip CUDA wheels (jax[cuda12], jax-cuda12-plugin) carry no runtime of
// their own: they load the nvidia-*-cu12 wheels pip resolves, any CUDA 12.x
// from 12.1 (JAX_INSTALL), so pytorch-cuda or a +cuXYZ wheel mean nothing
// there.
func runtimeUnknownHint(fw *resolver.Framework) string {
	if fw != nil && fw.Name == "jax" && fw.From == envspec.ProviderPip {
		return "JAX's CUDA wheels load the CUDA runtime pip installs for them (nvidia-cuda-runtime-cuNN, any minor of the major): read it on the machine with `pip show nvidia-cuda-runtime-cu12` and hold it against nvidia-smi's CUDA version, or take jaxlib from conda-forge (jaxlib=*=cuda12* with cuda-version=12.X), whose runtime envguard can check"
	}
	return "pin the CUDA variant (pytorch-cuda=X.Y, cuda-version=X.Y, a cudaXYZ build string or a +cuXYZ wheel)"
}

func (c *checker) rtSuffix() string {
	if rt := c.runtime(); rt != "" {
		return " " + rt
	}
	return ""
}

// checkDriver raises EG401/EG402, or EG409 where the driver cannot be
// judged, and returns the CUDA version the driver supports ("" when
// unknown).
func (c *checker) checkDriver() string {
	h := c.h
	driverCUDA := h.CUDADriver
	if driverCUDA == "" && h.Driver != "" {
		driverCUDA = c.k.DriverCUDA(h.Driver)
	}
	rt := c.runtime()
	if rt == "" {
		if m := c.runtimeMajor(); m > 0 && driverCUDA != "" && c.checkDriverMajor(m, driverCUDA) {
			return driverCUDA
		}
		c.undecide(c.fwPos(), "driver", "runtime-unknown", c.build(), "its CUDA runtime version is not known, so the driver was not checked",
			runtimeUnknownHint(c.st.Framework))
		return driverCUDA
	}
	if driverCUDA == "" {
		if h.Driver != "" && h.DriverBelowKB != "" {
			// Older than the first driver of the oldest CUDA the knowledge
			// base lists: it runs none of them, nor anything newer.
			c.add("EG401", envspec.SeverityError, c.cudaPos(),
				fmt.Sprintf("%s is older than %s, the first driver for CUDA %s, the oldest CUDA envguard knows: it cannot run this environment's CUDA %s runtime",
					c.driverLabel(), h.DriverBelowFloor, h.DriverBelowKB, rt),
				fmt.Sprintf("upgrade the driver to one that supports CUDA %s or newer", rt))
			return ""
		}
		c.undecide(c.cudaPos(), "driver", "driver-cuda-unknown", c.build(), fmt.Sprintf("the CUDA version that driver %s supports is not known", orUnknown(h.Driver)),
			"give the target's cuda_driver (the CUDA version nvidia-smi prints), or update the knowledge base (--kb DIR)")
		return ""
	}
	if compareVersions(driverCUDA, rt) >= 0 {
		return driverCUDA
	}
	need := "a driver for it"
	if f, ok := c.k.DriverFloor(rt); ok && f.LinuxMin != "" {
		need = f.LinuxMin
	} else {
		c.note("no driver floor known for CUDA %s", rt)
	}
	rtMajor := majorOf(rt)
	floor := ""
	if f, ok := c.k.MinorCompatFloor(rtMajor); ok && f.LinuxFloor != "" && f.LinuxFloor != "unknown" {
		floor = f.LinuxFloor
	}
	msg := fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %s runtime needs %s", c.driverLabel(), driverCUDA, rt, need)
	if floor != "" {
		msg += fmt.Sprintf(", or at least %s through minor-version compatibility", floor)
	}
	hint := fmt.Sprintf("upgrade the driver to %s or newer, or pin a CUDA %s runtime the driver supports (%s or older)", need, majorOfStr(driverCUDA), driverCUDA)
	if majorOf(driverCUDA) != rtMajor {
		c.add("EG401", envspec.SeverityError, c.cudaPos(), msg+fmt.Sprintf(": CUDA %d runtimes do not run on a CUDA %s driver", rtMajor, majorOfStr(driverCUDA)), hint)
		return driverCUDA
	}
	if rtMajor < 11 {
		// Minor-version compatibility began with CUDA 11 (NVIDIA's CUDA
		// Compatibility guide): before it a runtime needs its own driver.
		c.add("EG401", envspec.SeverityError, c.cudaPos(),
			msg+fmt.Sprintf(": before CUDA 11 there is no minor-version compatibility, so a CUDA %s runtime needs a driver for CUDA %s or newer", rt, rt), hint)
		return driverCUDA
	}
	// The driver itself, or where only its CUDA version is known, the
	// oldest driver that supports that CUDA: a lower bound of the real one.
	drv := h.Driver
	if drv == "" {
		if f, ok := c.k.DriverFloor(driverCUDA); ok && f.LinuxMin != "" && !f.BranchOnly {
			drv = f.LinuxMin
		}
	}
	switch {
	case floor == "" || drv == "":
		c.undecide(c.cudaPos(), "driver", "minor-compat-floor-unknown", c.build(),
			fmt.Sprintf("%s supports CUDA %s, older than the CUDA %s runtime, and whether it reaches the minor-version-compatibility floor of CUDA %d is not known", c.driverLabel(), driverCUDA, rt, rtMajor),
			hint)
	case compareVersions(drv, floor) < 0:
		c.add("EG401", envspec.SeverityError, c.cudaPos(), msg, hint)
	default:
		c.add("EG402", envspec.SeverityWarning, c.cudaPos(),
			msg+": it runs only through minor-version compatibility (PTX JIT and newer APIs fail)", hint)
	}
	return driverCUDA
}

func (c *checker) driverLabel() string {
	h := c.h
	switch {
	case h.Source == SourceOverride && h.Driver == "":
		return fmt.Sprintf("the driver (CONDA_OVERRIDE_CUDA=%s)", h.CUDADriver)
	case h.DriverAssumed:
		return fmt.Sprintf("a driver for CUDA %s (taken as %s)", h.CUDADriver, h.Driver)
	case h.Driver == "":
		return "the driver"
	case h.DriverRange != "":
		return fmt.Sprintf("driver %s (the oldest of %s)", h.Driver, h.DriverRange)
	}
	return "driver " + h.Driver
}

// checkArch raises EG403/EG408 per distinct compute capability, from the
// build's architecture list where the knowledge base has it, else from what
// its CUDA toolkit's compiler can target at all; EG409 where neither
// decides.
func (c *checker) checkArch(driverCUDA string) {
	fw := c.st.Framework
	rt := c.runtime()
	if len(c.h.GPUs) == 0 || (fw != nil && fw.Variant != "cuda") {
		return
	}
	var list *kb.ArchList
	why, whyKey := "", ""
	switch {
	case rt == "" && c.runtimeMajor() > 0 && fw != nil:
		c.checkArchMajor(c.runtimeMajor(), driverCUDA)
		return
	case rt == "":
		// checkDriver has said the runtime is unknown; the architectures
		// depend on it as much as the driver does.
		return
	case fw == nil:
		why, whyKey = "no framework build whose architecture list is known carries the GPU code", "no-framework"
	case fw.Series() == "":
		why, whyKey = "its exact release is not known, so neither is its architecture list", "release-unknown"
	default:
		if l, ok := c.archList(fw, c.compilerCUDA()); ok && l != nil && l.Known {
			list = l
		} else {
			why, whyKey = "the build's architecture list is not known", "arch-list-unknown"
		}
	}
	c.eachCC(func(gcc cc, gs []GPU) {
		if list != nil {
			c.judgeList(gcc, gs, list, driverCUDA)
		} else {
			c.judgeToolkit(gcc, gs, why, whyKey, driverCUDA)
		}
	})
}

// archList finds the build's architecture list. TensorFlow's and JAX's
// lists are those of their official pip wheels: a conda build (conda-forge,
// defaults) is compiled by its own recipe, whose list the knowledge base does
// not hold, so it gets none rather than the wheel's.
func (c *checker) archList(fw *resolver.Framework, rt string) (*kb.ArchList, bool) {
	switch fw.Name {
	case "tensorflow", "jax":
		if fw.From != envspec.ProviderPip {
			return nil, false
		}
		return c.k.FrameworkArch(fw.Name, fw.Version, rt, kb.DistPyPI)
	}
	return c.k.Arch(fw.Series(), rt, fw.Dist)
}

// archProbe says how to read a build's architecture list on the machine,
// for the framework at hand.
func archProbe(fw *resolver.Framework) string {
	switch {
	case fw != nil && fw.Name == "tensorflow":
		return "check on the machine: python -c 'import tensorflow as tf; print(tf.sysconfig.get_build_info())' (cuda_compute_capabilities)"
	case fw != nil && fw.Name == "jax":
		return "run a small jax computation on the machine and read its compilation warnings"
	case fw == nil:
		return "check each GPU library on the machine (cuobjdump --list-elf, --list-ptx)"
	}
	return "check on the machine: python -c 'import torch; print(torch.cuda.get_arch_list())'"
}

// checkArchMajor judges the GPUs against a build known by its CUDA major
// only (JAX's cuda12 wheels, whose list is per major): SASS and its absence
// are certain; PTX can be JIT-compiled only by a driver at least as new as
// the runtime, which is decided where the driver is newer than every m.x.
func (c *checker) checkArchMajor(m int, driverCUDA string) {
	fw := c.st.Framework
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
		case v == runsNone && !list.PTXUnknown:
			c.noKernel(what, gs, gcc, "use a build that includes this architecture (a newer framework release)")
		case v == runsPTX && driverNewer:
			c.add("EG408", envspec.SeverityWarning, c.fwPos(),
				fmt.Sprintf("%s has no SASS for %s on %s but carries %s PTX, which the driver JIT-compiles: it runs, with a slow first start and without %s kernels",
					what, gcc.sm(), gpuLabel(c.h, gs), by.compute(), gcc.sm()),
				"use a build that includes this architecture (a newer framework release)")
		default:
			c.undecide(c.fwPos(), "architecture", "ptx-unknown", c.build(),
				fmt.Sprintf("%s has no SASS for %s on %s, and whether its PTX can be JIT-compiled depends on which CUDA %d.x runtime pip installs", what, gcc.sm(), gpuLabel(c.h, gs), m),
				"pin the runtime wheel (nvidia-cuda-runtime-cu"+fmt.Sprint(m)+"==X.Y.*) to the driver's CUDA version or older")
		}
	})
}

// noKernel raises EG403 for a GPU a known architecture list has neither
// SASS nor PTX for.
func (c *checker) noKernel(what string, gs []GPU, gcc cc, hint string) {
	c.add("EG403", envspec.SeverityError, c.fwPos(),
		fmt.Sprintf("%s can run no code on %s: no SASS for %s or a lower %d.x, and no PTX at or below compute_%d%d (\"no kernel image is available for execution on the device\")",
			what, gpuLabel(c.h, gs), gcc.sm(), gcc.Major, gcc.Major, gcc.Minor),
		hint)
}

// eachCC calls judge once per distinct compute capability of the host's
// GPUs, in order, with the GPUs that have it; a capability that does not
// read as major.minor leaves the architecture check undecided for them.
func (c *checker) eachCC(judge func(gcc cc, gs []GPU)) {
	byCC := map[string][]GPU{}
	var keys []string
	for _, g := range c.h.GPUs {
		if _, ok := byCC[g.CC]; !ok {
			keys = append(keys, g.CC)
		}
		byCC[g.CC] = append(byCC[g.CC], g)
	}
	sort.Strings(keys)
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
		if list.PTXUnknown {
			// PTX or not, nothing below the toolkit's range can be in it.
			if ta, ok := c.k.ToolkitArch(rt); ok {
				if lo, ok := parseCC(ta.MinSASS); ok && gcc.less(lo) {
					c.add("EG403", envspec.SeverityError, c.fwPos(),
						fmt.Sprintf("%s can run no code on %s: no SASS for %s or a lower %d.x, and CUDA %s's compiler targets nothing below %s, so no PTX either (\"no kernel image is available for execution on the device\")",
							what, gpuLabel(c.h, gs), gcc.sm(), gcc.Major, rt, lo.sm()),
						"use a build that includes this architecture (an older CUDA variant that still targets it)")
					return
				}
			}
			c.undecide(c.fwPos(), "architecture", "ptx-unknown", c.build(),
				fmt.Sprintf("its SASS (%s) has no code for %s on %s, and whether the build carries PTX is not known", archSummary(list), gcc.sm(), gpuLabel(c.h, gs)),
				"use a build whose SASS includes this architecture, or "+archProbe(c.st.Framework)+" (a compute_ entry is PTX)")
			return
		}
		c.noKernel(what, gs, gcc, "use a build that includes this architecture (a newer framework release or CUDA variant)")
	case runsPTX:
		c.ptxOnly(gs, gcc, what, by.compute(), driverCUDA, rt)
	}
}

// ptxOnly judges a GPU that only PTX can serve: the driver must be able to
// JIT-compile PTX of the build's CUDA version.
func (c *checker) ptxOnly(gs []GPU, gcc cc, what, ptx, driverCUDA, rt string) {
	// PTX from a newer toolkit than the driver cannot be JIT-compiled:
	// under minor-version compatibility the PTX path is closed.
	if driverCUDA != "" && compareVersions(driverCUDA, rt) < 0 {
		c.add("EG403", envspec.SeverityError, c.fwPos(),
			fmt.Sprintf("%s has no SASS for %s on %s, and its %s PTX needs a driver for CUDA %s to JIT-compile; the driver supports CUDA %s",
				what, gcc.sm(), gpuLabel(c.h, gs), ptx, rt, driverCUDA),
			"upgrade the driver, or use a build that includes this architecture")
		return
	}
	c.add("EG408", envspec.SeverityWarning, c.fwPos(),
		fmt.Sprintf("%s has no SASS for %s on %s but carries %s PTX, which the driver JIT-compiles: it runs, with a slow first start and without %s kernels; bundled libraries may still lack kernels",
			what, gcc.sm(), gpuLabel(c.h, gs), ptx, gcc.sm()),
		"use a build that includes this architecture (a newer framework release or CUDA variant)")
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
		c.add("EG403", envspec.SeverityError, c.fwPos(),
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
	if sassPossible {
		c.undecide(c.fwPos(), "architecture", whyKey, c.build(),
			fmt.Sprintf("%s, so whether it carries code for %s on %s is not known (%s)", why, gcc.sm(), gpuLabel(c.h, gs), rng), hint)
		return
	}
	// Newer than anything the toolkit targets: only PTX can run.
	if driverCUDA != "" && compareVersions(driverCUDA, rt) < 0 {
		c.add("EG403", envspec.SeverityError, c.fwPos(),
			fmt.Sprintf("%s has no SASS for %s on %s (%s), and PTX built with CUDA %s cannot be JIT-compiled by a driver for CUDA %s",
				c.build(), gcc.sm(), gpuLabel(c.h, gs), rng, rt, driverCUDA),
			"upgrade the driver, or use a build made with a CUDA toolkit that targets this architecture")
		return
	}
	c.undecide(c.fwPos(), "architecture", whyKey+"+ptx-unknown", c.build(),
		fmt.Sprintf("%s; %s, so no build made with it has SASS for %s on %s: it runs only if the build carries PTX, which is not known",
			why, rng, gcc.sm(), gpuLabel(c.h, gs)),
		"use a build made with a CUDA toolkit that targets this architecture, or "+archProbe(c.st.Framework)+" (a compute_ entry is PTX)")
}

// checkMemory raises EG405 for GPUs of the local machine.
func (c *checker) checkMemory() {
	for _, g := range c.h.GPUs {
		var used uint64
		var who []string
		for _, p := range g.Processes {
			used += p.UsedMemory
			name := p.Name
			if name == "" {
				name = "pid"
			} else if i := strings.LastIndexByte(name, '/'); i >= 0 {
				name = name[i+1:]
			}
			who = append(who, fmt.Sprintf("%s[%d] %s", name, p.PID, gib(p.UsedMemory)))
		}
		label := fmt.Sprintf("GPU %d (%s)", g.Index, g.Name)
		if len(g.Processes) > 0 {
			c.add("EG405", envspec.SeverityWarning, c.cudaPos(),
				fmt.Sprintf("%s already has %s taken by %d other process(es): %s", label, gib(used), len(g.Processes), strings.Join(who, ", ")),
				"pick another GPU with CUDA_VISIBLE_DEVICES, or wait for those processes to end")
		}
		if c.opt.MinFree > 0 && g.MemoryTotal > 0 && g.MemoryFree < c.opt.MinFree {
			c.add("EG405", envspec.SeverityWarning, c.cudaPos(),
				fmt.Sprintf("%s has %s free of %s, less than the %s asked for (--min-free)", label, gib(g.MemoryFree), gib(g.MemoryTotal), gib(c.opt.MinFree)),
				"free the GPU or pick another with CUDA_VISIBLE_DEVICES")
		}
	}
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
	} else if fw.Spec != "" {
		s += " " + fw.Spec
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

// UndecidedText joins what was left undecided, for one-line verdicts.
func UndecidedText(us []Undecided) string {
	s := make([]string, len(us))
	for i, u := range us {
		s[i] = u.Why
	}
	return strings.Join(s, "; ")
}
