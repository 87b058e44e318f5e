package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// eg201Kinds are the sources RULES.md lists for EG201.
var eg201Kinds = map[string]bool{
	EvidenceInstalled: true, EvidenceBuild: true, EvidenceLocal: true, EvidenceIndex: true,
	EvidencePytorchCUDA: true, EvidenceCUDAVersion: true, EvidenceCudatoolkit: true, EvidenceCUDAPackage: true,
}

// ruleEG201 reports two sources that disagree on the CUDA version. Each
// disagreeing item gets one finding at its version, with Related pointing at
// the item it disagrees with (the most authoritative one: the installed or
// built framework first, then pip local versions, wheel indexes,
// pytorch-cuda, cuda-version, cudatoolkit and the cuda-* packages).
var ruleEG201 = &Rule{
	Rule: finding.Rule{
		Code:     "EG201",
		Name:     "cuda-version-mismatch",
		Severity: finding.SeverityError,
		Fixable:  finding.FixSafe,
		Title:    "two sources disagree on the CUDA version",
		Why: "A framework build runs only on the CUDA runtime it was built for. When its build string, " +
			"pytorch-cuda, cudatoolkit, cuda-version, a +cuXXX wheel or a wheel index name different CUDA " +
			"versions, the solve fails, or two runtimes end up in one environment and the job crashes at the first kernel.",
		Fix:    "Make every item name the CUDA version of the framework build (or pick the build for the CUDA you want).",
		Before: "dependencies:\n  - pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0\n  - nvidia::cudatoolkit=11.3\n",
		After:  "dependencies:\n  - pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0\n  - nvidia::cudatoolkit=11.6\n",
		Since:  "0.1.0",
	},
	run: runEG201,
}

