package gpucheck

import (
	"fmt"

	"github.com/envguard/envguard/finding"
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
		return false
	}
	if !h.Available {
		c.add("EG404", c.cudaPos(),
			fmt.Sprintf("this environment needs CUDA%s but %s cannot run it: %s", c.rtSuffix(), h.label(), orUnknown(h.Reason)),
			"run it on a machine with an NVIDIA driver and GPU, or use a CPU-only build")
		return false
	}
	if len(h.GPUs) == 0 {
		// A described machine or an override may leave the GPUs out on
		// purpose; a real machine without one cannot run the job.
		if h.Source == SourceNVML {
			c.add("EG404", c.cudaPos(),
				fmt.Sprintf("this environment needs CUDA%s but %s has no NVIDIA GPU a job can use: %s", c.rtSuffix(), h.label(), orUnknown(h.Reason)),
				"check CUDA_VISIBLE_DEVICES and nvidia-smi")
		} else {
			c.undecide(c.fwPos(), "architecture", "no-gpu-described", c.build(), "the target names no GPU, so the GPU architectures were not checked",
				"describe the target's GPUs: gpus: [\"H100\"] or compute_capabilities: [\"9.0\"]")
		}
	}
	return true
}
