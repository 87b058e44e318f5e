package resolver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// evidence gathers every item that says something about the accelerator.
func (r *resolution) evidence() {
	var cuda []Evidence
	add := func(e Evidence, pin bool) {
		if e.Says == "cpu" {
			r.st.CPU = append(r.st.CPU, e)
		} else {
			cuda = append(cuda, e)
		}
		if pin {
			r.pins = append(r.pins, e)
		}
	}
	fwName := ""
	if r.st.Framework != nil {
		fwName = r.st.Framework.Name
	}
	if t := r.env.Torch; t != nil {
		e := Evidence{Item: "torch " + t.Version + " (installed)", Kind: EvidenceInstalled, Says: "cpu", Package: "torch", Version: stripLocal(t.Version)}
		if t.CUDA != "" {
			e.Says = majorMinor(t.CUDA)
		}
		add(e, fwName == "pytorch")
	}
	for _, it := range r.items {
		fw := frameworkOf(it)
		primary := (fw != "" && fw == fwName) || (it == r.fw && fwName != "")
		if it.from() == envspec.ProviderConda {
			r.condaEvidence(it, fw, primary, add)
			continue
		}
		r.pipEvidence(it, fw, primary, add)
	}
	// An extra index whose build pip does not take (PyPI's is higher, or
	// which it is cannot be told) says nothing of the framework's CUDA:
	// the PipPick's evidence (pickEvidence, pypiDefault) does.
	pickNotIndex := r.st.Framework != nil && r.st.Framework.PipPick != nil && !r.st.Framework.PipPick.FromIndex
	if r.torchPip && !pickNotIndex {
		for _, d := range r.env.Pip {
			o := pipOpt(d)
			if o == nil || !isIndexOption(o.Name) || extensionIndex(r.kb, o.Value) {
				continue
			}
			a := DecodeIndexURL(o.Value)
			if a.Variant == "" || a.Variant == "rocm" {
				continue
			}
			e := Evidence{Item: d.Raw.Value, Pos: d.Raw.Pos, Line: d.Raw.Pos.Line, Kind: EvidenceIndex, Says: a.Says(), Package: o.Name}
			if i := strings.Index(d.Raw.Value, o.Value); i >= 0 && o.Value != "" {
				e.Pos, e.EndCol = spanPos(d.Raw.Pos, envspec.Span{Start: i, End: i + len(o.Value)})
			}
			add(e, fwName == "pytorch" && r.st.Framework.From == envspec.ProviderPip)
		}
	}
	if fwName == "jax" {
		r.jaxIndexEvidence(add) // jax_releases.html find-links pages (tf_jax.go)
	}
	if e, ok := r.pixiSystemCUDA(); ok {
		add(e, true)
	}
	cuda = r.jaxOwnWheels(cuda)
	if len(cuda) > 0 {
		r.st.CUDA = &CUDAInfo{Evidence: cuda}
		if a := authority(cuda); a != nil && strings.Contains(a.Says, ".") {
			r.st.CUDA.Version = a.Says
			if pc := pytorchCUDAVersions(r.kb); a.Kind == EvidencePytorchCUDA && len(pc) > 0 && !contains(pc, a.Says) {
				r.st.CUDA.NotPublished = fmt.Sprintf("%s names a pytorch-cuda the pytorch channel never published (it has %s)", a.Item, strings.Join(pc, ", "))
			}
		}
		if r.st.CUDA.NotPublished == "" {
			r.st.CUDA.NotPublished = unpublishedCudatoolkit(cuda)
		}
		if r.st.CUDA.NotPublished == "" {
			r.st.CUDA.NotPublished = r.unbuiltCondaForgeCUDA()
		}
	}
}

// unpublishedCudatoolkit says why a cudatoolkit line for CUDA 12 or newer
// (the case EG205 reports: cudatoolkit ends at 11.8) installs nothing, so
// that no build is judged as if the solver could give it; "" otherwise.
// Review of corpus 104: cudatoolkit=12.2 beside pip onnxruntime-gpu read ok
// on nine GPUs for an environment conda cannot create.
func unpublishedCudatoolkit(cuda []Evidence) string {
	for _, e := range cuda {
		if e.Kind == EvidenceCudatoolkit && hasMinor(e.Says) && majorOf(e.Says) >= 12 {
			return fmt.Sprintf("%s asks for a cudatoolkit no channel published (cudatoolkit ends at 11.8; CUDA 12 ships as cuda-version and cuda-toolkit)", e.Item)
		}
	}
	return ""
}

