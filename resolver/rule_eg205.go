package resolver

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG205 reports a framework release or variant, or a CUDA package
// version, that does not exist where the file asks for it: a release the
// pytorch channel never published, a CUDA variant the channel or wheel index
// does not offer for that release, a pytorch-cuda version that was never
// published, cudatoolkit 12 or later, and a pinned jax with a CUDA extra
// its setup.py does not declare (jax[cuda12]==0.4.20; pip ignores the
// extra, so the CUDA variant asked for does not exist for that release),
// a conda dependency that names a PyPI-only name (torch) on channels
// that publish none (conda_absent_names), and pip requirements that
// cannot be met together: a line, the torch wheel's exact nvidia-* pins
// or what a pinned release's extra requires, one excluding the exact
// release another asks for (pipConflicts; pip's ResolutionImpossible).
var ruleEG205 = &Rule{
	Rule: finding.Rule{
		Code:     "EG205",
		Name:     "release-does-not-exist",
		Severity: finding.SeverityError,
		Fixable:  finding.FixUnsafe,
		Title:    "the framework release or variant, or a CUDA package version, does not exist where the file asks for it",
		Why: "The solver or pip cannot install what was never published: the environment fails to build on " +
			"every machine, often with an unhelpful conflict report. Every target fails on it (its uninstallable field says why), " +
			"whatever its GPUs; what the fixed file installs is judged once it is fixed.",
		Fix: "Ask for something that exists: pytorch 2.6 and later from pip or conda-forge (the pytorch channel " +
			"stopped after 2.5), a CUDA variant the release was built for, an extra the release declares (jax[cuda12] from 0.4.22), cuda-version/cuda-toolkit for CUDA 12, a conda package by its conda name (pytorch, not PyPI's torch), " +
			"an nvidia-* wheel at the release the torch wheel pins (or no line for it: torch brings it).",
		Before: "channels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch::pytorch>=2.6\n  - pytorch-cuda=12.6\n",
		After:  "channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.6.0=*cuda126*\n  - cuda-version=12.6\n",
		Since:  "0.1.0",
	},
	run: runEG205,
}

func runEG205(c *Context) []finding.Diagnostic {
	var out []finding.Diagnostic
	st := c.Stack
	if st != nil && st.Framework != nil && st.Framework.Name == "pytorch" && c.KB != nil {
		out = append(out, eg205Channel(c, st.Framework)...)
		out = append(out, eg205Defaults(c, st.Framework)...)
		out = append(out, eg205Variant(c, st)...)
		out = append(out, eg205PythonVariant(c, st)...)
		out = append(out, eg205Wrapper(c, st)...)
	}
	if st != nil {
		for _, pc := range st.PinConflicts {
			out = append(out, diag(c.rule, pc.Pos, pc.Why, pc.Hint))
		}
		for _, nf := range st.NotFound {
			out = append(out, newFinding(c.rule, nf.Pos, nf.End, nf.Why, nf.Hint))
		}
	}
	if c.Env != nil {
		out = append(out, eg205Packages(c)...)
		out = append(out, eg205LocalNoIndex(c)...)
		out = append(out, eg205ExtraPins(c)...)
		out = append(out, eg205IndexOther(c)...)
		out = append(out, eg205JaxlibCuDNN(c)...)
	}
	// Each of those stops conda or pip as the file is written; an extra a
	// jax release does not declare does not: pip warns, ignores it and
	// installs jax without CUDA.
	for i := range out {
		out[i].Uninstallable = true
	}
	if c.Env != nil {
		out = append(out, eg205JaxExtras(c)...)
	}
	return out
}

