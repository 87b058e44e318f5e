package resolver

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

var ruleEG304 = &Rule{
	Rule: finding.Rule{
		Code:     "EG304",
		Name:     "pip-torch-variant-unpinned",
		Severity: finding.SeverityWarning,
		Title:    "pip torch with no CUDA variant pinned",
		Why: "Without a local version (`+cu121`) or a PyTorch wheel index (`--index-url .../whl/cu121`), " +
			"pip takes torch from the default index, whose build (CUDA version, or CPU on some platforms) " +
			"changes between releases and platforms: the same file gives different CUDA runtimes on " +
			"different days and machines. `--extra-index-url` does not pin it either: PyPI stays in play. pip takes the highest " +
			"version across every index, a local version (2.5.1+cu121) above the plain release, so it takes PyPI's build wherever " +
			"PyPI has a newer release in range or the extra index lacks the pinned one; uv's default index strategy (first-index) " +
			"takes torch only from the first index that has it, and extra indexes come before PyPI, so uv takes the index's " +
			"newest build in range or fails. The finding says which build each takes. The target checks judge the build pip takes " +
			"(an environment.yml's pip section and a requirements file are taken as installed by pip, which a requirements file does not say; " +
			"a pixi manifest's pypi-dependencies as installed by pixi's uv).",
		Fix: "Name the variant: add `--extra-index-url` (or `--index-url`) pointing at the PyTorch wheel " +
			"index for the CUDA version you want (`.../whl/cu121`, or `.../whl/cpu`), and pin `torch==X+cuXXX`. " +
			"Installed environments (`envguard check`) are not judged by this rule: their torch/version.py says which build they got.",
		Before: "  - pip:\n    - torch==2.1.0",
		After:  "  - pip:\n    - --extra-index-url https://<pytorch wheel index>/whl/cu121\n    - torch==2.1.0+cu121",
		Since:  "0.1.0",
	},
	run: runEG304,
}

func runEG304(ctx *Context) []finding.Diagnostic {
	// An installed torch is whatever build it is, and torch/version.py says
	// which: the rule is about files that leave the choice to the index.
	if ctx == nil || ctx.Env == nil || ctx.Env.IsInstalled() {
		return nil
	}
	// A lock file names the exact wheel file it installs: nothing is left
	// to what the index serves on the day.
	switch ctx.Env.Kind {
	case envspec.KindCondaLock, envspec.KindPixiLock, envspec.KindUVLock, envspec.KindPylock:
		return nil
	}
	// where no platform of the file has CUDA builds (macOS, win-arm64)
	// there is no variant to pin
	if !anyCUDAPlatform(ctx.Env) {
		return nil
	}
	reqs, opts := ctx.pipList()
	extra := ""
	if tag, o := wheelIndexTag(ctx.KB, opts); tag != "" {
		if o.Name != "--extra-index-url" {
			return nil
		}
		// An extra index leaves PyPI in play (see extraIndexNote).
		extra = o.Value
	}
	// A pip torch that conda provides as well is EG301's finding already.
	dup := map[*envspec.PipDep]bool{}
	for _, p := range ctx.libPairs() {
		dup[p.Pip.Dep] = true
	}
	var out []finding.Diagnostic
	for _, p := range reqs {
		if p.Name != "torch" || p.Local != "" || dup[p.Dep] {
			continue
		}
		if p.URL != "" && wheelIndex().MatchString(p.URL) {
			continue
		}
		var msg string
		if extra != "" {
			var ok bool
			if msg, ok = extraIndexNote(ctx, p, extra); !ok {
				continue
			}
		} else {
			msg = fmt.Sprintf("pip %s (%s) pins no CUDA variant (no +cuXXX, no PyTorch wheel index): the build is whatever the index serves", pipText(p), place(p.Dep.Raw.Pos))
			if m := pipExactPin().FindStringSubmatch(pipText(p)); m != nil && ctx.KB != nil {
				msg += pypiDefaultNote(ctx.KB, ctx.Env, m[1])
			}
		}
		hint := eg304Hint(ctx, pipText(p))
		if extra != "" {
			h := "pin the local version the index serves (torch==X.Y.Z+cuXYZ), or use --index-url instead of --extra-index-url so that PyPI drops out"
			if pipExactPin().MatchString(pipText(p)) {
				h += "; " + hint
			}
			hint = h
		}
		out = append(out, diag(ctx.rule, p.Dep.Raw.Pos, msg, hint))
	}
	return out
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var pipExactPin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`==\s*([0-9]+(?:\.[0-9]+)+)`) })