func runEG201(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.CUDA == nil {
		return nil
	}
	consumer := cudaConsumer(c)
	bundled := bundlesCUDA(st.Framework)
	var ev []Evidence
	for _, e := range st.CUDA.Evidence {
		if !eg201Kinds[e.Kind] || majorOf(e.Says) == 0 {
			continue
		}
		// Beside a framework that brings its own CUDA runtime (pip torch
		// wheels), conda's CUDA packages and another framework's conda build
		// serve the other GPU libraries of the environment (openmm,
		// faiss-gpu, cupy...): that is not a disagreement about the
		// framework's CUDA. EG302 says what two runtimes in one process mean.
		// cuda-version is never one: it constrains only conda packages, and
		// a pip wheel's CUDA is not among them (issue 26, corpus 016).
		if bundled && (consumer != nil && condaCUDAKinds[e.Kind] || e.Kind == EvidenceCUDAVersion) {
			continue
		}
		if bundled && e.Kind == EvidenceBuild && frameworkOfName(e.Package) != "" && frameworkOfName(e.Package) != st.Framework.Name {
			continue
		}
		ev = append(ev, e)
	}
	rng := eg201PytorchCUDARange(c, ev)
	a := reference(ev)
	if a == nil {
		return rng
	}
	out := rng
	runtimeAgrees := false
	for _, e := range ev {
		if e.Kind == EvidenceCUDAPackage && (e.Package == "cuda-cudart" || e.Package == "cuda-runtime") && !cudaConflict(*a, e) {
			runtimeAgrees = true
		}
	}
	for _, e := range ev {
		if e.Pos == a.Pos && e.Item == a.Item || !cudaConflict(*a, e) || reported(rng, e.Pos) {
			continue
		}
		// cuda-version is a constraint marker, not the runtime. pytorch-cuda
		// constrains cuda-cudart, cuda-runtime and cuda-libraries to its minor
		// but not cuda-version (pytorch/builder conda/pytorch-cuda/meta.yaml),
		// so an unbounded dependency such as cuda-opencl can pull a newer
		// cuda-version into the same solve. When cuda-cudart or cuda-runtime
		// agrees with the framework build, the runtime the process loads is
		// the right one and the newer cuda-version is not a disagreement.
		if e.Kind == EvidenceCUDAVersion && runtimeAgrees {
			continue
		}
		if bundled && (a.Kind == EvidenceLocal || a.Kind == EvidenceIndex) && (condaCUDAKinds[e.Kind] || e.Kind == EvidencePytorchCUDA) {
			// a pip torch wheel against conda's CUDA: matching conda's
			// toolkit to the wheel fixes nothing (review 4 #1023)
			why, hint := pipWheelCUDAFix(c, e)
			msg := fmt.Sprintf("%s but %s; %s", describeCUDA(*a), describeCUDA(e), why)
			if c.Stack.ExportedElsewhere != "" && a.Kind == EvidenceLocal {
				// the wheel read is the checked platform's (review
				// forty-five F18, 016: a Windows export, where the
				// index's torch 2.7.0 is the CPU build)
				on := c.Env.Platform
				if on == "" {
					on = "this platform"
				}
				msg += fmt.Sprintf(" (as read for %s; %s)", on, c.Stack.ExportedElsewhere)
			}
			out = append(out, newFinding(c.rule, e.Pos, e.EndCol, msg, hint, a.Pos))
			continue
		}
		want := a.Says
		fix := fixCUDA(e, want)
		// certain: the fix is fixCUDA's "use X=want", which alignCUDAEdits
		// can write; a removal or a rebuild is the user's call
		certain := true
		// pytorch-cuda pulls the CUDA libraries of its own minor
		// (cuda-libraries, cuda-cudart, ... in pytorch/builder
		// conda/pytorch-cuda/meta.yaml): a cudatoolkit beside an agreeing
		// pytorch-cuda is a second copy, so the fix is to drop it.
		// A package that another one requires is never to be removed: the
		// hint would make the environment unsolvable (openmm and faiss-gpu
		// depend on cudatoolkit); then its version is what to change.
		if sel := channelSelector(c); (e.Kind == EvidenceCudatoolkit || a.Kind == EvidencePytorchCUDA) && strings.HasPrefix(sel, "cudatoolkit") {
			// up to 1.12 cudatoolkit selects the build and pytorch-cuda
			// selects nothing: the package to drop is pytorch-cuda
			for _, o := range ev {
				if o.Kind == EvidencePytorchCUDA {
					fix = fmt.Sprintf("remove %s (%s): %s's builds are selected by cudatoolkit and ignore pytorch-cuda, which only adds CUDA %s libraries", o.Item, place(o.Pos), fwLabel(st.Framework), o.Says)
					certain = false
					break
				}
			}
		} else if e.Kind == EvidenceCudatoolkit && consumer == nil {
			for _, o := range ev {
				if o.Kind == EvidencePytorchCUDA && !cudaConflict(*a, o) {
					fix = fmt.Sprintf("remove %s (%s): %s (%s) already installs the CUDA %s libraries", e.Item, place(e.Pos), o.Item, place(o.Pos), o.Says)
					certain = false
					break
				}
			}
		} else if e.Kind == EvidenceCudatoolkit && majorOf(want) < 12 {
			fix = fmt.Sprintf("use %s=%s (%s needs cudatoolkit, so keep it)", e.Package, want, consumer.Raw.Value)
		}
		// a consumer built for the old CUDA (faiss-gpu=…_cuda11.3)
		// requires that cudatoolkit: its build must change with it, also
		// where cudatoolkit selects the framework's build (pytorch 1.12)
		if f, ok := consumerBuildFix(c, st.Framework, e, consumer, want); ok {
			fix, certain = f, false
		}
		if f, ok := companionReleaseFix(c, e, want); ok {
			fix, certain = f, false
		}
		if certain {
			if f, ok := eg201Unsolvable(c, ev, e, want, bundled); ok {
				fix, certain = f, false
			}
		}
		msg := fmt.Sprintf("%s but %s; %s", describeCUDA(*a), describeCUDA(e), fix)
		hint := fmt.Sprintf("%s, or change %s to the CUDA version you want", fix, a.Item)
		d := newFinding(c.rule, e.Pos, e.EndCol, msg, hint, a.Pos)
		if certain {
			d.Edits = alignCUDAEdits(c, e, want)
		}
		out = append(out, d)
	}
	return out
}