// eg205LocalNoIndex reports torch, torchvision or torchaudio pinned to a
// local version (torch==2.0.1+cu118) in a pip section that names no index
// but the default one. Local versions exist only on the PyTorch wheel index
// (PyPI accepts no local versions), so pip reports "No matching
// distribution". `conda env export` writes such pins without the
// --extra-index-url they were installed with. Any index option (a mirror of
// the wheel index, --find-links) is taken as one pip can use. jaxlib's
// +cudaXXX builds are the same case with JAX's find-links page.
func eg205LocalNoIndex(c *Context) []finding.Diagnostic {
	if c.Env.IsInstalled() {
		return nil // an installed prefix is what it is
	}
	reqs, opts := c.pipList()
	if anyIndexOption(opts) {
		return nil
	}
	// the index every torch-family local version of the file names: the
	// fix adds it where they all name one (cu121, or cpu)
	// (a pip line that conda provides too is EG301's to drop: no index
	// is added for it)
	dup := map[*envspec.PipDep]bool{}
	for _, p := range c.libPairs() {
		dup[p.Pip.Dep] = true
	}
	locals := map[string]bool{}
	for _, p := range reqs {
		if isTorchFamily(p.Name) && p.Local != "" && p.URL == "" && !dup[p.Dep] {
			locals[p.Local] = true
		}
	}
	var out []finding.Diagnostic
	for _, p := range reqs {
		// jaxlib's CUDA builds (jaxlib==0.4.2+cuda11.cudnn86) were never on
		// PyPI either: only JAX's find-links pages served them (jax-ml/jax
		// README history, the KB's JAX_README_HIST source).
		if jaxlibCUDALocal(p) {
			msg := fmt.Sprintf("%s (%s) pins the local version +%s, which only JAX's find-links page of CUDA jaxlib wheels serves, but the pip section names no index or find-links page: pip looks only at its default index and finds no matching distribution",
				pipText(p), place(p.Dep.Raw.Pos), p.Local)
			hint := "add -f …/jax-releases/jax_cuda_releases.html (JAX's find-links page) as the first line of the pip section (jax_releases.html for a jaxlib from before that page split off in June 2022)"
			out = append(out, diag(c.rule, p.Dep.Raw.Pos, msg, hint))
			continue
		}
		if !isTorchFamily(p.Name) || p.Local == "" || p.URL != "" {
			continue
		}
		index := "…/whl/" + p.Local // the PyTorch wheel index of that variant
		msg := fmt.Sprintf("%s (%s) pins the local version +%s, which only the PyTorch wheel index serves, but the pip section names no index: pip looks only at its default index and finds no matching distribution",
			pipText(p), place(p.Dep.Raw.Pos), p.Local)
		hint := fmt.Sprintf("add --extra-index-url %s (the PyTorch wheel index) as the first line of the pip section", index) + unpairedCompanion(c, p)
		d := diag(c.rule, p.Dep.Raw.Pos, msg, hint)
		if len(locals) == 1 && !dup[p.Dep] {
			d.Edits = extraIndexEdits(c, p.Local)
		}
		out = append(out, d)
	}
	return out
}

// unpairedCompanion adds to the index hint of a pinned torchvision or
// torchaudio that does not pair with the file's torch that the index alone
// does not make it install (review forty-six F38, corpus 016: torchvision
// 0.17.2+cu121 pairs with torch 2.2.2, beside torch 2.7.0, and each
// torchvision wheel requires its own torch).
func unpairedCompanion(c *Context, p pipItem) string {
	f := c.Stack.Framework
	if c.KB == nil || f == nil || f.Name != "pytorch" || f.Version == "" || (p.Name != "torchvision" && p.Name != "torchaudio") || p.Dep.Line == nil || p.Dep.Line.Req == nil {
		return ""
	}
	r, ok := c.KB.Release(stripLocal(f.Version))
	if !ok {
		return ""
	}
	want := companionOf(r, p.Name)
	have := ""
	for _, sp := range p.Dep.Line.Req.Specifiers {
		if sp.Op == "==" {
			have = stripLocal(sp.Version)
		}
	}
	if want == "" || have == "" || have == want {
		return ""
	}
	return fmt.Sprintf("; that alone does not make it install: %s %s is built for another torch release than the file's torch %s, which pairs with %s %s (EG203)", p.Name, have, stripLocal(f.Version), p.Name, want)
}

