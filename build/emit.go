package build

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// wheelIndex is PyTorch's own pip index; /whl/<variant> serves one variant.
const wheelIndex = "https://download.pytorch.org/whl/"

// emit writes the environment of a candidate and validates it.
func emit(k *kb.KB, c candidate, req Request) *Result {
	name := canonical(c)
	var deps []string
	var channels []string
	tv, ta := c.rel.Torchvision, c.rel.Torchaudio
	switch c.dist {
	case kb.DistPytorchConda:
		channels = []string{"pytorch"}
		deps = append(deps, "python="+c.python, "pytorch::pytorch="+c.rel.Version)
		if tv != "" {
			deps = append(deps, "pytorch::torchvision="+tv)
		}
		if ta != "" {
			deps = append(deps, "pytorch::torchaudio="+ta)
		}
		switch {
		case c.cuda == "":
			deps = append(deps, "pytorch::cpuonly")
		case seriesOf(c.rel.Version) == "1.12":
			// 1.12 took its CUDA runtime from cudatoolkit (11.6 only on
			// conda-forge), before pytorch-cuda existed.
			channels = append(channels, "conda-forge")
			deps = append(deps, "conda-forge::cudatoolkit="+c.cuda)
		default:
			channels = append(channels, "nvidia")
			deps = append(deps, "pytorch::pytorch-cuda="+c.cuda)
		}
	case kb.DistCondaForge:
		channels = []string{"conda-forge"}
		build := "cpu*"
		if c.cuda != "" {
			build = "cuda" + strings.ReplaceAll(c.cuda, ".", "") + "*"
		}
		deps = append(deps, "python="+c.python, "pytorch="+c.rel.Version+"="+build)
		if c.cuda != "" {
			deps = append(deps, "cuda-version="+c.cuda)
		}
		if tv != "" {
			deps = append(deps, "torchvision="+tv)
		}
		if ta != "" {
			deps = append(deps, "torchaudio="+ta)
		}
	default: // the wheel index
		channels = []string{"conda-forge"}
		local := "cpu"
		if c.cuda != "" {
			local = "cu" + strings.ReplaceAll(c.cuda, ".", "")
		}
		deps = append(deps, "python="+c.python, "pip")
		pip := []string{"--index-url " + wheelIndex + local, "torch==" + c.rel.Version + "+" + local}
		if tv != "" {
			pip = append(pip, "torchvision=="+tv+"+"+local)
		}
		if ta != "" {
			pip = append(pip, "torchaudio=="+ta+"+"+local)
		}
		deps = append(deps, "pip:")
		for _, p := range pip {
			deps = append(deps, "  - "+p)
		}
	}
	var body strings.Builder
	fmt.Fprintf(&body, "name: %s\nchannels:\n", name)
	for _, ch := range channels {
		fmt.Fprintf(&body, "  - %s\n", ch)
	}
	body.WriteString("dependencies:\n")
	for _, d := range deps {
		if strings.HasPrefix(d, "  - ") {
			fmt.Fprintf(&body, "    %s\n", d)
		} else {
			fmt.Fprintf(&body, "  - %s\n", d)
		}
	}
	rep := report.Validate("environment.yml", []byte(body.String()), report.Options{Platform: "linux-64", KB: k, Hosts: req.Hosts})
	res := &Result{Name: name, Release: c.rel.Version, Python: c.python, CUDA: c.cuda, Dist: c.dist, Report: rep}
	res.Why = why(k, c, req, rep)
	var out strings.Builder
	if req.Command != "" {
		fmt.Fprintf(&out, "# Built by %s\n", req.Command)
	}
	fmt.Fprintf(&out, "# knowledge base of %s\n", k.Facts.Date)
	for _, w := range res.Why {
		fmt.Fprintf(&out, "# %s\n", w)
	}
	out.WriteString(body.String())
	res.YAML = []byte(out.String())
	// Findings the header reports are part of the file now: line numbers
	// in the returned report refer to the body without the header.
	return res
}

func canonical(c candidate) string {
	maj, min := splitMinor(c.rel.Version)
	name := fmt.Sprintf("pt%d%d_", maj, min)
	if c.cuda == "" {
		return name + "cpu"
	}
	cm, cn := splitMinor(c.cuda)
	return name + fmt.Sprintf("cu%d%d", cm, cn)
}

// why explains the choice in the header: what was chosen, from where, and
// what each target makes of it.
func why(k *kb.KB, c candidate, req Request, rep *report.Report) []string {
	variant := "CPU only"
	if c.cuda != "" {
		variant = "CUDA " + c.cuda
	}
	lines := []string{fmt.Sprintf("torch %s, %s, Python %s, from %s", c.rel.Version, variant, c.python, distName(c.dist))}
	if c.dist == kb.DistCondaForge || (c.dist == kb.DistWheel && strings.EqualFold(req.Via, "conda")) {
		lines = append(lines, "the pytorch channel stopped publishing after 2.5, so this release comes from "+distName(c.dist))
	}
	if c.cuda != "" {
		if req.CUDA == "" || req.CUDA == "auto" {
			lines = append(lines, "newest CUDA variant of this release that every target runs")
		}
		if f, ok := k.DriverFloor(c.cuda); ok {
			lines = append(lines, fmt.Sprintf("CUDA %s needs driver >= %s", c.cuda, f.LinuxMin))
		}
		if a, ok := k.Arch(seriesOf(c.rel.Version), c.cuda, c.dist); ok && a.Known {
			l := "build carries sm_" + strings.Join(mapStrings(a.SASS, noDot), ", sm_")
			if len(a.PTX) > 0 {
				l += " and PTX for compute_" + strings.Join(mapStrings(a.PTX, noDot), ", compute_")
			}
			lines = append(lines, l)
		} else {
			lines = append(lines, "the architectures of this build are not in the knowledge base: GPU coverage unverified")
		}
	}
	for _, t := range rep.Targets {
		var gpus []string
		for _, g := range t.GPUs {
			gpus = append(gpus, strings.TrimSpace(g.Name+" sm_"+noDot(g.ComputeCapability)))
		}
		state := "validates clean"
		if !t.OK {
			state = "does NOT validate"
		}
		desc := t.Name
		if t.Driver != "" {
			desc += " (driver " + t.Driver
			if t.CUDADriver != "" {
				desc += ", CUDA " + t.CUDADriver
			}
			desc += ")"
		}
		if len(gpus) > 0 {
			desc += " [" + strings.Join(gpus, ", ") + "]"
		}
		lines = append(lines, "target "+desc+": "+state)
	}
	for _, f := range rep.Findings {
		if f.Severity != "info" {
			lines = append(lines, fmt.Sprintf("note: %s %s", f.Code, f.Message))
		}
	}
	return lines
}

func distName(d kb.Distribution) string {
	switch d {
	case kb.DistPytorchConda:
		return "the pytorch conda channel"
	case kb.DistWheel:
		return "PyTorch's pip wheel index"
	case kb.DistCondaForge:
		return "conda-forge"
	}
	return string(d)
}

func noDot(s string) string { return strings.ReplaceAll(s, ".", "") }

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
