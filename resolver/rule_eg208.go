package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG208 reports TensorFlow with a CUDA or cuDNN version other than its
// tested build configuration. A conda-forge build for "CUDA X.Y or a newer
// X.x" is held to the tested version only where it cannot reach it.
var ruleEG208 = &Rule{
	Rule: finding.Rule{
		Code:     "EG208",
		Name:     "tensorflow-untested-cuda",
		Severity: finding.SeverityWarning,
		Title:    "TensorFlow with a CUDA or cuDNN version other than its tested build configuration",
		Why: "TensorFlow publishes one tested CUDA/cuDNN pair per release. Other versions may fail to load " +
			"(\"Could not load dynamic library\") and TensorFlow then silently runs on the CPU.",
		Fix:    "Use the CUDA and cuDNN versions of the release's tested build configuration.",
		Before: "dependencies:\n  - tensorflow=2.12.0\n  - cudatoolkit=11.2\n  - cudnn=8.1\n",
		After:  "dependencies:\n  - tensorflow=2.12.0\n  - cudatoolkit=11.8\n  - cudnn=8.6\n",
		Since:  "0.1.0",
	},
	run: runEG208,
}

func runEG208(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Framework.Name != "tensorflow" || c.KB == nil || st.Framework.Version == "" {
		return nil
	}
	f := st.Framework
	cfg, ok := c.KB.TensorFlow(f.Version)
	if !ok {
		return nil
	}
	if f.From == envspec.ProviderConda && f.Dist == kb.DistCondaForge {
		// conda-forge builds TensorFlow with its own CUDA and cuDNN: held to
		// those (tf_jax.go), and to nothing where the knowledge base has none
		out, _ := eg208CondaForge(c)
		return out
	}
	var out []finding.Diagnostic
	if st.CUDA != nil && cfg.CUDA != "" {
		if a := authority(st.CUDA.Evidence); a != nil && a.Kind != EvidenceDefault && hasMinor(a.Says) {
			want := majorMinor(cfg.CUDA)
			tested := Evidence{Says: want}
			if cudaConflict(*a, tested) || (!a.AtLeast && a.Says != want) {
				msg := fmt.Sprintf("%s: %s%s was tested with CUDA %s, not %s", describeCUDA(*a), fwLabel(f), at(f.Pos), want, a.Says)
				out = append(out, newFinding(c.rule, a.Pos, a.EndCol, msg, eg208CUDAHint(c, *a, want), f.Pos))
			}
		}
	}
	if st.CuDNN != "" && cfg.CuDNN != "" {
		want := majorMinor(cfg.CuDNN)
		got := st.CuDNN
		differs := majorOf(got) != majorOf(want) || (hasMinor(got) && majorMinor(got) != want)
		if differs {
			msg := fmt.Sprintf("%s%s installs cuDNN %s: %s%s was tested with cuDNN %s", itemAtLine(c, st.CuDNNPos, "cudnn"), at(st.CuDNNPos), got, fwLabel(f), at(f.Pos), want)
			hint := fmt.Sprintf("use cudnn=%s on line %d (the tested build configuration of %s)", want, st.CuDNNPos.Line, fwLabel(f))
			// A conda build's run_exports require at least the cuDNN it was
			// built with: a hint below that makes the environment unsolvable.
			if f.From == envspec.ProviderConda && cmpMinor(want, majorMinor(got)) < 0 {
				hint = fmt.Sprintf("keep cudnn on line %d: a conda build of %s requires at least the cuDNN it was built with (run_exports), so cudnn=%s cannot be solved with it; for the tested configuration (cuDNN %s) install tensorflow with pip instead", st.CuDNNPos.Line, fwLabel(f), want, want)
			}
			related := []finding.Pos{f.Pos}
			// a pip TensorFlow beside a pip nvidia-cudnn wheel of the tested
			// version: that wheel is the right copy, so the hint drops the
			// conda line rather than re-pinning it (two copies stay two)
			if p, ok := eg208TestedCuDNNWheel(c, want); ok && f.From == envspec.ProviderPip {
				msg += fmt.Sprintf("; %s (%s) is the tested cuDNN", pipText(p), place(p.Dep.Raw.Pos))
				hint = fmt.Sprintf("drop %s on line %d and keep %s (%s): cuDNN %s is the tested build configuration of %s (TensorFlow's pip guide puts the wheel's lib directory on LD_LIBRARY_PATH)", itemAtLine(c, st.CuDNNPos, "cudnn"), st.CuDNNPos.Line, pipText(p), place(p.Dep.Raw.Pos), want, fwLabel(f))
				related = append(related, p.Dep.Raw.Pos)
			}
			out = append(out, newFinding(c.rule, st.CuDNNPos, 0, msg, hint, related...))
		}
	}
	return out
}

