package resolver

import (
	"fmt"
	"regexp"
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
			"different days and machines.",
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
	if ctx == nil || ctx.Env == nil || ctx.Env.Kind == envspec.KindPrefix {
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
	if tag, _ := wheelIndexTag(opts); tag != "" {
		return nil
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
		msg := fmt.Sprintf("pip %s (%s) pins no CUDA variant (no +cuXXX, no PyTorch wheel index): the build is whatever the index serves", pipText(p), place(p.Dep.Raw.Pos))
		if m := pipExactPin().FindStringSubmatch(pipText(p)); m != nil && ctx.KB != nil {
			msg += pypiDefaultNote(ctx.KB, ctx.Env, m[1])
		}
		hint := eg304Hint(ctx, pipText(p))
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
	last := strings.ReplaceAll(majorMinor(v.CUDA[len(v.CUDA)-1]), ".", "")
	return fmt.Sprintf("torch %s has the wheel indexes %s: add the one for your CUDA with --extra-index-url and pin torch==%s+cu%s (or the cpu build)",
		m[1], strings.Join(idx, ", "), m[1], last)
}