// anyIndexOption reports whether a pip section names an index or
// find-links page (any page may serve local versions).
func anyIndexOption(opts []pipOption) bool {
	for _, o := range opts {
		if isIndexOption(o.Name) {
			return true
		}
	}
	return false
}

// jaxlibCUDALocal reports whether a pip line pins one of jaxlib's CUDA
// builds (jaxlib==0.1.68+cuda111), which only JAX's find-links pages served.
func jaxlibCUDALocal(p pipItem) bool {
	return p.Name == "jaxlib" && strings.HasPrefix(p.Local, "cuda") && p.URL == ""
}

// jaxlibUnfindable says why pip cannot install the file's CUDA jaxlib
// (EG205: its pip section names no find-links page), or "".
func jaxlibUnfindable(env *envspec.Env) string {
	if env == nil || env.IsInstalled() || !indexNamed(env) {
		return ""
	}
	reqs, opts := pipItems(env)
	if anyIndexOption(opts) {
		return ""
	}
	for _, p := range reqs {
		if jaxlibCUDALocal(p) {
			return fmt.Sprintf("pip cannot install %s as the file writes it: only JAX's find-links page serves that build, and the pip section names none (EG205)", pipText(p))
		}
	}
	return ""
}

// publishedOnChannel reports whether the pytorch channel published a series.
func publishedOnChannel(k *kb.KB, series string) bool {
	v, ok := k.Variants(series, kb.DistPytorchConda)
	return ok && !v.NotPublished && (len(v.CUDA) > 0 || v.CPU)
}

// lastOnChannel is the newest series the pytorch channel published.
func lastOnChannel(k *kb.KB) string {
	last := ""
	for _, r := range k.Facts.Torch {
		if s := seriesOf(r.Version); publishedOnChannel(k, s) && (last == "" || compareVersions(s, last) > 0) {
			last = s
		}
	}
	return last
}

// unpublishedRelease records in the framework why the exact release the
// file asks the pytorch channel for does not exist there (EG205's fact),
// for the checks against targets: pytorch=2.7.1 with pytorch-cuda=11.8
// (corpus 146) names no build whose GPU code could be checked. Where
// conda-forge is listed too, flexible channel priority would take the
// release from it (as pastCondaForge reasons the other way round); its
// builds are named where none is of the CUDA the file pins, and where one
// is, the framework is left alone (which build comes is then not
// settled by this fact).
func (r *resolution) unpublishedRelease() {
	f := r.st.Framework
	if r.kb != nil && f != nil && f.Name == "pytorch" && f.Dist == kb.DistPytorchConda && f.Version == "" && len(f.Candidates) > 0 && strings.Contains(f.Item, "::") {
		// An open spec written with the channel (pytorch::pytorch>=2.7.0)
		// comes from that channel alone: where it published none of the
		// releases the spec admits, no build exists (review twelve #795,
		// corpus 096).
		for _, v := range f.Candidates {
			if publishedOnChannel(r.kb, seriesOf(v)) {
				return
			}
		}
		f.NotPublished = fmt.Sprintf("the pytorch channel published none of the releases %s admits (%s; its last release is %s: EG205)", strings.TrimSpace(f.Item), RangeOf(f.Candidates), lastOnChannel(r.kb))
		return
	}
	if r.kb == nil || f == nil || f.Name != "pytorch" || f.Dist != kb.DistPytorchConda || f.Version == "" {
		return
	}
	if _, ok := r.kb.Release(f.Version); !ok || publishedOnChannel(r.kb, seriesOf(f.Version)) {
		return
	}
	why := fmt.Sprintf("the pytorch channel never published pytorch %s (its last release is %s: EG205)", f.Version, lastOnChannel(r.kb))
	for _, n := range channelNames(r.env) {
		if n != "conda-forge" {
			continue
		}
		vs, ok := r.kb.Variants(seriesOf(f.Version), kb.DistCondaForge)
		if !ok || vs.NotPublished || (len(vs.Releases) > 0 && !contains(vs.Releases, f.Version)) {
			break // conda-forge has no such release either
		}
		if f.Variant != "cuda" || r.st.CUDA == nil || r.st.CUDA.Version == "" || contains(vs.CUDA, majorMinor(r.st.CUDA.Version)) {
			return // conda-forge may serve a build the file admits
		}
		what := "CUDA " + strings.Join(vs.CUDA, ", ")
		if vs.CPU {
			what += " and CPU"
		}
		why += fmt.Sprintf(", and conda-forge, also listed, built %s as %s builds only, none for the CUDA %s the file pins", f.Version, what, r.st.CUDA.Version)
		break
	}
	f.NotPublished = why
}

