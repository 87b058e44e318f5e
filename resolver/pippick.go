package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// PipPick is the torch build pip installs for a torch requirement without
// a local version beside `--extra-index-url <PyTorch wheel index>/whl/cuXYZ`.
// An extra index leaves PyPI in play: pip gathers both indexes' files and
// takes the highest version, a local version (2.7.1+cu118) above the same
// release without one (PEP 440), so it takes the index's cuXYZ build only
// where the index has the highest release the requirement admits, and
// PyPI's build of that release otherwise. It is worked out once, here, and
// read by EG304's message and by the target checks alike, so that what the
// finding says pip installs is what the checks judge.
//
// It applies to the files pip installs: an environment.yml's pip section
// and a requirements file. A requirements file does not say which installer
// reads it; envguard takes it as pip does (uv's default first-index
// strategy would take the index's build: EG304 says so). A pixi manifest's
// pypi-dependencies are installed by uv, and a lock file names the wheel it
// installs, so neither gets a PipPick.
type PipPick struct {
	// Index is the extra index's URL as written; CUDA its variant ("11.8").
	Index string `json:"index"`
	CUDA  string `json:"index_cuda"`
	// Release is the release pip takes: the exact pin, or the highest the
	// spec admits among the knowledge base's releases (for the file's
	// Python where it pins one); "" when the knowledge base lists none.
	Release string `json:"release,omitempty"`
	// FromIndex: the index has a cuXYZ build of Release's series, so pip
	// takes Release+cuXYZ from it and the index pins the variant.
	FromIndex bool `json:"from_index"`
	// PyPI is what PyPI serves for Release on every platform the file
	// names (its default CUDA version, or "cpu"), when pip takes PyPI's
	// build; "" when the platforms get different builds or the knowledge
	// base does not say.
	PyPI string `json:"pypi,omitempty"`
}

// Determined reports whether the pick is one known build: the index's, or
// PyPI's of a known release whose PyPI build is known.
func (p *PipPick) Determined() bool {
	return p != nil && p.Release != "" && (p.FromIndex || p.PyPI != "")
}

// Build names the pick in messages: "torch 2.7.1+cu118 from the index",
// "PyPI's torch 2.14.0".
func (p *PipPick) Build() string {
	if p.FromIndex {
		return "torch " + p.Release + "+cu" + strings.ReplaceAll(p.CUDA, ".", "") + " from the index"
	}
	return "PyPI's torch " + p.Release
}

// PipBuild is one build pip may install for a torch requirement.
type PipBuild struct {
	Release string
	Variant string // "cuda" or "cpu"
	CUDA    string // for "cuda"
	Dist    kb.Distribution
}

// Builds lists the builds the pick stands for: the one build where it is
// determined; where PyPI's build of Release differs between the file's
// platforms, each of them (the CUDA build PyPI serves on Linux x86_64 and
// the CPU build on the others); nil when they cannot be listed (no
// release, or PyPI's builds of it are not known), which leaves the checks
// undecided rather than judging the index's builds alone.
func (p *PipPick) Builds(k interface {
	Variants(series string, dist kb.Distribution) (*kb.TorchVariants, bool)
}) []PipBuild {
	if p == nil || p.Release == "" {
		return nil
	}
	if p.FromIndex {
		return []PipBuild{{Release: p.Release, Variant: "cuda", CUDA: p.CUDA, Dist: kb.DistWheel}}
	}
	if p.PyPI == "cpu" {
		return []PipBuild{{Release: p.Release, Variant: "cpu", Dist: kb.DistPyPI}}
	}
	if p.PyPI != "" {
		return []PipBuild{{Release: p.Release, Variant: "cuda", CUDA: p.PyPI, Dist: kb.DistPyPI}}
	}
	if k == nil || p.Release == "" {
		return nil
	}
	v, ok := k.Variants(seriesOf(p.Release), kb.DistPyPI)
	if !ok || v.NotPublished || v.Default == "" {
		return nil
	}
	out := []PipBuild{{Release: p.Release, Variant: "cuda", CUDA: v.Default, Dist: kb.DistPyPI}}
	if v.CPU || len(v.CPUOnlyOn) > 0 {
		out = append(out, PipBuild{Release: p.Release, Variant: "cpu", Dist: kb.DistPyPI})
	}
	return out
}

// pipInstalled reports whether pip installs the file's pip requirements:
// an environment.yml's pip section or a requirements file (see PipPick).
func pipInstalled(env *envspec.Env) bool {
	if env == nil || env.IsInstalled() {
		return false
	}
	switch env.Kind {
	case envspec.KindEnvFile, envspec.KindRequirements:
		return true
	}
	return false
}

