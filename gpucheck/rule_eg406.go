package gpucheck

import (
	"fmt"

	"github.com/envguard/envguard/finding"
)

// ruleEG406: a GPU is in MIG mode.
var ruleEG406 = &Rule{
	Rule: finding.Rule{
		Code: "EG406", Name: "mig-enabled", Severity: finding.SeverityInfo,
		Title: "MIG mode is enabled on a GPU",
		Why: "A GPU in MIG mode is split into instances; a CUDA job sees only the instance it is given, with that instance's share " +
			"of memory and compute, never the whole GPU.",
		Fix:    "Select a MIG instance with CUDA_VISIBLE_DEVICES=MIG-<uuid>, or disable MIG for whole-GPU jobs.",
		Before: "# GPU 0: MIG enabled\nCUDA_VISIBLE_DEVICES=0",
		After:  "# GPU 0: MIG enabled\nCUDA_VISIBLE_DEVICES=MIG-5c6c3a2e-8c2b-5a5c-9f3e-2b1c0d9e8f7a",
		Since:  "0.1.0",
	},
	run: runEG406,
}

func runEG406(c *checker) bool {
	h := c.h
	for _, g := range h.GPUs {
		if g.MIG {
			c.add("EG406", c.cudaPos(),
				fmt.Sprintf("GPU %d (%s) is in MIG mode: a job sees only the MIG instance it is given, not the whole GPU", g.Index, g.Name),
				"select a MIG instance with CUDA_VISIBLE_DEVICES=MIG-<uuid>, or disable MIG (nvidia-smi -i N -mig 0) for whole-GPU jobs")
		}
	}
	return true
}