func eg205Channel(c *Context, f *Framework) []finding.Diagnostic {
	if f.Dist != kb.DistPytorchConda {
		return nil
	}
	versions := f.Candidates
	if f.Version != "" {
		if _, ok := c.KB.Release(f.Version); !ok {
			return nil // EG206
		}
		versions = []string{f.Version}
	}
	if len(versions) == 0 {
		return nil
	}
	for _, v := range versions {
		if publishedOnChannel(c.KB, seriesOf(v)) {
			return nil
		}
	}
	last := lastOnChannel(c.KB)
	what := fwLabel(f) + at(f.Pos)
	if f.Version == "" {
		what = f.Item + at(f.Pos) + " (admits " + RangeOf(versions) + ")"
	}
	msg := fmt.Sprintf("%s asks the pytorch channel for a release it never published: the channel's last release is %s", what, last)
	hint := "install pytorch from conda-forge or with pip, or pin a release the pytorch channel has (" + last + " or older)"
	return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg, hint)}
}

// eg205Variant checks that the CUDA version the framework's own items ask
// for is a variant its distribution publishes for that release.
func eg205Variant(c *Context, st *Stack) []finding.Diagnostic {
	f := st.Framework
	if f.Version == "" || f.Variant != "cuda" || (f.Dist != kb.DistPytorchConda && f.Dist != kb.DistWheel) {
		return nil
	}
	if _, ok := c.KB.Release(f.Version); !ok {
		return nil
	}
	v, ok := c.KB.Variants(f.Series(), f.Dist)
	if !ok || len(v.CUDA) == 0 {
		return nil
	}
	where := "the pytorch channel"
	if f.Dist == kb.DistWheel {
		where = "the PyTorch wheel index"
	}
	// Only the pin that decides the build is checked: a second pin that
	// disagrees with it is EG201's, and a pytorch-cuda version that never
	// existed is reported by eg205Packages.
	var out []finding.Diagnostic
	var pins []Evidence
	for _, e := range f.Pins {
		if e.Says != "cpu" {
			pins = append(pins, e)
		}
	}
	if e := reference(pins); e != nil {
		if !hasMinor(e.Says) || e.AtLeast || (e.Kind == EvidencePytorchCUDA && !contains(pytorchCUDAVersions(c.KB), e.Says)) {
			return nil
		}
		for _, cu := range v.CUDA {
			if majorMinor(cu) == e.Says {
				return nil
			}
		}
		msg := fmt.Sprintf("%s has no CUDA %s build on %s (it has CUDA %s), but %s%s asks for one",
			fwLabel(f), e.Says, where, strings.Join(v.CUDA, ", "), e.Item, at(e.Pos))
		hint := fmt.Sprintf("ask for one of CUDA %s, or a %s release built for CUDA %s", strings.Join(v.CUDA, ", "), f.Name, e.Says)
		out = append(out, newFinding(c.rule, e.Pos, e.EndCol, msg, hint, f.Pos))
	}
	return out
}