// reference is the item the others are held against: the framework's own
// build (installed, build string, wheel tag or index) before the packages
// around it, so the fix names the package to change. It differs from
// authority, which prefers an exact CUDA pin over a "this minor or newer"
// build when deciding the runtime.
func reference(es []Evidence) *Evidence {
	var best *Evidence
	for i := range es {
		e := &es[i]
		if majorOf(e.Says) == 0 {
			continue
		}
		if best == nil || evidenceOrder[e.Kind] < evidenceOrder[best.Kind] {
			best = e
		}
	}
	return best
}

// condaCUDAKinds are the evidence kinds of conda's CUDA packages.
var condaCUDAKinds = map[string]bool{EvidenceCudatoolkit: true, EvidenceCUDAVersion: true, EvidenceCUDAPackage: true, EvidencePytorchCUDA: false}

// cudaConsumer is the first conda dependency that needs conda's CUDA
// runtime other than the primary framework itself, nil when none.
func cudaConsumer(c *Context) *envspec.CondaDep {
	if c == nil || c.Env == nil {
		return nil
	}
	primary := ""
	if f := stackFramework(c); f != nil {
		primary = f.Name
	}
	for _, it := range c.condaList() {
		if !names(c.KB).IsCUDAConsumer(it.Name) {
			continue
		}
		if fw := frameworkOfName(it.Name); fw != "" && fw == primary {
			continue
		}
		return it.Dep
	}
	return nil
}

// consumerBuild decodes the build string a consumer pins, if any.
func consumerBuild(d *envspec.CondaDep) Accel {
	if d == nil || d.Spec == nil {
		return Accel{}
	}
	return DecodeBuild(d.Spec.Build)
}

// condaBuildCUDAs lists the CUDA toolkits the knowledge base's conda rows
// give builds of a consumer's pinned release, in row order.
// consumerBuildFix is the fix where a package that needs cudatoolkit
// (faiss-gpu=1.7.3=…_cuda11.3) was built for another CUDA than the
// framework's: changing cudatoolkit alone would leave the consumer without
// its own, so the builds of both must meet at one CUDA, and where the
// knowledge base lists both sides' CUDA variants it names them, or says that
// none is shared and a release must change (review thirty-one F35, 108).
func consumerBuildFix(c *Context, fw *Framework, e Evidence, consumer *envspec.CondaDep, want string) (string, bool) {
	if e.Kind != EvidenceCudatoolkit || consumer == nil || majorOf(want) >= 12 {
		return "", false
	}
	b := consumerBuild(consumer)
	if b.CUDA == "" || b.CUDA == want {
		return "", false
	}
	// the hint names no build for the framework's CUDA: one suggested
	// without a row may not exist (faiss-gpu 1.7.3 had none for CUDA 11.7:
	// corpus 108); where the knowledge base has the release's conda builds,
	// it says which CUDA they serve
	name, ver := consumerName(consumer), consumer.Spec.Version.String()
	keep := fmt.Sprintf("keep %s (%s needs it, and is built for CUDA %s)", e.Package, consumer.Raw.Value, b.CUDA)
	cs := condaBuildCUDAs(c.KB, consumer)
	fwCUDA, shared, ok := sharedCUDAs(c.KB, fw, cs)
	switch {
	case ok && len(shared) == 0:
		return fmt.Sprintf("%s; no CUDA version has builds of both: %s was built for CUDA %s and %s %s for CUDA %s, so change the release of one of them",
			keep, fwLabel(fw), strings.Join(fwCUDA, ", "), name, ver, strings.Join(cs, ", ")), true
	case ok:
		return fmt.Sprintf("%s; pick builds of %s and %s %s for CUDA %s, which both were published for",
			keep, fwLabel(fw), name, ver, strings.Join(shared, " or ")), true
	}
	known := "envguard's knowledge base lists no " + name + " builds"
	if len(cs) > 0 {
		known = "envguard's knowledge base lists " + name + " " + ver + " builds for CUDA " + strings.Join(cs, ", ") + " only"
	}
	return fmt.Sprintf("%s; %s, so pick builds of %s and %s for one CUDA version that both were published for", keep, known, fwLabel(fw), name), true
}