// unbuiltCondaForgeCUDA says why a conda-forge pytorch build string names a
// CUDA version conda-forge never built for that series (pytorch=2.6.0=
// cuda118*: its feedstock built 2.6 for 12.6 only); "" otherwise.
func (r *resolution) unbuiltCondaForgeCUDA() string {
	f := r.st.Framework
	if r.kb == nil || f == nil || r.fw == nil || f.Name != "pytorch" || f.Dist != kb.DistCondaForge || f.Version == "" {
		return ""
	}
	a := DecodeBuild(r.fw.build)
	if a.CUDA == "" {
		return ""
	}
	vs, ok := r.kb.Variants(f.Series(), kb.DistCondaForge)
	if !ok || vs.NotPublished || len(vs.CUDA) == 0 || contains(vs.CUDA, a.CUDA) {
		return ""
	}
	return fmt.Sprintf("%s names a CUDA %s build conda-forge never made of pytorch %s (it built CUDA %s)", r.fw.label(), a.CUDA, f.Series(), strings.Join(vs.CUDA, ", "))
}

// pixiSystemCUDA reads a pixi manifest's `[system-requirements] cuda` as the
// variant of a conda-forge framework nothing else pins. pixi sets the __cuda
// virtual package to that value while solving; its PyTorch guide
// (pixi.sh/latest/python/pytorch, "System requirements") says that without
// system-requirements.cuda pixi installs the CPU-only builds, and with it
// the CUDA ones can be resolved. It is a default, not a pin: an explicit
// pytorch-cpu or =*cpu* build beside it decides, and only the manifest's own
// environment (its features) carries it, never an environment.yml beside it.
// The pytorch channel's variant is picked by pytorch-cuda/cpuonly rather than
// __cuda, so only conda-forge counts.
func (r *resolution) pixiSystemCUDA() (Evidence, bool) {
	f, sc := r.st.Framework, r.env.SystemCUDA
	if r.env.Kind != envspec.KindPixiManifest || sc == nil || f == nil || f.From != envspec.ProviderConda || f.Dist != kb.DistCondaForge || len(r.pins) > 0 || len(r.st.CPU) > 0 {
		return Evidence{}, false
	}
	return Evidence{
		Item: fmt.Sprintf("[system-requirements] cuda = %q", sc.Value), Pos: sc.Pos, Line: sc.Pos.Line,
		Kind: EvidenceSystem, Says: "cuda",
	}, true
}

type addFunc func(Evidence, bool)

