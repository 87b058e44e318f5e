package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG211 reports a GPU extension built for another torch release, CUDA
// major or C++ ABI than the environment's torch, from what the file says
// of the extension's build: its wheel tag, its index URL, or the exact
// torch its metadata pins (a knowledge-base row). `envguard check` adds
// the binaries' own evidence.
var ruleEG211 = &Rule{
	Rule: finding.Rule{
		Code:     "EG211",
		Name:     "extension-built-for-other-torch",
		Severity: finding.SeverityError,
		Title:    "a GPU extension was built for another torch release, CUDA major or C++ ABI than the environment's torch",
		Why: "An extension that links libtorch's C++ API (flash-attn, xformers, vLLM, PyG's torch-scatter/sparse/cluster and pyg-lib, " +
			"mamba-ssm, causal-conv1d, flashinfer, apex, …) runs only with the torch release, CUDA major and C++ ABI it was compiled " +
			"against: any other fails at import with \"undefined symbol\" (a C++ ABI or release mismatch) or \"built for PyTorch X\". " +
			"Where its metadata pins torch exactly (xformers, vLLM), pip and uv refuse the pair or replace the torch the file pins. " +
			"The same holds for a pip torchvision or torchaudio from the package index over a conda pytorch: the wheel is built for the CUDA " +
			"of the index's torch it pairs with, and it refuses to load beside a torch of another CUDA (major for torchvision, version for torchaudio).",
		Fix: "Take the extension's wheel built for this torch (the wheel tag names torch, CUDA and cxx11abiTRUE/FALSE; PyG's and " +
			"flashinfer's index URLs name torch and CUDA), the extension release that pins this torch, or the torch it was built for.",
		Before: "dependencies:\n  - pip:\n    - torch==2.7.0\n    - https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp311-cp311-linux_x86_64.whl",
		After:  "dependencies:\n  - pip:\n    - torch==2.6.0\n    - https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp311-cp311-linux_x86_64.whl",
		Since:  "0.3.0",
	},
	run:          runEG211,
	failsTargets: true,
}

func runEG211(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Framework.Name != "pytorch" || st.Framework.release() == "" || st.Framework.Variant == "cpu" {
		return nil
	}
	var out []finding.Diagnostic
	flagged := map[string]bool{}
	for i := range st.GPUPackages {
		p := &st.GPUPackages[i]
		if p.Role != RoleExtension || p.ext == nil || !p.ext.TorchABI {
			continue
		}
		if why := mismatch(st, p); len(why) > 0 {
			flagged[kb.NormalizeName(p.Name)] = true
			msg := fmt.Sprintf("%s was built for %s; the environment's %s: %s, so it fails at import (%s)",
				extLabel(p), builtForText(p.BuiltFor), torchText(st), strings.Join(why, "; "), failureText(p))
			out = append(out, newFinding(c.rule, p.Pos, 0, msg, eg211Hint(c.KB, st, p), st.Framework.Pos))
		}
	}
	for _, m := range st.CompanionsMismatched {
		out = append(out, newFinding(c.rule, m.Pos, 0, m.Why+", so it fails at import",
			"install it from conda beside pytorch (same channel, the release that pairs with it), or take the PyTorch wheel index's build for pytorch's CUDA (+cuXYZ)", st.Framework.Pos))
	}
	for _, m := range missingTorchSymbols(st) {
		if flagged[m.pkg] {
			continue // the build's own metadata has said it
		}
		if optionalOpsRelease(c.KB, st, m.pkg) != "" {
			continue // it imports all the same: the GPU check says what fails (OptionalOpsUnloadable)
		}
		msg := fmt.Sprintf("%s needs %d %s %s does not export: %s, so it fails at import (\"undefined symbol\")",
			m.lib.Rel, len(m.missing), plural(len(m.missing), "symbol"), torchText(st), demangled(m.missing, 3))
		hint := "reinstall the extension built for " + torchText(st) + ", or the torch it was built for"
		out = append(out, newFinding(c.rule, st.PosOf(m.pkg), 0, msg, hint, st.Framework.Pos))
	}
	return out
}

// mismatch says, in words, how the extension's build differs from the
// environment's torch; nil when nothing known differs.
func mismatch(st *Stack, p *GPUPackage) []string {
	fw := st.Framework
	var why []string
	if t := p.BuiltFor.Torch; len(t) > 0 && !torchMatches(t, fw.release()) {
		if p.BuiltFor.TorchPin {
			why = append(why, fmt.Sprintf("its metadata pins torch==%s, and the file pins %s", strings.Join(t, ", "), fw.release()))
		} else {
			why = append(why, fmt.Sprintf("its build is for torch %s, and the file's torch is %s", strings.Join(t, ", "), fw.release()))
		}
	}
	if rt := st.CUDA; rt != nil && rt.Version != "" && len(p.BuiltFor.CUDA) > 0 {
		m := majorOf(rt.Version)
		ok := false
		for _, c := range p.BuiltFor.CUDA {
			if majorOf(c) == m {
				ok = true
			}
		}
		if !ok {
			why = append(why, fmt.Sprintf("its build is for CUDA %s, and torch's is CUDA %s", strings.Join(p.BuiltFor.CUDA, ", "), rt.Version))
		}
	}
	if st.TorchABI != "" && len(p.BuiltFor.ABI) == 1 && p.BuiltFor.ABI[0] != st.TorchABI {
		why = append(why, fmt.Sprintf("it was compiled with the %s C++ ABI, and torch %s with the %s one", abiWords(p.BuiltFor.ABI[0]), fw.release(), abiWords(st.TorchABI)))
	}
	return why
}