// sharedCUDAs holds the CUDA variants the knowledge base lists for the
// framework's series on its distribution against a consumer's build CUDAs:
// the framework's and the ones both have. ok is false where either list is
// not known.
func sharedCUDAs(k *kb.KB, fw *Framework, consumer []string) (fwCUDA, shared []string, ok bool) {
	if k == nil || fw == nil || len(consumer) == 0 || fw.Series() == "" {
		return nil, nil, false
	}
	v, found := k.Variants(fw.Series(), fw.Dist)
	if !found || v.NotPublished || len(v.CUDA) == 0 {
		return nil, nil, false
	}
	for _, cu := range v.CUDA {
		if contains(consumer, cu) {
			shared = append(shared, cu)
		}
	}
	return v.CUDA, shared, true
}

func condaBuildCUDAs(k *kb.KB, d *envspec.CondaDep) []string {
	if k == nil || d == nil || d.Spec == nil || d.Spec.Version == nil {
		return nil
	}
	var out []string
	for _, b := range k.ExtensionBuildsOf(consumerName(d), d.Spec.Version.String()) {
		if _, ok := kb.CondaBuildChannel[b.Dist]; !ok {
			continue
		}
		for _, cu := range b.CUDA {
			if !contains(out, cu) {
				out = append(out, cu)
			}
		}
	}
	return out
}

func consumerName(d *envspec.CondaDep) string {
	if d.Spec != nil && d.Spec.Name != "" {
		return strings.ToLower(d.Spec.Name)
	}
	return d.Raw.Value
}

// bundlesCUDA reports whether the framework brings its own CUDA runtime
// rather than conda's: pip torch wheels carry it (bundled, or as nvidia-*
// wheels).
func bundlesCUDA(f *Framework) bool {
	return f != nil && f.Name == "pytorch" && f.From == envspec.ProviderPip
}