func (r *resolution) condaEvidence(it *item, fw string, primary bool, add addFunc) {
	ev := func(kind, says string, pos finding.Pos, end int) Evidence {
		return Evidence{Item: it.label(), Pos: pos, Line: pos.Line, Kind: kind, Says: says, EndCol: end, Package: it.name, Version: it.exact}
	}
	dist := kb.Distribution("")
	if r.st.Framework != nil {
		dist = r.st.Framework.Dist
	}
	switch {
	case fw != "":
		if it.name == "pytorch-gpu" || it.name == "tensorflow-gpu" {
			add(ev(EvidencePackage, "cuda", it.pos(), 0), primary)
		}
		if it.name == "tensorflow-gpu" && dist == kb.DistDefaults && it.exact != "" && r.kb != nil {
			// the defaults channel built this release with one cudatoolkit
			// only, which its GPU build requires (review twelve #409, #411:
			// tensorflow-gpu=2.4.1's runtime read as not known)
			if b, ok := r.kb.TensorFlowDefaultsBuildOf(it.exact); ok {
				e := ev(EvidenceDefault, b.CUDA, it.pos(), 0)
				e.Item = fmt.Sprintf("tensorflow-gpu %s (defaults, built with cudatoolkit %s only)", it.exact, b.CUDA)
				add(e, primary)
			}
		}
		if it.name == "pytorch-cpu" || it.name == "tensorflow-cpu" {
			add(ev(EvidencePackage, "cpu", it.pos(), 0), primary)
		}
		if fw == "jax" && it.name == "jax" {
			return // jaxlib carries the build
		}
		a := DecodeBuild(it.build)
		if a.Variant == "cuda" || a.Variant == "cpu" {
			e := ev(EvidenceBuild, a.Says(), it.buildPos(), int(it.buildEnd))
			// the defaults channel's cudaXYpy… pytorch builds require that
			// cudatoolkit minor (pin_compatible max_pin x.x in its recipe)
			e.AtLeast = a.AtLeast && !(fw == "pytorch" && distribution(it.channel) == kb.DistDefaults)
			add(e, primary || (fw == "jax" && r.st.Framework != nil && r.st.Framework.Name == "jax"))
		} else if primary && it.name == "pytorch" && r.splitGPU() {
			// before 1.2 the pytorch channel's `pytorch` was the CUDA build
			// and `pytorch-cpu` the CPU one
			add(ev(EvidencePackage, "cuda", it.pos(), 0), true)
		}
	case (it.name == "_pytorch_select" || it.name == "pytorch-mutex" || it.name == "cpuonly") && !r.isTorch():
		// the variant selectors select among conda's pytorch builds only:
		// beside a pip torch, or no pytorch, they make nothing CPU-only or
		// CUDA (issue 26, corpus 149: pip's torch 2.1.0 is the CUDA wheel
		// whatever cpuonly says)
	case it.name == "_pytorch_select":
		// the defaults channel's variant selector (1.2–1.8 recipes): its
		// CPU pytorch requires _pytorch_select 0.1, the GPU one 0.2
		says := ""
		switch strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(it.verText, "=="), "="), ".*") {
		case "0.1":
			says = "cpu"
		case "0.2":
			says = "cuda"
		default:
			if a := DecodeBuild(it.build); a.Variant == "cuda" || a.Variant == "cpu" {
				says = a.Variant
			}
		}
		if says != "" {
			add(ev(EvidenceMutex, says, it.pos(), 0), true)
		}
	case (it.name == "pytorch-mutex" || it.name == "cpuonly") && r.st.Framework != nil && r.st.Framework.Dist == kb.DistDefaults && !strings.Contains(r.st.Framework.Item, "::"):
		// the pytorch channel's mutex: the defaults recipe's pytorch never
		// depends on pytorch-mutex (no commit of AnacondaRecipes/
		// pytorch-feedstock's recipe names it), so beside defaults' pytorch
		// it selects nothing (review twelve #828, corpus 100: cpuonly read
		// as a CPU build that the solver does not give)
	case it.name == "pytorch-mutex":
		if a := DecodeBuild(it.build); a.Variant == "cuda" || a.Variant == "cpu" {
			add(ev(EvidenceMutex, a.Variant, it.buildPos(), int(it.buildEnd)), true)
		}
	case it.name == "cpuonly":
		add(ev(EvidenceMutex, "cpu", it.pos(), 0), true)
	case names(r.kb).CUDAPackageKind(it.name) != "":
		kind := names(r.kb).CUDAPackageKind(it.name)
		says := r.cudaSeries(it.verText)
		if says == "" && kind == EvidencePytorchCUDA {
			says = r.pytorchCUDARange(it.verText)
		}
		if says == "" {
			says = "cuda"
		}
		pin := false
		switch kind {
		case EvidencePytorchCUDA:
			// pytorch-cuda selects the pytorch channel's CUDA build from 1.13
			// on; 1.12's builds depend on cudatoolkit and ignore it. It is a
			// pytorch-channel package: conda-forge's and defaults' pytorch
			// builds do not depend on it, so it selects nothing there.
			pin = r.isTorch() && dist != kb.DistCondaForge && dist != kb.DistDefaults && r.selector() != "cudatoolkit"
		case EvidenceCudatoolkit:
			// cudatoolkit=X.Y selected the pytorch channel's CUDA build up to
			// 1.12 (the knowledge base's selector); for an unknown series it
			// is taken as the selector too
			pin = r.isTorch() && dist == kb.DistPytorchConda && r.selector() != "pytorch-cuda"
		}
		add(ev(kind, says, it.verPos(), int(it.verEnd)), pin)
	}
}

