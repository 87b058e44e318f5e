package fixer

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// pinCodes are the findings that say the solver (or pip) picks the
// framework's release or variant; a pin for the targets answers them.
// EG409 counts only where it says so (gpucheck.LeavesBuild: "the file
// leaves the build to pip"); an extension's open release ("the release of
// cupy is left to the solver") is not the framework's, and its pin stays open.
var pinCodes = []string{"EG502", "EG207", "EG304", "EG409"}

// pinFindings are rep's findings that a pin would answer.
func pinFindings(rep *report.Report) []finding.Diagnostic {
	var out []finding.Diagnostic
	for _, code := range pinCodes {
		for _, d := range rep.Diagnostics() {
			if d.Code == code && (code != "EG409" || strings.Contains(d.Message, gpucheck.LeavesBuild)) {
				out = append(out, d)
			}
		}
	}
	return out
}

// PinFunc picks the conda build of one torch release for hosts, as the
// builder picks it (builder.PinPick): via is "conda" (the pytorch
// channel) or "conda-forge"; python and cuda may be "". It answers the
// distribution and the conda specs that select the build, the framework's
// first ("pytorch::pytorch=2.5.1 pytorch-cuda=12.4", "pytorch=2.4.1=cuda126*
// cuda-version=12.6"). The fixer cannot import the builder (it sits beside
// it), so the faces pass it in.
type PinFunc func(release, python, cuda, via string, hosts []*gpucheck.Host, k *kb.KB) (kb.Distribution, string, error)

// pinCount is how many of rep's findings a pin would answer.
func pinCount(rep *report.Report) int { return len(pinFindings(rep)) }

// pin is one candidate pin: its change, and what it pins, for the report.
type pin struct {
	change Change
	text   string // "pytorch=2.5.1 with pytorch-cuda=12.4"
}

// pinCandidates are the pins of a conda pytorch that leaves its release or
// variant to the solver, newest release first: for each release the file
// admits, the build the builder picks for every target (the newest variant
// that validates on all of them, on the file's own channel, for its Python
// and CUDA where it pins them). why says why there is none.
func pinCandidates(file string, src []byte, rep *report.Report, ropt report.Options, hosts []*gpucheck.Host, pick PinFunc) (pins []pin, why string) {
	st := rep.Stack
	if st == nil || st.Framework == nil {
		return nil, "the file names no framework"
	}
	f := st.Framework
	if f.Name != "pytorch" {
		return nil, fmt.Sprintf("the builder builds pytorch only, not %s", f.Name)
	}
	env := parseForFix(file, src, ropt.Platform)
	if f.From == envspec.ProviderPip {
		return pipPinCandidates(env, st, ropt, hosts, pick)
	}
	var via string
	switch f.Dist {
	case kb.DistPytorchConda:
		via = "conda"
	case kb.DistCondaForge:
		via = "conda-forge"
	default:
		return nil, fmt.Sprintf("the builder does not build pytorch from %s", f.Dist)
	}
	dep := depAt(env, f.Pos)
	if dep == nil || dep.Spec == nil || dep.Spec.Build != "" || strings.TrimSpace(dep.Raw.Value) != dep.Raw.Value {
		return nil, fmt.Sprintf("line %d is not written as a plain spec the fix can pin", f.Pos.Line)
	}
	releases := f.Candidates
	if f.Version != "" {
		releases = []string{f.Version}
	}
	cuda := ""
	switch {
	case f.Variant == "cpu":
		cuda = "cpu"
	case st.CUDA != nil && st.CUDA.NotPublished == "" && strings.Count(st.CUDA.Version, ".") >= 1:
		cuda = st.CUDA.Version
	}
	why = "the knowledge base lists no release the file admits"
	for i := len(releases) - 1; i >= 0; i-- {
		py, fits := resolver.PythonFor(kbOf(ropt), st, releases[i])
		if !fits {
			// no Python the file admits installs it (review fifty-five
			// F8: pytorch 2.5.1 beside python>=3.7,<3.9)
			continue
		}
		dist, line, err := pick(releases[i], py, cuda, via, hosts, ropt.KB)
		if err != nil {
			if len(pins) == 0 {
				why = strings.SplitN(err.Error(), "\n", 2)[0]
			}
			continue
		}
		if dist != f.Dist {
			continue // the builder went to another channel
		}
		if p, ok := pinEdits(env, dep, line); ok {
			pins = append(pins, p)
		}
		if extra := libBreakSpecs(ropt, dist, releases[i]); extra != "" {
			// the same pick with the library release the build still
			// loads, for a file whose channels would give it a later one
			// (EG411: conda-forge's mkl beside the pytorch channel's
			// pytorch); tried after the plain pick, which a file that
			// takes mkl elsewhere validates without it
			if p, ok := pinEdits(env, dep, line+" "+extra); ok {
				pins = append(pins, p)
			}
		}
	}
	return pins, why
}