// eg201PytorchCUDARange reports a pytorch-cuda range beside an exact CUDA
// pin of another package. The solver takes the newest pytorch-cuda the
// range admits for the release (the pytorch channel's variants), and
// pytorch-cuda installs the cuda-* libraries of its own version whatever
// cudatoolkit or cuda-version say: `pytorch-cuda>=11.7` with
// `cudatoolkit==11.7` ends with CUDA 11.8 from pytorch-cuda and 11.7 from
// cudatoolkit in one prefix.
func eg201PytorchCUDARange(c *Context, ev []Evidence) []finding.Diagnostic {
	if c.KB == nil || c.Env == nil {
		return nil
	}
	var out []finding.Diagnostic
	for i, d := range c.Env.Deps {
		it := c.condaItem(i, d)
		if it == nil || it.name != "pytorch-cuda" || strings.TrimSpace(it.verText) == "" {
			continue
		}
		r := &resolution{env: c.Env, kb: c.KB}
		if hasMinor(r.cudaSeries(it.verText)) && exactCUDAText(it.verText) {
			continue // an exact pin: the ordinary comparison covers it
		}
		published := pytorchCUDAVersions(c.KB)
		label := ""
		if f := stackFramework(c); f != nil && f.Name == "pytorch" && solverRelease(f) != "" {
			if vs, ok := c.KB.Variants(seriesOf(solverRelease(f)), kb.DistPytorchConda); ok && strings.HasPrefix(vs.Selector, "pytorch-cuda") && len(vs.CUDA) > 0 {
				published, label = nil, " for pytorch "+solverRelease(f)
				for _, cu := range vs.CUDA {
					published = append(published, majorMinor(cu))
				}
			}
		}
		var admitted []string
		for _, v := range published {
			if admits(it.verText, v) || admits(it.verText, v+".0") {
				admitted = append(admitted, v)
			}
		}
		if len(admitted) < 2 {
			continue
		}
		newest := admitted[len(admitted)-1]
		for _, e := range ev {
			if (e.Kind != EvidenceCudatoolkit && e.Kind != EvidenceCUDAVersion && e.Kind != EvidenceCUDAPackage) || !hasMinor(e.Says) || e.Says == newest || !contains(admitted, e.Says) {
				continue
			}
			msg := fmt.Sprintf("%s%s admits pytorch-cuda %s%s and the solver takes the newest, %s, but %s: two CUDA versions in one environment",
				it.raw(), at(it.pos()), strings.Join(admitted, ", "), label, newest, describeCUDA(e))
			hint := fmt.Sprintf("pin pytorch-cuda=%s on line %d", e.Says, it.pos().Line)
			if e.Kind == EvidenceCudatoolkit && cudaConsumer(c) == nil {
				hint += fmt.Sprintf(" and remove %s (%s): pytorch-cuda installs the CUDA %s libraries itself", e.Item, place(e.Pos), e.Says)
			}
			out = append(out, newFinding(c.rule, e.Pos, e.EndCol, msg, hint, it.pos()))
		}
	}
	return out
}

// exactCUDAText reports whether a version spec names one CUDA minor
// (=11.8, 11.8.*, ==11.8.0) rather than a range.
func exactCUDAText(text string) bool {
	return !strings.ContainsAny(strings.TrimSpace(text), "<>!|,~")
}

// reported says whether a finding at pos is among ds.
func reported(ds []finding.Diagnostic, pos finding.Pos) bool {
	for _, d := range ds {
		if d.Pos == pos {
			return true
		}
	}
	return false
}

// solverRelease is the release the solver installs for the framework: the
// pinned one, or the newest the spec admits (the solver prefers the newest).
func solverRelease(f *Framework) string {
	if f.Version != "" {
		return f.Version
	}
	if n := len(f.Candidates); n > 0 {
		return f.Candidates[n-1]
	}
	return ""
}

// channelSelector is the pytorch channel's selector for the framework's
// series ("cudatoolkit=X.Y", "pytorch-cuda=X.Y"), "" when it is not a
// pytorch-channel pytorch the knowledge base knows.
func channelSelector(c *Context) string {
	f := stackFramework(c)
	if c.KB == nil || f == nil || f.Name != "pytorch" || f.Dist != kb.DistPytorchConda || f.Version == "" {
		return ""
	}
	if v, ok := c.KB.Variants(f.Series(), kb.DistPytorchConda); ok {
		return v.Selector
	}
	return ""
}

// pipWheelCUDAFix says why a pip torch wheel (its local version or wheel
// index) and a conda CUDA package (e) that disagree matter, and how to
// fix it. The wheel carries its own CUDA runtime and never loads conda's, so
// changing e to the wheel's CUDA changes nothing the wheel uses. What
// clashes is a conda package built for e's CUDA that loads this torch (the
// pytorch channel's torchaudio=0.11.0=py310_cu113 beside the PyPI torch
// 1.11.0, which is the CUDA 10.2 build: corpus 173). The hint offers the
// wheel of the same release for e's CUDA, only where the knowledge base's
// wheel-index rows list it, and otherwise (or as well) dropping the
// conda-side package: the one built for e's CUDA, or e itself where no
// package is.
func pipWheelCUDAFix(c *Context, e Evidence) (why, hint string) {
	f := c.Stack.Framework
	var opts []string
	if w := torchWheelFor(c, f, e.Says); w != "" {
		opts = append(opts, w)
	}
	why = "the pip wheel carries its own CUDA runtime and never loads conda's"
	if ld := condaBuiltFor(c, e.Says); len(ld) > 0 {
		verb := "loads"
		if len(ld) > 1 {
			verb = "load"
		}
		why += fmt.Sprintf(", but %s, built for CUDA %s, %s this torch", listItems(ld), e.Says, verb)
		opts = append(opts, fmt.Sprintf("remove %s and install %s with pip from the same index as torch", listItems(ld), joinAnd(packagesOf(ld))))
	} else {
		opts = append(opts, fmt.Sprintf("remove %s (%s) unless another conda package needs it", e.Item, place(e.Pos)))
	}
	return why, strings.Join(opts, "; or ")
}