// pytorchCUDARange is the pytorch-cuda a range (pytorch-cuda>=11.7) gets:
// the solver takes the newest version the range admits among those the
// pytorch channel published for the framework's series, and the channel
// publishes no more (it stopped after 2.5), so the pick is the same on
// every machine. "" when the series or the range decides nothing.
func (r *resolution) pytorchCUDARange(text string) string {
	f := r.st.Framework
	if r.kb == nil || f == nil || f.Name != "pytorch" || solverRelease(f) == "" || strings.TrimSpace(text) == "" {
		return ""
	}
	vs, ok := r.kb.Variants(seriesOf(solverRelease(f)), kb.DistPytorchConda)
	if !ok || !strings.HasPrefix(vs.Selector, "pytorch-cuda") {
		return ""
	}
	newest := ""
	for _, cu := range vs.CUDA {
		if mm := majorMinor(cu); admits(text, mm) || admits(text, mm+".0") {
			if newest == "" || cmpMinor(mm, newest) > 0 {
				newest = mm
			}
		}
	}
	return newest
}

// selector names the package that picks the pytorch channel's variant for
// the framework's series ("pytorch-cuda", "cudatoolkit"), "" when unknown.
func (r *resolution) selector() string {
	f := r.st.Framework
	if r.kb == nil || f == nil || solverRelease(f) == "" {
		return ""
	}
	// an open spec gets the newest release it admits
	if v, ok := r.kb.Variants(seriesOf(solverRelease(f)), kb.DistPytorchConda); ok {
		name, _, _ := strings.Cut(v.Selector, "=")
		return name
	}
	return ""
}

// splitGPU reports whether the primary framework is the pytorch channel's
// `pytorch` of a release before 1.2, when the channel published the CPU
// build as the separate package pytorch-cpu, so that `pytorch` itself was
// the CUDA build (the cudatoolkit pin, or cuda80/cuda90/cuda100, chose
// which).
func (r *resolution) splitGPU() bool {
	f := r.st.Framework
	if f == nil || f.Name != "pytorch" || f.Dist != kb.DistPytorchConda || r.fw == nil || r.fw.name != "pytorch" {
		return false
	}
	vs := f.Candidates
	if f.Version != "" {
		vs = []string{f.Version}
	}
	if len(vs) == 0 {
		return false
	}
	for _, v := range vs {
		if c, ok := kb.CompareDotted(seriesOf(v), "1.2"); !ok || c >= 0 {
			return false
		}
	}
	return true
}

func (r *resolution) isTorch() bool {
	return r.st.Framework != nil && r.st.Framework.Name == "pytorch" && r.st.Framework.From == envspec.ProviderConda
}

