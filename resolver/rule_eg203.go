package resolver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG203 reports a torchvision/torchaudio version that does not belong
// to the torch version. For an open torch spec it fires only when no
// release the spec admits pairs with the companion.
var ruleEG203 = &Rule{
	Rule: finding.Rule{
		Code:     "EG203",
		Name:     "companion-version-mismatch",
		Severity: finding.SeverityError,
		Fixable:  finding.FixSafe,
		Title:    "torchvision / torchaudio version does not belong to the torch version",
		Why: "torchvision and torchaudio are compiled against one torch release. Another pairing fails to " +
			"solve, or pip replaces torch with the release the companion wants (often a CPU build from PyPI), " +
			"or the companion's C++ operators fail to load at import.",
		Fix:    "Pin the companion release that PyTorch pairs with the torch version.",
		Before: "dependencies:\n  - pytorch=2.0.1\n  - torchvision=0.16.0\n",
		After:  "dependencies:\n  - pytorch=2.0.1\n  - torchvision=0.15.2\n",
		Since:  "0.1.0",
	},
	run: runEG203,
}

func companionOf(r *kb.TorchRelease, name string) string {
	switch name {
	case "torchvision":
		return r.Torchvision
	case "torchaudio":
		return r.Torchaudio
	}
	return ""
}

func runEG203(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || c.KB == nil {
		return nil
	}
	if st.Framework.Name == "tensorflow" {
		return eg203Keras(c) // keras ↔ tensorflow (tf_jax.go)
	}
	if st.Framework.Name != "pytorch" {
		return nil
	}
	tri := eg203Triton(c)
	out := eg203Companions(c)
	return append(out, tri...)
}

// eg203Triton holds a pinned pip triton against the exact triton the torch
// wheel requires (Requires-Dist `triton==X; platform_system == "Linux" …`,
// the knowledge base's torch_triton). Only pip torch carries that pin (the
// conda packages depend on torchtriton or conda-forge's triton), and only on
// Linux.
func eg203Triton(c *Context) []finding.Diagnostic {
	f := c.Stack.Framework
	if f.From != envspec.ProviderPip || f.Version == "" || !linuxPlatform(c.Env) {
		return nil
	}
	t, ok := c.KB.TritonFor(f.Version)
	if !ok {
		return nil
	}
	var out []finding.Diagnostic
	for _, p := range c.Stack.GPULibs {
		if p.Name != "triton" || p.From != envspec.ProviderPip || p.Spec == "" {
			continue
		}
		if p.Version != "" && padRelease(stripLocal(p.Version)) == t.Triton {
			continue
		}
		if p.Version == "" && admitsPEP440(p.Spec, t.Triton) {
			continue
		}
		msg := fmt.Sprintf("%s%s is not the triton %s%s requires: its wheel pins triton==%s on Linux, so pip refuses the pair (or, installed one after the other, replaces one and leaves torch.compile with a triton it was not built for)",
			p.Item, at(p.Pos), fwLabel(f), at(f.Pos), t.Triton)
		hint := fmt.Sprintf("change line %d to triton==%s, or remove it (torch installs the triton it needs)", p.Pos.Line, t.Triton)
		d := newFinding(c.rule, p.VersionPos, p.VersionEnd, msg, hint, f.Pos)
		d.Edits = pinEdits(c, p, t.Triton)
		out = append(out, d)
	}
	return out
}

// admitsPEP440 reports whether pip specifiers joined with commas (>=3.0,<3.2)
// admit v; conda's reading of these operators agrees with pip's.
func admitsPEP440(spec, v string) bool { return admits(spec, v) }