// extraWheelIndex is the PyTorch wheel index option of a pip list when the
// first one is --extra-index-url to a CUDA index and no --index-url names
// one: nil otherwise.
func extraWheelIndex(k *kb.KB, pip []*envspec.PipDep) *envspec.PipOption {
	var first *envspec.PipOption
	for _, d := range pip {
		o := pipOpt(d)
		if o == nil || !isIndexOption(o.Name) || !wheelIndex().MatchString(o.Value) || extensionIndex(k, o.Value) {
			continue
		}
		if o.Name != "--extra-index-url" {
			return nil
		}
		if first == nil {
			first = o
		}
	}
	if first == nil || DecodeIndexURL(first.Value).CUDA == "" {
		return nil
	}
	return first
}

// pipPick works out the framework's PipPick (see there). It runs after the
// framework and the Python version are read, before the evidence, which
// takes the index as the variant only where pip takes the index's build.
func (r *resolution) pipPick() {
	f, it := r.st.Framework, r.fw
	if r.kb == nil || f == nil || f.Name != "pytorch" || it == nil || it.name != "torch" || it.from() != envspec.ProviderPip ||
		it.local != "" || r.env.Torch != nil || !pipInstalled(r.env) {
		return
	}
	if it.pip != nil && it.pip.Line != nil && it.pip.Line.Req != nil && it.pip.Line.Req.URL != "" {
		return
	}
	o := extraWheelIndex(r.kb, r.env.Pip)
	if o == nil {
		return
	}
	p := &PipPick{Index: o.Value, CUDA: DecodeIndexURL(o.Value).CUDA}
	switch {
	case f.Version != "":
		p.Release = f.Version
	default:
		p.Release = r.newestFor(f.Candidates, r.st.Python)
	}
	if p.Release != "" {
		v, ok := r.kb.Variants(seriesOf(p.Release), kb.DistWheel)
		p.FromIndex = ok && contains(v.CUDA, p.CUDA) && !arbitraryPublic(it)
		if !p.FromIndex {
			p.PyPI, _ = pypiBuild(r.kb, r.env, p.Release)
			// pip takes PyPI's build: the framework is PyPI's, not the
			// wheel index's (whose builds the checks would judge).
			f.Dist = kb.DistPyPI
		}
	}
	f.PipPick = p
}

// arbitraryPublic reports whether the torch requirement has an === clause
// with no local label (torch===2.7.1): PEP 440's arbitrary equality
// compares the version text as a string, so the index's 2.7.1+cu118 does
// not match it and pip can take only PyPI's 2.7.1.
func arbitraryPublic(it *item) bool {
	if it.pip == nil || it.pip.Line == nil || it.pip.Line.Req == nil {
		return false
	}
	for _, sp := range it.pip.Line.Req.Specifiers {
		if sp.Op == "===" && !strings.Contains(sp.Version, "+") {
			return true
		}
	}
	return false
}

// newestFor is the highest of releases (oldest first) that has wheels for
// python ("3.11"; "" when the file does not say), as the knowledge base
// lists a release's Pythons; a release whose Pythons are not listed is
// taken as having them.
func (r *resolution) newestFor(releases []string, python string) string {
	for i := len(releases) - 1; i >= 0; i-- {
		rel := releases[i]
		if python == "" {
			return rel
		}
		var pys []string
		if t, ok := r.kb.Release(rel); ok {
			pys = t.Python
		}
		if len(pys) == 0 {
			if s, ok := r.kb.SeriesInfo(seriesOf(rel)); ok {
				pys = s.Python
			}
		}
		if len(pys) == 0 || contains(pys, python) {
			return rel
		}
	}
	return ""
}

// pickEvidence is the evidence an open torch spec's PipPick gives when pip
// takes PyPI's build of a known release with a known build: that build,
// as pypiDefault gives it for an exact pin.
func (r *resolution) pickEvidence(it *item) (Evidence, bool) {
	f := r.st.Framework
	if f == nil || f.PipPick == nil || it != r.fw || f.Version != "" || f.PipPick.FromIndex || f.PipPick.PyPI == "" {
		return Evidence{}, false
	}
	p := f.PipPick
	return Evidence{Item: fmt.Sprintf("%s (pip takes PyPI's torch %s)", it.label(), p.Release), Pos: it.verPos(), Line: it.pos().Line, EndCol: int(it.verEnd),
		Kind: EvidenceLocal, Says: p.PyPI, Package: it.name, Version: p.Release}, true
}

// pipPickOf is the framework's PipPick; nil for no framework.
func (f *Framework) pipPickOf() *PipPick {
	if f == nil {
		return nil
	}
	return f.PipPick
}

// extensionIndex reports whether an index or find-links URL is a GPU
// extension's own index as the knowledge base decodes it (an extension's
// index_url: flashinfer's …/whl/cu124/torch2.4), which serves that
// extension's wheels, not torch: its cuXYZ names the extension's build,
// never the framework's variant, though it reads like a PyTorch wheel index.
func extensionIndex(k *kb.KB, url string) bool {
	if k == nil {
		return false
	}
	for i := range k.Extensions {
		if e := &k.Extensions[i]; e.IndexURL != "" {
			if _, ok := matchGroups(e.IndexURL, url); ok {
				return true
			}
		}
	}
	return false
}
