package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

var ruleEG301 = &Rule{
	Rule: finding.Rule{
		Code:     "EG301",
		Name:     "gpu-library-from-conda-and-pip",
		Severity: finding.SeverityError,
		Fixable:  finding.FixUnsafe,
		Title:    "the same GPU library comes from both conda and pip",
		Why: "conda and pip each install their own copy of the library into the same site-packages; " +
			"whichever ran last wins file by file, so the process can import pip's Python code on top of " +
			"conda's compiled extension (or the reverse), built against different CUDA runtimes. The " +
			"result is import errors, `undefined symbol`, or a silent CPU build.",
		Fix: "Keep one installer per library: drop the pip line and let conda provide it together with " +
			"its CUDA packages, or drop the conda package (and its CUDA packages) and install it from pip only.",
		Before: "dependencies:\n  - pytorch=2.1\n  - pytorch-cuda=12.1\n  - pip:\n    - torch==2.1.0",
		After:  "dependencies:\n  - pytorch=2.1\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	run: runEG301,
}

// libPair is a GPU library provided by both installers.
type libPair struct {
	Lib   string
	Conda condaItem
	Pip   pipItem
	// Echo marks a pip line that only repeats conda's own package (see
	// condaEcho): not a second copy.
	Echo bool
}

// condaPipPairs finds every pip requirement whose GPU library a conda
// dependency already provides (the first such conda dependency).
func condaPipPairs(ctx *Context) []libPair {
	conda := ctx.condaList()
	reqs, _ := ctx.pipList()
	byLib := map[string]condaItem{}
	for _, c := range conda {
		if l := libOfConda(ctx, c.Name); l != "" {
			if _, seen := byLib[l]; !seen {
				byLib[l] = c
			}
		}
	}
	var out []libPair
	pulledBy, pulled, isPulled := companionPytorch(ctx, conda)
	for _, p := range reqs {
		l := libOfPip(ctx, p)
		if l == "" {
			continue
		}
		if c, ok := byLib[l]; ok {
			out = append(out, libPair{Lib: l, Conda: c, Pip: p, Echo: condaEcho(ctx, c, p)})
		} else if c, v := pulledBy, pulled; isPulled && l == "torch" && p.Name == "torch" {
			// conda's torchvision or torchaudio pulls pytorch v in before
			// pip runs (Framework from the companion)
			out = append(out, libPair{Lib: l, Conda: c, Pip: p, Echo: echoesRelease(ctx, v, p)})
		}
	}
	return out
}

// companionPytorch is the conda torchvision or torchaudio the stack's
// pytorch comes from, where the file has no conda pytorch of its own, and
// the release it pulls.
func companionPytorch(ctx *Context, conda []condaItem) (condaItem, string, bool) {
	if ctx.Stack == nil || ctx.Stack.Framework == nil {
		return condaItem{}, "", false
	}
	f := ctx.Stack.Framework
	if f.Name != "pytorch" || f.From != envspec.ProviderConda || f.Version == "" || f.PulledBy == "" {
		return condaItem{}, "", false
	}
	for _, c := range conda {
		if (c.Name == "torchvision" || c.Name == "torchaudio") && c.Dep.Raw.Pos == f.Pos {
			return c, f.Version, true
		}
	}
	return condaItem{}, "", false
}

func runEG301(ctx *Context) []finding.Diagnostic {
	if ctx == nil || ctx.Env == nil {
		return nil
	}
	_, opts := ctx.pipList()
	index, _ := wheelIndexTag(ctx.KB, opts)
	condaCUDA := len(ctx.condaCUDAStack()) > 0
	var out []finding.Diagnostic
	for _, p := range ctx.libPairs() {
		if p.Echo {
			continue
		}
		msg := fmt.Sprintf("%s comes from both conda (%s, %s) and pip (%s, %s)", p.Lib, condaText(p.Conda), place(p.Conda.Dep.Raw.Pos), pipText(p.Pip), place(p.Pip.Dep.Raw.Pos))
		// Keep the side that pins the CUDA build: pip when it names a CUDA
		// variant and conda brings no CUDA packages, conda otherwise.
		pipPinned := p.Pip.Local != "" || (index != "" && isTorchFamily(p.Pip.Name))
		if m, _ := pipCUDAMajor(p.Pip, index); m > 0 {
			pipPinned = true
		}
		var hint string
		var edits []finding.Edit
		if pipPinned && !condaCUDA {
			hint = fmt.Sprintf("drop %s from the conda dependencies: the pip line pins the CUDA build", condaText(p.Conda))
			if ed, ok := ctx.Env.DeleteItem(p.Conda.Dep.Raw); ok && ctx.Env.Kind == envspec.KindEnvFile {
				edits = []finding.Edit{ed}
			}
			// conda packages built on it (torchvision, torchaudio) require it:
			// dropping it alone cannot be solved
			if dep := condaDependents(ctx, p.Lib); len(dep) > 0 {
				hint = fmt.Sprintf("drop %s and the conda packages that require it (%s) from the conda dependencies and install those from pip too: the pip line pins the CUDA build", condaText(p.Conda), strings.Join(dep, ", "))
				edits = nil // moving the dependents too is the user's call
			}
		} else {
			hint = fmt.Sprintf("drop %s from the pip section: conda's %s already provides %s", pipText(p.Pip), p.Conda.Name, p.Lib)
			edits = dropPipEdits(ctx.Env, p.Pip.Dep)
		}
		d := diag(ctx.rule, p.Pip.Dep.Raw.Pos, msg, hint, p.Conda.Dep.Raw.Pos)
		d.Edits = edits
		out = append(out, d)
	}
	return out
}

// condaEcho reports whether a pip line of the torch family only repeats
// the conda package beside it: conda's pytorch installs torch's
// dist-info, so `pip list` and `conda env export` show it in the pip
// section as torch==X with conda's own version (pytorch/pytorch#12470).
// Recreating the environment, pip finds that requirement already
// satisfied and installs nothing: one copy, not two. A local version
// (+cu118), another version, or a pip record in an installed prefix is a
// real second install.
func condaEcho(ctx *Context, c condaItem, p pipItem) bool {
	it := ctx.condaItem(c.Index, c.Dep)
	if it == nil || it.exact == "" {
		return false
	}
	return echoesRelease(ctx, it.exact, p)
}

// echoesRelease reports whether a pip line of the torch family pins
// exactly release v (no local version, URL or installed record), which a
// conda package of that release already satisfies.
func echoesRelease(ctx *Context, v string, p pipItem) bool {
	if ctx.Env.IsInstalled() || p.Dep == nil || p.Dep.Installed != nil {
		return false
	}
	if !isTorchFamily(p.Name) || p.Local != "" || p.URL != "" || p.Dep.Line == nil || p.Dep.Line.Req == nil {
		return false
	}
	sp := p.Dep.Line.Req.Specifiers
	if len(sp) != 1 || (sp[0].Op != "==" && sp[0].Op != "===") {
		return false
	}
	return padRelease(v) == padRelease(sp[0].Version)
}

// condaDependents lists the conda items that require a conda library: the
// torch companions are built on one pytorch release.
func condaDependents(ctx *Context, lib string) []string {
	if lib != "torch" {
		return nil
	}
	var out []string
	for _, it := range ctx.condaList() {
		switch it.Name {
		case "torchvision", "torchaudio", "torchtext", "torchdata":
			out = append(out, condaText(it))
		}
	}
	return out
}
