package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

var ruleEG303 = &Rule{
	Rule: finding.Rule{
		Code:     "EG303",
		Name:     "nvidia-wheels-with-conda-cuda",
		Severity: finding.SeverityWarning,
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
	run: runEG303,
}

func runEG303(ctx *Context) []finding.Diagnostic {
	if ctx == nil || ctx.Env == nil {
		return nil
	}
	conda := ctx.condaList()
	stack := ctx.condaCUDAStack()
	if len(stack) == 0 {
		return nil
	}
	first := stack[0]
	reqs, _ := ctx.pipList()
	// the hint may offer to drop conda's CUDA packages only when nothing
	// conda installs needs them
	condaNeeds := condaFrameworkNeedsCUDA(ctx)
	var out []finding.Diagnostic
	// every wheel that doubles a conda library is one problem (one source
	// of CUDA libraries too many): one finding that lists them all, not one
	// per nvidia-* wheel
	var twins []eg303Twin
	for _, p := range reqs {
		if !isNvidiaWheel(ctx, p.Name) {
			continue
		}
		lib := nvidiaWheelLib(p.Name)
		provider, ok := condaProvides(conda, lib)
		if !ok && (lib == "cudnn" || lib == "nccl") {
			// a conda framework's CUDA build brings its own cuDNN and NCCL
			// (bundled in the pytorch channel's packages, as dependencies
			// on conda-forge) even when the file lists none
			if fw, ok2 := condaFrameworkItem(ctx); ok2 {
				provider, ok = fw, true
			}
		}
		if !ok {
			if lib == "cudnn" {
				if d, ok := eg303CuDNNWheel(ctx, p, first); ok {
					out = append(out, d)
				}
			}
			continue // conda has no copy of this library: not two copies
		}
		twins = append(twins, eg303Twin{wheel: p, provider: provider, lib: lib})
	}
	if len(twins) > 0 {
		out = append(out, eg303Twins(ctx, twins, condaNeeds))
	}
	return out
}

// eg303Twin is a pip NVIDIA wheel and the conda package that installs the
// same library.
type eg303Twin struct {
	wheel    pipItem
	provider condaItem
	lib      string
}

// eg303Twins is the one finding for all the wheels that double conda's
// CUDA libraries, placed at the first wheel.
func eg303Twins(ctx *Context, twins []eg303Twin, condaNeeds bool) finding.Diagnostic {
	var wheels, names, providers, libs []string
	var related []finding.Pos
	seenProv := map[finding.Pos]bool{}
	seenLib := map[string]bool{}
	for i, t := range twins {
		wheels = append(wheels, fmt.Sprintf("%s (%s)", pipText(t.wheel), place(t.wheel.Dep.Raw.Pos)))
		names = append(names, t.wheel.Name)
		if i > 0 {
			related = append(related, t.wheel.Dep.Raw.Pos)
		}
		if pos := t.provider.Dep.Raw.Pos; !seenProv[pos] {
			seenProv[pos] = true
			providers = append(providers, fmt.Sprintf("%s, %s", condaText(t.provider), place(pos)))
			related = append(related, pos)
		}
		if l := libLabel(t.lib); !seenLib[l] {
			seenLib[l] = true
			libs = append(libs, l)
		}
	}
	noun := "wheel"
	if len(twins) > 1 {
		noun = "wheels"
	}
	msg := fmt.Sprintf("pip NVIDIA CUDA %s %s alongside conda CUDA packages (%s): two copies of %s in one process",
		noun, strings.Join(wheels, ", "), strings.Join(providers, "; "), joinAnd(libs))
	var provNames []string
	for _, t := range twins {
		if n := condaText(t.provider); !contains(provNames, n) {
			provNames = append(provNames, n)
		}
	}
	hint := fmt.Sprintf("keep one source of CUDA libraries: drop %s from the pip section (%s provides %s)",
		strings.Join(names, ", "), strings.Join(provNames, ", "), joinAnd(libs))
	if !condaNeeds {
		hint += ", or drop the conda CUDA packages and keep the nvidia-* wheels"
	}
	if h, ok := eg303TestedCuDNN(ctx, twins); ok {
		hint = h
	}
	if user := pipWheelUser(ctx); user != "" {
		// a pip package of the file loads NVIDIA's wheels, not conda's
		// libraries: dropping them breaks it (review fifty-four F20,
		// corpus 042: jax-cuda12-plugin beside conda's pytorch)
		hint = fmt.Sprintf("%s loads the nvidia-* wheels, not conda's libraries, so dropping them breaks it: keep them and run that framework in an environment of its own, or take it from conda as well, built for the conda CUDA, so that one source of CUDA libraries serves the process", user)
	}
	first := twins[0].wheel.Dep.Raw.Pos
	return diag(ctx.rule, first, msg, hint, related...)
}

// joinAnd joins labels as prose: "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// nvidiaWheelLib names the library of an NVIDIA CUDA wheel:
// nvidia-cudnn-cu11 → cudnn, nvidia-cuda-runtime-cu12 → cuda-runtime.
func nvidiaWheelLib(name string) string {
	n := strings.TrimPrefix(name, "nvidia-")
	if m := cudaSuffixRe().FindStringIndex(n); m != nil {
		n = n[:m[0]]
	}
	return n
}

func libLabel(lib string) string {
	switch lib {
	case "cudnn":
		return "cuDNN"
	case "nccl":
		return "NCCL"
	}
	return "the CUDA libraries"
}

// condaProvides finds the conda dependency that installs the library an
// NVIDIA wheel carries. cuDNN and NCCL are packages of their own: neither
// cudatoolkit (conda-forge's and the defaults channel's carry no cuDNN) nor
// the cuda-* metapackages install them. The other wheels (cuBLAS, cudart,
// cuFFT, NVRTC...) are in cudatoolkit, cuda-toolkit, cuda-libraries,
// cuda-runtime and what pytorch-cuda pulls; cuda-version alone installs no
// library.
func condaProvides(conda []condaItem, lib string) (condaItem, bool) {
	for _, it := range conda {
		n := it.Name
		switch lib {
		case "cudnn":
			if n == "cudnn" || strings.HasPrefix(n, "libcudnn") {
				return it, true
			}
		case "nccl":
			if n == "nccl" || strings.HasPrefix(n, "libnccl") {
				return it, true
			}
		default:
			switch n {
			case "cudatoolkit", "cuda-toolkit", "cuda-libraries", "cuda-runtime", "pytorch-cuda", "cuda":
				return it, true
			}
			if strings.HasPrefix(n, "libcu") || strings.HasPrefix(n, "libnv") || n == "cuda-cudart" || n == "cuda-nvrtc" || n == "cuda-cupti" {
				if strings.Contains(n, strings.TrimPrefix(strings.TrimPrefix(lib, "cuda-"), "lib")) {
					return it, true
				}
			}
		}
	}
	return condaItem{}, false
}

// condaFrameworkNeedsCUDA reports whether a conda package of the file needs
// conda's CUDA packages: a conda framework, or another GPU library built
// against them.
func condaFrameworkNeedsCUDA(ctx *Context) bool {
	if f := stackFramework(ctx); f != nil && f.From == envspec.ProviderConda && f.Variant != "cpu" {
		return true
	}
	return cudaConsumer(ctx) != nil
}

// eg303CuDNNWheel judges a pip cuDNN wheel beside a conda CUDA stack that
// has no cuDNN, the recipe of TensorFlow 2.12–2.13's pip guide (conda
// cudatoolkit, pip nvidia-cudnn-cu11, LD_LIBRARY_PATH set in the
// environment's activate.d). There is one cuDNN, not two; what breaks is
// loading it: the wheel puts libcudnn under site-packages/nvidia/cudnn/lib,
// which the dynamic loader does not search, so pip TensorFlow (without
// [and-cuda], which loads cuDNN from the library path) finds none unless
// LD_LIBRARY_PATH names that directory. pip torch finds its nvidia-* wheels
// by itself, and a conda framework brings its own cuDNN.
func eg303CuDNNWheel(ctx *Context, p pipItem, first condaItem) (finding.Diagnostic, bool) {
	f := stackFramework(ctx)
	if f == nil || f.Name != "tensorflow" || f.From != envspec.ProviderPip || f.Variant == "cpu" {
		return finding.Diagnostic{}, false
	}
	for _, v := range ctx.Env.Variables {
		if v.Key.Value == "LD_LIBRARY_PATH" && strings.Contains(v.Value.Value, "cudnn") {
			return finding.Diagnostic{}, false
		}
	}
	msg := fmt.Sprintf("pip %s (%s) is the only cuDNN here (%s, %s, carries none), and it lands in site-packages/nvidia/cudnn/lib, which the dynamic loader does not search: %s finds no cuDNN and runs without it (TensorFlow: \"Could not load dynamic library 'libcudnn.so.8'\", GPU ops skipped) unless LD_LIBRARY_PATH names that directory",
		pipText(p), place(p.Dep.Raw.Pos), condaText(first), place(first.Dep.Raw.Pos), fwLabel(f))
	hint := "set LD_LIBRARY_PATH to include the wheel's lib directory ($CONDA_PREFIX/lib/pythonX.Y/site-packages/nvidia/cudnn/lib), as TensorFlow 2.12–2.13's pip guide does in the environment's etc/conda/activate.d, or install cudnn from conda instead of the wheel"
	return diag(ctx.rule, p.Dep.Raw.Pos, msg, hint, first.Dep.Raw.Pos), true
}

// condaFrameworkItem is the conda item of a conda CUDA framework build.
func condaFrameworkItem(ctx *Context) (condaItem, bool) {
	f := stackFramework(ctx)
	if f == nil || f.From != envspec.ProviderConda || f.Variant == "cpu" {
		return condaItem{}, false
	}
	for _, it := range ctx.condaList() {
		if it.Dep.Raw.Pos == f.Pos {
			return it, true
		}
	}
	return condaItem{}, false
}

// eg303TestedCuDNN is the hint when the one doubled library is cuDNN, the
// framework a pip TensorFlow, and the wheel (not conda's cudnn) is of its
// tested cuDNN: the copy to keep is the wheel, as EG208 says of the conda
// line; false otherwise.
func eg303TestedCuDNN(ctx *Context, twins []eg303Twin) (string, bool) {
	if len(twins) != 1 || twins[0].lib != "cudnn" || ctx.KB == nil || ctx.Stack == nil || ctx.Stack.CuDNN == "" {
		return "", false
	}
	f := stackFramework(ctx)
	if f == nil || f.Name != "tensorflow" || f.From != envspec.ProviderPip || f.Version == "" {
		return "", false
	}
	cfg, ok := ctx.KB.TensorFlow(f.Version)
	if !ok || cfg.CuDNN == "" {
		return "", false
	}
	want := majorMinor(cfg.CuDNN)
	if majorMinor(ctx.Stack.CuDNN) == want {
		return "", false
	}
	p, ok := eg208TestedCuDNNWheel(ctx, want)
	if !ok || p.Dep != twins[0].wheel.Dep {
		return "", false
	}
	t := twins[0]
	return fmt.Sprintf("keep one source of cuDNN: drop %s (%s) and keep %s, the tested cuDNN %s of %s (EG208)",
		condaText(t.provider), place(t.provider.Dep.Raw.Pos), pipText(t.wheel), want, fwLabel(f)), true
}

// pipWheelUser names the first pip line of the file that installs a JAX
// CUDA plugin (jax[cuda12], jax-cuda12-plugin), whose CUDA libraries are
// NVIDIA's pip wheels, "" where none does.
func pipWheelUser(ctx *Context) string {
	reqs, _ := ctx.pipList()
	for _, p := range reqs {
		if strings.HasPrefix(p.Name, "jax-cuda") && strings.Contains(p.Name, "plugin") {
			return pipText(p) + " (" + place(p.Dep.Raw.Pos) + ")"
		}
		if p.Name == "jax" {
			for _, e := range p.Extras {
				if strings.HasPrefix(strings.ToLower(e), "cuda") && !strings.Contains(strings.ToLower(e), "local") {
					return pipText(p) + " (" + place(p.Dep.Raw.Pos) + ")"
				}
			}
		}
	}
	return ""
}
