package resolver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG204 reports a Python minor the framework version does not support
// (for an open framework spec: that none of the releases it admits does).
// A minor the release's sources call experimental (python_experimental:
// cp312 wheels of torch 2.2.x exist) is published, so it is not reported.
// For a pytorch build from a distribution whose Python builds the knowledge
// base lists (torch_python_builds: conda-forge's, and the pytorch channel's
// holes such as 2.0.0 without Python 3.11), that list is the one judged.
var ruleEG204 = &Rule{
	Rule: finding.Rule{
		Code:     "EG204",
		Name:     "python-unsupported",
		Severity: finding.SeverityError,
		Title:    "the Python version is not supported by the framework version",
		Why: "Framework releases publish binaries for a fixed range of Python minors. Outside it the solve " +
			"fails, or pip falls back to building from source or to an older, different release.",
		Fix:    "Pin a Python minor the framework release supports, or a framework release that supports your Python.",
		Before: "dependencies:\n  - python=3.12\n  - pytorch::pytorch=2.0.1\n",
		After:  "dependencies:\n  - python=3.11\n  - pytorch::pytorch=2.0.1\n",
		Since:  "0.1.0",
	},
	run: runEG204,
}

func runEG204(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Python == "" || c.KB == nil {
		return nil
	}
	f := st.Framework
	if f.System != "" || f.Installed != "" {
		// The system's package manager, or a source build, made it for
		// the Python it is installed in; the knowledge base's Python
		// lists are those of the published builds.
		return nil
	}
	versions := f.Candidates
	if f.Version != "" {
		versions = []string{f.Version}
	}
	// lists[i] is a release's supported minors, exp[i] those its sources
	// call experimental; wheels exist for both. Where the knowledge base
	// says which minors the framework's own distribution built the release
	// for (torch_python_builds), that list stands in for both, and byDist[i]
	// holds the row.
	var lists, exp [][]string
	var byDist []*kb.TorchPythonBuilds
	for _, v := range versions {
		switch f.Name {
		case "pytorch":
			r, ok := c.KB.Release(v)
			if !ok || len(r.Python) == 0 {
				continue
			}
			// A row for only some CUDA variants is EG205's (that variant
			// does not exist for the Python), not a Python the release lacks.
			if dp, ok := pythonBuildsFor(c, st, v); ok && !dp.partial {
				lists = append(lists, dp.row.Minors(r.Python, r.PythonExperimental))
				exp = append(exp, nil)
				byDist = append(byDist, dp.row)
				continue
			}
			lists = append(lists, r.Python)
			exp = append(exp, r.PythonExperimental)
			byDist = append(byDist, nil)
		case "tensorflow":
			// The tested-builds table is the package index's wheels; a
			// conda build is judged only where its distribution's own
			// Python list is known (defaults built 2.4.1 for Python 3.9,
			// which the wheels lack: review eighteen F1, 045).
			if f.From != envspec.ProviderPip {
				if b, ok := c.KB.TensorFlowDefaultsBuildOf(v); ok && f.Dist == kb.DistDefaults && len(b.Python) > 0 {
					lists = append(lists, b.Python)
					exp = append(exp, nil)
					byDist = append(byDist, nil)
				}
				continue
			}
			if t, ok := c.KB.TensorFlow(v); ok && len(t.Python) > 0 {
				lists = append(lists, t.Python)
				exp = append(exp, nil)
				byDist = append(byDist, nil)
			}
		}
	}
	if len(lists) == 0 {
		return nil
	}
	for i, l := range lists {
		if pyIn(l, st.Python) || pyIn(pyMinors(exp[i]), st.Python) {
			return platformEG204(c, st)
		}
	}
	last := len(lists) - 1
	sup := lists[last]
	supText := pyRange(sup)
	if e := pyMinors(exp[last]); len(e) > 0 {
		supText += " (" + strings.Join(e, ", ") + " experimental)"
	}
	item := st.PythonItem
	if item == "" {
		item = "python " + st.Python
	}
	top := pyMax(sup)
	msg := fmt.Sprintf("%s%s: Python %s is not supported by %s%s, which supports Python %s; use python=%s",
		item, at(st.PythonPos), st.Python, fwLabel(f), at(f.Pos), supText, top)
	hint := fmt.Sprintf("use python=%s, or a %s release that supports Python %s", top, f.Name, st.Python)
	if row := byDist[last]; row != nil {
		// The release supports the Python elsewhere, or the distribution
		// built it for a Python upstream does not list: say whose builds.
		where := distWhere(row.Dist)
		if len(row.CUDA) > 0 {
			where += " (CUDA " + strings.Join(row.CUDA, ", ") + " builds)"
		}
		msg = fmt.Sprintf("%s%s: %s%s was never built for Python %s on %s, whose builds of it are for Python %s; use python=%s",
			item, at(st.PythonPos), fwLabel(f), at(f.Pos), st.Python, where, supText, top)
		hint = fmt.Sprintf("use python=%s, or a %s release that %s built for Python %s", top, f.Name, distWhere(row.Dist), st.Python)
	}
	return []finding.Diagnostic{newFinding(c.rule, st.PythonPos, 0, msg, hint, f.Pos)}
}

