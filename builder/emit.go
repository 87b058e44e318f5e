package builder

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// emit writes the body of a candidate's environment.yml (no header yet) and
// validates it against the targets. Build calls it for every candidate;
// finish then adds the header to the one it keeps.
func emit(k *kb.KB, c candidate, req Request) *Result {
	name := canonical(c)
	var deps []string
	var channels []string
	var selector string // the pytorch channel's variant spec (Result.selector)
	var pip []string    // the file's pip: lines (Result.Pip)
	tv, ta := c.rel.Torchvision, c.rel.Torchaudio
	if c.dist == kb.DistPytorchConda {
		// 2.0.0 on the pytorch channel was paired with other companion
		// builds than on pip.
		if c.rel.TorchvisionConda != "" {
			tv = c.rel.TorchvisionConda
		}
		if c.rel.TorchaudioConda != "" {
			ta = c.rel.TorchaudioConda
		}
	}
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
		case seriesOf(c.rel.Version) != "1.12" && cudatoolkitSelects(k, c.rel.Version):
			// Before 1.12 too, the pytorch channel took the CUDA runtime from
			// cudatoolkit (the knowledge base's selector); conda-forge has
			// every cudatoolkit from 9.2 to 11.8, where the default channels
			// lack some (11.1).
			channels = append(channels, "conda-forge")
			deps = append(deps, "conda-forge::cudatoolkit="+c.cuda)
		case seriesOf(c.rel.Version) == "1.12":
			// 1.12 took its CUDA runtime from cudatoolkit, before
			// pytorch-cuda existed. PyTorch's commands take 10.2 and 11.3
			// from the default channels and add conda-forge for 11.6, which
			// only conda-forge had.
			if c.cuda == "11.6" {
				channels = append(channels, "conda-forge")
				deps = append(deps, "conda-forge::cudatoolkit="+c.cuda)
			} else {
				deps = append(deps, "cudatoolkit="+c.cuda)
			}
		default:
			channels = append(channels, "nvidia")
			deps = append(deps, "pytorch::pytorch-cuda="+c.cuda)
		}
		selector = deps[len(deps)-1]
		// a library the channel's build links with an open run requirement,
		// pinned where the channels added would give it a release the
		// build cannot load (lib_breaks: conda-forge's mkl 2024.1 and
		// later beside the pytorch channel's pytorch, EG411)
		for _, b := range k.LibBreaksOf("pytorch", kb.DistPytorchConda, "linux-64", c.rel.Version) {
			for _, ch := range channels {
				if slices.Contains(b.Channels, ch) {
					deps = append(deps, b.Lib+"="+b.LastGood)
					break
				}
			}
		}
	case kb.DistCondaForge:
		channels = []string{"conda-forge"}
		deps = append(deps, "python="+c.python, "pytorch="+c.rel.Version+"="+condaForgeBuild(c.cuda))
		if c.cuda != "" {
			deps = append(deps, "cuda-version="+c.cuda)
		}
		// conda-forge builds its companions apart from pytorch, not for
		// every release: the series pip pairs with this release, where
		// conda-forge has one of it, and the solver picks the build that
		// matches this pytorch.
		if vs, ok := k.Variants(seriesOf(c.rel.Version), kb.DistCondaForge); ok {
			if m := companionMinor(tv, vs.Torchvision); m != "" {
				deps = append(deps, "torchvision="+m)
			}
			if m := companionMinor(ta, vs.Torchaudio); m != "" {
				deps = append(deps, "torchaudio="+m)
			}
		}
	default: // the wheel index
		channels = []string{"conda-forge"}
		local := wheelLocal(c.cuda)
		deps = append(deps, "python="+c.python, "pip")
		// PyTorch's own pip index (the knowledge base's torch_wheel_index);
		// <root><variant> serves one variant
		pip = []string{"--index-url " + k.TorchWheelIndexURL() + local, "torch==" + c.rel.Version + "+" + local}
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
	rep := report.Validate("environment.yml", []byte(body.String()), options(k, req))
	return &Result{Name: name, Release: c.rel.Version, Python: c.python, CUDA: c.cuda, Dist: c.dist,
		Pip: pip, Report: rep, cand: c, body: body.String(), selector: selector, wheelRoot: k.TorchWheelIndexURL()}
}

// companionMinor is the minor series of the companion release pip pairs
// (0.21 of 0.21.0) when built lists a release of it; "" when not.
func companionMinor(paired string, built []string) string {
	m := seriesOf(paired)
	if paired == "" || m == paired {
		return ""
	}
	for _, b := range built {
		if seriesOf(b) == m {
			return m
		}
	}
	return ""
}