// eg205PythonVariant reports a CUDA variant of a release that its
// distribution publishes, but never built for the file's Python, where
// other variants of the release were (a torch_python_builds row that names
// only some CUDA variants). A row covering every variant is EG204's.
func eg205PythonVariant(c *Context, st *Stack) []finding.Diagnostic {
	f := st.Framework
	if f.Version == "" || f.Variant != "cuda" || st.Python == "" || st.CUDA == nil {
		return nil
	}
	r, ok := c.KB.Release(f.Version)
	if !ok {
		return nil
	}
	dp, ok := pythonBuildsFor(c, st, f.Version)
	if !ok || !dp.partial || dp.row.Supports(st.Python, r.Python, r.PythonExperimental) {
		return nil
	}
	var others []string
	if vs, ok := c.KB.Variants(f.Version, f.Dist); ok {
		for _, cu := range vs.CUDA {
			if !contains(dp.row.CUDA, majorMinor(cu)) {
				others = append(others, cu)
			}
		}
	}
	pos, end, item := st.PythonPos, 0, st.PythonItem
	if item == "" {
		item = "python " + st.Python
	}
	if e := reference(f.Pins); e != nil {
		pos, end, item = e.Pos, e.EndCol, e.Item
	}
	msg := fmt.Sprintf("%s has no CUDA %s build for Python %s on %s, but %s%s asks for one (CUDA %s builds of it were not made for Python %s)",
		fwLabel(f), st.CUDA.Version, st.Python, distWhere(f.Dist), item, at(pos), strings.Join(dp.row.CUDA, ", "), st.Python)
	hint := fmt.Sprintf("for Python %s ask for CUDA %s, or keep CUDA %s with a Python it was built for", st.Python, strings.Join(others, " or "), st.CUDA.Version)
	return []finding.Diagnostic{newFinding(c.rule, pos, end, msg, hint, f.Pos, st.PythonPos)}
}

// eg205Wrapper reports a wrapper metapackage (conda-forge's pytorch-gpu)
// pinned to a release whose upload for the file's Python and CUDA variant
// is missing, though the pytorch package of that build exists: the solver
// finds no pytorch-gpu for the pair, or (with the CUDA left open) takes the
// other variant's.
func eg205Wrapper(c *Context, st *Stack) []finding.Diagnostic {
	f := st.Framework
	if c.Env == nil || c.Env.IsInstalled() || f.Dist == "" || st.Python == "" || st.CUDA == nil || st.CUDA.Version == "" {
		return nil
	}
	var out []finding.Diagnostic
	for i, d := range c.Env.Deps {
		it := c.condaItem(i, d)
		if it == nil || it.exact == "" || (it.name != "pytorch-gpu" && it.name != "pytorch-cpu") {
			continue
		}
		row, ok := c.KB.PackagePythonBuilds(it.name, it.exact, f.Dist, st.CUDA.Version)
		if !ok || !contains(row.Missing, st.Python) {
			continue
		}
		msg := fmt.Sprintf("%s%s has no upload for Python %s with CUDA %s on %s, though pytorch %s itself was built for that pair: the solver finds no %s for this file",
			it.raw(), at(it.pos()), st.Python, st.CUDA.Version, distWhere(f.Dist), it.exact, it.name)
		hint := fmt.Sprintf("ask for the pytorch package's build in place of %s: pytorch=%s=cuda%s*", it.name, it.exact, strings.ReplaceAll(st.CUDA.Version, ".", ""))
		out = append(out, newFinding(c.rule, it.verPos(), int(it.verEnd), msg, hint, st.PythonPos))
	}
	return out
}

// eg205Packages checks CUDA package versions that never existed.
func eg205Packages(c *Context) []finding.Diagnostic {
	var out []finding.Diagnostic
	pc := pytorchCUDAVersions(c.KB)
	for i, d := range c.Env.Deps {
		it := c.condaItem(i, d)
		// Only these two name CUDA versions that may not exist; reading the
		// version of every other package would be wasted work.
		if it == nil || (it.name != "cudatoolkit" && it.name != "pytorch-cuda") {
			continue
		}
		r := &resolution{env: c.Env, kb: c.KB}
		v := r.cudaSeries(it.verText)
		if !hasMinor(v) {
			continue
		}
		switch it.name {
		case "cudatoolkit":
			// RULES.md EG205: cudatoolkit ends at 11.8; CUDA 12 ships as
			// cuda-version / cuda-toolkit.
			if majorOf(v) >= 12 {
				msg := fmt.Sprintf("%s%s asks for CUDA %s, but cudatoolkit ends at 11.8: CUDA 12 ships as cuda-version and cuda-toolkit", it.raw(), at(it.pos()), v)
				out = append(out, newFinding(c.rule, it.verPos(), int(it.verEnd), msg, "use cuda-version="+v+" (with cuda-toolkit or the cuda-* libraries you need)"))
			}
		case "pytorch-cuda":
			if len(pc) == 0 || contains(pc, v) {
				continue
			}
			out = append(out, pytorchCUDAUnpublished(c, it.raw(), it.pos(), it.verPos(), int(it.verEnd), v, pc))
		}
	}
	return out
}