// torchWheelFor is the hint to install the framework's pinned release as the
// PyTorch wheel index's build for CUDA cuda, "" where the knowledge base's
// wheel rows do not list that build (or the release is not pinned).
func torchWheelFor(c *Context, f *Framework, cuda string) string {
	if c.KB == nil || f == nil || f.Name != "pytorch" || f.Version == "" || !hasMinor(cuda) {
		return ""
	}
	if _, ok := c.KB.Release(f.Version); !ok {
		return ""
	}
	v, ok := c.KB.Variants(seriesOf(f.Version), kb.DistWheel)
	if !ok || v.NotPublished || (len(v.Releases) > 0 && !contains(v.Releases, f.Version)) {
		return ""
	}
	for _, cu := range v.CUDA {
		if majorMinor(cu) != majorMinor(cuda) {
			continue
		}
		tag := "cu" + strings.ReplaceAll(majorMinor(cuda), ".", "")
		root := c.KB.TorchWheelIndexURL()
		if root == "" {
			root = "…/whl/"
		}
		return fmt.Sprintf("install torch==%s+%s, the CUDA %s build, from the PyTorch wheel index: add --extra-index-url %s%s to the pip section and pin torch==%s+%s",
			f.Version, tag, majorMinor(cuda), root, tag, f.Version, tag)
	}
	return ""
}

// condaBuiltFor lists torch's conda companions whose build string says
// they were built for CUDA cuda (torchaudio=0.11.0=py310_cu113): they load
// torch's libraries and need the torch built for that CUDA.
func condaBuiltFor(c *Context, cuda string) []Evidence {
	var out []Evidence
	companions := names(c.KB).CompanionsOf("pytorch")
	for _, it := range c.condaList() {
		d := it.Dep
		if d == nil || d.Spec == nil || d.Spec.Build == "" {
			continue
		}
		if !contains(companions, it.Name) {
			continue // only torch's companions are read here (torchvision, torchaudio)
		}
		if b := companionBuildCUDA(d.Spec.Build); b != "" && b == majorMinor(cuda) {
			out = append(out, Evidence{Item: d.Raw.Value, Pos: d.Raw.Pos, Package: it.Name})
		}
	}
	return out
}

// packagesOf names the packages of evidence, in order.
func packagesOf(es []Evidence) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Package)
	}
	return out
}

// companionBuildCUDA is the CUDA a companion's conda build string names:
// the pytorch channel writes them py310_cu113 (a cuXYZ part, as in a
// wheel's local version), other channels cuda… as DecodeBuild reads; ""
// when it names none.
func companionBuildCUDA(build string) string {
	if b := DecodeBuild(build); b.CUDA != "" {
		return majorMinor(b.CUDA)
	}
	for _, part := range strings.Split(strings.ToLower(build), "_") {
		if a := decodeWheelTag(part); a.CUDA != "" {
			return majorMinor(a.CUDA)
		}
	}
	return ""
}

