package resolver

import (
	"fmt"

	"github.com/envguard/envguard/envspec"
)

var ruleEG302 = &Rule{
	Rule: envspec.Rule{
		Code:     "EG302",
		Name:     "pip-gpu-library-over-conda-cuda",
		Severity: envspec.SeverityWarning,
		Title:    "a GPU library from pip while conda provides the CUDA stack",
		Why: "pip's GPU wheels carry their own CUDA runtime (bundled, or as nvidia-* wheels), so the " +
			"process loads two CUDA runtimes and two cuDNN/cuBLAS copies: the conda ones and pip's. " +
			"Which one a library binds to depends on load order; mismatches show up as " +
			"`CUDNN_STATUS_*` errors, wrong-version warnings or crashes.",
		Fix: "Take the GPU library from conda too (built against the conda CUDA packages), or drop the " +
			"conda CUDA packages and let pip provide the runtime.",
		Before: "dependencies:\n  - cudatoolkit=11.8\n  - pip:\n    - cupy-cuda11x",
		After:  "dependencies:\n  - cudatoolkit=11.8\n  - cupy",
		Since:  "0.1.0",
	},
}

// Run is set in init: runEG302 refers to ruleEG302 for its severity.
func init() { ruleEG302.Run = runEG302 }

func runEG302(ctx *Context) []envspec.Diagnostic {
	if ctx == nil || ctx.Env == nil {
		return nil
	}
	stack := cudaStackItems(ctx, condaItems(ctx.Env))
	if len(stack) == 0 {
		return nil
	}
	first := stack[0]
	// A library that conda provides too is EG301's finding already.
	dup := map[*envspec.PipDep]bool{}
	for _, p := range condaPipPairs(ctx) {
		dup[p.Pip.Dep] = true
	}
	reqs, _ := pipItems(ctx.Env)
	var out []envspec.Diagnostic
	for _, p := range reqs {
		lib := libOfPip(ctx, p)
		if lib == "" || dup[p.Dep] {
			continue
		}
		msg := fmt.Sprintf("pip installs %s (%s) while conda provides the CUDA stack (%s, line %d): two CUDA runtimes in one process",
			lib, pipText(p), condaText(first), first.Dep.Raw.Pos.Line)
		hint := fmt.Sprintf("install %s from conda as well, or drop the conda CUDA packages and let pip provide the CUDA runtime", lib)
		out = append(out, diag(ruleEG302, p.Dep.Raw.Pos, msg, hint, first.Dep.Raw.Pos))
	}
	return out
}