// eg304Hint names the wheel indexes the pinned torch release really has
// (the knowledge base's wheel variants for its series), so the fix is one
// the index can serve; without a pinned release it stays generic.
func eg304Hint(ctx *Context, text string) string {
	generic := "add --extra-index-url …/whl/cuXYZ (the PyTorch wheel index of your CUDA version, or …/whl/cpu) and pin torch==X.Y.Z+cuXYZ"
	m := pipExactPin().FindStringSubmatch(text)
	if m == nil || ctx == nil || ctx.KB == nil {
		return generic
	}
	v, ok := ctx.KB.Variants(seriesOf(m[1]), kb.DistWheel)
	if !ok || len(v.CUDA) == 0 {
		return generic
	}
	var idx []string
	for _, cu := range v.CUDA {
		idx = append(idx, "…/whl/cu"+strings.ReplaceAll(majorMinor(cu), ".", ""))
	}
	if v.CPU {
		idx = append(idx, "…/whl/cpu")
	}
	if cu, pins := pinnedVariant(ctx, m[1], v.CUDA); cu != "" {
		// review thirty-four F8 (018, a pip freeze): the file's own
		// nvidia-* pins are one build's, and another's would not resolve
		// beside them
		tag := strings.ReplaceAll(majorMinor(cu), ".", "")
		return fmt.Sprintf("the file's nvidia-* pins (%s) are those torch %s+cu%s pins: add …/whl/cu%s with --extra-index-url and pin torch==%s+cu%s (another build pins other nvidia-* releases and would not resolve beside them)",
			strings.Join(pins, ", "), m[1], tag, tag, m[1], tag)
	}
	last := strings.ReplaceAll(majorMinor(v.CUDA[len(v.CUDA)-1]), ".", "")
	if _, d := pypiBuild(ctx.KB, ctx.Env, m[1]); d != nil && d.Default != "" && slices.Contains(v.CUDA, majorMinor(d.Default)) {
		// the example is the build the file gets today, which the rest
		// of the file was written beside (review forty-nine F21, corpus
		// 092: CUDA 12.4 wheels, vllm and xformers for cu124)
		tag := strings.ReplaceAll(majorMinor(d.Default), ".", "")
		return fmt.Sprintf("torch %s has the wheel indexes %s: add the one for your CUDA with --extra-index-url and pin its build, e.g. torch==%s+cu%s, the CUDA %s build PyPI serves today (or the cpu build, where nothing else in the file needs CUDA)",
			m[1], strings.Join(idx, ", "), m[1], tag, majorMinor(d.Default))
	}
	return fmt.Sprintf("torch %s has the wheel indexes %s: add the one for your CUDA with --extra-index-url and pin torch==%s+cu%s (or the cpu build)",
		m[1], strings.Join(idx, ", "), m[1], last)
}

// pinnedVariant is the one CUDA variant of torch release, among cudas,
// whose nvidia-* pins (torch_cuda_libs) the file's exact nvidia-* pins
// all agree with, and the file's pins it shares with that build (at most
// three, then "…"); "" where the file pins none of them, or none or
// several variants fit.
func pinnedVariant(ctx *Context, release string, cudas []string) (string, []string) {
	reqs, _ := ctx.pipList()
	pins := map[string]string{}
	for _, p := range reqs {
		if !strings.HasPrefix(p.Name, "nvidia-") {
			continue
		}
		if m := pipExactPin().FindStringSubmatch(pipText(p)); m != nil {
			pins[p.Name] = m[1]
		}
	}
	if len(pins) == 0 {
		return "", nil
	}
	fit, fits := "", 0
	var shared []string
	for _, cu := range cudas {
		row, ok := ctx.KB.TorchCUDALibsOf(release, cu)
		if !ok {
			continue
		}
		var same []string
		agrees := true
		for _, l := range row.Libs {
			v, pinned := pins[l.Name]
			switch {
			case !pinned:
			case v == l.Version:
				same = append(same, l.Name+"=="+v)
			default:
				agrees = false
			}
		}
		if agrees && len(same) > 0 {
			fit, fits, shared = cu, fits+1, same
		}
	}
	if fits != 1 {
		return "", nil
	}
	if len(shared) > 3 {
		shared = append(shared[:3], "…")
	}
	return fit, shared
}