// pytorchCUDAVersions are the pytorch-cuda versions the pytorch channel
// published: the CUDA variants of every series whose selector is
// pytorch-cuda (1.13–2.5; 1.12 selected the variant with cudatoolkit).
// pytorchCUDAVersions depends only on the knowledge base, so it is worked out
// once per KB rather than once per file.
func pytorchCUDAVersions(k *kb.KB) []string {
	if k == nil {
		return nil
	}
	if v, ok := pytorchCUDACache.Load(k); ok {
		return v.([]string)
	}
	out := computePytorchCUDAVersions(k)
	pytorchCUDACache.Store(k, out)
	return out
}

var pytorchCUDACache sync.Map // *kb.KB → []string

func computePytorchCUDAVersions(k *kb.KB) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range k.Facts.Torch {
		s := seriesOf(r.Version)
		if seen[s] {
			continue
		}
		seen[s] = true
		if v, ok := k.Variants(s, kb.DistPytorchConda); ok && strings.HasPrefix(v.Selector, "pytorch-cuda") {
			for _, cu := range v.CUDA {
				if !contains(out, majorMinor(cu)) {
					out = append(out, majorMinor(cu))
				}
			}
		}
	}
	sortVersions(out)
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// RangeOf renders versions as "2.6.0 … 2.11.0".
func RangeOf(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return vs[0] + " … " + vs[len(vs)-1]
}

// pytorchCUDAUnpublished reports a pytorch-cuda version the pytorch channel
// never published. The fix names the variants of the framework's own series
// when the knowledge base has them (a list of every pytorch-cuda ever made
// invites a pick the release does not have). A version below the oldest
// pytorch-cuda's major is no CUDA pytorch was ever built for: such files
// (pytorch-cuda=5.7 in a "-rocm" environment) mean a ROCm version, and
// pytorch-cuda cannot select a ROCm build, so the hint says where ROCm
// builds come from instead of proposing "CUDA 5.7".
func pytorchCUDAUnpublished(c *Context, raw string, pos, verPos finding.Pos, verEnd int, v string, pc []string) finding.Diagnostic {
	label := "pytorch-cuda " + strings.Join(pc, ", ")
	if f := stackFramework(c); f != nil && f.Name == "pytorch" && f.Version != "" && c.KB != nil {
		if vs, ok := c.KB.Variants(f.Series(), kb.DistPytorchConda); ok && strings.HasPrefix(vs.Selector, "pytorch-cuda") && len(vs.CUDA) > 0 {
			label = fmt.Sprintf("pytorch-cuda %s (the CUDA variants published for %s)", strings.Join(vs.CUDA, ", "), fwLabel(f))
		}
	}
	msg := fmt.Sprintf("%s%s: the pytorch channel never published pytorch-cuda %s (it has %s)", raw, at(pos), v, strings.Join(pc, ", "))
	hint := fmt.Sprintf("use one of %s, or take pytorch from pip or conda-forge for CUDA %s", label, v)
	if len(pc) > 0 && majorOf(v) < majorOf(pc[0]) {
		msg = fmt.Sprintf("%s%s: pytorch-cuda %s names no CUDA version pytorch was built for (pytorch-cuda exists for %s); a ROCm version cannot be selected with pytorch-cuda",
			raw, at(pos), v, strings.Join(pc, ", "))
		hint = fmt.Sprintf("for a CUDA build use %s; for a ROCm build drop pytorch-cuda and install torch with pip from the PyTorch ROCm wheel index (…/whl/rocmX.Y)", label)
	}
	return newFinding(c.rule, verPos, verEnd, msg, hint)
}