func eg203Companions(c *Context) []finding.Diagnostic {
	st := c.Stack
	f := st.Framework
	var rels []*kb.TorchRelease
	if f.Version != "" {
		if r, ok := c.KB.Release(f.Version); ok {
			rels = append(rels, r)
		}
	} else {
		for _, v := range f.Candidates {
			if r, ok := c.KB.Release(v); ok {
				rels = append(rels, r)
			}
		}
	}
	if len(rels) == 0 {
		return nil // unknown torch: EG206 says the check was skipped
	}
	var out []finding.Diagnostic
	for _, p := range st.Companions {
		if p.Spec == "" {
			continue // unpinned: the solver picks the matching release
		}
		var wants []string
		ok := false
		for _, r := range rels {
			w := companionOf(r, p.Name)
			if w == "" {
				ok = true // no companion release known for it: nothing to hold against
				break
			}
			// a release note that names the companion's version records a
			// disagreement between sources (2.0.0's conda and pip pairings)
			if companionAdmits(p, w) || (p.Version != "" && strings.Contains(r.Note, p.Name+" "+p.Version)) {
				ok = true
				break
			}
			wants = append(wants, w)
		}
		if ok {
			continue
		}
		paired := wants[len(wants)-1]
		// A pip pin's local variant (+cu110) stays: the wheel named must
		// exist in it, and where the paired release never had one
		// (torchvision 0.8.0+cu110) the release issued in its place does.
		want, why := paired, ""
		if loc := localLabel(p); loc != "" {
			// The wheel named is of torch's own variant where the file
			// says which that is: torchvision 0.22.0 has no +cu121 wheel
			// to pair with PyPI's torch 2.7.0, the CUDA 12.6 build
			// (review nine #135).
			relabel := false
			if tl := torchLabel(st); tl != "" && tl != loc {
				loc, relabel = tl, true
			}
			if g, ok := c.KB.CompanionGap(p.Name, paired); ok && contains(g.Variants, loc) {
				want = g.Use
				why = fmt.Sprintf(" (%s %s has no +%s wheel; %s was issued in its place)", p.Name, paired, loc, g.Use)
			}
			if relabel {
				want += "+" + loc
				why += fmt.Sprintf(" (+%s: %s's own variant)", loc, fwLabel(f))
			}
		}
		var msg string
		if f.Version != "" {
			msg = fmt.Sprintf("%s%s does not belong to %s%s, which pairs with %s %s; use %s%s",
				p.Item, at(p.Pos), fwLabel(f), at(f.Pos), p.Name, paired, pinLike(p, want), why)
		} else {
			msg = fmt.Sprintf("%s%s belongs to none of the releases %s%s admits (they pair with %s %s); use %s%s",
				p.Item, at(p.Pos), f.Item, at(f.Pos), p.Name, strings.Join(dedupe(wants), ", "), pinLike(p, want), why)
		}
		hint := fmt.Sprintf("change line %d to %s (the %s release that pairs with %s)", p.Pos.Line, pinLike(p, want), p.Name, fwLabel(f))
		if p.Version != "" {
			if tv := torchFor(c.KB, p.Name, p.Version); tv != "" && f.Version != "" {
				hint += fmt.Sprintf(", or keep %s %s and change pytorch to %s (line %d)", p.Name, p.Version, tv, f.Pos.Line)
			}
		}
		d := newFinding(c.rule, p.VersionPos, p.VersionEnd, msg, hint, f.Pos)
		d.Edits = pinEdits(c, p, want)
		out = append(out, d)
	}
	return out
}

// companionAdmits reports whether a companion's spec admits release w.
func companionAdmits(p Package, w string) bool {
	if p.Version != "" {
		return p.Version == w || padRelease(p.Version) == padRelease(w)
	}
	return admits(p.Spec, w)
}

// pinLike writes a pin in the item's own syntax: torchvision=0.15.2, or
// torchvision==0.15.2 with the pip pin's local variant kept
// (torchvision==0.8.1+cu110), as the fix's edit writes it.
func pinLike(p Package, v string) string {
	if p.From == envspec.ProviderPip {
		if loc := localLabel(p); loc != "" && !strings.Contains(v, "+") {
			v += "+" + loc
		}
		return p.Name + "==" + v
	}
	return p.Name + "=" + v
}

// torchLabel is the variant label of a pip torch's wheel: its own local
// version (+cu118), else the build PyPI serves for the pin (cu126 for
// torch==2.7.0, from the CUDA the resolver read for it, or cpu); "" where
// the framework is no pip torch or its build is not known.
func torchLabel(st *Stack) string {
	f := st.Framework
	if f == nil || f.Name != "pytorch" || f.From != envspec.ProviderPip {
		return ""
	}
	if strings.Contains(f.Item, "+") {
		return localLabel(Package{From: envspec.ProviderPip, Item: f.Item})
	}
	switch {
	case f.Variant == "cpu":
		return "cpu"
	case f.Variant == "cuda" && st.CUDA != nil && st.CUDA.Version != "":
		if d, err := nameDigits(st.CUDA.Version); err == nil {
			return "cu" + d
		}
	}
	return ""
}

// localLabel is a pip pin's local version label where it names a build
// variant ("cu110" of ==0.8.2+cu110; cpu, rocm5.2), "" otherwise: a
// source build's label (+a853dff) names no published wheel of another
// release.
func localLabel(p Package) string {
	if p.From != envspec.ProviderPip {
		return ""
	}
	for _, v := range []string{p.Version, p.Spec, p.Item} {
		if _, loc, ok := strings.Cut(v, "+"); ok {
			if i := strings.IndexFunc(loc, func(r rune) bool {
				return !(r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
			}); i >= 0 {
				loc = loc[:i]
			}
			if !variantLabel(loc) {
				return ""
			}
			return loc
		}
	}
	return ""
}

func dedupe(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// torchFor is the torch release a companion release pairs with, "" when
// the knowledge base has none (or the local label makes it ambiguous).
func torchFor(k *kb.KB, name, version string) string {
	if k == nil {
		return ""
	}
	v, _, _ := strings.Cut(version, "+")
	for i := range k.Facts.Torch {
		if companionOf(&k.Facts.Torch[i], name) == v {
			return k.Facts.Torch[i].Version
		}
	}
	return ""
}

// variantLabel reports whether a local version label names a build
// variant the wheel indexes publish (cu118, cpu, rocm6.1).
func variantLabel(loc string) bool {
	return variantLabelRe.MatchString(loc)
}

var variantLabelRe = regexp.MustCompile(`^(?:cu[0-9]+|cpu|rocm[0-9]+(?:\.[0-9]+)*)$`)