// pytorchCUDAPinned lists the conda packages pytorch-cuda X.Y requires at
// its own X.Y (pytorch/builder conda/pytorch-cuda/meta.yaml: cuda-libraries,
// cuda-nvtx, cuda-cudart, cuda-cupti, cuda-nvrtc, cuda-runtime, each
// `>=X.Y,<X.Y+1`): a version of one of them other than pytorch-cuda's
// cannot be installed beside it.
var pytorchCUDAPinned = map[string]bool{"cuda-libraries": true, "cuda-nvtx": true, "cuda-cudart": true, "cuda-cupti": true, "cuda-nvrtc": true, "cuda-runtime": true}

// eg201Unsolvable is the fix to give instead of "use X=want" where that pin
// could not be installed: a pytorch-cuda the pytorch channel never
// published (its pytorch-cuda ends at 12.4), or a CUDA package that a
// pytorch-cuda of another minor in the file pins to its own. Beside a
// framework that brings its own runtime (pip torch) the conda CUDA
// packages can go instead. False where "use X=want" can be installed.
func eg201Unsolvable(c *Context, ev []Evidence, e Evidence, want string, bundled bool) (string, bool) {
	pc := pytorchCUDAVersions(c.KB)
	if len(pc) == 0 || !hasMinor(want) {
		return "", false
	}
	want = majorMinor(want)
	drop := ""
	if bundled {
		drop = fmt.Sprintf("; %s brings its own CUDA runtime, so the conda CUDA packages can go instead (EG302)", fwLabel(c.Stack.Framework))
	}
	if e.Kind == EvidencePytorchCUDA && !contains(pc, want) {
		return fmt.Sprintf("there is no pytorch-cuda=%s to use: the pytorch channel published pytorch-cuda %s only%s", want, strings.Join(pc, ", "), drop), true
	}
	if e.Kind != EvidenceCUDAPackage || !pytorchCUDAPinned[e.Package] {
		return "", false
	}
	for _, o := range ev {
		if o.Kind != EvidencePytorchCUDA || !hasMinor(o.Says) || majorMinor(o.Says) == want {
			continue
		}
		if contains(pc, want) {
			return fmt.Sprintf("use %s=%s together with pytorch-cuda=%s: %s (%s) requires %s %s.x", e.Package, want, want, o.Item, place(o.Pos), e.Package, majorMinor(o.Says)), true
		}
		return fmt.Sprintf("%s=%s cannot be installed beside %s (%s), which requires %s %s.x, and there is no pytorch-cuda=%s (the pytorch channel published %s only)%s",
			e.Package, want, o.Item, place(o.Pos), e.Package, majorMinor(o.Says), want, strings.Join(pc, ", "), drop), true
	}
	return "", false
}

// companionReleaseFix is the fix for a pip companion's +cuXXX wheel whose
// release is not the one PyTorch pairs with the framework's: its +cuXXX
// wheel for the framework's CUDA need not exist (torchvision 0.17.2 pairs
// with torch 2.2, built for CUDA 11.8 and 12.1 only: review ten #148,
// corpus 016, was told to use torchvision==0.17.2+cu126). The fix names
// the paired release's wheel; EG203 says the release is wrong.
func companionReleaseFix(c *Context, e Evidence, want string) (string, bool) {
	f := c.Stack.Framework
	if e.Kind != EvidenceLocal || e.Version == "" || f == nil || f.Version == "" || c.KB == nil ||
		(e.Package != "torchvision" && e.Package != "torchaudio") {
		return "", false
	}
	r, ok := c.KB.Release(f.Version)
	if !ok {
		return "", false
	}
	w := companionOf(r, e.Package)
	base, _, _ := strings.Cut(e.Version, "+")
	if w == "" || w == base {
		return "", false
	}
	return fmt.Sprintf("use %s==%s+cu%s, the %s release PyTorch pairs with %s (%s %s pairs with another torch release, so its +cu%s wheel may not exist)",
		e.Package, w, strings.ReplaceAll(want, ".", ""), e.Package, fwLabel(f), e.Package, base, strings.ReplaceAll(want, ".", "")), true
}
