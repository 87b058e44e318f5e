package resolver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// This file holds what TensorFlow and JAX add to the rules and the
// resolution: keras as TensorFlow's companion (EG203), conda-forge TensorFlow judged against conda-forge's
// own builds (EG208), and the CUDA evidence of JAX's pip packages (the
// jax-cudaNN plugins, jaxlib's +cuda local versions, the jax_releases.html
// find-links pages).

// envItems reads every conda and pip item of the file as Resolve does,
// once per Context: several rules walk them, and only read them.
func envItems(c *Context) []*item {
	if c == nil || c.Env == nil {
		return nil
	}
	if c.Stack != nil && c.Stack.conda != nil {
		return c.Stack.items // Resolve read them
	}
	if !c.itemsRead {
		c.items, c.itemsRead = readEnvItems(c), true
	}
	return c.items
}

func readEnvItems(c *Context) []*item {
	var out []*item
	for i, d := range c.Env.Deps {
		if it := c.condaItem(i, d); it != nil {
			out = append(out, it)
		}
	}
	for _, d := range c.Env.Pip {
		if it := readPipItem(d); it != nil {
			out = append(out, it)
		}
	}
	return out
}

// eg203Keras holds a pinned keras against the keras the TensorFlow release
// takes (keras 2.X for TensorFlow 2.X from 2.6 to 2.15, Keras 3 from 2.16:
// the knowledge base's keras table). tf-keras is another package and is not
// judged here.
func eg203Keras(c *Context) []finding.Diagnostic {
	f := c.Stack.Framework
	versions := f.Candidates
	if f.Version != "" {
		versions = []string{f.Version}
	}
	var pairs []*kb.KerasPair
	for _, v := range versions {
		if p, ok := c.KB.KerasFor(v); ok {
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 0 || len(pairs) != len(versions) {
		return nil // a release without a row (before 2.6, or unknown) is not judged
	}
	var out []finding.Diagnostic
	for _, it := range envItems(c) {
		if it.name != "keras" || it.verText == "" {
			continue
		}
		ok := false
		for _, p := range pairs {
			if it.exact != "" && admits(p.Keras, it.exact) {
				ok = true
			}
			if it.exact == "" && kerasSpecsMeet(it.verText, p.Keras) {
				ok = true
			}
		}
		if ok {
			continue
		}
		want := pairs[len(pairs)-1]
		use := kerasReq(want.Keras, it.from() == envspec.ProviderPip)
		var msg string
		if f.Version != "" {
			msg = fmt.Sprintf("%s%s does not belong to %s%s, which takes keras %s; use %s",
				it.label(), at(it.pos()), fwLabel(f), at(f.Pos), want.Keras, use)
		} else {
			msg = fmt.Sprintf("%s%s belongs to none of the releases %s%s admits (they take keras %s); use %s",
				it.label(), at(it.pos()), f.Item, at(f.Pos), want.Keras, use)
		}
		if want.Note != "" && strings.HasPrefix(want.TensorFlow, "2.6") {
			msg += " (2.6.0 and 2.6.1 declare keras ~=2.6, which lets pip install keras 2.7 and breaks them)"
		}
		hint := fmt.Sprintf("change line %d to %s (the keras that %s takes)", it.pos().Line, use, fwLabel(f))
		out = append(out, newFinding(c.rule, it.verPos(), int(it.verEnd), msg, hint, f.Pos))
	}
	return out
}

// kerasReq writes the keras requirement a table spec (">=2.12,<2.13",
// ">=3.0") stands for, in the item's own syntax: keras==2.12.* for pip,
// keras=2.12 for conda (2.12.*), keras>=3.0 for either.
func kerasReq(spec string, pip bool) string {
	lo, hi, _ := strings.Cut(strings.TrimPrefix(spec, ">="), ",<")
	switch {
	case hi == "":
		return "keras>=" + lo
	case pip:
		return "keras==" + lo + ".*"
	}
	return "keras=" + lo
}

// kerasSpecsMeet reports whether an open keras spec admits some release in
// the table's range: it admits the range's lower bound, a .x of it, or the
// spec's own lower bound lies in the range.
func kerasSpecsMeet(spec, want string) bool {
	lo, hi, _ := strings.Cut(strings.TrimPrefix(want, ">="), ",<")
	for _, v := range []string{lo + ".0", lo + ".1", lo + ".2", lo + ".3", lo + ".4", lo + ".5", lo + ".6", lo + ".7", lo + ".8", lo + ".9", lo + ".10", lo + ".11", lo + ".12"} {
		if admits(spec, v) && admits(want, v) {
			return true
		}
	}
	if hi == "" {
		// an open upper range (>=3.0): any 3.x the spec admits
		for m := 0; m <= 30; m++ {
			v := fmt.Sprintf("%d.%d.0", majorOf(lo), m)
			if admits(spec, v) && admits(want, v) {
				return true
			}
		}
	}
	return false
}

// buildCUDA sets the CUDA the framework build was compiled with where it is
// not the runtime's (Framework.BuildCUDA). A pip TensorFlow wheel is one
// build per release and platform, made with its tested build
// configuration's CUDA (TF_SOURCE): `tensorflow==2.1.0` is the CUDA 10.1
// build whatever cudatoolkit the file pins, so its architecture row is
// the 2.1/10.1 one, and a cudatoolkit of another version is EG208's
// (tfUnloadableCUDA withholds the name where TensorFlow cannot load it).
// A conda-forge build string for "CUDA X.Y or a newer X.x" (AtLeast) was
// compiled with X.Y whatever cuda-version picks the runtime.
func (r *resolution) buildCUDA() {
	f := r.st.Framework
	if f == nil || f.Variant == "cpu" || f.Variant == "rocm" {
		return
	}
	if f.Name == "tensorflow" && f.From == envspec.ProviderPip && f.Version != "" && r.kb != nil {
		if cfg, ok := r.kb.TensorFlow(f.Version); ok && cfg.CUDA != "" {
			f.BuildCUDA = majorMinor(cfg.CUDA)
		}
		return
	}
	if r.st.CUDA == nil {
		return
	}
	for _, e := range r.st.CUDA.Evidence {
		if e.Kind == EvidenceBuild && e.AtLeast && e.Says != "" && e.Pos.Line == f.Pos.Line {
			f.BuildCUDA = e.Says
			return
		}
	}
}

// tfGPUCapable says whether a pip TensorFlow item installs a build with GPU
// support on Linux: tensorflow-gpu always; tensorflow from 1.15 (not 2.0)
// and from 2.1 on, per the pip guide of the time (TF_PIP_HIST); an unpinned
// tensorflow gets the newest release, which has it.
func tfGPUCapable(it *item) bool {
	switch it.name {
	case "tensorflow-gpu":
		return true
	case "tensorflow":
	default:
		return false
	}
	for _, e := range it.extras() {
		if pep503(e) == "and-cuda" {
			return true
		}
	}
	v := it.exact
	if v == "" {
		t := strings.TrimSpace(it.verText)
		series := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(t, "=="), "="), ".*")
		switch {
		case t == "":
			return true
		case strings.HasSuffix(t, ".*") && !strings.ContainsAny(series, ",|<>!~=*"):
			// one series (==2.13.*): its releases agree
			v = series
		case strings.HasPrefix(t, ">=") && !strings.ContainsAny(t[2:], ",|<>!~="):
			// a lower bound alone (>=2.4): its releases agree from 2.1 on
			if v = leadingVersion(t[2:]); v == "" {
				return false
			}
			if c, ok := kb.CompareDotted(majorMinor(v), "2.1"); !ok || c < 0 {
				return false
			}
		default:
			// other ranges may mix CPU-only and GPU releases, so say no
			return false
		}
	}
	if c, ok := kb.CompareDotted(majorMinor(v), "1.15"); ok && c == 0 {
		return true
	}
	c, ok := kb.CompareDotted(majorMinor(v), "2.1")
	return ok && c >= 0
}

