package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG404: the environment needs CUDA and the machine has no usable
// driver or GPU.
var ruleEG404 = &Rule{
	Rule: finding.Rule{
		Code: "EG404", Name: "no-driver", Severity: finding.SeverityError,
		Title: "the environment needs CUDA but the machine has no usable NVIDIA driver or GPU",
		Why: "A CUDA build on a machine without a working driver falls back to CPU or fails at its first CUDA call. The finding says " +
			"which: no library (libnvidia-ml.so.1 not found), driver not loaded, no device, no permission, a driver/library version " +
			"mismatch, or CUDA_VISIBLE_DEVICES hiding every GPU.",
		Fix:    "Run the job where the driver works (nvidia-smi succeeds), fix CUDA_VISIBLE_DEVICES, or use a CPU-only build.",
		Before: "# CUDA_VISIBLE_DEVICES=\"\"\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		After:  "# CUDA_VISIBLE_DEVICES=0\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	run: runEG404,
}

// runEG404 is the gate of the steps after it, which judge what CUDA needs:
// it stops them when the environment needs no CUDA, or when the machine
// cannot run CUDA at all (EG404).
func runEG404(c *checker) bool {
	h := c.h
	if !c.needsCUDA() {
		c.undecideUnchecked()
		return false
	}
	if !h.Available && c.onlyMachineLibsNeedCUDA() {
		// The package's setup loads its CPU library where no GPU is found
		// (bitsandbytes 0.36.0 … 0.39.1: libbitsandbytes_cpu.so): that it
		// needs CUDA here is not known.
		p := c.gpuCodePackage()
		c.undecide(c.pkgPos(p), "extension", "extension-cpu-library", pkgLabel(p),
			fmt.Sprintf("%s carries GPU code, but its wheel also carries a CPU library that its setup loads where torch finds no GPU, and nothing else in the file needs CUDA, so whether this environment needs a GPU on %s is not known", pkgLabel(p), h.label()),
			"run it on a machine with an NVIDIA driver and GPU if it uses the package's GPU functions")
		c.undecideUnchecked()
		return false
	}
	if !h.Available {
		c.add("EG404", c.needsPos(),
			fmt.Sprintf("this environment needs CUDA%s%s but %s cannot run it: %s", c.rtSuffix(), c.needsWhy(), h.label(), orUnknown(h.Reason)),
			"run it on a machine with an NVIDIA driver and GPU, or use a CPU-only build")
		return false
	}
	if len(h.GPUs) == 0 {
		// A described machine or an override may leave the GPUs out on
		// purpose; a real machine without one cannot run the job.
		if h.Source == SourceNVML {
			c.add("EG404", c.needsPos(),
				fmt.Sprintf("this environment needs CUDA%s%s but %s has no NVIDIA GPU a job can use: %s", c.rtSuffix(), c.needsWhy(), h.label(), orUnknown(h.Reason)),
				"check CUDA_VISIBLE_DEVICES and nvidia-smi")
		} else {
			c.undecide(c.fwPos(), "architecture", "no-gpu-described", c.build(), "the target names no GPU, so the GPU architectures were not checked",
				"describe the target's GPUs: gpus: [\"H100\"] or compute_capabilities: [\"9.0\"]")
		}
	}
	return true
}

// needsWhy says, where neither a CUDA framework build nor a CUDA runtime
// makes the environment need CUDA, which package does: " (cupy-cuda12x
// 13.3.0 carries GPU code: SASS sm_80, PTX none)"; "" otherwise.
func (c *checker) needsWhy() string {
	if fw := c.st.Framework; (fw != nil && fw.Variant == "cuda") || c.runtime() != "" {
		return ""
	}
	p := c.gpuCodePackage()
	if p == nil {
		return ""
	}
	name := p.Name
	if p.Version != "" {
		name += " " + p.Version
	}
	if !p.Code.Known && len(p.Code.SupportedCC) > 0 {
		return " (" + name + " carries GPU code: it supports GPUs of compute capability " + strings.Join(p.Code.SupportedCC, ", ") + ")"
	}
	return " (" + name + " carries GPU code: " + archSummary(&kb.ArchList{SASS: p.Code.SASS, PTX: p.Code.PTX}) + ")"
}

// needsPos points at what makes the environment need CUDA: the package
// needsWhy names, else cudaPos.
func (c *checker) needsPos() finding.Pos {
	if c.needsWhy() != "" {
		if p := c.gpuCodePackage(); p != nil && p.Pos.IsValid() {
			return p.Pos
		}
	}
	return c.cudaPos()
}

// onlyMachineLibsNeedCUDA reports whether the environment needs CUDA only
// through packages that load the library of the machine's CUDA runtime
// (CUDAFromMachine): no CUDA framework build, no CUDA runtime, and every
// package known to carry GPU code is such a package.
func (c *checker) onlyMachineLibsNeedCUDA() bool {
	if fw := c.st.Framework; (fw != nil && fw.Variant == "cuda") || c.runtime() != "" {
		return false
	}
	some := false
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		if !p.Code.Known || (len(p.Code.SASS) == 0 && len(p.Code.PTX) == 0) {
			continue
		}
		if p.CUDAFromMachine == "" {
			return false
		}
		some = true
	}
	return some
}

// undecideUnchecked leaves the target unknown for each GPU-code package
// whose code is not known: nothing known needs CUDA, but such a package
// may, and what it runs on is not checked, which is not ok.
func (c *checker) undecideUnchecked() {
	for _, p := range c.uncheckedGPUPackages() {
		if !c.belowEveryRelease(p) {
			continue // it needs a GPU none of the machine's is
		}
		why := p.Unknown
		if why == "" {
			why = "which architectures its GPU code is built for is not known"
		}
		if p.NotInstallable {
			continue // the target fails on the file (uninstallableFile)
		}
		cause, hint := c.unknownExtension(p)
		if p.BuiltOnMachine != "" {
			why, cause, hint = builtOnMachineWhy(p), CauseMachine, builtOnMachineRowHint
		}
		c.undecideFor(c.pkgPos(p), cause, "extension", "extension-unknown", pkgLabel(p),
			why+", so neither whether it needs a GPU nor what its GPU code runs on can be checked",
			hint)
	}
}