func (r *resolution) pipEvidence(it *item, fw string, primary bool, add addFunc) {
	ev := func(kind, says string) Evidence {
		return Evidence{Item: it.label(), Pos: it.verPos(), Line: it.pos().Line, Kind: kind, Says: says, EndCol: int(it.verEnd), Package: it.name, Version: it.exact}
	}
	switch it.name {
	case "torch", "torchvision", "torchaudio":
		if it.local != "" {
			a := decodeWheelTag(it.local)
			if a.Variant == "cuda" || a.Variant == "cpu" {
				add(ev(EvidenceLocal, a.Says()), primary)
			}
		} else if e, ok := r.pypiDefault(it); ok {
			add(e, primary) // plain torch==X from PyPI: its one build (pypidefault.go)
		} else if e, ok := r.pickEvidence(it); ok {
			add(e, primary) // an open spec beside an extra index: PyPI's build pip takes (pippick.go)
		}
		return
	}
	if fw == "" && r.st.Framework != nil && r.st.Framework.Name == "tensorflow" && r.env.IsInstalled() {
		// an installed pip TensorFlow loads the NVIDIA wheels beside it (tf_jax.go)
		if e, ok := r.tfWheelCUDA(it); ok {
			add(e, true)
		}
		return
	}
	if r.st.Framework != nil && r.st.Framework.Name == "jax" && fw == "" {
		// the jax-cudaNN plugins, a +cuda jaxlib, NVIDIA wheels (tf_jax.go)
		if e, pin, ok := jaxPipEvidence(it); ok {
			add(e, pin)
		}
		return
	}
	if fw == "" {
		return
	}
	// a CUDA extra the pinned jax release lacks is one pip ignores (EG205)
	a := DecodePipName(it.name, withoutUndeclaredJAXExtras(r.kb, it))
	switch {
	case a.Variant == "cpu":
		e := ev(EvidencePackage, "cpu")
		e.Pos, e.EndCol = it.pos(), 0
		add(e, primary)
	case a.Variant == "cuda":
		e := ev(EvidencePackage, "cuda")
		e.Pos, e.EndCol = it.pos(), 0
		if fw == "tensorflow" && (it.name == "tensorflow" || it.name == "tensorflow-gpu") && r.kb != nil && it.exact != "" {
			// tensorflow[and-cuda] installs the NVIDIA wheels of its tested
			// build; a tensorflow-gpu wheel loads exactly the CUDA of its
			// tested build configuration
			if c, ok := r.kb.TensorFlow(it.exact); ok && c.CUDA != "" {
				e.Says, e.Kind = majorMinor(c.CUDA), EvidenceDefault
			}
		}
		if a.Major > 0 {
			e.Says = a.Says()
		} else if m := jaxExtraMajor(r.kb, it); m > 0 {
			// jax[cuda]==0.3.10 pins jaxlib==0.3.10+cuda11.cudnn82: the
			// extra's definition in that release names the major
			e.Says = strconv.Itoa(m)
		} else if m, first := r.jaxOpenExtraMajor(it); m > 0 {
			e.Says = strconv.Itoa(m)
			if f := r.st.Framework; f != nil && f.Name == "jax" {
				f.JAXFirstInstallable = first
			}
		}
		add(e, primary)
	}
}

// cudaSeries reads the CUDA major.minor a CUDA package's version spec pins:
// `=11.8`, `11.8.*`, `==12.1.105`, `11.8.0` give "11.8"; `=11` gives "11";
// a range gives the one CUDA minor of the knowledge base it admits, if just
// one; otherwise "".
func (r *resolution) cudaSeries(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "=="), "=")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "*"), ".")
	if t != "" && !strings.ContainsAny(t, "*<>!|,~ =") && leadingVersion(t) == t {
		return majorMinor(t)
	}
	if t == "" || r.kb == nil {
		return ""
	}
	// parsed once here, not once per driver row as admits would.
	vs, err := envspec.ParseVersionSpec(text)
	if err != nil || vs == nil {
		return ""
	}
	seen := map[string]bool{}
	var hit []string
	for _, d := range r.kb.Facts.CUDADrivers {
		s := majorMinor(d.CUDA)
		if !seen[s] && (vs.MatchString(s) || vs.MatchString(s+".0")) {
			hit = append(hit, s)
		}
		seen[s] = true
	}
	if len(hit) == 1 {
		return hit[0]
	}
	return ""
}

// evidenceOrder ranks kinds by authority: what the installed or built
// framework says beats the packages around it.
var evidenceOrder = map[string]int{
	EvidenceInstalled: 0, EvidenceBuild: 1, EvidenceLocal: 2, EvidenceIndex: 3,
	EvidencePytorchCUDA: 4, EvidenceCUDAVersion: 5, EvidenceCudatoolkit: 6,
	EvidenceCUDAPackage: 7, EvidencePackage: 9, EvidenceDefault: 10, EvidenceMutex: 11,
}

func evRank(e *Evidence) int {
	n := evidenceOrder[e.Kind]
	if e.AtLeast {
		n = 8 // a build for "this minor or newer" yields to an exact pin
	}
	return n
}

// authority is the evidence that decides the CUDA version: the highest
// ranked one that names a version.
func authority(es []Evidence) *Evidence {
	var best *Evidence
	for i := range es {
		e := &es[i]
		if majorOf(e.Says) == 0 {
			continue
		}
		if best == nil || evRank(e) < evRank(best) || (evRank(e) == evRank(best) && !strings.Contains(best.Says, ".") && strings.Contains(e.Says, ".")) {
			best = e
		}
	}
	return best
}