// eg208CondaForge judges a conda-forge TensorFlow against what conda-forge
// built the release with (its cudaXYZ variants and the cuDNN major each was
// built against, whose run_exports the package then requires), not against
// TensorFlow's pip-tested configuration. handled is false where the
// knowledge base has no conda-forge rows for the release: the caller then
// holds it to nothing.
func eg208CondaForge(c *Context) (out []finding.Diagnostic, handled bool) {
	st := c.Stack
	f := st.Framework
	rows := c.KB.TensorFlowCondaForge(f.Version)
	if len(rows) == 0 {
		return nil, false
	}
	var cudas []string
	for _, r := range rows {
		cudas = append(cudas, "cuda"+strings.ReplaceAll(r.CUDA, ".", ""))
	}
	built := fmt.Sprintf("conda-forge built tensorflow %s for %s", rows[0].Version, strings.Join(cudas, ", "))
	fits := rows
	if st.CUDA != nil {
		if a := authority(st.CUDA.Evidence); a != nil && a.Kind != EvidenceDefault && hasMinor(a.Says) {
			fits = nil
			for _, r := range rows {
				if cfServes(r.CUDA, a.Says, a.Kind == EvidenceBuild) {
					fits = append(fits, r)
				}
			}
			if len(fits) == 0 {
				msg := fmt.Sprintf("%s: %s, and no build of it serves CUDA %s", describeCUDA(*a), built, a.Says)
				if a.Kind == EvidenceBuild {
					msg = fmt.Sprintf("%s%s asks for a cuda%s build, but %s only", itemAtLine(c, a.Pos, f.Item), at(a.Pos), strings.ReplaceAll(a.Says, ".", ""), built)
				}
				hint := fmt.Sprintf("use a CUDA version one of these builds serves (a build for CUDA X.Y serves X.Y and newer X.x from CUDA 11 on): %s", strings.Join(cudas, ", "))
				out = append(out, newFinding(c.rule, a.Pos, a.EndCol, msg, hint, f.Pos))
				return out, true
			}
		}
	}
	if st.CuDNN != "" {
		major := strconv.Itoa(majorOf(st.CuDNN))
		ok := false
		var majors []string
		for _, r := range fits {
			for _, d := range r.CuDNN {
				if d == major {
					ok = true
				}
				majors = appendNew(majors, d)
			}
		}
		if !ok {
			msg := fmt.Sprintf("%s%s installs cuDNN %s: %s, built against cuDNN %s (its run_exports require that major)",
				itemAtLine(c, st.CuDNNPos, "cudnn"), at(st.CuDNNPos), st.CuDNN, built, strings.Join(majors, " or "))
			hint := fmt.Sprintf("use cudnn=%s on line %d (the cuDNN major conda-forge built %s with), or leave cudnn unpinned", majors[len(majors)-1], st.CuDNNPos.Line, fwLabel(f))
			out = append(out, newFinding(c.rule, st.CuDNNPos, 0, msg, hint, f.Pos))
		}
	}
	return out, true
}

