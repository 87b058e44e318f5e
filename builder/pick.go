package builder

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver/kb"
)

// Pick formats: what `envguard pick` prints of a built environment.
const (
	PickIndex = "index" // PyTorch's pip index URL (pip/uv --index-url)
	PickConda = "conda" // the conda specs that select the variant
	PickPixi  = "pixi"  // pixi dependency lines (conda-forge)
)

// PickFormats lists the formats, for usage and errors.
var PickFormats = []string{PickIndex, PickConda, PickPixi}

// PickVia is the distribution a pick format asks the builder for.
func PickVia(format string) (string, error) {
	switch format {
	case PickIndex:
		return "pip", nil
	case PickConda:
		return "conda", nil // the pytorch channel where it has the release, else conda-forge
	case PickPixi:
		return "conda-forge", nil
	}
	return "", badRequest("unknown pick format %q: one of %s", format, strings.Join(PickFormats, ", "))
}

// wheelLocal is the local version (and index path) of a wheel variant:
// cu126, or cpu.
func wheelLocal(cuda string) string {
	if cuda == "" {
		return "cpu"
	}
	return "cu" + strings.ReplaceAll(cuda, ".", "")
}

// condaForgeBuild is the build-string pattern of a conda-forge pytorch
// variant: cuda126*, or cpu*.
func condaForgeBuild(cuda string) string {
	if cuda == "" {
		return "cpu*"
	}
	return "cuda" + strings.ReplaceAll(cuda, ".", "") + "*"
}

// Pick is the one line that selects r's build, for scripts: the index URL,
// the conda specs, or pixi's dependency lines joined by "; ".
func (r *Result) Pick(format string) (string, error) {
	c := r.cand
	if c.rel.Version == "" {
		return "", badRequest("pick knows pytorch builds only; %s is a pip build of another framework (its pip: line is %s)", r.Name, strings.Join(r.Pip, " "))
	}
	switch format {
	case PickIndex:
		if c.dist != kb.DistWheel {
			return "", fmt.Errorf("torch %s for these targets is not on PyTorch's wheel index", c.rel.Version)
		}
		if r.wheelRoot == "" {
			return "", fmt.Errorf("the knowledge base names no PyTorch wheel index")
		}
		return r.wheelRoot + wheelLocal(c.cuda), nil
	case PickConda:
		switch c.dist {
		case kb.DistPytorchConda:
			return "pytorch::pytorch=" + c.rel.Version + " " + r.selector, nil
		case kb.DistCondaForge:
			line := "pytorch=" + c.rel.Version + "=" + condaForgeBuild(c.cuda)
			if c.cuda != "" {
				line += " cuda-version=" + c.cuda
			}
			return line, nil
		}
		return "", fmt.Errorf("torch %s for these targets comes from %s, not a conda channel", c.rel.Version, c.dist)
	case PickPixi:
		if c.dist != kb.DistCondaForge {
			return "", fmt.Errorf("torch %s for these targets is not a conda-forge build", c.rel.Version)
		}
		line := fmt.Sprintf("pytorch = { version = %q, build = %q }", "=="+c.rel.Version, condaForgeBuild(c.cuda))
		if c.cuda != "" {
			line += fmt.Sprintf("; cuda-version = %q", c.cuda+".*")
		}
		return line, nil
	}
	return "", badRequest("unknown pick format %q: one of %s", format, strings.Join(PickFormats, ", "))
}

// PinPick is the build of one torch release that Build picks for hosts,
// for the fixer's pins: via "conda" (the pytorch channel) or "conda-forge"
// answers the distribution and the conda specs (Pick's PickConda line),
// via "pip" the distribution and the wheel index URL (PickIndex). release
// must be a release, not a series; python and cuda may be "" (the newest
// the release supports, the newest variant that every host runs).
func PinPick(release, python, cuda, via string, hosts []*gpucheck.Host, k *kb.KB) (kb.Distribution, string, error) {
	res, err := Build(Request{Framework: "pytorch", Version: release, Python: python, CUDA: cuda, Via: via, Hosts: hosts, KB: k})
	if err != nil {
		return "", "", err
	}
	if res.Release != release {
		return "", "", fmt.Errorf("the builder chose torch %s, not %s", res.Release, release)
	}
	format := PickConda
	if via == "pip" {
		format = PickIndex
	}
	line, err := res.Pick(format)
	return res.Dist, line, err
}