// extraIndexNote says which torch build pip and uv each take for a torch
// requirement without a local version beside --extra-index-url to a
// PyTorch wheel index, and whether they differ from the index's build
// (false: both take the index's, and the variant is pinned after all).
//
//   - pip gathers every index's files and takes the highest version, a
//     local version (2.5.1+cu121) above the same release without one.
//   - uv's default index strategy, first-index, takes a package only from
//     the first index that has it, and --extra-index-url indexes come
//     before the default one (uv's IndexStrategy::FirstIndex and
//     --index-url documentation).
func extraIndexNote(ctx *Context, p pipItem, index string) (string, bool) {
	cuda := DecodeIndexURL(index).CUDA
	if cuda == "" || ctx.KB == nil {
		return "", false
	}
	on := func(release string) bool {
		v, ok := ctx.KB.Variants(seriesOf(release), kb.DistWheel)
		return ok && contains(v.CUDA, cuda)
	}
	tag := "+cu" + strings.ReplaceAll(cuda, ".", "")
	head := fmt.Sprintf("pip %s (%s) with --extra-index-url %s: an extra index leaves PyPI in play, so the variant is not pinned", pipText(p), place(p.Dep.Raw.Pos), index)
	pick := ctx.Stack.Framework.pipPickOf()
	if m := pipExactPin().FindStringSubmatch(pipText(p)); m != nil {
		if pick != nil && pick.Release == m[1] {
			// the one computation the checks read (pippick.go)
			if pick.FromIndex {
				return "", false
			}
		} else if on(m[1]) {
			return "", false // both take torch==X+cuXYZ from the index
		}
		why := fmt.Sprintf("that index has no torch %s build", m[1])
		if on(m[1]) && strings.Contains(pipText(p), "===") {
			// === compares the version text (PEP 440 arbitrary
			// equality): the index's X+cuXYZ is not the text X
			why = fmt.Sprintf("=== is arbitrary equality, and the index's torch %s%s is not the text %s", m[1], tag, m[1])
		}
		return head + fmt.Sprintf("; %s, so pip takes PyPI's%s, and uv (first-index: it takes torch only from the first index that has it, the extra one) finds no torch %s and fails",
			why, paren(pypiDefaultNote(ctx.KB, ctx.Env, m[1])), m[1]), true
	}
	fw := ctx.Stack.Framework
	if ctx.Env.Kind == envspec.KindPixiManifest {
		// pixi installs PyPI packages with uv, whose default index strategy
		// (first-index, pixi's default too) takes torch from the first
		// index that has it: the extra one, which comes before PyPI.
		head = fmt.Sprintf("pypi-dependency %s (%s) with extra-index-urls %s: pixi's uv (first-index) takes torch only from the index", pipText(p), place(p.Dep.Raw.Pos), index)
		if fw == nil || fw.Name != "pytorch" || len(fw.Candidates) == 0 {
			return "", false
		}
		for _, c := range fw.Candidates {
			if on(c) {
				return "", false
			}
		}
		return head + fmt.Sprintf(", which has no torch %s build in range, so the solve fails", tag), true
	}
	if fw == nil || fw.Name != "pytorch" || len(fw.Candidates) == 0 || pick == nil || pick.Release == "" {
		return head + "; pip takes the highest torch across PyPI and the index, uv the highest the index serves; which release that is is not known, so the checks do not take the index's build as this file's", true
	}
	// pip's pick is the PipPick the checks judge (pippick.go): the highest
	// release the spec admits (for the file's Python), from the index where
	// it has that release's cuXYZ build.
	newest := pick.Release
	onIndex := ""
	for i := len(fw.Candidates) - 1; i >= 0; i-- {
		if on(fw.Candidates[i]) {
			onIndex = fw.Candidates[i]
			break
		}
	}
	if pick.FromIndex {
		return "", false
	}
	pipTakes := pick.Build() + paren(pypiDefaultNote(ctx.KB, ctx.Env, newest))
	if pick.PyPI == "" {
		pipTakes += ", so the checks judge PyPI's builds of it, not the index's"
	}
	uvTakes := "finds no torch in range and fails"
	if onIndex != "" {
		uvTakes = "takes torch " + onIndex + tag
	}
	return head + fmt.Sprintf(": pip takes the highest release across both indexes, %s; uv (first-index) %s", pipTakes, uvTakes), true
}

// paren turns a "; note" into " (note)".
func paren(note string) string {
	note = strings.TrimPrefix(note, "; ")
	if note == "" {
		return ""
	}
	return " (" + note + ")"
}
