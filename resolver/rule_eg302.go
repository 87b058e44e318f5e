package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

var ruleEG302 = &Rule{
	Rule: finding.Rule{
		Code:     "EG302",
		Name:     "pip-gpu-library-over-conda-cuda",
		Severity: finding.SeverityWarning,
		Fixable:  finding.FixUnsafe,
		Title:    "a GPU library from pip while conda provides the CUDA stack",
		Why: "pip's GPU wheels carry their own CUDA runtime (bundled, or as nvidia-* wheels), so the " +
			"process loads two CUDA runtimes and two cuDNN/cuBLAS copies: the conda ones and pip's. " +
			"Which one a library binds to depends on load order; mismatches show up as " +
			"`CUDNN_STATUS_*` errors, wrong-version warnings or crashes. Libraries that bring no runtime but load " +
			"the one they find (pip tensorflow without [and-cuda], a jax/jaxlib CUDA wheel of a release before jax's cudaNN_pip extras, CuPy's cupy-cudaXXX wheels without [ctk], bitsandbytes, onnxruntime-gpu, pycuda, triton) " +
			"are not reported: beside conda's CUDA they use conda's. One of them built for another CUDA major than conda's stack is: it finds no libraries of its own major there.",
		Fix: "Take the GPU library from conda too (built against the conda CUDA packages), or drop the " +
			"conda CUDA packages and let pip provide the runtime.",
		Before: "dependencies:\n  - cudatoolkit=11.8\n  - pip:\n    - cupy-cuda12x",
		After:  "dependencies:\n  - cudatoolkit=11.8\n  - cupy",
		Since:  "0.1.0",
	},
	run: runEG302,
}

func runEG302(ctx *Context) []finding.Diagnostic {
	if ctx == nil || ctx.Env == nil {
		return nil
	}
	stack := ctx.condaCUDAStack()
	if len(stack) == 0 {
		return nil
	}
	first := stack[0]
	// A library that conda provides too is EG301's finding already.
	dup := map[*envspec.PipDep]bool{}
	for _, p := range ctx.libPairs() {
		dup[p.Pip.Dep] = true
	}
	reqs, _ := ctx.pipList()
	// One finding per library: jax[cuda12] and jaxlib[cuda12] both install
	// jax, and the runtime comes with jax's extra (jaxlib has no cuda12
	// extra: review forty-five F9, corpus 010), so the line of the
	// library's own package speaks for it, else the first.
	libs := make([]string, len(reqs)) // "" for a line EG302 passes over
	speaks := map[string]int{}
	for i, p := range reqs {
		lib := libOfPip(ctx, p)
		// a +cpu wheel carries no CUDA runtime at all: EG202 reports the clash
		if lib == "" || dup[p.Dep] || strings.HasPrefix(p.Local, "cpu") {
			continue
		}
		libs[i] = lib
		if cur, ok := speaks[lib]; !ok || (reqs[cur].Name != lib && p.Name == lib) {
			speaks[lib] = i
		}
	}
	var out []finding.Diagnostic
	for i, p := range reqs {
		lib := libs[i]
		if lib == "" || speaks[lib] != i {
			continue
		}
		if usesHostCUDA(ctx, lib, p) {
			if d, ok := hostCUDAOtherMajor(ctx, lib, p, first); ok {
				out = append(out, d)
			}
			continue
		}
		msg := fmt.Sprintf("pip installs %s (%s, %s) while conda provides the CUDA stack (%s, %s): two CUDA runtimes in one process", lib, pipText(p), place(p.Dep.Raw.Pos), condaText(first), place(first.Dep.Raw.Pos))
		hint := fmt.Sprintf("install %s from conda as well, or drop the conda CUDA packages and let pip provide the CUDA runtime", lib)
		// never offer to drop what a conda package needs (a conda
		// framework's CUDA build, openmm, faiss-gpu...)
		var edits []finding.Edit
		if condaNameOf(lib) != "" && lib != "torchvision" && lib != "torchaudio" {
			edits = moveToCondaEdits(ctx.Env, p.Dep, condaSpecOfPip(ctx, p))
		}
		if condaFrameworkNeedsCUDA(ctx) {
			hint = fmt.Sprintf("install %s from conda as well, so that one CUDA runtime serves the process (the conda CUDA packages stay: conda packages need them)", lib)
		}
		for j, q := range reqs {
			// a pip package that loads the CUDA it finds, conda's here,
			// needs the conda CUDA packages too (review fifty-two F28,
			// corpus 110: tensorflow 2.13 beside jax[cuda])
			if j != i && libs[j] != "" && libs[j] != lib && usesHostCUDA(ctx, libs[j], q) {
				hint = fmt.Sprintf("install %s from conda as well, so that one CUDA runtime serves the process (the conda CUDA packages stay: %s, line %d, loads them)", lib, pipText(q), q.Dep.Raw.Pos.Line)
				break
			}
		}
		if (lib == "torchvision" || lib == "torchaudio") && condaTorch(ctx) && p.Local == "" {
			// The companion's kernels use torch's runtime; what goes wrong is
			// the variant: the PyPI wheel is built for whatever CUDA the index
			// serves, and the import check refuses a build for another CUDA
			// (torchvision/extension.py: another major; torchaudio
			// _extension/utils.py _check_cuda_version: another version).
			what := "a CUDA major other than torch's"
			if lib == "torchaudio" {
				what = "a CUDA version other than torch's"
			}
			msg = fmt.Sprintf("pip installs %s (%s) over conda's CUDA stack (%s, %s): the PyPI wheel is built for the CUDA variant the index serves, not for conda's, and %s fails at import when built for %s", pipText(p), place(p.Dep.Raw.Pos), condaText(first), place(first.Dep.Raw.Pos), lib, what)
			hint = fmt.Sprintf("install %s from conda beside pytorch (same channel, the release that pairs with it) and remove the pip line", lib)
			edits = moveToCondaEdits(ctx.Env, p.Dep, companionSpec(ctx, lib))
		}
		if m, pkg := pipMetaCUDAMajor(ctx.KB, p); m > 0 && ctx.Stack != nil && ctx.Stack.CUDA != nil && majorOf(ctx.Stack.CUDA.Version) > 0 && majorOf(ctx.Stack.CUDA.Version) != m {
			// The metapackage's release installs a build for another CUDA
			// major than conda's stack: two runtimes of different majors.
			msg = fmt.Sprintf("pip installs %s (%s, %s), whose release installs %s, a CUDA %d build, while conda provides a CUDA %s stack (%s, %s): two CUDA runtimes of different majors in one process",
				lib, pipText(p), place(p.Dep.Raw.Pos), pkg, m, ctx.Stack.CUDA.Version, condaText(first), place(first.Dep.Raw.Pos))
			hint = fmt.Sprintf("take the CUDA %d build of %s (a release with a %s package for it), or move the conda stack to CUDA %d", majorOf(ctx.Stack.CUDA.Version), lib, strings.Replace(pkg, fmt.Sprintf("cu%d", m), fmt.Sprintf("cu%d", majorOf(ctx.Stack.CUDA.Version)), 1), m)
		}
		d := diag(ctx.rule, p.Dep.Raw.Pos, msg, hint, first.Dep.Raw.Pos)
		d.Edits = edits
		out = append(out, d)
	}
	return out
}

