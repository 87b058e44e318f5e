package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
)

// RuleEG204 reports a Python minor the framework version does not support
// (for an open framework spec: that none of the releases it admits does).
// A minor the release's sources call experimental (python_experimental:
// cp312 wheels of torch 2.2.x exist) is published, so it is not reported.
var RuleEG204 = &Rule{
	Rule: envspec.Rule{
		Code:     "EG204",
		Name:     "python-unsupported",
		Severity: envspec.SeverityError,
		Title:    "the Python version is not supported by the framework version",
		Why: "Framework releases publish binaries for a fixed range of Python minors. Outside it the solve " +
			"fails, or pip falls back to building from source or to an older, different release.",
		Fix:    "Pin a Python minor the framework release supports, or a framework release that supports your Python.",
		Before: "dependencies:\n  - python=3.12\n  - pytorch::pytorch=2.0.1\n",
		After:  "dependencies:\n  - python=3.11\n  - pytorch::pytorch=2.0.1\n",
		Since:  "0.1.0",
	},
}

func init() { RuleEG204.Run = runEG204 }

func runEG204(c *Context) []envspec.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Python == "" || c.KB == nil {
		return nil
	}
	f := st.Framework
	versions := f.Candidates
	if f.Version != "" {
		versions = []string{f.Version}
	}
	// lists[i] is a release's supported minors, exp[i] those its sources
	// call experimental; wheels exist for both.
	var lists, exp [][]string
	for _, v := range versions {
		switch f.Name {
		case "pytorch":
			if r, ok := c.KB.Release(v); ok && len(r.Python) > 0 {
				lists = append(lists, r.Python)
				exp = append(exp, r.PythonExperimental)
			}
		case "tensorflow":
			if t, ok := c.KB.TensorFlow(v); ok && len(t.Python) > 0 {
				lists = append(lists, t.Python)
				exp = append(exp, nil)
			}
		}
	}
	if len(lists) == 0 {
		return nil
	}
	for i, l := range lists {
		if pyIn(l, st.Python) || pyIn(pyMinors(exp[i]), st.Python) {
			return nil
		}
	}
	sup := lists[len(lists)-1]
	supText := pyRange(sup)
	if e := pyMinors(exp[len(exp)-1]); len(e) > 0 {
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
	return []envspec.Diagnostic{finding(RuleEG204, st.PythonPos, 0, msg, hint, f.Pos)}
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