// cfServes reports whether a conda-forge build for CUDA built serves the
// CUDA version want. A build string names its own variant (exact match);
// otherwise a build for X.Y serves X.Y and, from CUDA 11 on (minor-version
// compatibility, NV_COMPAT), every newer X.x.
func cfServes(built, want string, exact bool) bool {
	if built == want {
		return true
	}
	if exact || majorOf(built) != majorOf(want) || majorOf(built) < 11 {
		return false
	}
	return cudaMinorOf(want) >= cudaMinorOf(built)
}

func appendNew(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

// decodeJaxlibTag reads the local version of an old CUDA jaxlib wheel:
// cuda111 (CUDA 11.1), cuda102, cuda11.cudnn82 and cuda12.cudnn89 (CUDA
// major 11 or 12 with a cuDNN floor), nocuda (CPU). JAX_README_HIST and
// JAX_CHANGELOG name them (jaxlib==0.1.69+cuda111, jax[cuda11_cudnn82]).
func decodeJaxlibTag(t string) Accel {
	t = strings.ToLower(t)
	switch {
	case t == "nocuda" || t == "cpu":
		return Accel{Variant: "cpu"}
	case !strings.HasPrefix(t, "cuda"):
		return Accel{}
	}
	rest := t[4:]
	d := leadingDigits(rest)
	if d == "" {
		return Accel{Variant: "cuda"}
	}
	if len(d) <= 2 && (len(rest) == len(d) || rest[len(d)] == '.') {
		m, _ := strconv.Atoi(d)
		a := Accel{Variant: "cuda", Major: m}
		if i := strings.Index(rest, "cudnn"); i >= 0 {
			a.CuDNN = cudnnDigits(leadingDigits(rest[i+5:]))
		}
		return a
	}
	if c := cuDigits(d); c != "" {
		return Accel{Variant: "cuda", CUDA: c, Major: majorOf(c)}
	}
	return Accel{}
}

// cudnnDigits reads the cuDNN of a jaxlib tag: cudnn82 → 8.2, cudnn805 →
// 8.0.5 (JAX_CHANGELOG 0.1.73 names both), cudnn89 → 8.9.
func cudnnDigits(d string) string {
	switch len(d) {
	case 2:
		return d[:1] + "." + d[1:]
	case 3:
		return d[:1] + "." + d[1:2] + "." + d[2:]
	}
	return ""
}

// isJaxFindLinks reports whether a URL is one of JAX's old find-links pages
// of CUDA jaxlib wheels: jax_releases.html (the GPU install command up to
// 2022-06) and jax_cuda_releases.html (after the split, e780a402).
func isJaxFindLinks(url string) bool {
	u := strings.ToLower(url)
	return strings.Contains(u, "jax-releases/jax_releases.html") || strings.Contains(u, "jax-releases/jax_cuda_releases.html")
}

// jaxPipEvidence is what a pip item of a JAX environment says about CUDA
// beyond the jax item itself: a jax-cudaNN plugin or pjrt package (CUDA
// major NN: the variant is CUDA), a jaxlib with a +cuda local version, or an
// NVIDIA CUDA wheel (its CUDA major, but no variant: without a plugin or a
// CUDA jaxlib it serves nothing of JAX's).
func jaxPipEvidence(it *item) (Evidence, bool, bool) {
	e := Evidence{Item: it.label(), Pos: it.pos(), Line: it.pos().Line, Package: it.name, Version: it.exact}
	switch {
	case strings.HasPrefix(it.name, "jax-cuda") || strings.HasPrefix(it.name, "jaxlib-cuda"):
		a := DecodePipName(it.name, nil)
		if a.Major == 0 {
			return e, false, false
		}
		e.Kind, e.Says = EvidencePackage, a.Says()
		return e, true, true
	case it.name == "jaxlib" && it.local != "":
		a := decodeJaxlibTag(it.local)
		if a.Variant == "" {
			return e, false, false
		}
		e.Kind, e.Says = EvidenceLocal, a.Says()
		e.Pos, e.EndCol = it.verPos(), int(it.verEnd)
		return e, true, true
	case strings.HasPrefix(it.name, "nvidia-"):
		a := DecodePipName(it.name, nil)
		if a.Major == 0 {
			return e, false, false
		}
		e.Kind, e.Says = EvidencePackage, a.Says()
		// The CUDA runtime wheel pinned exactly is the runtime JAX loads:
		// nvidia-cuda-runtime-cu12==12.6.77 says 12.6, not just 12.
		if strings.HasPrefix(it.name, "nvidia-cuda-runtime-cu") && it.exact != "" {
			if mm := seriesOf(it.exact); strings.Count(mm, ".") == 1 && majorOf(mm) == a.Major {
				e.Says = mm
			}
		}
		return e, false, true
	}
	return e, false, false
}

// jaxIndexEvidence adds the jax_releases.html find-links pages of a JAX
// environment as CUDA evidence that pins the variant (no version).
func (r *resolution) jaxIndexEvidence(add addFunc) {
	for _, d := range r.env.Pip {
		o := pipOpt(d)
		if o == nil || !isIndexOption(o.Name) || !isJaxFindLinks(o.Value) {
			continue
		}
		e := Evidence{Item: d.Raw.Value, Pos: d.Raw.Pos, Line: d.Raw.Pos.Line, Kind: EvidenceIndex, Says: "cuda", Package: o.Name}
		add(e, true)
	}
}

// cudaMajorName is the accelerator part of a JAX name whose CUDA is known
// only by its major (jax[cuda12], jax-cuda12-plugin, jaxlib+cuda12.cudnn89):
// cu12. JAX's CUDA 12 wheels serve every CUDA 12.x from 12.1 (JAX_INSTALL),
// so the minor is not the package's to say. "" when no item names a major.
func cudaMajorName(st *Stack) string {
	if st == nil || st.CUDA == nil {
		return ""
	}
	// the items that pin the variant decide; NVIDIA wheels beside them only
	// when nothing else names a major
	var a *Evidence
	if st.Framework != nil {
		a = authority(st.Framework.Pins)
	}
	if a == nil {
		a = authority(st.CUDA.Evidence)
	}
	if a == nil || hasMinor(a.Says) || majorOf(a.Says) == 0 {
		return ""
	}
	return "cu" + strconv.Itoa(majorOf(a.Says))
}

// tfWheelCUDA is the CUDA evidence an installed pip TensorFlow gets from
// the NVIDIA CUDA wheels installed beside it. A prefix does not record the
// [and-cuda] extra it was installed with, but from the release that has
// the extra (tensorflow_pip_cuda) TensorFlow's shared libraries carry
// RPATH entries into those wheels: TensorFlow's cuda_rpath_flags
// ("rpath linker flags for use with nvidia wheel-packaged libs available
// from PyPI", tensorflow/tensorflow tensorflow/tsl/platform/default/
// cuda_build_defs.bzl, stored copy at commit 323e5b42) gives each CUDA
// library target -Wl,-rpath='$ORIGIN/../../nvidia/<lib>/lib' (and
// '$ORIGIN/../nvidia/<lib>/lib'), the site-packages/nvidia/<lib>/lib
// folders the nvidia-*-cuXX wheels install. So the CUDA runtime wheel
// (nvidia-cuda-runtime-cuXX) is the runtime TensorFlow loads, when the
// cuDNN wheel is there too (TensorFlow uses the GPU only with both) and
// its CUDA major is the one the release was built with. The evidence is
// on the runtime wheel's item and says its installed CUDA version.
func (r *resolution) tfWheelCUDA(it *item) (Evidence, bool) {
	f := r.st.Framework
	if r.kb == nil || f == nil || f.Name != "tensorflow" || f.From != envspec.ProviderPip || f.Version == "" ||
		!strings.HasPrefix(it.name, "nvidia-cuda-runtime-cu") || it.from() != envspec.ProviderPip {
		return Evidence{}, false
	}
	if _, ok := r.kb.TensorFlowPipCUDA(f.Version); !ok {
		return Evidence{}, false
	}
	a := DecodePipName(it.name, nil)
	c, ok := r.kb.TensorFlow(f.Version)
	if a.Major == 0 || !ok || majorOf(c.CUDA) != a.Major {
		return Evidence{}, false
	}
	cudnn := false
	for _, o := range r.items {
		cudnn = cudnn || (o.from() == envspec.ProviderPip && o.name == "nvidia-cudnn-cu"+strconv.Itoa(a.Major))
	}
	if !cudnn {
		return Evidence{}, false
	}
	says := a.Says()
	if mm := seriesOf(it.exact); strings.Count(mm, ".") == 1 && majorOf(mm) == a.Major {
		says = mm
	}
	return Evidence{Item: it.label() + " (the CUDA runtime wheel tensorflow " + f.Version + " loads)", Pos: it.pos(), Line: it.pos().Line,
		Kind: EvidencePackage, Says: says, Package: it.name, Version: it.exact}, true
}