// usesHostCUDA reports whether a pip GPU library brings no CUDA runtime of
// its own but loads the one it finds at run time: the conda CUDA packages,
// when conda provides them. Beside conda's stack that is one runtime, not
// two, so EG302 does not apply (a version mismatch is EG208's or EG201's).
//   - tensorflow / tensorflow-gpu without the [and-cuda] extra: TensorFlow's
//     own pip guide installs the GPU libraries with
//     `conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0` and then
//     `pip install "tensorflow<2.11"` (tensorflow/docs site/en/install/pip.md);
//     [and-cuda] is what pulls NVIDIA's CUDA wheels.
//   - bitsandbytes: its cuda_setup looks for libcudart.so under
//     $CONDA_PREFIX/lib and LD_LIBRARY_PATH
//     (bitsandbytes-foundation/bitsandbytes#958, #234).
//   - onnxruntime-gpu: the CUDA execution provider requires CUDA and cuDNN to
//     be installed and loads them dynamically (onnxruntime docs,
//     CUDA-ExecutionProvider "Requirements").
//   - pycuda, triton: they use the driver API (libcuda), not a CUDA runtime
//     library; pycuda is compiled against the toolkit it finds.
//   - jax / jaxlib of a release before the knowledge base's first pip CUDA
//     extra (JAXPipCUDASince, the cudaNN_pip extras of 0.4.7): the old
//     jaxlib+cudaXYZ wheels bundle no runtime; JAX's README of the time
//     says the jaxlib "must correspond to the version of the existing CUDA
//     installation you want to use" (jaxlib-v0.1.51 README). Whether that
//     CUDA matches conda's is EG201's finding.
func usesHostCUDA(ctx *Context, lib string, p pipItem) bool {
	switch lib {
	case "jax":
		return jaxBeforePipCUDA(ctx, p)
	case "tensorflow":
		for _, e := range p.Extras {
			if pep503(e) == "and-cuda" {
				return false
			}
		}
		return true
	case "bitsandbytes", "onnxruntime-gpu", "pycuda", "triton":
		return true
	case "cupy":
		// CuPy's wheels for a CUDA release or major (cupy-cuda12x) bring
		// no CUDA library: the project page says "You need to install
		// CUDA Toolkit 12.x to use these packages", and only the [ctk]
		// extra installs NVIDIA's CUDA wheels (cupy-cuda13x's page;
		// NVIDIA/cccl#10060: "By default cupy does not pip install the
		// cuda toolkit (unless the [ctk] extra is specified)").
		for _, e := range p.Extras {
			if pep503(e) == "ctk" {
				return false
			}
		}
		return kb.CUDAMajorFromPipName(p.Name) > 0
	}
	return false
}

