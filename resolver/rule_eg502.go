package resolver

import (
	"fmt"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG502 reports a framework version not pinned to one release: an open
// spec, a series (`=2.0`, `2.0.*`) or none at all.
var ruleEG502 = &Rule{
	Rule: finding.Rule{
		Code:     "EG502",
		Name:     "framework-not-pinned",
		Severity: finding.SeverityWarning,
		Title:    "the framework version is not pinned to a release",
		Why: "An open framework version gives a different environment each time it is built, and there is no " +
			"canonical name for it: the run that worked last month cannot be rebuilt.",
		Fix:    "Pin one release (pytorch=2.0.1, torch==2.0.1+cu118).",
		Before: "dependencies:\n  - pytorch>=2.0\n",
		After:  "dependencies:\n  - pytorch=2.0.1\n",
		Since:  "0.1.0",
	},
	run: runEG502,
}

func runEG502(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Framework.Version != "" || st.Framework.Installed != "" {
		// An installed pre-release is one build, read as its series
		// only for the knowledge base: nothing is left open.
		return nil
	}
	f := st.Framework
	// the releases the spec admits that the distribution published (the
	// pytorch channel has none after 2.5): the range and the example
	// name only what the file can install
	cands := f.Candidates
	if f.Name == "pytorch" && c.KB != nil {
		var pub []string
		for _, v := range f.Candidates {
			if torchPublishedIn(c, f.Dist, v) {
				pub = append(pub, v)
			}
		}
		if len(pub) > 0 {
			cands = pub
		}
	}
	admits := ""
	if len(cands) > 0 {
		admits = " (admits " + rangeOf(cands) + ")"
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
	if n := len(cands); n > 0 {
		// the newest admitted release the file's Python can install
		ex := cands[n-1]
		for i := n - 1; i >= 0; i-- {
			if runsPython(c, f, cands[i]) {
				ex = cands[i]
				break
			}
		}
		hint = fmt.Sprintf("pin the exact release you run on line %d, e.g. %s", f.Pos.Line, pin(ex))
	}
	tail := "the environment is not reproducible and has no canonical name"
	if name, err := st.Canonical(); err == nil && name != "" {
		tail = "the environment is not reproducible (its canonical name " + name + " holds only major and minor, so it is still known)"
	}
	msg := fmt.Sprintf("%s%s is not pinned to a release%s: %s", f.Item, at(f.Pos), admits, tail)
	return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg, hint)}
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
	// The answer depends on the knowledge base, the framework, its
	// distribution and the file's Python alone: worked out once for each,
	// instead of comparing every release of the tables for every file.
	py := ""
	if c.Stack != nil {
		py = c.Stack.Python
	}
	key := newestKey{c.KB, f.Name, f.Dist, py}
	if v, ok := newestCache.Load(key); ok {
		return v.(string)
	}
	v := newestPublishedScan(c, f)
	newestCache.Store(key, v)
	return v
}

// newestKey is what newestPublished's answer depends on.
type newestKey struct {
	kb        *kb.KB
	framework string
	dist      kb.Distribution
	python    string
}

var newestCache sync.Map // newestKey → string

func newestPublishedScan(c *Context, f *Framework) string {
	switch f.Name {
	case "pytorch":
		// the newest release the distribution published that the file's
		// Python can install: an example the solver cannot satisfy (pytorch
		// 2.11.0 beside python=3.8) is no fix
		best := ""
		for _, r := range c.KB.Facts.Torch {
			if !torchPublishedIn(c, f.Dist, r.Version) || !runsPython(c, f, r.Version) {
				continue
			}
			if best == "" || compareVersions(r.Version, best) > 0 {
				best = r.Version
			}
		}
		if best == "" && f.Dist != kb.DistPytorchConda {
			return c.KB.LatestTorch()
		}
		return best
	case "tensorflow":
		best := ""
		for _, t := range c.KB.Facts.TensorFlow {
			if !runsPython(c, f, t.Version) {
				continue
			}
			if best == "" || compareVersions(t.Version, best) > 0 {
				best = t.Version
			}
		}
		return best
	}
	return ""
}

// torchPublishedIn reports whether a distribution published a torch
// release, as far as the knowledge base knows: the pytorch channel not after
// 2.5, conda-forge only the releases its series row lists. A distribution
// whose series the knowledge base has no row for (pip, defaults) is not
// narrowed, except the pytorch channel, whose rows are complete.
func torchPublishedIn(c *Context, dist kb.Distribution, version string) bool {
	v, ok := c.KB.Variants(seriesOf(version), dist)
	if !ok {
		return dist != kb.DistPytorchConda && dist != kb.DistCondaForge
	}
	if v.NotPublished {
		return false
	}
	if len(v.Releases) == 0 {
		return true
	}
	for _, r := range v.Releases {
		if r == version {
			return true
		}
	}
	return false
}

// runsPython reports whether a torch or TensorFlow release supports the
// file's Python (torch's supported or experimental list, TensorFlow's
// tested list); true when either is not known. An example the file's
// Python cannot install is no fix (issue 26: corpus 062 was told to pin
// TensorFlow 2.21 beside Python 3.5).
func runsPython(c *Context, f *Framework, version string) bool {
	if c.Stack == nil || c.Stack.Python == "" || c.KB == nil {
		return true
	}
	if f.Name == "tensorflow" {
		t, ok := c.KB.TensorFlow(version)
		return !ok || len(t.Python) == 0 || pyIn(t.Python, c.Stack.Python)
	}
	if f.Name != "pytorch" {
		return true
	}
	r, ok := c.KB.Release(version)
	if !ok || len(r.Python) == 0 {
		return true
	}
	return pyIn(r.Python, c.Stack.Python) || pyIn(r.PythonExperimental, c.Stack.Python)
}