func stackFramework(c *Context) *Framework {
	if c == nil || c.Stack == nil {
		return nil
	}
	return c.Stack.Framework
}

// condaPipNames finds the conda dependencies that name a package by its
// PyPI name where no channel the file lists publishes a conda package of
// that name (torch, whose conda package is pytorch: review twenty-two F15,
// a pip freeze written as conda specs): conda stops with
// PackagesNotFoundError, so EG205 reports each and the targets are open on
// them (review thirty-nine F40, F41, corpus 166: torch=2.0.1 beside
// defaults). A channel the knowledge base does not speak for may have one,
// so a file listing such a channel, or none, is left alone. The resolver
// keeps them in Stack.NotFound.
func condaPipNames(env *envspec.Env, k *kb.KB) []PinConflict {
	if k == nil || env == nil {
		return nil
	}
	var out []PinConflict
	for _, d := range env.Deps {
		sp := d.Spec
		if sp == nil {
			continue
		}
		row, ok := k.CondaAbsent(sp.Name)
		if !ok {
			continue
		}
		var chans []string
		where := "none of the channels the file lists (%s) publishes a conda package called %s"
		if sp.Channel != "" {
			chans, where = []string{envspec.ChannelName(sp.Channel)}, "the channel it names (%s) publishes no conda package called %s"
		} else {
			for _, ch := range env.Channels {
				if n := envspec.ChannelName(ch.Value); n != "nodefaults" {
					chans = append(chans, n)
				}
			}
		}
		if len(chans) == 0 || slices.IndexFunc(chans, func(ch string) bool { return !row.Covers(ch) }) >= 0 {
			continue
		}
		// conda's spelling is the line with the name replaced; pip's keeps
		// a release or a plain range, and drops what pip has no word for
		// (a build, a glob, brackets)
		raw := d.Raw.Value
		at := 0
		if i := strings.Index(raw, "::"); i >= 0 {
			at = i + 2
		}
		conda := raw[:at] + strings.Replace(raw[at:], sp.Name, row.Conda, 1)
		pip := sp.Name + pipSpec(sp.Version.Raw())
		out = append(out, PinConflict{Pos: d.Raw.Pos, End: d.Raw.Pos.Col + len(d.Raw.Value),
			Why: fmt.Sprintf("%s (line %d) names the package by its PyPI name: %s (its conda package is %s), so conda stops with PackagesNotFoundError",
				d.Raw.Value, d.Raw.Pos.Line, fmt.Sprintf(where, strings.Join(chans, ", "), sp.Name), row.Conda),
			Hint: fmt.Sprintf("write %s, or move the line under `- pip:` as %s", conda, pip)})
	}
	return out
}

// pipSpec writes a conda version spec as pip's, where it is a release
// ("2.0.1", "=2.0.1": "==2.0.1"; "=2.0": "==2.0.*") or a plain range
// (">=2,<3"), and as nothing otherwise (a glob, a build), which pip
// cannot say.
func pipSpec(v string) string {
	v = strings.TrimSpace(v)
	if r := strings.TrimSuffix(strings.TrimSuffix(strings.TrimLeft(v, "="), "*"), "."); pipRelease.MatchString(r) {
		if strings.HasSuffix(v, "*") && strings.Count(r, ".") < 2 {
			return "==" + r + ".*" // conda's =2.0 is every 2.0.x
		}
		return "==" + r
	}
	if pipRange.MatchString(v) {
		return v
	}
	return ""
}

var (
	pipRelease = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)
	pipRange   = regexp.MustCompile(`^(>=|<=|>|<|!=)[0-9]+(\.[0-9]+)*(,(>=|<=|>|<|!=)[0-9]+(\.[0-9]+)*)*$`)
)
