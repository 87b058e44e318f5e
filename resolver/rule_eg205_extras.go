package resolver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// eg205ExtraPins reports a pip requirement whose extra pins a dependency
// the package index never served (tensorflow[and-cuda]==2.15.0 pins
// tensorrt-libs==8.6.1): pip stops with "No matching distribution found".
// Only exact releases are judged; the knowledge base's
// extra_pins_unpublished rows say which, with their source.
func eg205ExtraPins(c *Context) []finding.Diagnostic {
	if c.KB == nil || len(c.KB.ExtraPins) == 0 {
		return nil
	}
	reqs, _ := c.pipList()
	var out []finding.Diagnostic
	for _, r := range reqs {
		if len(r.Extras) == 0 || r.Dep == nil {
			continue
		}
		it := readPipItem(r.Dep)
		if it == nil || it.exact == "" {
			continue
		}
		for _, ex := range r.Extras {
			for _, p := range c.KB.ExtraPinsOf(r.Name, it.exact, pep503(strings.TrimSpace(ex))) {
				msg := fmt.Sprintf("%s%s cannot be installed: the %s extra of %s %s pins %s, which the package index never served (pip: \"No matching distribution found for %s\")",
					r.Dep.Raw.Value, at(r.Dep.Raw.Pos), p.Extra, p.Package, p.Version, p.Pin, p.Pin)
				if len(p.Python) > 0 {
					// A pin the index serves for other Pythons: judged only
					// where the file's Python is known to be one it lacks.
					if py := filePython(c); py == "" || !slices.Contains(p.Python, py) {
						continue
					}
					msg = fmt.Sprintf("%s%s cannot be installed on Python %s: the %s extra of %s %s pins %s, which the package index has no Python %s wheel of (pip: \"No matching distribution found for %s\")",
						r.Dep.Raw.Value, at(r.Dep.Raw.Pos), filePython(c), p.Extra, p.Package, p.Version, p.Pin, filePython(c), p.Pin)
				}
				hint := fmt.Sprintf("drop the [%s] extra and install the CUDA libraries another way", p.Extra)
				if len(p.Python) > 0 {
					hint = fmt.Sprintf("use a Python %s has wheels for (not %s), or drop the [%s] extra and install the CUDA libraries another way", p.Pin, strings.Join(p.Python, ", "), p.Extra)
				}
				if p.Fixed != "" {
					hint = fmt.Sprintf("use %s[%s]==%s, whose %s extra drops that pin", p.Package, p.Extra, p.Fixed, p.Extra)
				}
				out = append(out, newFinding(c.rule, r.Dep.Raw.Pos, 0, msg, hint))
			}
		}
	}
	return out
}

// eg205JaxlibCuDNN reports a cudnn pin beside a conda-forge jaxlib release
// whose CUDA builds were all built against another cuDNN major: cudnn's
// run_exports make each require that major, so no CUDA build of the release
// can be installed with the pin (the solver fails, or where the jaxlib
// build is left open takes the CPU one). The majors come from the
// knowledge base's jaxlib_conda_forge rows; a release without one is
// unknown and left alone.
func eg205JaxlibCuDNN(c *Context) []finding.Diagnostic {
	st := c.Stack
	if c.KB == nil || st == nil || st.CuDNN == "" || c.Env == nil {
		return nil
	}
	for i, d := range c.Env.Deps {
		it := c.condaItem(i, d)
		if it == nil || it.name != "jaxlib" || it.exact == "" || distribution(it.channel) != kb.DistCondaForge {
			continue
		}
		a := DecodeBuild(it.build)
		if a.Variant == "cpu" {
			continue
		}
		majors, ok := c.KB.JAXLibCondaForgeCuDNN(it.exact)
		if !ok {
			continue
		}
		want := fmt.Sprint(majorOf(st.CuDNN))
		if contains(majors, want) {
			continue
		}
		outcome := "no CUDA build of it can be installed with that pin"
		if a.Variant != "cuda" {
			outcome = "the solver can only take its CPU build, or fails"
		}
		msg := fmt.Sprintf("%s%s asks for cuDNN %s, but conda-forge built every CUDA build of jaxlib %s against cuDNN %s (its run_exports require that major): %s",
			itemAtLine(c, st.CuDNNPos, "cudnn"), at(st.CuDNNPos), st.CuDNN, it.exact, strings.Join(majors, " or "), outcome)
		hint := fmt.Sprintf("use cudnn=%s (or leave cudnn unpinned) with jaxlib %s, or a jaxlib release conda-forge built against cuDNN %s", majors[len(majors)-1], it.exact, want)
		return []finding.Diagnostic{newFinding(c.rule, st.CuDNNPos, 0, msg, hint, it.pos())}
	}
	return nil
}