// libBreakSpecs are the specs that keep each library of the knowledge
// base's lib_breaks rows for the release below the release that breaks
// it (mkl<2024.1), "" where no row applies.
func libBreakSpecs(ropt report.Options, dist kb.Distribution, release string) string {
	k := kbOf(ropt)
	platform := ropt.Platform
	if platform == "" {
		platform = "linux-64"
	}
	var out []string
	for _, b := range k.LibBreaksOf("pytorch", dist, platform, release) {
		out = append(out, b.Lib+"<"+b.BreaksFrom)
	}
	return strings.Join(out, " ")
}

// pinEdits writes the builder's pick into the file: the framework's line
// pinned to the release (and, on conda-forge, the build), and each other
// spec of the pick (pytorch-cuda=12.4, pytorch::cpuonly, cuda-version=12.6)
// that the file does not name yet added before it.
func pinEdits(env *envspec.Env, dep *envspec.CondaDep, line string) (pin, bool) {
	specs := strings.Fields(line)
	if len(specs) == 0 {
		return pin{}, false
	}
	_, fw, _ := strings.Cut(specs[0], "::")
	if fw == "" {
		fw = specs[0]
	}
	rest, ok := strings.CutPrefix(fw, dep.Spec.Name)
	if !ok {
		return pin{}, false
	}
	raw := dep.Raw.Value
	sp := dep.Spec.NameSpan
	if sp.End <= 0 || sp.End > len(raw) {
		return pin{}, false
	}
	head := raw[:sp.End]
	at := dep.Raw.Pos.Shift(utf8.RuneCountInString(head))
	var edits []finding.Edit
	if tail := raw[sp.End:]; tail != rest {
		ed := finding.Edit{Pos: at, EndPos: at, New: rest} // an insertion after the name
		if tail != "" {
			if ed, ok = env.ReplaceAt(at, tail, rest); !ok {
				return pin{}, false
			}
		}
		edits = append(edits, ed)
	}
	text := strings.TrimSpace(head) + rest
	var with []string
	for _, s := range specs[1:] {
		name := s
		if _, n, ok := strings.Cut(name, "::"); ok {
			name = n
		}
		if i := strings.IndexAny(name, "=<>!~"); i >= 0 {
			name = name[:i]
		}
		if hasDep(env, name) {
			continue
		}
		ins, ok := env.InsertItemBefore(dep.Raw.Pos, s)
		if !ok {
			return pin{}, false
		}
		edits = append(edits, ins)
		with = append(with, s)
	}
	if len(edits) == 0 {
		return pin{}, false
	}
	if len(with) > 0 {
		text += " with " + strings.Join(with, " and ")
	}
	return pin{change: Change{Edits: edits}, text: text}, true
}

// depAt is the conda dependency that starts at pos, nil when none.
func depAt(env *envspec.Env, pos finding.Pos) *envspec.CondaDep {
	for _, d := range env.Deps {
		if d.Raw.Pos.Line == pos.Line && d.Raw.Pos.Col == pos.Col {
			return d
		}
	}
	return nil
}

// hasDep reports whether the file's conda dependencies name package name.
func hasDep(env *envspec.Env, name string) bool {
	for _, d := range env.Deps {
		if d.Spec != nil && d.Spec.Name == name {
			return true
		}
	}
	return false
}

// hostNames lists the hosts' names, for the report.
func hostNames(hosts []*gpucheck.Host) string {
	var names []string
	for _, h := range hosts {
		names = append(names, h.Name)
	}
	return strings.Join(names, ", ")
}

