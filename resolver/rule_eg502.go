package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// RuleEG502 reports a framework version not pinned to one release: an open
// spec, a series (`=2.0`, `2.0.*`) or none at all.
var RuleEG502 = &Rule{
	Rule: envspec.Rule{
		Code:     "EG502",
		Name:     "framework-not-pinned",
		Severity: envspec.SeverityWarning,
		Title:    "the framework version is not pinned to a release",
		Why: "An open framework version gives a different environment each time it is built, and there is no " +
			"canonical name for it: the run that worked last month cannot be rebuilt.",
		Fix:    "Pin one release (pytorch=2.0.1, torch==2.0.1+cu118).",
		Before: "dependencies:\n  - pytorch>=2.0\n",
		After:  "dependencies:\n  - pytorch=2.0.1\n",
		Since:  "0.1.0",
	},
}

func init() { RuleEG502.Run = runEG502 }

func runEG502(c *Context) []envspec.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Framework.Version != "" {
		return nil
	}
	f := st.Framework
	admits := ""
	if len(f.Candidates) > 0 {
		admits = " (admits " + rangeOf(f.Candidates) + ")"
	}
	// the name as the file writes it, channel included (pytorch::pytorch)
	name := f.Name
	if i := strings.Index(f.Item, "::"); i >= 0 && f.From != envspec.ProviderPip {
		name = f.Item[:i+2] + f.Name
	}
	pin := func(v string) string {
		if f.From == envspec.ProviderPip {
			return pipName(f.Name) + "==" + v
		}
		return name + "=" + v
	}
	hint := fmt.Sprintf("pin the exact release you run on line %d, with all three parts (X.Y.Z): conda reads =X.Y as every X.Y.x release", f.Pos.Line)
	if f.From == envspec.ProviderPip {
		hint = fmt.Sprintf("pin the exact release you run on line %d (%s)", f.Pos.Line, pin("X.Y.Z"))
	}
	if f.Spec == "" && c.KB != nil {
		if last := newestPublished(c, f); last != "" {
			hint = fmt.Sprintf("pin the exact release you run on line %d, e.g. %s", f.Pos.Line, pin(last))
		}
	}
	if n := len(f.Candidates); n > 0 {
		hint = fmt.Sprintf("pin the exact release you run on line %d, e.g. %s", f.Pos.Line, pin(f.Candidates[n-1]))
	}
	tail := "the environment is not reproducible and has no canonical name"
	if name, err := CanonicalName(st); err == nil && name != "" {
		tail = "the environment is not reproducible (its canonical name " + name + " holds only major and minor, so it is still known)"
	}
	msg := fmt.Sprintf("%s%s is not pinned to a release%s: %s", f.Item, at(f.Pos), admits, tail)
	return []envspec.Diagnostic{finding(RuleEG502, f.VersionPos, f.VersionEnd, msg, hint)}
}

func pipName(fw string) string {
	if fw == "pytorch" {
		return "torch"
	}
	return fw
}

// newestPublished is the newest release an unversioned framework item can
// resolve to: for the pytorch channel the newest release of its last
// published series (nothing after 2.5 exists there), otherwise the newest
// release the knowledge base lists.
func newestPublished(c *Context, f *Framework) string {
	switch f.Name {
	case "pytorch":
		if f.Dist != kb.DistPytorchConda {
			return c.KB.LatestTorch()
		}
		best := ""
		for _, r := range c.KB.Facts.Torch {
			if v, ok := c.KB.Variants(seriesOf(r.Version), kb.DistPytorchConda); ok && !v.NotPublished {
				if best == "" || compareVersions(r.Version, best) > 0 {
					best = r.Version
				}
			}
		}
		return best
	case "tensorflow":
		best := ""
		for _, t := range c.KB.Facts.TensorFlow {
			if best == "" || compareVersions(t.Version, best) > 0 {
				best = t.Version
			}
		}
		return best
	}
	return ""
}
