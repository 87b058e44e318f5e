package resolver

import (
	"fmt"

	"github.com/envguard/envguard/finding"
)

var ruleEG305 = &Rule{
	Rule: finding.Rule{
		Code:     "EG305",
		Name:     "pip-gpu-cuda-majors-differ",
		Severity: finding.SeverityError,
		Title:    "pip GPU packages built for different CUDA majors",
		Why: "CUDA libraries of different majors are not binary compatible: a package built for CUDA 11 " +
			"needs libcudart.so.11 and friends, one built for CUDA 12 needs the .so.12 set. In one " +
			"environment one of them finds the wrong runtime or none, and fails at import or at the first kernel.",
		Fix: "Pick one CUDA major and take every GPU wheel built for it (cupy-cuda12x with a cu121 torch, " +
			"nvidia-*-cu12 wheels, jax[cuda12]).",
		Before: "  - pip:\n    - torch==2.1.0+cu121\n    - cupy-cuda11x",
		After:  "  - pip:\n    - torch==2.1.0+cu121\n    - cupy-cuda12x",
		Since:  "0.1.0",
	},
	run: runEG305,
}

// isFrameworkPip names the pip packages whose CUDA major the others should
// follow: the framework is the hardest part to change.
func isFrameworkPip(name string) bool {
	switch name {
	case "torch", "tensorflow", "jax", "jaxlib":
		return true
	}
	return false
}

func runEG305(ctx *Context) []finding.Diagnostic {
	if ctx == nil || ctx.Env == nil {
		return nil
	}
	reqs, opts := ctx.pipList()
	index, _ := wheelIndexTag(ctx.KB, opts)
	type built struct {
		it    pipItem
		major int
		tag   string
	}
	var all []built
	for _, p := range reqs {
		m, tag := pipCUDAMajor(p, index)
		if m == 0 {
			// a metapackage whose name says no CUDA (tensorrt): the
			// CUDA-major package its release installs
			m, tag = pipMetaCUDAMajor(ctx.KB, p)
		}
		if m > 0 {
			all = append(all, built{p, m, tag})
		}
	}
	if len(all) < 2 {
		return nil
	}
	ref := all[0]
	for _, b := range all {
		if isFrameworkPip(b.it.Name) {
			ref = b
			break
		}
	}
	var out []finding.Diagnostic
	for _, b := range all {
		if b.major == ref.major {
			continue
		}
		msg := fmt.Sprintf("%s is built for CUDA %d but %s (%s) is built for CUDA %d", pipText(b.it), b.major, pipText(ref.it), place(ref.it.Dep.Raw.Pos), ref.major)
		hint := fmt.Sprintf("take the CUDA %d build of %s, to match %s", ref.major, b.it.Name, ref.it.Name)
		out = append(out, diag(ctx.rule, b.it.Dep.Raw.Pos, msg, hint, ref.it.Dep.Raw.Pos))
	}
	return out
}
