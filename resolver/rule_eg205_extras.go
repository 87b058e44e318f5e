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