// pyMinors keeps the plain CPython minors of an experimental list ("3.12"),
// leaving out free-threaded builds ("3.13t"), which a python=X.Y pin does
// not select.
func pyMinors(list []string) []string {
	var out []string
	for _, p := range list {
		if !strings.HasSuffix(p, "t") {
			out = append(out, p)
		}
	}
	return out
}

// platformEG204 reports a Python the release supports but whose builds one
// of the file's platforms lacks (torch_python_builds rows with platforms:
// torch 2.5.1 has cp313 wheels for Linux, none for Windows). Only an exact
// release is judged; the platforms are the file's `platforms:` list, else
// the one it was read for (--platform, or the host's).
func platformEG204(c *Context, st *Stack) []finding.Diagnostic {
	f := st.Framework
	if f.Name != "pytorch" || f.Version == "" || f.Dist == "" || c.Env == nil {
		return nil
	}
	r, ok := c.KB.Release(f.Version)
	if !ok {
		return nil
	}
	var plats []string
	for _, p := range c.Env.Platforms {
		plats = append(plats, p.Value)
	}
	if len(plats) == 0 {
		plats = []string{c.Env.Platform}
	}
	item := st.PythonItem
	if item == "" {
		item = "python " + st.Python
	}
	var out []finding.Diagnostic
	for _, p := range plats {
		row, ok := c.KB.PlatformPythonBuilds(f.Version, f.Dist, p)
		if !ok || row.Supports(st.Python, r.Python, r.PythonExperimental) {
			continue
		}
		have := row.Minors(r.Python, r.PythonExperimental)
		top := pyMax(have)
		instead := fmt.Sprintf("use python=%s", top)
		if later := laterWithPython(c, f.Version, f.Dist, p, st.Python); later != "" {
			instead += fmt.Sprintf(", or %s %s, the oldest later release the knowledge base lists with Python %s and no missing %s builds", f.Name, later, st.Python, p)
		}
		msg := fmt.Sprintf("%s%s: %s%s has no builds for Python %s on %s from %s, whose %s builds of it are for Python %s; %s",
			item, at(st.PythonPos), fwLabel(f), at(f.Pos), st.Python, p, distWhere(row.Dist), p, pyRange(have), instead)
		out = append(out, newFinding(c.rule, st.PythonPos, 0, msg, instead, f.Pos))
	}
	return out
}

// laterWithPython is the oldest release newer than v that lists Python
// py and that no platform row says lacks it on platform p; "" when the
// knowledge base has none.
func laterWithPython(c *Context, v string, d kb.Distribution, p, py string) string {
	best := ""
	for _, r := range c.KB.Torch {
		if n, ok := kb.CompareDotted(r.Version, v); !ok || n <= 0 || !slices.Contains(r.Python, py) {
			continue
		}
		if row, ok := c.KB.PlatformPythonBuilds(r.Version, d, p); ok && !row.Supports(py, r.Python, r.PythonExperimental) {
			continue
		}
		if n, ok := kb.CompareDotted(r.Version, best); best == "" || (ok && n < 0) {
			best = r.Version
		}
	}
	return best
}