// cudnnSpecPrefix is what every cuDNN release a conda cudnn version
// spec admits starts with: "8.7" of =8.7, 8.7.* or 8.7.0 (the series),
// "8" of =8; "" for a range or no spec.
func cudnnSpecPrefix(text string) string {
	if s := pythonSeries(text); s != "" {
		return s
	}
	if t := strings.TrimPrefix(strings.TrimPrefix(text, "=="), "="); t != "" && leadingDigits(t) == t {
		return t
	}
	return ""
}

func (r *resolution) cudnn() {
	for _, it := range r.items {
		if it.from() == envspec.ProviderConda && it.name == "cudnn" {
			r.st.CuDNNPos = it.verPos()
			if s := cudnnSpecPrefix(it.verText); s != "" {
				r.st.CuDNN = s
				return
			}
		}
	}
	if r.fw != nil {
		r.st.CuDNN, r.st.CuDNNPos = DecodeBuild(r.fw.build).CuDNN, r.fw.buildPos()
	}
}

// gpuLibs lists every GPU library and which side provides it.
func (r *resolution) gpuLibs() {
	for _, it := range r.items {
		var lib string
		var major int
		if it.from() == envspec.ProviderConda {
			lib = r.libByConda(it.name)
			if lib == "" {
				continue
			}
			a := DecodeBuild(it.build)
			major = a.Major
			if names(r.kb).CUDAPackageKind(it.name) != "" {
				major = majorOf(r.cudaSeries(it.verText))
			}
		} else {
			lib = r.libByPip(it.name)
			if lib == "" {
				continue
			}
			major = r.pipCUDAMajor(it)
		}
		r.st.GPULibs = append(r.st.GPULibs, Package{
			Name: it.name, Lib: lib, Version: it.exact, From: it.from(), Channel: it.channel,
			CUDAMajor: major, Pos: it.pos(), Spec: it.verText, Item: it.raw(), VersionPos: it.verPos(), VersionEnd: int(it.verEnd),
		})
	}
}

// pipCUDAMajor is the CUDA major a pip GPU distribution is built for: its
// name (cupy-cuda12x, nvidia-*-cu12, jax[cuda12]), its local version
// (+cu118) or, for the torch family, the PyTorch wheel index it comes from.
func (r *resolution) pipCUDAMajor(it *item) int {
	if m := kb.CUDAMajorFromPipName(it.name); m > 0 {
		return m
	}
	if a := DecodePipName(it.name, withoutUndeclaredJAXExtras(r.kb, it)); a.Major > 0 {
		return a.Major
	}
	if it.local != "" {
		return decodeWheelTag(it.local).Major
	}
	switch it.name {
	case "torch", "torchvision", "torchaudio":
		for _, d := range r.env.Pip {
			if o := pipOpt(d); o != nil && isIndexOption(o.Name) {
				if a := DecodeIndexURL(o.Value); a.Major > 0 {
					return a.Major
				}
			}
		}
	}
	return 0
}

// libByConda asks the knowledge base which GPU library a conda name
// belongs to, falling back to the frameworks this package itself knows.
func (r *resolution) libByConda(name string) string {
	if r.kb != nil {
		if l, ok := r.kb.LibByConda(name); ok {
			return l.Lib
		}
	}
	switch {
	case torchConda[name]:
		return "torch"
	case tfConda[name]:
		return "tensorflow"
	case name == "jaxlib":
		return "jaxlib"
	case name == "cupy":
		return "cupy"
	}
	return ""
}

func (r *resolution) libByPip(name string) string {
	if r.kb != nil {
		if l, ok := r.kb.LibByPip(name); ok {
			return l.Lib
		}
	}
	switch {
	case name == "torch":
		return "torch"
	case tfPip[name]:
		return "tensorflow"
	case name == "jax" || name == "jaxlib" || strings.HasPrefix(name, "jax-cuda"):
		return "jaxlib"
	case strings.HasPrefix(name, "cupy-cuda"):
		return "cupy"
	}
	return ""
}

