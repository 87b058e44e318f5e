package gpucheck

import (
	"github.com/envguard/envguard/finding"
)

// ruleEG408: only PTX serves a GPU, which the driver JIT-compiles. EG403's
// step decides it, in the same verdict on the architecture list.
var ruleEG408 = &Rule{
	Rule: finding.Rule{
		Code: "EG408", Name: "ptx-only", Severity: finding.SeverityWarning,
		Title: "the framework build has no machine code a GPU can run but carries PTX the driver can JIT-compile: it runs, slowly at first and without the architecture's own kernels",
		Why: "With no SASS for the GPU's architecture (nor a lower minor of its major), the driver JIT-compiles the build's PTX at " +
			"first use: minutes of start-up, kernels not tuned for the GPU, and bundled libraries (cuDNN, cuBLAS extensions, custom " +
			"ops) may have no kernels at all.",
		Fix:    "Use a framework release and CUDA variant whose architecture list includes the GPU (for Blackwell sm_100/sm_120: a CUDA 12.8 or later build).",
		Before: "# target: RTX PRO 6000 (12.0)\ndependencies:\n  - pytorch=2.6\n  - pytorch-cuda=12.4",
		After:  "# target: RTX PRO 6000 (12.0)\n# pip: torch==2.7.1 --index-url .../whl/cu128",
		Since:  "0.1.0",
	},
}

// ptxOnlyRuns raises EG408 at the framework for the GPUs of one compute
// capability, and marks it as reached through PTX.
func (c *checker) ptxOnlyRuns(gcc cc, msg, hint string) {
	if c.ptxPath == nil {
		c.ptxPath = map[string]bool{}
	}
	c.ptxPath[gcc.key()] = true
	c.add("EG408", c.fwPos(), msg, hint)
}

// noCodeRuns raises EG403 at the framework for the GPUs of one compute
// capability, and marks it as one the framework runs no code on.
func (c *checker) noCodeRuns(gcc cc, msg, hint string) {
	if c.noCode == nil {
		c.noCode = map[string]bool{}
	}
	c.noCode[gcc.key()] = true
	c.add("EG403", c.fwPos(), msg, hint)
}