// eg208CUDAHint says how to bring the CUDA that a provides to the tested
// version want without breaking the file's other pins (review 3 #384: corpus
// 065 was told "use cudatoolkit=10.1" beside a cudnn=7.6.4=cuda10.0_0 and a
// conda tensorflow-base 1.15.0 that hold 10.0, which no solver can meet).
// The conda packages whose build string names a's CUDA, or which carry the
// cudatoolkit's own version (cupti=10.0.130 beside cudatoolkit=10.0.130),
// must move with it; a conda TensorFlow beside the pip one (EG301) comes
// first, since which of the two stays decides the CUDA the file needs.
func eg208CUDAHint(c *Context, a Evidence, want string) string {
	f := c.Stack.Framework
	hint := fmt.Sprintf("%s (the tested build configuration of %s)", fixCUDA(a, want), fwLabel(f))
	if ties := cudaTies(c, a); len(ties) > 0 {
		hint += fmt.Sprintf(", and move the pins made for CUDA %s with it: %s", a.Says, strings.Join(ties, ", "))
	}
	if f.From != envspec.ProviderPip {
		return hint
	}
	for _, p := range c.libPairs() {
		if p.Lib == "tensorflow" && !p.Echo {
			return fmt.Sprintf("the file also installs TensorFlow from conda (%s, %s; EG301), and which of the two stays decides the CUDA the file needs: settle EG301 first. To keep %s, %s",
				condaText(p.Conda), place(p.Conda.Dep.Raw.Pos), fwLabel(f), hint)
		}
	}
	return hint
}

// cudaTies lists the conda items other than a's own that hold the CUDA a
// provides: a build string naming it (cudnn=7.6.4=cuda10.0_0), a CUDA
// package pinned to it (cuda-version=10.0 beside cudatoolkit=10.0), or the
// cudatoolkit's exact X.Y.Z version (cupti=10.0.130=0 beside
// cudatoolkit=10.0.130), each with its line.
func cudaTies(c *Context, a Evidence) []string {
	var out []string
	exact := a.Version
	if a.Kind != EvidenceCudatoolkit || strings.Count(exact, ".") < 2 {
		exact = ""
	}
	for _, it := range c.Stack.items {
		if it.from() != envspec.ProviderConda || it.pos().Line == a.Pos.Line || frameworkOf(it) != "" {
			continue
		}
		switch {
		case it.build != "" && DecodeBuild(it.build).CUDA == a.Says:
			out = append(out, fmt.Sprintf("%s (line %d, a CUDA %s build)", it.raw(), it.pos().Line, a.Says))
		case names(c.KB).CUDAPackageKind(it.name) != "" && pythonSeries(it.verText) == a.Says:
			out = append(out, fmt.Sprintf("%s (line %d)", it.raw(), it.pos().Line))
		case exact != "" && it.exact == exact:
			out = append(out, fmt.Sprintf("%s (line %d, the cudatoolkit's own version)", it.raw(), it.pos().Line))
		}
	}
	return out
}

// itemAtLine is the conda dependency written on pos's line, or fallback.
func itemAtLine(c *Context, pos finding.Pos, fallback string) string {
	if c == nil || c.Env == nil || !pos.IsValid() {
		return fallback
	}
	for _, it := range c.condaList() {
		if it.Dep.Raw.Pos.Line == pos.Line {
			return condaText(it)
		}
	}
	return fallback
}

// eg208TestedCuDNNWheel is the pip nvidia-cudnn-cuXX wheel pinned (==) to
// the tested cuDNN release want ("8.6"), if the file has one.
func eg208TestedCuDNNWheel(c *Context, want string) (pipItem, bool) {
	reqs, _ := c.pipList()
	for _, p := range reqs {
		if !isNvidiaWheel(c, p.Name) || nvidiaWheelLib(p.Name) != "cudnn" {
			continue
		}
		if m := pipExactPin().FindStringSubmatch(pipText(p)); m != nil && majorMinor(m[1]) == want {
			return p, true
		}
	}
	return pipItem{}, false
}
