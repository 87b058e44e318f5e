package gpucheck

import (
	"github.com/envguard/envguard/finding"
)

// ruleEG402: the driver runs the runtime only through minor-version
// compatibility. EG401's step decides it, in the same comparison of the
// driver with the runtime.
var ruleEG402 = &Rule{
	Rule: finding.Rule{
		Code: "EG402", Name: "minor-version-compat", Severity: finding.SeverityWarning,
		Title: "the driver runs it only through minor-version compatibility (driver's CUDA older than the runtime, same major): PTX JIT and newer APIs fail",
		Why: "A driver older than the runtime but above the major's floor runs it with limits: PTX newer than the driver cannot be " +
			"JIT-compiled, and APIs added after the driver's CUDA version return errors. Frameworks that rely on PTX for newer GPUs, or " +
			"libraries that JIT kernels at run time, break.",
		Fix:    "Upgrade the driver to the runtime's own minimum, or pin the runtime to the driver's CUDA version.",
		Before: "# target: driver 470.57.02 (CUDA 11.4)\ndependencies:\n  - pytorch=1.13\n  - pytorch-cuda=11.6",
		After:  "# target: driver 510.47.03 (CUDA 11.6)\ndependencies:\n  - pytorch=1.13\n  - pytorch-cuda=11.6",
		Since:  "0.1.0",
	},
}

// minorCompat raises EG402 at the item that makes the environment need
// CUDA.
func (c *checker) minorCompat(msg, hint string) {
	c.add("EG402", c.cudaPos(), msg, hint)
}