// hostCUDAOtherMajor is EG302 for a pip library that loads the CUDA it
// finds, built for another CUDA major than conda's stack: there is one
// runtime, conda's, and the library finds none of its own major's
// libraries in it (cupy-cuda12x beside cudatoolkit=11.3 fails to import).
func hostCUDAOtherMajor(ctx *Context, lib string, p pipItem, first condaItem) (finding.Diagnostic, bool) {
	m := kb.CUDAMajorFromPipName(p.Name)
	if lib != "cupy" || m == 0 || ctx.Stack == nil || ctx.Stack.CUDA == nil {
		return finding.Diagnostic{}, false
	}
	have := majorOf(ctx.Stack.CUDA.Version)
	if have == 0 || have == m {
		return finding.Diagnostic{}, false
	}
	msg := fmt.Sprintf("pip installs %s (%s, %s), a build for CUDA %d that brings no CUDA libraries and loads the environment's, while conda provides a CUDA %d stack (%s, %s): it finds no CUDA %d libraries there and fails at import",
		lib, pipText(p), place(p.Dep.Raw.Pos), m, have, condaText(first), place(first.Dep.Raw.Pos), m)
	hint := fmt.Sprintf("install %s from conda, built for the conda CUDA stack, or use its pip wheel for CUDA %d", lib, have)
	if have >= 11 {
		hint += fmt.Sprintf(" (cupy-cuda%dx)", have)
	}
	d := diag(ctx.rule, p.Dep.Raw.Pos, msg, hint, first.Dep.Raw.Pos)
	if condaNameOf(lib) != "" {
		d.Edits = moveToCondaEdits(ctx.Env, p.Dep, condaSpecOfPip(ctx, p))
	}
	return d, true
}

// condaTorch reports whether torch itself comes from conda: only then is a
// pip companion held against conda's CUDA rather than against pip's torch.
func condaTorch(ctx *Context) bool {
	f := stackFramework(ctx)
	return f != nil && f.Name == "pytorch" && f.From == envspec.ProviderConda
}

// companionSpec is the conda spec of torchvision or torchaudio beside the
// conda pytorch: its channel and the release that pairs with it; "" when
// the pytorch release is not in the knowledge base.
func companionSpec(ctx *Context, lib string) string {
	f := stackFramework(ctx)
	if f == nil || f.Version == "" || ctx.KB == nil {
		return ""
	}
	r, ok := ctx.KB.Release(f.Version)
	if !ok {
		return ""
	}
	v := companionOf(r, lib)
	if v == "" {
		return ""
	}
	spec := lib + "=" + v
	if f.Channel != "" && !strings.Contains(f.Channel, "/") {
		spec = f.Channel + "::" + spec
	}
	return spec
}

// jaxBeforePipCUDA reports whether a pip jax or jaxlib item is of a release
// before jax's first pip CUDA extra (the knowledge base's JAXPipCUDASince):
// its CUDA jaxlib loads the CUDA it finds. An open spec, or a table without
// the extra, gives false: nothing is known.
func jaxBeforePipCUDA(ctx *Context, p pipItem) bool {
	if ctx == nil || ctx.KB == nil || p.Dep == nil || (p.Name != "jax" && p.Name != "jaxlib") {
		return false
	}
	since, ok := ctx.KB.JAXPipCUDASince()
	if !ok {
		return false
	}
	v := ""
	if it := readPipItem(p.Dep); it != nil {
		v = it.exact
		if v == "" {
			v, _ = wheelURLVersion(it)
		}
	} else if p.URL != "" {
		v, _ = wheelURLVersion(&item{pip: p.Dep})
	}
	if v == "" {
		return false
	}
	c, ok := kb.CompareDotted(v, since)
	return ok && c < 0
}