// pipPinCandidates are the pins of a pip torch, newest release first: the
// torch line pinned to the release (torch==2.5.1) and, where the pip
// section names no PyTorch wheel index, the builder's index for the
// targets added as its first line (--extra-index-url …/whl/cu121). With
// an index already named, its variant is the one asked for.
func pipPinCandidates(env *envspec.Env, st *resolver.Stack, ropt report.Options, hosts []*gpucheck.Host, pick PinFunc) (pins []pin, why string) {
	f := st.Framework
	var dep *envspec.PipDep
	for _, d := range env.Pip {
		if d.Raw.Pos == f.Pos {
			dep = d
		}
	}
	if dep == nil || dep.Line == nil || dep.Line.Req == nil || dep.Line.Req.URL != "" || dep.Raw.Pos.Col < 1 || !env.Editable() {
		return nil, fmt.Sprintf("line %d is not written as a plain requirement the fix can pin", f.Pos.Line)
	}
	first := env.Pip[0]
	if first.Raw.Pos.Col < 1 {
		return nil, "the pip section starts in an included file"
	}
	cuda, hasIndex := "", false
	for _, d := range env.Pip {
		if d.Line == nil || d.Line.Option == nil {
			continue
		}
		for _, o := range d.Line.Options {
			switch o.Name {
			case "--index-url", "--extra-index-url", "--find-links":
				if ix := resolver.DecodeIndexURL(o.Value); ix.CUDA != "" || ix.Variant == "cpu" {
					hasIndex, cuda = true, ix.CUDA
					if ix.Variant == "cpu" {
						cuda = "cpu"
					}
				}
			}
		}
	}
	r := dep.Line.Req
	raw := dep.Raw.Value
	if r.SpecSpan.End > len(raw) || r.NameSpan.End > len(raw) || r.NameSpan.End <= 0 {
		return nil, fmt.Sprintf("line %d is not written as a plain requirement the fix can pin", f.Pos.Line)
	}
	releases := f.Candidates
	if f.Version != "" {
		releases = []string{f.Version}
	}
	why = "the knowledge base lists no release the file admits"
	for i := len(releases) - 1; i >= 0; i-- {
		_, index, err := pick(releases[i], st.Python, cuda, "pip", hosts, ropt.KB)
		if err != nil {
			if len(pins) == 0 {
				why = strings.SplitN(err.Error(), "\n", 2)[0]
			}
			continue
		}
		var edits []finding.Edit
		text := "torch==" + releases[i]
		if !hasIndex {
			var ed finding.Edit
			var ok bool
			line := "--extra-index-url " + index
			if env.Kind == envspec.KindRequirements {
				ed, ok = env.InsertLine(first.Raw.Pos.Line, line)
			} else {
				ed, ok = env.InsertItemBefore(first.Raw.Pos, line)
			}
			if !ok {
				return nil, "the pip section is not laid out as a list the fix can add a line to"
			}
			edits = append(edits, ed)
			text += " from " + index
		}
		want := "==" + releases[i]
		switch {
		case r.SpecSpan.IsZero():
			at := dep.Raw.Pos.Shift(utf8.RuneCountInString(raw[:r.NameSpan.End]))
			if r.NameSpan.End < len(raw) && raw[r.NameSpan.End] == '[' {
				continue // extras: the version goes after them
			}
			edits = append(edits, finding.Edit{Pos: at, EndPos: at, New: want})
		case strings.TrimSpace(raw[r.SpecSpan.Start:r.SpecSpan.End]) != want:
			old := raw[r.SpecSpan.Start:r.SpecSpan.End]
			ed, ok := env.ReplaceAt(dep.Raw.Pos.Shift(utf8.RuneCountInString(raw[:r.SpecSpan.Start])), old, want)
			if !ok {
				continue
			}
			edits = append(edits, ed)
		}
		if len(edits) > 0 {
			pins = append(pins, pin{change: Change{Edits: edits}, text: text})
		}
	}
	return pins, why
}

// parseForFix reads src as report/ does for the two kinds fix edits: a
// requirements file, or an environment.yml.
func parseForFix(file string, src []byte, platform string) *envspec.Env {
	if lockfile.SniffFile(file, src) == envspec.KindRequirements {
		return lockfile.ReadRequirements(file, src, lockfile.Options{Platform: platform})
	}
	return envspec.Parse(file, src, envspec.ParseOptions{Platform: platform})
}

// kbOf is the knowledge base the report options name, else the embedded one.
func kbOf(ropt report.Options) *kb.KB {
	if ropt.KB != nil {
		return ropt.KB
	}
	return kb.Default()
}
