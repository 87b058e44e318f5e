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
	DriverFloor(cuda string) (*kb.CUDADriver, bool)
	MinorCompatFloor(major int) (*kb.MinorCompat, bool)
	DriverCUDA(driver string) string
	GPUByName(name string) (*kb.GPU, bool)
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

// TargetResult is the verdict of one environment on one host, the report's
// `targets` entry. Findings are also merged into the report's findings.
type TargetResult struct {
	Name       string               `json:"name"`
	Driver     string               `json:"driver,omitempty"`
	CUDADriver string               `json:"cuda_driver,omitempty"`
	GPUs       []GPUSummary         `json:"gpus"`
	OK         bool                 `json:"ok"`
	Findings   []envspec.Diagnostic `json:"-"`
	// Notes say what could not be decided, and why ("architecture list
	// unknown for pytorch 2.5 CUDA 12.4 (wheel)").
	Notes []string `json:"notes,omitempty"`
}

// Check holds a resolved stack against a host: EG401–EG408.
func Check(st *resolver.Stack, h *Host, k *kb.KB, opt CheckOptions) []envspec.Diagnostic {
	ds, _ := check(st, h, kbOrDefault(k), opt)
	return ds
}

// Evaluate is Check with the host's summary and the notes of what could not
// be decided. OK means no error-severity finding.
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
	ds, notes := check(st, h, k, opt)
	r.Findings, r.Notes = ds, append(r.Notes, notes...)
	r.OK = envspec.Diagnostics(ds).Err() == nil
	return r
}

// checker carries one run's inputs and what it found.
type checker struct {
	st    *resolver.Stack
	h     *Host
	k     knowledge
	opt   CheckOptions
	ds    []envspec.Diagnostic
	notes []string
}

func check(st *resolver.Stack, h *Host, k knowledge, opt CheckOptions) ([]envspec.Diagnostic, []string) {
	if st == nil || h == nil {
		return nil, nil
	}
	c := &checker{st: st, h: h, k: k, opt: opt}
	c.run()
	ds := envspec.Diagnostics(c.ds)
	ds.Sort()
	return ds, c.notes
}

func (c *checker) add(code string, sev envspec.Severity, pos envspec.Pos, msg, hint string) {
	c.ds = append(c.ds, envspec.Diagnostic{Pos: pos, Severity: sev, Code: code, Message: msg, Hint: hint})
}

func (c *checker) note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// runtime is the environment's CUDA runtime version, "" when unknown.
func (c *checker) runtime() string {
	if c.st.CUDA != nil {
		return c.st.CUDA.Version
	}
	return ""
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
	if fw != nil && fw.Variant == "cpu" && h.Available && len(h.GPUs) > 0 {
		c.add("EG407", envspec.SeverityWarning, c.fwPos(),
			fmt.Sprintf("%s is a CPU-only build; %s has %s: they will sit idle", fwName(fw), h.label(), countGPUs(h.GPUs)),
			"install the CUDA build (e.g. pytorch-cuda=12.4 with -c pytorch -c nvidia, or a cuda build string on conda-forge)")
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
			c.note("no GPU described: architecture not checked")
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

func (c *checker) rtSuffix() string {
	if rt := c.runtime(); rt != "" {
		return " " + rt
	}
	return ""
}

// checkDriver raises EG401/EG402 and returns the CUDA version the driver
// supports ("" when unknown).
func (c *checker) checkDriver() string {
	h := c.h
	driverCUDA := h.CUDADriver
	if driverCUDA == "" && h.Driver != "" {
		driverCUDA = c.k.DriverCUDA(h.Driver)
	}
	rt := c.runtime()
	if rt == "" {
		c.note("CUDA runtime version unknown: driver not checked")
		return driverCUDA
	}
	if driverCUDA == "" {
		c.note("CUDA version of driver %s unknown: driver not checked", orUnknown(h.Driver))
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
	drv := h.Driver
	switch {
	case floor != "" && drv != "" && compareVersions(drv, floor) < 0:
		c.add("EG401", envspec.SeverityError, c.cudaPos(), msg, hint)
	case floor == "" || drv == "":
		// Same major, floor unknown: the driver already runs some CUDA of
		// this major, so minor-version compatibility is the best reading.
		c.add("EG402", envspec.SeverityWarning, c.cudaPos(),
			msg+": it can run only through minor-version compatibility (PTX JIT and newer APIs fail)", hint)
		if floor == "" {
			c.note("minor-version-compatibility floor of CUDA %d not known exactly", rtMajor)
		}
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
	}
	return "driver " + h.Driver
}

// checkArch raises EG403/EG408 per distinct compute capability.
func (c *checker) checkArch(driverCUDA string) {
	fw := c.st.Framework
	rt := c.runtime()
	if fw == nil || fw.Variant != "cuda" || len(c.h.GPUs) == 0 {
		return
	}
	series := fw.Series()
	if series == "" || rt == "" {
		c.note("framework version or CUDA runtime unknown: architecture not checked")
		return
	}
	build := fmt.Sprintf("%s %s CUDA %s (%s)", fw.Name, series, rt, orUnknown(string(fw.Dist)))
	list, ok := c.k.Arch(series, rt, fw.Dist)
	if !ok || list == nil || !list.Known {
		c.note("architecture list unknown for %s: architecture not checked", build)
		return
	}
	groups := map[string][]GPU{}
	for _, g := range c.h.GPUs {
		groups[g.CC] = append(groups[g.CC], g)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		gs := groups[key]
		gcc, ok := parseCC(key)
		if !ok {
			c.note("%s: compute capability %q unreadable: architecture not checked", gpuLabel(c.h, gs), key)
			continue
		}
		v, by := archVerdict(gcc, list)
		what := fmt.Sprintf("%s (%s)", fwName(fw), archSummary(list))
		switch v {
		case runsNone:
			c.add("EG403", envspec.SeverityError, c.fwPos(),
				fmt.Sprintf("%s can run no code on %s: no SASS for %s or a lower %d.x, and no PTX at or below compute_%d%d (\"no kernel image is available for execution on the device\")",
					what, gpuLabel(c.h, gs), gcc.sm(), gcc.Major, gcc.Major, gcc.Minor),
				"use a build that includes this architecture (a newer framework release or CUDA variant)")
		case runsPTX:
			// PTX from a newer toolkit than the driver cannot be JIT-compiled:
			// under minor-version compatibility the PTX path is closed.
			if driverCUDA != "" && compareVersions(driverCUDA, rt) < 0 {
				c.add("EG403", envspec.SeverityError, c.fwPos(),
					fmt.Sprintf("%s has no SASS for %s on %s, and its %s PTX needs a driver for CUDA %s to JIT-compile; the driver supports CUDA %s",
						what, gcc.sm(), gpuLabel(c.h, gs), by.compute(), rt, driverCUDA),
					"upgrade the driver, or use a build that includes this architecture")
				continue
			}
			c.add("EG408", envspec.SeverityWarning, c.fwPos(),
				fmt.Sprintf("%s has no SASS for %s on %s but carries %s PTX, which the driver JIT-compiles: it runs, with a slow first start and without %s kernels; bundled libraries may still lack kernels",
					what, gcc.sm(), gpuLabel(c.h, gs), by.compute(), gcc.sm()),
				"use a build that includes this architecture (a newer framework release or CUDA variant)")
		}
	}
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
