package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// indexNamed reports whether the file's pip lines are resolved against
// package indexes by name and version: an environment.yml's pip section or
// a requirements file (a lock file names each package's source).
func indexNamed(env *envspec.Env) bool {
	return env != nil && (env.Kind == envspec.KindEnvFile || env.Kind == envspec.KindRequirements)
}

// eg205IndexOther reports an == pin of a GPU extension whose name on the
// package index belongs to another project (index_name_other_project):
// apex==0.1, which `conda env export` writes for NVIDIA's apex built from
// its git repository, while the index's apex is an unrelated toolkit with
// no release 0.1, so pip stops with "No matching distribution found". Only
// where the pip section names no index or find-links page but PyTorch's
// wheel index (any other page may serve the package).
func eg205IndexOther(c *Context) []finding.Diagnostic {
	if c.KB == nil || len(c.KB.IndexOtherProjects) == 0 || !indexNamed(c.Env) || !packageIndexOnly(c.Env, c.KB) {
		return nil
	}
	reqs, _ := c.pipList()
	var out []finding.Diagnostic
	for _, r := range reqs {
		if r.URL != "" || r.Local != "" || r.Dep == nil {
			continue
		}
		o, ok := c.KB.IndexOtherProjectOf(r.Name)
		if !ok {
			continue
		}
		it := readPipItem(r.Dep)
		if it == nil || it.exact == "" || o.HasRelease(it.exact) {
			continue
		}
		msg := fmt.Sprintf("%s (%s) cannot be installed: the package index's %s is %s, whose releases are %s; pip finds no %s %s (\"No matching distribution found for %s\")",
			pipText(r), place(r.Dep.Raw.Pos), r.Name, o.What, strings.Join(o.Releases, ", "), r.Name, it.exact, pipText(r))
		if o.NoProject {
			msg = fmt.Sprintf("%s (%s) cannot be installed: the package index has no %s project (%s); pip finds no %s %s (\"No matching distribution found for %s\")",
				pipText(r), place(r.Dep.Raw.Pos), r.Name, o.What, r.Name, it.exact, pipText(r))
		}
		hint := fmt.Sprintf("remove %s from the pip section: the release it names is not on the package index (a build from the project's git repository names itself so)", pipText(r))
		if o.NoProject {
			hint = fmt.Sprintf("name the project's own wheel page for %s with -f (its install guide lists one per CUDA and torch release), or install it from its git repository once the environment exists", r.Name)
		}
		if r.Name == "apex" {
			hint += "; once the environment exists, build NVIDIA's apex from its repository (git clone https://github.com/NVIDIA/apex, then pip install -v --no-build-isolation ./apex) with an nvcc whose release equals torch's CUDA"
			if st := c.Stack; st != nil && st.CUDA != nil && st.CUDA.Version != "" {
				hint += " (" + st.CUDA.Version + ")"
			}
		}
		out = append(out, diag(c.rule, r.Dep.Raw.Pos, msg, hint))
	}
	return out
}
