package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// ruleEG202 reports a CPU-only framework build together with CUDA packages:
// one finding at each item that asks for the CPU build, naming the CUDA
// items (Related points at them).
var ruleEG202 = &Rule{
	Rule: finding.Rule{
		Code:     "EG202",
		Name:     "cpu-build-with-cuda",
		Severity: finding.SeverityError,
		Title:    "a CPU-only framework build together with CUDA packages",
		Why: "cpuonly, pytorch-mutex=*=cpu, a cpu build string, a +cpu wheel or the /whl/cpu index give a " +
			"framework that never touches the GPU, while the CUDA packages beside it suggest the author wanted " +
			"one: the job silently trains on the CPU, or the solve fails on the mutex. It fires only for the framework " +
			"build that is installed: cpuonly, pytorch-mutex and _pytorch_select select among conda's pytorch builds, so " +
			"beside a pip torch (and no conda pytorch) they make nothing CPU-only; pip never reads them.",
		Fix:    "Remove the CPU selector to get the CUDA build, or remove the CUDA packages for a CPU-only environment.",
		Before: "dependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::cpuonly\n  - pytorch::pytorch-cuda=11.8\n",
		After:  "dependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::pytorch-cuda=11.8\n",
		Since:  "0.1.0",
	},
	run: runEG202,
}

// runEG202 raises EG202 for the CPU build beside CUDA packages.
// tensorflow-cpu beside another pip TensorFlow distribution is not EG202:
// a framework distribution is not a CUDA package, and the pair's trouble
// (both write one package directory) has no code of its own, so the
// resolver leaves the variant open and EG409 says why (issue 26, corpus
// 006).
func runEG202(c *Context) []finding.Diagnostic {
	return eg202CPUBuild(c)
}

func eg202CPUBuild(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || len(st.CPU) == 0 {
		return nil
	}
	cuda := cudaItems(c)
	// a pip TensorFlow distribution (tensorflow-gpu) is the framework
	// itself, not a CUDA package: beside pip's tensorflow-cpu the two write
	// one package, which the resolver reports as an open variant
	if pipTF := pipTFLines(c); len(pipTF) > 0 {
		kept := cuda[:0:0]
		for _, e := range cuda {
			if !pipTF[e.Pos.Line] || !tfPip[e.Package] {
				kept = append(kept, e)
			}
		}
		cuda = kept
	}
	// conda's CUDA packages that serve another GPU library (openmm,
	// faiss-gpu, cupy...) do not contradict a CPU-only framework build
	if consumer := cudaConsumer(c); consumer != nil {
		kept := cuda[:0:0]
		for _, e := range cuda {
			if e.Package != "pytorch-cuda" && e.Kind != EvidenceLocal && e.Kind != EvidenceIndex && e.Kind != EvidenceBuild &&
				(names(c.KB).CUDAPackageKind(e.Package) != "" || isCUDAStack(c, e.Package)) {
				continue
			}
			kept = append(kept, e)
		}
		cuda = kept
	}
	if len(cuda) == 0 {
		return nil
	}
	var rel []finding.Pos
	for _, e := range cuda {
		rel = append(rel, e.Pos)
	}
	var out []finding.Diagnostic
	for _, e := range st.CPU {
		// a CPU build of another framework (a CPU jaxlib beside a CUDA
		// pytorch) is a choice, not a contradiction
		if fw := frameworkOfName(e.Package); fw != "" && st.Framework != nil && fw != st.Framework.Name {
			continue
		}
		what := "a CPU-only build"
		if fw := frameworkOfName(e.Package); fw != "" {
			what = "a CPU-only " + fw + " build"
		} else if e.Kind == EvidenceMutex {
			what = "pytorch a CPU-only build"
		}
		verb := "installs"
		if len(cuda) > 1 {
			verb = "install"
		}
		msg := fmt.Sprintf("%s%s asks for %s, but %s %s CUDA", e.Item, at(e.Pos), what, listItems(cuda), verb)
		msg = strings.Replace(msg, "asks for pytorch a", "makes pytorch a", 1)
		hint := fmt.Sprintf("remove %s to use the GPU, or remove the CUDA packages for a CPU-only environment", e.Item)
		out = append(out, newFinding(c.rule, e.Pos, e.EndCol, msg, hint, rel...))
	}
	return out
}

// pipTFLines are the lines of the file's pip TensorFlow distributions.
func pipTFLines(c *Context) map[int]bool {
	out := map[int]bool{}
	for _, it := range envItems(c) {
		if it.from() == envspec.ProviderPip && tfPip[it.name] && it.pos().Line > 0 {
			out[it.pos().Line] = true
		}
	}
	return out
}

// frameworkOfName names the framework a package belongs to ("" for none).
func frameworkOfName(name string) string {
	switch {
	case torchConda[name] || name == "torch":
		return "pytorch"
	case tfConda[name] || tfPip[name]:
		return "tensorflow"
	case name == "jax" || name == "jaxlib":
		return "jax"
	}
	return ""
}

// cudaItems are the items that bring CUDA: everything that says a CUDA
// version or variant, conda CUDA-stack packages (cudnn, nccl, cuda-*), and
// pip NVIDIA CUDA wheels; one per line.
func cudaItems(c *Context) []Evidence {
	var out []Evidence
	seen := map[int]bool{}
	addE := func(e Evidence) {
		if e.Pos.Line > 0 {
			if seen[e.Pos.Line] {
				return
			}
			seen[e.Pos.Line] = true
		}
		out = append(out, e)
	}
	primary := ""
	if c.Stack.Framework != nil {
		primary = c.Stack.Framework.Name
	}
	if c.Stack.CUDA != nil {
		for _, e := range c.Stack.CUDA.Evidence {
			// another framework's CUDA build (a CUDA jax beside a CPU
			// pytorch) is a choice, not a contradiction
			if fw := frameworkOfName(e.Package); e.Kind == EvidenceInstalled || (fw != "" && fw != primary) {
				continue
			}
			addE(e)
		}
	}
	if c.Env == nil {
		return out
	}
	for _, d := range c.Env.Deps {
		if d.Spec == nil {
			continue
		}
		n := strings.ToLower(d.Spec.Name)
		if names(c.KB).CUDAPackageKind(n) != "" || strings.HasPrefix(n, "cuda-") || n == "cudnn" || n == "nccl" ||
			(c.KB != nil && c.KB.IsCUDAStack(n)) {
			addE(Evidence{Item: d.Raw.Value, Pos: d.Raw.Pos, Line: d.Raw.Pos.Line, Package: n})
		}
	}
	for _, d := range c.Env.Pip {
		if d.Line == nil || d.Line.Req == nil {
			continue
		}
		n := pep503(d.Line.Req.Name)
		if strings.HasPrefix(n, "nvidia-") && DecodePipName(n, nil).Major > 0 {
			addE(Evidence{Item: d.Raw.Value, Pos: d.Raw.Pos, Line: d.Raw.Pos.Line, Package: n})
		}
	}
	return out
}