// filePython is the Python major.minor the file pins, "" when open.
func filePython(c *Context) string {
	if c.Stack == nil {
		return ""
	}
	return c.Stack.Python
}

// undeclaredJAXExtras returns the CUDA extras (cuda12, cuda12_pip …) of a
// jax pin that the release's setup.py does not declare (the KB's
// jax_extras, PEP 685 names). pip only warns that the release "does not
// provide the extra" and installs jax without it, so no CUDA jaxlib or
// plugin comes from the line. An open spec, or a release past the table,
// gives none: nothing is known.
func undeclaredJAXExtras(k *kb.KB, name, exact string, extras []string) []string {
	if k == nil || exact == "" || pep503(name) != "jax" {
		return nil
	}
	var out []string
	for _, e := range extras {
		e = strings.TrimSpace(e)
		if !strings.HasPrefix(pep503(e), "cuda") {
			continue
		}
		if declared, known := k.JAXExtraDeclared(exact, e); known && !declared {
			out = append(out, e)
		}
	}
	return out
}

// withoutUndeclaredJAXExtras is it's extras less those undeclaredJAXExtras
// names: what pip acts on.
func withoutUndeclaredJAXExtras(k *kb.KB, it *item) []string {
	drop := undeclaredJAXExtras(k, it.name, it.exact, it.extras())
	if len(drop) == 0 {
		return it.extras()
	}
	var out []string
	for _, e := range it.extras() {
		if !slices.Contains(drop, strings.TrimSpace(e)) {
			out = append(out, e)
		}
	}
	return out
}

// eg205JaxExtras reports a pinned jax with a CUDA extra that release does
// not declare (jax[cuda12]==0.4.20: cuda12 came with 0.4.22). The CUDA
// variant asked for does not exist for that release.
func eg205JaxExtras(c *Context) []finding.Diagnostic {
	if c.KB == nil || c.Env.IsInstalled() {
		return nil
	}
	reqs, _ := c.pipList()
	var out []finding.Diagnostic
	for _, r := range reqs {
		if r.Name != "jax" || len(r.Extras) == 0 || r.Dep == nil {
			continue
		}
		it := readPipItem(r.Dep)
		if it == nil {
			continue
		}
		for _, e := range undeclaredJAXExtras(c.KB, r.Name, it.exact, r.Extras) {
			msg := fmt.Sprintf("%s%s asks for the %s extra, which jax %s does not declare: pip warns that jax %s does not provide the extra '%s' and installs jax without it, so no CUDA jaxlib or plugin comes from this line",
				r.Dep.Raw.Value, at(r.Dep.Raw.Pos), e, it.exact, it.exact, e)
			hint := fmt.Sprintf("use an extra jax %s declares (%s), or a jax release that declares %s", it.exact, jaxCUDAExtrasText(c.KB, it.exact), e)
			out = append(out, newFinding(c.rule, r.Dep.Raw.Pos, 0, msg, hint))
		}
	}
	return out
}

// jaxCUDAExtrasText names the CUDA extras a jax release declares.
func jaxCUDAExtrasText(k *kb.KB, release string) string {
	var names []string
	for _, r := range k.JAXExtras {
		if d, ok := k.JAXExtraDeclared(release, r.Extra); ok && d {
			names = append(names, r.Extra)
		}
	}
	if len(names) == 0 {
		return "it declares none"
	}
	return strings.Join(names, ", ")
}