func options(k *kb.KB, req Request) report.Options {
	return report.Options{Platform: "linux-64", KB: k, Hosts: req.Hosts}
}

// finish gives the chosen result its header. skipped says why each newer
// variant was not chosen, passed why each newer release was (a request
// with no version that fell back to an older series: buildNewest). The report is made again from the whole file, so
// that its line numbers are those of the file the user gets (comments
// change no finding, only where the lines are).
func finish(k *kb.KB, res *Result, req Request, skipped, passed []string) {
	res.Why = why(k, res.cand, req, res.Report, skipped, passed)
	var out strings.Builder
	if req.Command != "" {
		fmt.Fprintf(&out, "# Written by: %s\n", req.Command)
	}
	for _, w := range res.Why {
		fmt.Fprintf(&out, "# %s\n", w)
	}
	fmt.Fprintf(&out, "# (envguard knowledge base of %s)\n", k.Facts.Date)
	out.WriteString(res.body)
	res.YAML = []byte(out.String())
	res.Report = report.Validate("environment.yml", res.YAML, options(k, req))
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

// why explains the choice in the header: what was chosen and from where,
// why this variant and not a newer one, and what each target makes of it.
func why(k *kb.KB, c candidate, req Request, rep *report.Report, skipped, passed []string) []string {
	variant := "CPU only"
	if c.cuda != "" {
		variant = "CUDA " + c.cuda
	}
	lines := []string{fmt.Sprintf("Chosen: torch %s, %s, Python %s, from %s.", c.rel.Version, variant, c.python, distName(c.dist))}
	if len(passed) > 0 {
		// No version was asked and the newest release could not be had:
		// say so, and why, before anything about the release chosen.
		lines = append(lines, fmt.Sprintf("No version asked: torch %s is the newest release in the knowledge base that can be built for this request; newer ones were skipped:", c.rel.Version))
		for _, p := range passed {
			for i, l := range strings.Split(p, "\n") {
				if i == 0 {
					lines = append(lines, "  skipped: "+l)
				} else {
					lines = append(lines, "  "+l)
				}
			}
		}
	}
	series := seriesOf(c.rel.Version)
	if c.dist != kb.DistPytorchConda && !published(k, series, kb.DistPytorchConda) {
		if last := lastChannelSeries(k); last != "" {
			lines = append(lines, fmt.Sprintf("The pytorch conda channel stopped publishing after %s, so torch %s comes from %s.", last, series, distName(c.dist)))
		}
	}
	if req.Python == "" {
		if newest, _ := pickPython(c.rel, ""); newest != c.python {
			lines = append(lines, fmt.Sprintf("Python %s is the newest %s built torch %s for (--python picks another).", c.python, distName(c.dist), c.rel.Version))
		} else {
			lines = append(lines, fmt.Sprintf("Python %s is the newest torch %s supports (--python picks another).", c.python, c.rel.Version))
		}
	}
	if c.cuda != "" {
		auto := req.CUDA == "" || strings.EqualFold(req.CUDA, "auto")
		switch {
		case !auto:
			lines = append(lines, "CUDA "+c.cuda+" as asked (--cuda).")
		case len(req.Hosts) == 0:
			lines = append(lines, "No --target given: the newest CUDA variant of this release, checked against no machine.")
		default:
			lines = append(lines, "The newest CUDA variant of this release that validates on every target with the fewest warnings.")
		}
		for _, s := range skipped {
			lines = append(lines, "  not chosen: "+s)
		}
		if f, ok := k.DriverFloor(c.cuda); ok {
			l := fmt.Sprintf("CUDA %s needs driver >= %s", c.cuda, f.LinuxMin)
			if m, ok := k.MinorCompatFloor(majorOf(c.cuda)); ok {
				l += fmt.Sprintf(" (>= %s through minor-version compatibility)", m.LinuxFloor)
			}
			lines = append(lines, l+".")
		}
		if a, ok := k.Arch(series, c.cuda, c.dist); ok && a.Known {
			l := "The build carries machine code for sm_" + strings.Join(mapStrings(a.SASS, noDot), ", sm_")
			if len(a.PTX) > 0 {
				l += " and PTX for compute_" + strings.Join(mapStrings(a.PTX, noDot), ", compute_")
			}
			lines = append(lines, l+".")
			lines = append(lines, jitFallback(k, c, req, a)...)
		} else {
			lines = append(lines, "The architectures of this build are not in the knowledge base: GPU coverage is unverified.")
		}
	}
	return append(lines, targetLines(rep)...)
}

// targetLines says what each target makes of the file, then the findings
// that are not info: the end of every builder's header.
func targetLines(rep *report.Report) []string {
	var lines []string
	for _, t := range rep.Targets {
		var gpus []string
		for _, g := range t.GPUs {
			gpus = append(gpus, strings.TrimSpace(g.Name+" sm_"+noDot(g.ComputeCapability)))
		}
		state := "validates clean"
		switch {
		case t.Verdict == gpucheck.VerdictFail:
			state = "does NOT validate"
		case t.Verdict == gpucheck.VerdictUnknown:
			state = "UNKNOWN: not every check could be decided (" + gpucheck.UndecidedText(t.Undecided) + ")"
		case hasTargetWarning(rep, t.Name):
			state = "validates, with the warnings below"
		}
		desc := t.Name
		if t.Driver != "" {
			desc += " (driver " + t.Driver
			if t.CUDADriver != "" {
				desc += ", CUDA " + t.CUDADriver
			}
			desc += ")"
		} else if !t.Available {
			desc += " (no driver)"
		}
		if len(gpus) > 0 {
			desc += " [" + strings.Join(gpus, ", ") + "]"
		}
		lines = append(lines, "Target "+desc+": "+state+".")
	}
	for _, f := range rep.Findings {
		if f.Severity != "info" {
			lines = append(lines, fmt.Sprintf("%s %s: %s", f.Severity, f.Code, f.Message))
		}
	}
	return lines
}

func hasTargetWarning(r *report.Report, target string) bool {
	for _, f := range r.Findings {
		if f.Target == target && f.Severity == "warning" {
			return true
		}
	}
	return false
}

func majorOf(v string) int {
	m, _ := splitMinor(v)
	return m
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

// cudatoolkitSelects reports whether the pytorch channel selects a release's
// CUDA variant with cudatoolkit=X.Y (1.12 and older) rather than
// pytorch-cuda, as the knowledge base records it.
func cudatoolkitSelects(k *kb.KB, version string) bool {
	v, ok := k.Variants(seriesOf(version), kb.DistPytorchConda)
	return ok && strings.HasPrefix(v.Selector, "cudatoolkit")
}

// jitFallback says so where the chosen build runs on a target's GPU only
// through PTX JIT: no variant of the release has machine code for it (the
// builder prefers one that does), and which newer release first has.
func jitFallback(k *kb.KB, c candidate, req Request, a *kb.ArchList) []string {
	var jit []string
	seen := map[string]bool{}
	for _, h := range req.Hosts {
		for _, g := range h.GPUs {
			if g.CC == "" || hasSASSFor(a.SASS, g.CC) || seen[g.CC] {
				continue
			}
			seen[g.CC] = true
			jit = append(jit, g.CC)
		}
	}
	if len(jit) == 0 {
		return nil
	}
	sms := "sm_" + strings.Join(mapStrings(jit, noDot), ", sm_")
	lines := []string{fmt.Sprintf("No variant of torch %s that validates carries machine code for %s: this build runs there only by PTX JIT (EG408 below).", c.rel.Version, sms)}
	// The oldest newer series whose known architecture list covers every
	// such GPU, and its oldest CUDA variant that does (the one older
	// drivers run), in any distribution.
	best, bestCUDA := "", ""
	for _, row := range k.Facts.Arch {
		if row.Framework != "" || row.Release != "" || !row.Known || !isNewer(row.Series, seriesOf(c.rel.Version)) {
			continue
		}
		all := true
		for _, cc := range jit {
			all = all && hasSASSFor(row.SASS, cc)
		}
		if all && (best == "" || isNewer(best, row.Series) || best == row.Series && isNewer(bestCUDA, row.CUDA)) {
			best, bestCUDA = row.Series, row.CUDA
		}
	}
	if best != "" {
		lines = append(lines, fmt.Sprintf("torch %s (from its CUDA %s variant) is the first series with machine code for %s: envguard build pytorch=%s, with the same targets.", best, bestCUDA, sms, best))
	}
	return lines
}

// hasSASSFor reports whether machine code in sass runs on a GPU of compute
// capability cc: the same major, at or below its minor (binary
// compatibility within a major).
func hasSASSFor(sass []string, cc string) bool {
	gm, gn := splitMinor(strings.TrimRight(cc, "abf"))
	for _, s := range sass {
		m, n := splitMinor(strings.TrimRight(s, "abf"))
		if m == gm && n <= gn {
			return true
		}
	}
	return false
}
