package resolver

import (
	"fmt"

	"github.com/envguard/envguard/envspec"
)

// eg201Kinds are the sources RULES.md lists for EG201.
var eg201Kinds = map[string]bool{
	EvidenceInstalled: true, EvidenceBuild: true, EvidenceLocal: true, EvidenceIndex: true,
	EvidencePytorchCUDA: true, EvidenceCUDAVersion: true, EvidenceCudatoolkit: true, EvidenceCUDAPackage: true,
}

// RuleEG201 reports two sources that disagree on the CUDA version. Each
// disagreeing item gets one finding at its version, with Related pointing at
// the item it disagrees with (the most authoritative one: the installed or
// built framework first, then pip local versions, wheel indexes,
// pytorch-cuda, cuda-version, cudatoolkit and the cuda-* packages).
var RuleEG201 = &Rule{
	Rule: envspec.Rule{
		Code:     "EG201",
		Name:     "cuda-version-mismatch",
		Severity: envspec.SeverityError,
		Title:    "two sources disagree on the CUDA version",
		Why: "A framework build runs only on the CUDA runtime it was built for. When its build string, " +
			"pytorch-cuda, cudatoolkit, cuda-version, a +cuXXX wheel or a wheel index name different CUDA " +
			"versions, the solve fails, or two runtimes end up in one environment and the job crashes at the first kernel.",
		Fix:    "Make every item name the CUDA version of the framework build (or pick the build for the CUDA you want).",
		Before: "dependencies:\n  - pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0\n  - nvidia::cudatoolkit=11.3\n",
		After:  "dependencies:\n  - pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0\n  - nvidia::cudatoolkit=11.6\n",
		Since:  "0.1.0",
	},
}

func init() { RuleEG201.Run = runEG201 }

func runEG201(c *Context) []envspec.Diagnostic {
	st := c.Stack
	if st == nil || st.CUDA == nil {
		return nil
	}
	var ev []Evidence
	for _, e := range st.CUDA.Evidence {
		if eg201Kinds[e.Kind] && majorOf(e.Says) > 0 {
			ev = append(ev, e)
		}
	}
	a := reference(ev)
	if a == nil {
		return nil
	}
	runtimeAgrees := false
	for _, e := range ev {
		if e.Kind == EvidenceCUDAPackage && (e.Package == "cuda-cudart" || e.Package == "cuda-runtime") && !cudaConflict(*a, e) {
			runtimeAgrees = true
		}
	}
	var out []envspec.Diagnostic
	for _, e := range ev {
		if e.Pos == a.Pos && e.Item == a.Item || !cudaConflict(*a, e) {
			continue
		}
		// cuda-version is a constraint marker, not the runtime. pytorch-cuda
		// constrains cuda-cudart, cuda-runtime and cuda-libraries to its minor
		// but not cuda-version (pytorch/builder conda/pytorch-cuda/meta.yaml),
		// so an unbounded dependency such as cuda-opencl can pull a newer
		// cuda-version into the same solve. When cuda-cudart or cuda-runtime
		// agrees with the framework build, the runtime the process loads is
		// the right one and the newer cuda-version is not a disagreement.
		if e.Kind == EvidenceCUDAVersion && runtimeAgrees {
			continue
		}
		want := a.Says
		fix := fixCUDA(e, want)
		// pytorch-cuda pulls the CUDA libraries of its own minor
		// (cuda-libraries, cuda-cudart, ... in pytorch/builder
		// conda/pytorch-cuda/meta.yaml): a cudatoolkit beside an agreeing
		// pytorch-cuda is a second copy, so the fix is to drop it.
		if e.Kind == EvidenceCudatoolkit {
			for _, o := range ev {
				if o.Kind == EvidencePytorchCUDA && !cudaConflict(*a, o) {
					fix = fmt.Sprintf("remove %s (%s): %s (%s) already installs the CUDA %s libraries", e.Item, place(e.Pos), o.Item, place(o.Pos), o.Says)
					break
				}
			}
		}
		msg := fmt.Sprintf("%s but %s; %s", describeCUDA(*a), describeCUDA(e), fix)
		hint := fmt.Sprintf("%s, or change %s to the CUDA version you want", fix, a.Item)
		out = append(out, finding(RuleEG201, e.Pos, e.EndCol, msg, hint, a.Pos))
	}
	return out
}

// reference is the item the others are held against: the framework's own
// build (installed, build string, wheel tag or index) before the packages
// around it, so the fix names the package to change. It differs from
// authority, which prefers an exact CUDA pin over a "this minor or newer"
// build when deciding the runtime.
func reference(es []Evidence) *Evidence {
	var best *Evidence
	for i := range es {
		e := &es[i]
		if majorOf(e.Says) == 0 {
			continue
		}
		if best == nil || evidenceOrder[e.Kind] < evidenceOrder[best.Kind] {
			best = e
		}
	}
	return best
}