// jaxExtraMajor is the CUDA major of the build a pinned jax's CUDA extra
// pins where the extra's name does not say it (the knowledge base's
// jax_extra_cuda: jax[cuda] up to 0.4.25 pins a CUDA 11 jaxlib); 0 where
// the release is open or no row covers it.
func jaxExtraMajor(k *kb.KB, it *item) int {
	if k == nil || it == nil || it.name != "jax" || it.exact == "" {
		return 0
	}
	for _, e := range withoutUndeclaredJAXExtras(k, it) {
		if m, ok := k.JAXExtraCUDAMajor(it.exact, e); ok {
			return m
		}
	}
	return 0
}

// jaxOpenExtraMajor is the CUDA major an open jax spec's CUDA extra brings
// where the pip section names no index or find-links page: up to 0.4.29
// jax[cuda] pins a jaxlib build (+cuda11.cudnn86, +cuda12.cudnn89) that
// only JAX's find-links page served, so pip can install none of those
// releases, and every release of the package index's plugin era (the
// knowledge base's jax_releases, from 0.4.30) that the spec admits pins
// the CUDA plugin of the major returned (review forty-eight F28, corpus
// 110: jax[cuda]>=0.4.13 brings CUDA 12 wheels whatever conda's
// cudatoolkit=11.8). 0 where the releases disagree, none is admitted, no
// row covers one, or a page may serve the older builds. first is the
// oldest release admitted.
func (r *resolution) jaxOpenExtraMajor(it *item) (major int, first string) {
	if r.kb == nil || it == nil || it.name != "jax" || it.exact != "" || it.from() != envspec.ProviderPip || r.env == nil || r.env.IsInstalled() {
		return 0, ""
	}
	if _, opts := pipItems(r.env); anyIndexOption(opts) {
		return 0, ""
	}
	var vs *envspec.VersionSpec
	if it.verText != "" {
		var err error
		if vs, err = envspec.ParseVersionSpec(it.verText); err != nil || vs == nil {
			return 0, ""
		}
	}
	for _, rel := range r.kb.JAXReleaseList() {
		if rel.Yanked || (vs != nil && !vs.MatchString(rel.Version)) {
			continue
		}
		m := 0
		for _, e := range it.extras() {
			if x, ok := r.kb.JAXExtraCUDAMajor(rel.Version, e); ok {
				m = x
			}
		}
		if m == 0 || (major != 0 && m != major) {
			return 0, ""
		}
		if major == 0 {
			first = rel.Version
		}
		major = m
	}
	return major, first
}

// jaxOwnWheels drops the evidence of another CUDA major from a pip JAX's
// CUDA where its CUDA extra (jax[cuda], jax[cuda12]: the plugin with its
// NVIDIA wheels) names a major: the plugin loads the CUDA of the wheels
// pip installs with it, so conda's cudatoolkit=11.8 or a pip
// nvidia-cudnn-cu11 beside jax[cuda]>=0.4.13, which brings CUDA 12
// wheels, is not JAX's runtime (review forty-eight F28, corpus 110; EG302
// says two runtimes are in the environment). A _local extra brings no
// wheels and keeps the evidence.
func (r *resolution) jaxOwnWheels(cuda []Evidence) []Evidence {
	f := r.st.Framework
	if f == nil || f.Name != "jax" || f.From != envspec.ProviderPip {
		return cuda
	}
	own := 0
	for _, e := range cuda {
		if e.Kind == EvidencePackage && e.Package == "jax" && !strings.Contains(e.Says, ".") && majorOf(e.Says) > 0 && !strings.Contains(strings.ToLower(e.Item), "_local") && !strings.Contains(strings.ToLower(e.Item), "-local") {
			own = majorOf(e.Says)
		}
	}
	if own == 0 {
		return cuda
	}
	// what names another major: conda's CUDA packages, and NVIDIA's
	// wheels of another major (110's nvidia-cudnn-cu11 for TensorFlow)
	other := func(e Evidence) bool {
		return !(e.Kind == EvidencePackage && e.Package == "jax") && majorOf(e.Says) > 0 && majorOf(e.Says) != own
	}
	if !slices.ContainsFunc(cuda, other) {
		return cuda
	}
	return slices.DeleteFunc(slices.Clone(cuda), other)
}
