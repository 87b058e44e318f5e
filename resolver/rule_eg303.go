package resolver

import (
	"fmt"

	"github.com/envguard/envguard/envspec"
)

var ruleEG303 = &Rule{
	Rule: envspec.Rule{
		Code:     "EG303",
		Name:     "nvidia-wheels-with-conda-cuda",
		Severity: envspec.SeverityWarning,
		Title:    "pip NVIDIA CUDA wheels alongside conda CUDA packages",
		Why: "The nvidia-*-cu11/cu12 wheels install a second copy of the CUDA libraries (cudart, cuBLAS, " +
			"cuDNN, NCCL) under site-packages/nvidia, next to conda's in the prefix's lib/. Which copy a " +
			"library loads depends on RPATHs and load order, and the two are often of different versions.",
		Fix: "Keep one source of CUDA libraries: drop the nvidia-* wheels (and the pip package that pulled " +
			"them in) in favour of conda packages, or drop the conda CUDA packages.",
		Before: "dependencies:\n  - cuda-toolkit=12.1\n  - pip:\n    - nvidia-cudnn-cu12==8.9.2.26",
		After:  "dependencies:\n  - cuda-toolkit=12.1\n  - cudnn=8.9",
		Since:  "0.1.0",
	},
}

// Run is set in init: runEG303 refers to ruleEG303 for its severity.
func init() { ruleEG303.Run = runEG303 }

func runEG303(ctx *Context) []envspec.Diagnostic {
	if ctx == nil || ctx.Env == nil {
		return nil
	}
	stack := cudaStackItems(ctx, ctx.condaList())
	if len(stack) == 0 {
		return nil
	}
	first := stack[0]
	reqs, _ := ctx.pipList()
	var out []envspec.Diagnostic
	for _, p := range reqs {
		if !isNvidiaWheel(ctx, p.Name) {
			continue
		}
		msg := fmt.Sprintf("pip NVIDIA CUDA wheel %s (%s) alongside conda CUDA packages (%s, %s): two copies of the CUDA libraries in one process", pipText(p), place(p.Dep.Raw.Pos), condaText(first), place(first.Dep.Raw.Pos))
		hint := fmt.Sprintf("keep one source of CUDA libraries: drop %s from the pip section (conda's packages provide it), or drop the conda CUDA packages and keep the nvidia-* wheels", p.Name)
		out = append(out, diag(ruleEG303, p.Dep.Raw.Pos, msg, hint, first.Dep.Raw.Pos))
	}
	return out
}
