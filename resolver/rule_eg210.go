package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
)

// ruleEG210 reports CUDA packages resolved from the nvidia channel beside
// CUDA packages resolved from conda-forge, for CUDA 12.0–12.4 (the range
// RULES.md says conda-forge documents as incompatible between the two).
// Channels are resolved as resolveChannel documents; one finding at the
// first conda-forge CUDA package, Related at the nvidia ones.
var ruleEG210 = &Rule{
	Rule: finding.Rule{
		Code:     "EG210",
		Name:     "nvidia-conda-forge-cuda-mix",
		Severity: finding.SeverityWarning,
		Title:    "CUDA packages from the nvidia channel mixed with conda-forge CUDA packages for CUDA 12.0–12.4",
		Why: "For CUDA 12.0–12.4 the nvidia channel and conda-forge package the CUDA libraries differently " +
			"(layout, run-exports, cuda-version metadata); conda-forge documents the mix as incompatible, and " +
			"it fails at link or load time.",
		Fix:    "Take every CUDA package from one channel (conda-forge's cuda-version/cuda-* or the nvidia channel's).",
		Before: "channels:\n  - conda-forge\ndependencies:\n  - nvidia::cuda-toolkit=12.1\n  - cuda-version=12.1\n  - cuda-nvcc\n",
		After:  "channels:\n  - conda-forge\ndependencies:\n  - cuda-version=12.1\n  - cuda-toolkit\n",
		Since:  "0.1.0",
	},
	run: runEG210,
}

// isCUDAPackage reports whether a conda name is a CUDA toolkit package.
func isCUDAPackage(name string) bool {
	return name == "cudatoolkit" || strings.HasPrefix(name, "cuda-") || strings.HasPrefix(name, "libcu") ||
		strings.HasPrefix(name, "libnv") || strings.HasPrefix(name, "libnpp")
}

func runEG210(c *Context) []finding.Diagnostic {
	if c.Env == nil {
		return nil
	}
	r := &resolution{env: c.Env, kb: c.KB}
	inRange := func(v string) bool { return majorOf(v) == 12 && hasMinor(v) && cudaMinorOf(v) <= 4 }
	cuda := ""
	if c.Stack != nil && c.Stack.CUDA != nil {
		cuda = c.Stack.CUDA.Version
	}
	var nv, cf []*item
	for i, d := range c.Env.Deps {
		it := c.condaItem(i, d)
		if it == nil || !isCUDAPackage(it.name) || it.name == "cudatoolkit" {
			continue
		}
		if v := r.cudaSeries(it.verText); cuda == "" && inRange(v) {
			cuda = v
		}
		switch it.channel {
		case "nvidia":
			nv = append(nv, it)
		case "conda-forge":
			cf = append(cf, it)
		}
	}
	if len(nv) == 0 || len(cf) == 0 || !inRange(cuda) {
		return nil
	}
	var names []string
	var rel []finding.Pos
	for _, it := range nv {
		names = append(names, it.raw()+at(it.pos()))
		rel = append(rel, it.pos())
	}
	first := cf[0]
	msg := fmt.Sprintf("%s%s comes from conda-forge but %s from the nvidia channel: conda-forge documents its CUDA %s packages as incompatible with the nvidia channel's",
		first.raw(), at(first.pos()), strings.Join(names, ", "), cuda)
	return []finding.Diagnostic{newFinding(c.rule, first.pos(), 0, msg, "take every CUDA package from one channel", rel...)}
}