// torchMatches reports whether a torch release or series is among the
// releases ("2.5.1") or series ("2.6") a build was made for: a series on
// either side matches every release of it.
func torchMatches(built []string, version string) bool {
	v := stripLocal(version)
	for _, b := range built {
		b = stripLocal(b)
		if b == v || ((strings.Count(b, ".") == 1 || strings.Count(v, ".") == 1) && seriesOf(v) == seriesOf(b)) {
			return true
		}
	}
	return false
}

func abiWords(abi string) string {
	if abi == kb.ABIPreCXX11 {
		return "pre-C++11 (cxx11abiFALSE)"
	}
	return "C++11 (cxx11abiTRUE)"
}

func extLabel(p *GPUPackage) string {
	s := p.Name
	if p.Version != "" {
		s += " " + p.Version
	}
	for _, e := range p.Evidence {
		if e.Kind == EvidenceWheelTag {
			return s + " (" + e.Item + ")"
		}
	}
	return s
}

func builtForText(b BuiltFor) string {
	var parts []string
	if len(b.Torch) > 0 {
		parts = append(parts, "torch "+strings.Join(b.Torch, "/"))
	}
	if len(b.CUDA) > 0 {
		parts = append(parts, "CUDA "+strings.Join(b.CUDA, "/"))
	}
	if len(b.ABI) == 1 {
		parts = append(parts, "the "+abiWords(b.ABI[0])+" ABI")
	}
	return strings.Join(parts, ", ")
}

func torchText(st *Stack) string {
	s := "torch " + st.Framework.Version
	if st.Framework.Version == "" {
		s += st.Framework.Installed
	}
	if st.CUDA != nil && st.CUDA.Version != "" {
		s += " (CUDA " + st.CUDA.Version
		if st.TorchABI != "" {
			s += ", " + abiWords(st.TorchABI) + " ABI"
		}
		s += ")"
	}
	return s
}

func failureText(p *GPUPackage) string {
	if p.BuiltFor.TorchPin {
		return "pip and uv refuse the pair, or replace the file's torch with the one pinned"
	}
	return "\"undefined symbol\""
}

// eg211Hint names a build of the extension made for the environment's
// torch where the knowledge base knows one: the same release's if it has
// one, else the newest release's.
func eg211Hint(k *kb.KB, st *Stack, p *GPUPackage) string {
	fw := st.Framework
	cudaMajor := 0
	if st.CUDA != nil {
		cudaMajor = majorOf(st.CUDA.Version)
	}
	fits := func(b kb.ExtensionBuild) bool {
		if b.Name != p.Name || !torchMatches(b.Torch, fw.release()) {
			return false
		}
		if st.TorchABI != "" && len(b.ABI) > 0 && !contains(b.ABI, st.TorchABI) {
			return false
		}
		if cudaMajor > 0 && len(b.CUDA) > 0 {
			ok := false
			for _, c := range b.CUDA {
				ok = ok || majorOf(c) == cudaMajor
			}
			return ok
		}
		return true
	}
	best, same := "", false
	if k != nil {
		for _, b := range k.ExtensionBuilds {
			if !fits(b) {
				continue
			}
			if b.Version == p.Version {
				same = true
			}
			if best == "" {
				best = b.Version
			} else if c, ok := kb.CompareDotted(best, b.Version); ok && c < 0 {
				best = b.Version
			}
		}
	}
	want := "torch " + seriesOf(fw.release()) + abiSuffix(st.TorchABI)
	if cudaMajor > 0 {
		want += fmt.Sprintf(" and CUDA %d", cudaMajor)
	}
	switch {
	case same:
		return fmt.Sprintf("take %s %s's build for %s (its wheel tag or index names them), or pin the torch this build was made for", p.Name, p.Version, want)
	case best != "":
		return fmt.Sprintf("%s %s has no build for %s; %s %s has one. Or pin the torch this build was made for", p.Name, p.Version, want, p.Name, best)
	}
	return fmt.Sprintf("use a %s build made for %s (see its release assets or index), or pin the torch this build was made for", p.Name, want)
}

func abiSuffix(abi string) string {
	if abi == "" {
		return ""
	}
	return " with the " + abiWords(abi) + " ABI"
}

// optionalOpsRelease is the knowledge base's word that the installed
// release of pkg treats its compiled ops as optional (kb.ExtensionBuild's
// OptionalOps), "" where it does not or the release is not known.
func optionalOpsRelease(k *kb.KB, st *Stack, pkg string) string {
	if k == nil {
		return ""
	}
	for i := range st.GPUPackages {
		p := &st.GPUPackages[i]
		if kb.NormalizeName(p.Name) != kb.NormalizeName(pkg) || p.Version == "" {
			continue
		}
		if b, ok := k.OptionalOpsBuild(p.Name, p.Version); ok {
			return b.OptionalOps
		}
	}
	return ""
}

// OptionalOpsUnloadable says which library of an installed package
// imports torch symbols the environment's torch does not export, and the
// first of them, so that its compiled ops do not load; "" where none does
// or the binaries were not read. For a release whose ops are optional the
// GPU check says so in place of EG211.
func OptionalOpsUnloadable(st *Stack, pkg string) string {
	for _, m := range missingTorchSymbols(st) {
		if kb.NormalizeName(m.pkg) == kb.NormalizeName(pkg) {
			return fmt.Sprintf("%s needs %d %s %s does not export: %s", m.lib.Rel, len(m.missing), plural(len(m.missing), "symbol"), torchText(st), demangled(m.missing, 3))
		}
	}
	return ""
}
