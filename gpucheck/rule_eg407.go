package gpucheck

import (
	"fmt"

	"github.com/envguard/envguard/finding"
)

// ruleEG407: a CPU-only (or ROCm) framework build on a machine with NVIDIA
// GPUs.
var ruleEG407 = &Rule{
	Rule: finding.Rule{
		Code: "EG407", Name: "cpu-build-on-gpu", Severity: finding.SeverityWarning,
		Title:  "a CPU-only framework build on a machine with NVIDIA GPUs: the GPUs will sit idle",
		Why:    "A CPU-only build (cpuonly, a cpu build string, a +cpu wheel) never uses the GPUs; training runs on the CPU, many times slower. A ROCm build (+rocm6.0, the rocm wheel index) drives AMD GPUs only, so on NVIDIA GPUs it is CPU-only too.",
		Fix:    "Install the CUDA build of the framework.",
		Before: "dependencies:\n  - pytorch=2.3\n  - cpuonly",
		After:  "dependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	run: runEG407,
}

func runEG407(c *checker) bool {
	h := c.h
	fw := c.st.Framework
	if fw != nil && (fw.Variant == "cpu" || fw.Variant == "rocm") && h.Available && len(h.GPUs) > 0 {
		// A ROCm build drives AMD GPUs only: on NVIDIA GPUs it is a
		// CPU-only build, which is what EG407 is about.
		what := "a CPU-only build"
		if fw.Variant == "rocm" {
			what = "a ROCm build, for AMD GPUs: on NVIDIA GPUs it runs on the CPU only"
		}
		c.add("EG407", c.fwPos(),
			fmt.Sprintf("%s is %s; %s has %s: they will sit idle", fwName(fw), what, h.label(), countGPUs(h.GPUs)),
			"install the CUDA build (e.g. pytorch-cuda=12.4 with -c pytorch -c nvidia, or a cuda build string on conda-forge)")
	}
	return true
}
