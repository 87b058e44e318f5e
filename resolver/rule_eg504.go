package resolver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/allocconf"
)

var ruleEG504 = &Rule{
	Rule: finding.Rule{
		Code:     "EG504",
		Name:     "alloc-option-newer-than-torch",
		Severity: finding.SeverityWarning,
		Title:    "an allocator option the torch version does not have yet",
		Why: "A torch release that predates an allocator option stops at the first CUDA allocation with " +
			"`RuntimeError: Unrecognized CachingAllocator option` (e.g. `expandable_segments` on torch 2.0). " +
			"Only options whose first release is established from a public source are checked; for the " +
			"others the rule stays silent rather than guess. In `envguard check`, such an option in the process's " +
			"PYTORCH_CUDA_ALLOC_CONF with an installed CUDA torch is an error: the job cannot start with it.",
		Fix:    "Upgrade torch to a release that has the option, or remove the option from the settings.",
		Before: "dependencies:\n  - pytorch=2.0.1\nvariables:\n  PYTORCH_CUDA_ALLOC_CONF: expandable_segments:True",
		After:  "dependencies:\n  - pytorch=2.1.2\nvariables:\n  PYTORCH_CUDA_ALLOC_CONF: expandable_segments:True",
		Since:  "0.1.0",
	},
	run: runEG504,
}

// torchReleases returns the torch releases the environment may get: the
// exact one, the candidates of an open spec, or the installed one.
func torchReleases(ctx *Context) []string {
	if ctx.Stack != nil && ctx.Stack.Framework != nil && ctx.Stack.Framework.Name == "pytorch" {
		f := ctx.Stack.Framework
		if f.Version != "" {
			return []string{f.Version}
		}
		return f.Candidates
	}
	if ctx.Env != nil && ctx.Env.Torch != nil && ctx.Env.Torch.Version != "" {
		v, _, _ := strings.Cut(ctx.Env.Torch.Version, "+")
		return []string{v}
	}
	return nil
}

// minorOf reads major and minor of "2.0.1"; ok is false when it cannot.
func minorOf(v string) (int, int, bool) {
	parts := strings.SplitN(seriesOf(v), ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	a, err1 := strconv.Atoi(parts[0])
	b, err2 := strconv.Atoi(parts[1])
	return a, b, err1 == nil && err2 == nil
}

// olderThan reports whether release v is older than series since ("2.1").
func olderThan(v, since string) (bool, bool) {
	a, b, ok1 := minorOf(v)
	c, d, ok2 := minorOf(since)
	if !ok1 || !ok2 {
		return false, false
	}
	return a < c || (a == c && b < d), true
}

func runEG504(ctx *Context) []finding.Diagnostic {
	if ctx == nil {
		return nil
	}
	releases := torchReleases(ctx)
	if len(releases) == 0 {
		return nil
	}
	var out []finding.Diagnostic
	live := liveCUDATorch(ctx)
	for _, s := range allocSettings(ctx) {
		conf, _ := allocconf.Parse(s.Value)
		for _, o := range conf.Options {
			if o.Info == nil || o.Info.Since == "" {
				continue
			}
			// Report only when every release the file admits predates the
			// option: an open spec that also admits newer ones may be fine.
			all, newest := true, ""
			for _, r := range releases {
				old, ok := olderThan(r, o.Info.Since)
				if !ok || !old {
					all = false
					break
				}
				newest = r
			}
			if !all {
				continue
			}
			what := "torch " + newest
			if len(releases) > 1 {
				what = fmt.Sprintf("torch %s at newest", newest)
			}
			msg := fmt.Sprintf("%s: %s needs torch %s or newer, but the environment gets %s", s.Var, o.Key, o.Info.Since, what)
			hint := fmt.Sprintf("upgrade torch to %s or newer, or remove %s (torch %s stops with \"Unrecognized CachingAllocator option\")", o.Info.Since, o.Key, newest)
			d := diag(ctx.rule, s.at(o.KeyOff), msg, hint)
			if live && s.stops(ctx) {
				// the job's own torch refuses it, as EG503's refused class
				d.Severity = finding.SeverityError
				d.Message += "; the installed torch refuses it, so the job stops"
			}
			if ctx.Stack != nil && ctx.Stack.Framework != nil && ctx.Stack.Framework.Pos.IsValid() {
				d.Related = []finding.Pos{ctx.Stack.Framework.Pos}
			}
			out = append(out, d)
		}
	}
	return out
}
