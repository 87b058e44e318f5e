package resolver

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// Framework names.
var (
	torchConda = map[string]bool{"pytorch": true, "pytorch-gpu": true, "pytorch-cpu": true}
	tfConda    = map[string]bool{"tensorflow": true, "tensorflow-gpu": true, "tensorflow-cpu": true}
	tfPip      = map[string]bool{"tensorflow": true, "tensorflow-gpu": true, "tensorflow-cpu": true, "tf-nightly": true}
)

// frameworkOf says which framework an item is ("" for none).
func frameworkOf(it *item) string {
	if it.from() == envspec.ProviderConda {
		switch {
		case torchConda[it.name]:
			return "pytorch"
		case tfConda[it.name]:
			return "tensorflow"
		case it.name == "jax" || it.name == "jaxlib":
			return "jax"
		}
		return ""
	}
	switch {
	case it.name == "torch":
		return "pytorch"
	case tfPip[it.name]:
		return "tensorflow"
	case it.name == "jax":
		return "jax"
	}
	return ""
}

// framework picks the primary framework: pytorch if present, else
// tensorflow, else jax. Within one framework the conda item is taken over
// the pip one (EG301 reports the pair), and the package itself over its
// metapackages (pytorch over pytorch-gpu, jax over jaxlib).
func (r *resolution) framework() {
	// One pass keeps the best item of each framework, in the order the
	// frameworks are preferred.
	var best [3]*item
	for _, it := range r.items {
		i := -1
		switch frameworkOf(it) {
		case "pytorch":
			i = 0
		case "tensorflow":
			i = 1
		case "jax":
			i = 2
		default:
			continue
		}
		if best[i] == nil || rank(it) < rank(best[i]) {
			best[i] = it
		}
	}
	names := [3]string{"pytorch", "tensorflow", "jax"}
	for i, b := range best {
		if b != nil && (r.only == "" || r.only == names[i]) {
			r.fw = b
			break
		}
	}
	if r.only == "" {
		for i, b := range best {
			if b != nil && b != r.fw {
				r.st.OtherFrameworks = append(r.st.OtherFrameworks, names[i])
			}
		}
	}
	if b := best[0]; b != nil && b == r.fw && b.from() == envspec.ProviderPip && b.exact != "" && b.local == "" {
		if c := r.condaCompanionPulling(stripLocal(b.exact)); c != nil {
			// conda installs its packages before pip runs: the pytorch
			// the conda companion requires is there first, and pip, which
			// finds torch of that release installed, does nothing
			// (review twenty-five: 173, conda's torchaudio py310_cu113
			// beside pip's torch==1.11.0)
			r.fw = c
			v := stripLocal(b.exact)
			r.finishFramework(&Framework{
				Name: "pytorch", Version: v, From: c.from(),
				Channel: c.channel, ChannelWhy: c.channelWhy(), Pos: c.pos(),
				Item: c.raw() + " (which pulls pytorch " + v + " before pip runs, so that " + b.raw() + " finds it installed and does nothing)", VersionPos: c.verPos(), VersionEnd: int(c.verEnd),
				PulledBy: c.raw(), PulledRelease: v, PipSkipped: b.raw(),
			}, c)
			return
		}
	}
	if r.fw == nil {
		if r.env.Torch != nil {
			f := &Framework{Name: "pytorch", Version: stripLocal(r.env.Torch.Version), From: envspec.ProviderPip, System: r.env.Torch.System}
			r.installedSeries(f)
			r.st.Framework = f
			return
		}
		r.frameworkFromCompanion()
		return
	}
	it := r.fw
	r.pastCondaForge(it)
	r.pastDefaults(it)
	for _, c := range r.items {
		// the companions, and a tensorflow-gpu beside another framework
		// (review twenty-seven F34: 007's tensorflow-gpu=1.13.1 beside
		// pytorch 1.1.0), move past conda-forge as the framework does
		if c.name == "torchvision" || c.name == "torchaudio" || (c.name == "tensorflow-gpu" && c != it) {
			r.pastCondaForge(c)
		}
	}
	f := &Framework{
		Name: frameworkOf(it), Version: it.exact, Spec: it.verText, From: it.from(),
		Channel: it.channel, ChannelWhy: it.channelWhy(), ChannelMoved: it.moved, Build: it.build, Pos: it.pos(),
		Item: it.raw(), VersionPos: it.verPos(), VersionEnd: int(it.verEnd), Package: it.name,
	}
	if f.Name == "pytorch" {
		for _, c := range r.items {
			if c.from() == envspec.ProviderConda && (c.name == "pytorch-gpu" || c.name == "pytorch-cpu") {
				f.Wrapper = c.name
				break
			}
		}
	}
	r.finishFramework(f, it)
}

// frameworkFromCompanion judges the torch a lone torchvision or torchaudio
// pulls in. Both depend on one exact torch release (pip metadata and the
// conda recipes alike), so a companion pinned to a release the knowledge
// base pairs decides which torch gets installed, from the same installer
// and channel. A companion that is open or unknown decides nothing.
// pastCondaForge moves a pytorch (or torchvision, torchaudio) pin that
// conda-forge never built (pytorch=2.1.1: its feedstock built 2.1.0 and
// 2.1.2; torchaudio before 2.4.1: none) to the next channel
// in channels: that publishes it, when conda-forge was chosen only for
// coming first: flexible channel priority, conda's default, takes the
// release from there (strict priority cannot solve it at all).
func (r *resolution) pastCondaForge(it *item) {
	if r.kb == nil || it.from() != envspec.ProviderConda || it.channel != "conda-forge" ||
		(it.conda != nil && it.conda.Installed != nil) || !it.firstChannel {
		return
	}
	// rel is the release the pin names: its exact release, or, for a
	// tensorflow-gpu series (=1.13) every release of which conda-forge
	// never built, the newest the spec admits (review 9 #833 read
	// tensorflow-gpu=1.13 as a conda-forge build).
	rel, what := it.exact, it.exact
	forCUDA := false // conda-forge's CUDA builds need another cudatoolkit than the file's
	if rel == "" {
		if it.name != "tensorflow-gpu" || strings.TrimSpace(it.verText) == "" {
			return
		}
		cands := r.candidates("tensorflow", it.verText)
		if len(cands) == 0 {
			return
		}
		tk, tkText := r.cudatoolkitPin()
		for _, v := range cands {
			if _, none := r.kb.TensorFlowCondaCPUOnly(v, kb.DistCondaForge); none {
				continue
			}
			if tk != nil && !r.condaForgeTFFits(v, tk) {
				// its CUDA builds need another cudatoolkit than the file's
				// (review thirty-eight F1: 003's cudatoolkit 10.1 beside
				// tensorflow-gpu>=2.0, which conda-forge built from 2.6 on
				// for CUDA 11.2 and later only)
				forCUDA = true
				continue
			}
			return
		}
		rel, what = cands[len(cands)-1], strings.TrimSpace(it.verText)+" ("+RangeOf(cands)+")"
		if forCUDA {
			what += " for " + tkText
		}
	}
	switch {
	case torchConda[it.name]:
		vs, ok := r.kb.Variants(seriesOf(rel), kb.DistCondaForge)
		if !ok || (!vs.NotPublished && (len(vs.Releases) == 0 || contains(vs.Releases, rel))) {
			return
		}
	case it.name == "torchvision" || it.name == "torchaudio":
		// the lists run from each feedstock's first commit; a release newer
		// than the newest read is not known either way
		if cf := condaForgeCompanions(r.kb, it.name); !cf.neverBuilt(rel) {
			return
		}
	case it.name == "tensorflow-gpu":
		// conda-forge's tensorflow-gpu output came with its first CUDA
		// build (CF_TF): an older release was never built there.
		if _, none := r.kb.TensorFlowCondaCPUOnly(rel, kb.DistCondaForge); !none && !forCUDA {
			return
		}
	default:
		return
	}
	never := fmt.Sprintf("conda-forge never built %s %s", it.name, what)
	past, nodefaults, defaultsNever := false, false, false
	for _, c := range r.env.Channels {
		n := channelName(c.Value)
		nodefaults = nodefaults || n == "nodefaults"
		if n == "conda-forge" {
			past = true
			continue
		}
		if past && it.name == "pytorch" && n == "defaults" {
			if pub, known := r.kb.CondaPublished("pytorch", kb.DistDefaults, rel); known && !pub {
				// defaults never published it either (conda_releases)
				defaultsNever = true
				continue
			}
		}
		if past && publishes(n, it.name) {
			it.channel, it.firstChannel, it.moved = n, false, never
			it.how = never + ", so flexible channel priority takes it from the next channel in channels: that publishes it (strict priority cannot solve it)"
			return
		}
	}
	if defaultsNever {
		// neither listed channel has it; .condarc may add one that does,
		// so which build comes is not known
		it.channel, it.firstChannel = "", false
		it.moved = never + ", and defaults never published it either"
		it.how = it.moved
		return
	}
	if it.name != "tensorflow-gpu" {
		return
	}
	// No later channel of the file has it. conda env create appends the
	// channels of .condarc unless channels: lists nodefaults (conda's env
	// installer: "Including 'nodefaults' in the channels list disables the
	// defaults"), and defaults built its GPU build as tensorflow-gpu
	// (tensorflow_conda_default): the only build that can be installed is
	// defaults', or none where nodefaults shuts that channel out.
	if _, ok := r.kb.TensorFlowCondaCPUOnly(rel, kb.DistDefaults); ok && !nodefaults {
		it.channel, it.firstChannel = "defaults", false
		it.moved = never + "; only defaults has it, which conda env create adds from .condarc unless channels: lists nodefaults"
		it.how = it.moved
		return
	}
	it.channel, it.firstChannel = "", false
	it.moved = never + ", and no other channel the file allows is known to publish it"
	it.how = it.moved
}

// pastDefaults moves a pytorch pin that the defaults channel never
// published (pytorch=2.4.1: Anaconda's recipe went 2.3.1 → 2.5.1;
// conda_releases, torch-defaults-releases.yaml) to the next channel in
// channels: that the knowledge base says published it, when defaults was
// chosen only for coming first: flexible channel priority takes the
// release from there, so its builds (conda-forge's cuda118_…, not
// defaults' gpu_cuda…) are what gets installed. Where no other listed
// channel is known to publish it, the channel is left unknown; where every
// other listed channel is known not to, the framework records that no
// build exists (NotPublished). A release the table does not cover keeps
// today's reading (defaults).
func (r *resolution) pastDefaults(it *item) {
	if r.kb == nil || it.from() != envspec.ProviderConda || it.channel != "defaults" || it.name != "pytorch" ||
		it.exact == "" || (it.conda != nil && it.conda.Installed != nil) || !it.firstChannel {
		return
	}
	if pub, known := r.kb.CondaPublished("pytorch", kb.DistDefaults, it.exact); !known || pub {
		return
	}
	never := fmt.Sprintf("defaults never published %s %s", it.name, it.exact)
	past, unknown := false, false
	for _, n := range channelNames(r.env) {
		if n == "defaults" {
			past = true
			continue
		}
		if !past || n == "" || n == "nodefaults" {
			continue
		}
		switch pub, known := distPublishesTorch(r.kb, n, it.exact); {
		case pub:
			it.channel, it.firstChannel, it.moved = n, false, never
			it.how = never + ", so flexible channel priority takes it from the next channel in channels: that publishes it (strict priority cannot solve it)"
			return
		case !known:
			unknown = true
		}
	}
	// No other listed channel is known to have it. conda env create adds
	// the channels of .condarc (Miniforge's lists conda-forge), so the
	// release may still come from one the file does not name: which build
	// gets installed is not known, and no failure is claimed.
	it.channel, it.firstChannel = "", false
	if unknown {
		it.moved = never + ", and no other channel the file lists is known to publish it"
	} else {
		it.moved = never + ", and no other channel the file lists publishes it"
	}
	fix := "pin a release defaults has (" + strings.Join(defaultsNearest(r.kb, it.exact), " or ") + ")"
	if pub, _ := distPublishesTorch(r.kb, "conda-forge", it.exact); pub {
		fix = "list conda-forge, which built it, or " + fix
	}
	it.moved += ": " + fix
	it.how = it.moved
}

// distPublishesTorch says whether a conda channel published a pytorch
// release, as the knowledge base knows it: conda-forge and the pytorch
// channel by their torch_variants rows, a channel known to publish no
// pytorch (nvidia) as not; any other channel, or a series without a row,
// is not known.
func distPublishesTorch(k *kb.KB, channel, release string) (pub, known bool) {
	d := distribution(channel)
	switch d {
	case kb.DistCondaForge, kb.DistPytorchConda:
		vs, ok := k.Variants(seriesOf(release), d)
		if !ok {
			if d == kb.DistPytorchConda {
				return false, true // its rows are complete
			}
			return false, false
		}
		if vs.NotPublished || (len(vs.Releases) > 0 && !contains(vs.Releases, release)) {
			return false, true
		}
		return true, true
	case kb.DistDefaults:
		return k.CondaPublished("pytorch", kb.DistDefaults, release)
	}
	if p, ok := publishesKnown(channel, "pytorch"); ok && !p {
		return false, true
	}
	return false, false
}

func (r *resolution) frameworkFromCompanion() {
	if r.kb == nil {
		return
	}
	var best *item
	for _, it := range r.items {
		if (it.name != "torchvision" && it.name != "torchaudio") || it.exact == "" {
			continue
		}
		if best == nil || rank(it) < rank(best) || (rank(it) == rank(best) && it.name == "torchvision" && best.name != "torchvision") {
			best = it
		}
	}
	if best == nil {
		r.frameworkFromBareCompanion()
		return
	}
	v := companionTorch(r.kb, best)
	if v == "" {
		return
	}
	r.fw = best
	f := &Framework{
		Name: "pytorch", Version: v, From: best.from(),
		Channel: best.channel, ChannelWhy: best.channelWhy(), Pos: best.pos(),
		Item: best.raw() + " (which pulls pytorch " + v + ")", VersionPos: best.verPos(), VersionEnd: int(best.verEnd),
		PulledBy: best.raw(), PulledRelease: v,
	}
	r.finishFramework(f, best)
}

// condaCompanionPulling is a conda torchvision or torchaudio pinned to a
// release that requires pytorch v from a channel that published it, where
// the file has no conda pytorch of its own: conda installs that pytorch.
func (r *resolution) condaCompanionPulling(v string) *item {
	if r.kb == nil {
		return nil
	}
	for _, it := range r.items {
		if it.from() != envspec.ProviderConda || (it.name != "torchvision" && it.name != "torchaudio") || it.exact == "" {
			continue
		}
		if companionTorch(r.kb, it) != v {
			continue
		}
		if pub, known := distPublishesTorch(r.kb, it.channel, v); pub && known {
			return it
		}
	}
	return nil
}

// defaultsToolkitPin sets Framework.DefaultsToolkitPin, the one reading
// of a cudatoolkit pin beside a pytorch up to 1.12 from defaults that EG207
// and the name's refusal both give (review twenty-six and twenty-eight:
// 071's pytorch=1.9 with cudatoolkit=11.1 and defaults listed first).
func (r *resolution) defaultsToolkitPin(f *Framework) {
	if r.kb == nil || f.Name != "pytorch" || f.Dist != kb.DistDefaults || f.From != envspec.ProviderConda || f.Item == "" || strings.Contains(f.Item, "::") {
		return
	}
	rels := f.Candidates
	if f.Version != "" {
		rels = []string{f.Version}
	}
	if len(rels) == 0 {
		return
	}
	for _, v := range rels {
		if compareVersions(v, "1.13") >= 0 {
			return
		}
		if _, known := r.kb.CondaPublished("pytorch", kb.DistDefaults, v); known {
			return
		}
	}
	for _, d := range r.env.Deps {
		if d.Spec != nil && d.Spec.Name == "cudatoolkit" && d.Spec.Version != nil {
			f.DefaultsToolkitPin, f.DefaultsRelease = d, rels[len(rels)-1]
			return
		}
	}
}

// frameworkFromBareCompanion: a torchvision or torchaudio with no version
// at all still installs torch, whichever release the solver (or pip) takes
// with it, so the environment's framework is pytorch with its release open,
// from the companion's installer and channel (issue 26, root cause 5). A
// companion with a range decides nothing here: the torch releases it admits
// are not the full list an open release stands for.
func (r *resolution) frameworkFromBareCompanion() {
	var best *item
	for _, it := range r.items {
		if (it.name != "torchvision" && it.name != "torchaudio") || strings.TrimSpace(it.verText) != "" || it.build != "" {
			continue
		}
		if best == nil || rank(it) < rank(best) || (rank(it) == rank(best) && it.name == "torchvision" && best.name != "torchvision") {
			best = it
		}
	}
	if best == nil {
		return
	}
	r.fw = best
	f := &Framework{
		Name: "pytorch", From: best.from(),
		Channel: best.channel, ChannelWhy: best.channelWhy(), Pos: best.pos(),
		Item: best.raw() + " (which pulls pytorch)", VersionPos: best.verPos(), VersionEnd: int(best.verEnd),
		PulledBy: best.raw(),
	}
	r.finishFramework(f, best)
}

// companionTorch is the torch release a pinned companion item requires:
// the release the knowledge base pairs it with (the pytorch channel's own
// pairing where it differs, as for 2.0.0), "" when none.
func companionTorch(k *kb.KB, it *item) string {
	v := stripLocal(it.exact)
	for i := range k.Facts.Torch {
		t := &k.Facts.Torch[i]
		conda := t.TorchvisionConda
		if it.name == "torchaudio" {
			conda = t.TorchaudioConda
		}
		if it.from() == envspec.ProviderConda && conda != "" {
			if padRelease(conda) == padRelease(v) {
				return t.Version
			}
			continue
		}
		if w := companionOf(t, it.name); w != "" && padRelease(w) == padRelease(v) {
			return t.Version
		}
	}
	return ""
}

// finishFramework fills in what follows from the framework's item: its
// distribution, an installed torch's version, the releases an open spec
// admits.
func (r *resolution) finishFramework(f *Framework, it *item) {
	if it.from() == envspec.ProviderConda {
		f.Dist = distribution(it.channel)
	} else if f.Name == "pytorch" {
		f.Dist = kb.DistPyPI
		if it.local != "" || r.wheelIndex() {
			f.Dist = kb.DistWheel
		}
	}
	if it.pip != nil && it.pip.Installed != nil {
		f.System = it.pip.Installed.System
	}
	if r.env.Torch != nil && f.Name == "pytorch" {
		// the torch `import torch` finds says who installed it
		f.Version = stripLocal(r.env.Torch.Version)
		f.System = r.env.Torch.System
	}
	if f.Version == "" && f.Spec != "" {
		spec := f.Spec
		if it.conda != nil && it.conda.Spec != nil && it.conda.Spec.Version != nil && it.conda.Installed == nil {
			// conda's MatchSpec reads "pytorch==2.3.*" as 2.3.* (the '=='
			// is dropped before a glob), which envspec's MatchSpec keeps;
			// the version spec alone would read it as == 2.3 (2.3.0 only)
			spec = it.conda.Spec.Version.String()
		}
		f.Candidates = r.candidates(f.Name, spec)
		if it.name == "tensorflow-gpu" && f.Dist == kb.DistDefaults && r.kb != nil && (r.env.Platform == "" || r.env.Platform == "linux-64") {
			// the defaults channel's linux tensorflow-gpu ends where its
			// recipe made the gpu variant Windows-only (review forty-one
			// F2, forty-two F1, corpus 003: tensorflow-gpu>=2.0 admits
			// 2.0.0 … 2.4.1 there, not every later release)
			if last, ok := r.kb.TensorFlowDefaultsGPULast(); ok {
				var keep []string
				for _, v := range f.Candidates {
					if compareVersions(v, last.LastLinux) <= 0 {
						keep = append(keep, v)
					}
				}
				f.Candidates = keep
			}
		}
	}
	if f.System != "" {
		// Built by the system's distribution for its own Python: none of
		// the distributions whose builds the knowledge base lists.
		f.Dist = ""
	}
	r.installedSeries(f)
	r.st.Framework = f
}

// installedSeries reads an installed framework's pre-release or
// development version (1.13.0a0+gitunknown, what a source build of a
// release branch reports: Debian's torch, NGC's) as its release series
// (1.13), which it was built from: the checks then hold it to the releases
// of that series the knowledge base knows, instead of to none (EG206 "not
// in the knowledge base"). Installed keeps the version as installed. A
// series the knowledge base does not know stays as it is, EG206 then
// saying so; a version in an environment file is the user's to fix.
func (r *resolution) installedSeries(f *Framework) {
	if r.kb == nil || !r.env.IsInstalled() || f.Version == "" || (f.Name != "pytorch" && f.Name != "tensorflow") {
		return
	}
	series, ok := preReleaseSeries(f.Version)
	if !ok {
		return
	}
	cands := r.candidates(f.Name, series+".*")
	if len(cands) == 0 {
		return
	}
	f.Installed, f.Version, f.Spec, f.Candidates = f.Version, "", series+".*", cands
	// A source build comes from no distribution the knowledge base
	// lists (its local label is a git hash, not a wheel index's variant).
	f.Dist = ""
}

// preReleaseSeries returns the series (1.13) of a PEP 440 pre-release or
// development version (1.13.0a0, 2.1.0rc1, 2.5.0.dev20240901, with or
// without a local label), and false for any other version.
func preReleaseSeries(v string) (string, bool) {
	m := preReleaseRe().FindStringSubmatch(strings.ToLower(stripLocal(v)))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// preReleaseRe matches PEP 440's pre-release and development segments
// after a release, with the spellings its normalisation accepts.
var preReleaseRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v?(\d+\.\d+)(?:\.\d+)*[._-]?(?:a|b|c|rc|alpha|beta|pre|preview|dev)\d*(?:[._-]?dev\d*)?$`)
})

func rank(it *item) int {
	n := 0
	if it.from() == envspec.ProviderPip {
		n += 10
	}
	switch it.name {
	case "pytorch", "torch", "tensorflow", "jax":
	default:
		n++
	}
	return n
}

// candidates returns the knowledge base's releases a spec admits, oldest
// first.
func (r *resolution) candidates(fw, spec string) []string {
	if r.kb == nil {
		return nil
	}
	vs, err := envspec.ParseVersionSpec(spec)
	if err != nil || vs == nil {
		return nil
	}
	var all []string
	switch fw {
	case "pytorch":
		for _, t := range r.kb.Facts.Torch {
			all = append(all, t.Version)
		}
	case "tensorflow":
		for _, t := range r.kb.Facts.TensorFlow {
			all = append(all, t.Version)
		}
	}
	var out []string
	for _, v := range all {
		pv, err := envspec.ParseVersion(v)
		if err == nil && vs.Match(pv) {
			out = append(out, v)
		}
	}
	sortVersions(out)
	return out
}

func sortVersions(vs []string) {
	sort.SliceStable(vs, func(i, j int) bool { return compareVersions(vs[i], vs[j]) < 0 })
}

// compareVersions orders versions as conda does; unparsable ones sort by
// text.
func compareVersions(a, b string) int {
	va, ea := envspec.ParseVersion(a)
	vb, eb := envspec.ParseVersion(b)
	if ea != nil || eb != nil {
		return strings.Compare(a, b)
	}
	return va.Compare(vb)
}

// admits reports whether a conda-syntax version spec admits v; false when
// either does not parse.
func admits(spec, v string) bool {
	vs, err := envspec.ParseVersionSpec(spec)
	if err != nil || vs == nil {
		return false
	}
	pv, err := envspec.ParseVersion(v)
	return err == nil && vs.Match(pv)
}

// variant decides cuda/cpu from the items that pin the primary framework.
func (r *resolution) variant() {
	f := r.st.Framework
	if f == nil {
		return
	}
	f.Pins = r.pins
	cpu, cuda, rocm := false, false, false
	for _, e := range r.pins {
		switch {
		case e.Says == "cpu":
			cpu = true
		default:
			cuda = true
		}
	}
	if f.Name == "pytorch" && r.fw != nil && r.fw.from() == envspec.ProviderPip {
		// a +rocm pin, or an unlabelled pin read from the PyTorch ROCm wheel
		// index: pip takes the +rocmX.Y wheel there as it takes +cuXXX from a
		// CUDA index (a local version sorts above its public one, PEP 440)
		rocm = strings.HasPrefix(r.fw.local, "rocm") || (r.fw.local == "" && r.rocmIndex())
	}
	tfPipCPU := ""
	if f.Name == "tensorflow" {
		tfPipCPU = r.tfPipCPUOnly()
	}
	switch {
	case rocm:
		f.Variant = "rocm"
	case cpu && cuda:
		f.Variant = "" // EG202 reports the clash
	case cpu:
		f.Variant = "cpu"
	case cuda:
		f.Variant = "cuda"
	case f.Name == "jax" && r.fw != nil && r.fw.from() == envspec.ProviderPip:
		// plain `pip install jax` brings the CPU jaxlib; CUDA needs an extra or plugin
		f.Variant = "cpu"
	case f.Name == "tensorflow" && r.tfSelectPin() != "":
		f.Variant = r.tfSelectPin()
		f.VariantFrom = "the file pins the defaults channel's variant selector (_tflow_select), which picks the " + map[string]string{"cpu": "CPU (mkl or eigen)", "cuda": "GPU"}[f.Variant] + " build"
	case f.Name == "tensorflow" && r.tfCondaCPUOnly():
		f.Variant = "cpu"
	case tfPipCPU != "":
		f.Variant, f.VariantFrom = "cpu", tfPipCPU
	case f.Name == "pytorch" && r.torchCondaCUDAOnly() != nil:
		row := r.torchCondaCUDAOnly()
		f.Variant = "cuda"
		f.VariantFrom = fmt.Sprintf("every conda build of pytorch before %s on %s is a CUDA build (the CPU build was the package %s), made with CUDA %s",
			row.Before, strings.Join(row.Platforms, ", "), row.CPUPackage, orList(row.CUDA))
		f.RuntimeCandidates = append([]string(nil), row.CUDA...)
		r.torchCommonArch(f, row)
		if !containsDist(row.Dists, f.Dist) {
			// the first channel that publishes pytorch at all (conda-forge
			// in corpus 083) never published these releases: another of
			// the file's channels serves them, which one is not known
			f.Dist = ""
		}
	}
	if f.Name == "tensorflow" && f.Dist == kb.DistDefaults && f.Version != "" && f.Variant == "cuda" && len(f.RuntimeCandidates) == 0 && r.kb != nil {
		// the defaults channel built the release with several toolkits,
		// one of which its GPU build loads: the driver is decided where it
		// runs every one (review thirty-nine F5: tensorflow-gpu=1.13.1,
		// built for CUDA 9.0, 9.2 and 10.0, on a CUDA 12.4 driver)
		if row, ok := r.kb.TensorFlowDefaultsCUDAChoicesOf(f.Version); ok {
			f.RuntimeCandidates = append([]string(nil), row.CUDA...)
		}
	}
	r.defaultsTFCandidates(f)
	if f.Name == "pytorch" && f.From == envspec.ProviderPip {
		for _, it := range r.items {
			if it.from() == envspec.ProviderConda && it.name == "cpuonly" {
				f.CPUOnlyBeside = it.raw() + at(it.pos())
				break
			}
		}
	}
	if f.Name == "tensorflow" && f.Variant == "" && !cpu && r.tfPipGetsCUDA() {
		f.Variant = "cuda"
	}
	if f.Name == "tensorflow" {
		if why := r.tfPipDistClash(); why != "" {
			f.Variant, f.VariantWhy = "", why
		}
	}
	if f.Name == "pytorch" && f.Dist == kb.DistDefaults && f.Variant == "" {
		// the pytorch channel's selector beside defaults' pytorch selects
		// nothing (review thirteen #1244): the hint says how to use it
		for _, it := range r.items {
			if it.from() == envspec.ProviderConda && it.name == "pytorch-cuda" {
				f.IgnoredSelector = it.raw() + at(it.pos())
				f.IgnoredSelectorCUDA = r.cudaSeries(it.verText)
				break
			}
		}
	}
	if f.Name == "pytorch" && f.Dist == kb.DistCondaForge && f.From == envspec.ProviderConda && f.Variant == "" {
		// the same beside conda-forge's pytorch (review forty-one F6,
		// corpus 014): the target's hint offers the route that keeps it
		for _, it := range r.items {
			if it.from() == envspec.ProviderConda && it.name == "pytorch-cuda" {
				f.ForeignSelector = it.raw()
				break
			}
		}
	}
}

// tfPipGetsCUDA says whether a pip TensorFlow with GPU support (one Linux
// wheel for CPU and GPU since 2.1, which uses the GPU where it finds CUDA
// and cuDNN at run time) is given both by the file: a CUDA runtime of
// known version and a cuDNN, from conda (cudnn) or pip (nvidia-cudnn-cuXX).
// That is TensorFlow's own recipe for 2.12–2.13 (conda cudatoolkit=11.8,
// pip nvidia-cudnn-cu11==8.6.0.163), so the file asks for the CUDA build
// (issue 26, corpus 110).
func (r *resolution) tfPipGetsCUDA() bool {
	if r.fw == nil || r.fw.from() != envspec.ProviderPip || !tfGPUCapable(r.fw) ||
		r.st.CUDA == nil || r.st.CUDA.Version == "" {
		return false
	}
	for _, it := range r.items {
		if it.name == "cudnn" && it.from() == envspec.ProviderConda ||
			strings.HasPrefix(it.name, "nvidia-cudnn-cu") && it.from() == envspec.ProviderPip {
			return true
		}
	}
	return false
}

// tfPipDistClash says why the variant is not known where pip installs
// tensorflow-cpu beside a TensorFlow distribution with GPU support
// (tensorflow-gpu, or tensorflow from 2.1 on): both write the one
// `tensorflow` package directory, and the one pip installs last wins file
// by file, so which build the job imports is not known. "" when there is
// no such pair. No rule of the catalogue means this pair (EG202 is a CPU
// build beside CUDA packages, EG301 one library from conda and pip), so
// it leaves the variant open and EG409 says why per target (issue 26,
// corpus 006).
func (r *resolution) tfPipDistClash() string {
	var cpu, gpu *item
	for _, it := range r.items {
		if it.from() != envspec.ProviderPip {
			continue
		}
		switch {
		case it.name == "tensorflow-cpu":
			if cpu == nil {
				cpu = it
			}
		case tfGPUCapable(it):
			if gpu == nil {
				gpu = it
			}
		}
	}
	if cpu == nil || gpu == nil {
		return ""
	}
	return fmt.Sprintf("%s%s and %s%s both install the tensorflow package, the CPU-only build and the one with GPU support, and the one pip installs last wins file by file, so which build the job imports is not known",
		cpu.label(), at(cpu.pos()), gpu.label(), at(gpu.pos()))
}

// tfPipCPUOnly says why a pip `tensorflow` of an exact release is the
// CPU-only build, where the knowledge base says the package index's
// `tensorflow` of that release has no GPU support (1.14 and older, 1.15.2,
// 2.0: the GPU build was tensorflow-gpu; review thirteen #1096, corpus
// 142's tensorflow==1.3.0); "" otherwise.
func (r *resolution) tfPipCPUOnly() string {
	it := r.fw
	if it == nil || it.from() != envspec.ProviderPip || it.name != "tensorflow" || it.exact == "" || it.local != "" || r.kb == nil {
		return ""
	}
	row, ok := r.kb.TensorFlowPipCPUOnly(it.exact)
	if !ok {
		return ""
	}
	return fmt.Sprintf("the package index's tensorflow %s is the CPU-only build (%s): the GPU build of that release is tensorflow-gpu", it.exact, row.Note)
}

// tfCondaCPUOnly says whether a plain conda `tensorflow` of an exact release
// is CPU-only on every channel it can come from (its own channel, else each
// of the file's channels): conda-forge before its first CUDA build, defaults
// where the mkl build is the default (the knowledge base's rows). A
// channel the knowledge base says nothing of leaves it open.
func (r *resolution) tfCondaCPUOnly() bool {
	it := r.fw
	if it == nil || it.from() != envspec.ProviderConda || it.name != "tensorflow" || it.exact == "" || r.kb == nil || it.build != "" {
		return false
	}
	chans := []string{it.channel}
	if it.channel == "" || it.firstChannel {
		chans = channelNames(r.env)
	}
	if len(chans) == 0 {
		return false
	}
	var unknown, unsettled, judgedOn []string
	for _, c := range chans {
		if distribution(c) == "" && !publishes(c, it.name) {
			// a channel the knowledge base says nothing of could serve it
			unknown = append(unknown, c)
			continue
		}
		if _, ok := r.kb.TensorFlowCondaCPUOnly(it.exact, distribution(c)); !ok {
			if distribution(c) != kb.DistDefaults || !r.kb.TensorFlowBeforeDefaultsRecipes(it.exact) {
				// CUDA builds of the release may come from it: the
				// variant is the solver's
				return false
			}
			unsettled = append(unsettled, c)
			continue
		}
		judgedOn = append(judgedOn, c)
	}
	if r.st.Framework != nil && len(judgedOn)+len(unsettled) > 0 && len(unknown)+len(unsettled) > 0 {
		// say why the variant stays open (review forty F20, review
		// fifty-five F20, corpus 083: menpo, soumith, … before
		// conda-forge and defaults, and defaults' tensorflow 1.4.0, older
		// than its recipes' history)
		var why []string
		if len(judgedOn) > 0 {
			why = append(why, fmt.Sprintf("every build of %s %s on %s is CPU-only", it.name, it.exact, strings.Join(judgedOn, " and ")))
		}
		if len(unsettled) > 0 {
			why = append(why, fmt.Sprintf("which builds of %s %s the defaults channel published is not known, its recipes' public history starting at %s, whose %s is CPU-only, the GPU build being tensorflow-gpu", it.name, it.exact, r.kb.TensorFlowDefaultsRecipesFrom(), it.name))
		}
		if len(unknown) > 0 {
			why = append(why, fmt.Sprintf("the file lists channels the knowledge base knows nothing of (%s), any of which may serve another build", strings.Join(unknown, ", ")))
		}
		r.st.Framework.VariantOpen = strings.Join(why, "; ")
	}
	return len(judgedOn) > 0 && len(unknown)+len(unsettled) == 0
}

// tfSelectPin is the variant a pinned _tflow_select picks for a conda
// TensorFlow from defaults (2.3.0: mkl, a CPU build; 2.1.0: gpu), "" where
// the file pins none or the knowledge base does not say.
func (r *resolution) tfSelectPin() string {
	it := r.fw
	if it == nil || r.kb == nil || it.from() != envspec.ProviderConda || it.exact == "" || distribution(it.channel) != kb.DistDefaults {
		return ""
	}
	for _, s := range r.items {
		if s.from() != envspec.ProviderConda || s.exact == "" {
			continue
		}
		if v, _ := r.kb.TensorFlowSelectVariant(it.exact, s.name, s.exact); v != "" {
			return v
		}
	}
	return ""
}

// torchCondaCUDAOnly is the knowledge-base row that makes a conda
// `pytorch` admitting only releases before 0.4.0 (corpus 083:
// pytorch<=0.3.0) a CUDA build, nil where none does: every distribution that published those releases
// published them on Linux as CUDA builds only, the CPU build being the
// package pytorch-cpu (torch_conda_cuda_only). Only for a file whose every
// platform the row covers, with no build string, from a channel the row
// names or none named (an unknown channel of the file is assumed, as
// everywhere in the resolver, not to publish the framework).
func (r *resolution) torchCondaCUDAOnly() *kb.TorchCondaCUDAOnly {
	it := r.fw
	if it == nil || it.from() != envspec.ProviderConda || it.name != "pytorch" || r.kb == nil || it.build != "" || it.verText == "" {
		return nil
	}
	spec, err := envspec.ParseVersionSpec(it.verText)
	if err != nil || spec == nil || spec.IsAny() {
		return nil
	}
	plats := []string{r.env.Platform}
	if len(r.env.Platforms) > 0 {
		plats = plats[:0]
		for _, p := range r.env.Platforms {
			plats = append(plats, p.Value)
		}
	}
	d := distribution(it.channel)
	for i := range r.kb.Facts.TorchCondaCUDAOnly {
		row := &r.kb.Facts.TorchCondaCUDAOnly[i]
		later, err := envspec.ParseVersionSpec(">=" + row.Before)
		if err != nil || !envspec.Disjoint(spec, later) {
			continue
		}
		if it.channel != "" && !it.firstChannel && !containsDist(row.Dists, d) {
			continue
		}
		covered := true
		for _, p := range plats {
			covered = covered && contains(row.Platforms, p)
		}
		if !covered {
			continue
		}
		return row
	}
	return nil
}

// torchCommonArch gives f the architectures every build the file admits
// carries, from the row's common lists, where the file admits only
// releases they hold for: none after common_through (the defaults
// channel's 0.3.1 left its list to the build machine) and none before
// common_from, or none of those built for the file's Python (0.1.3 …
// 0.1.6, whose list All the build machine's CMake expanded, were built for
// Python 2.7, 3.4 and 3.5 only). Corpus 083: pytorch<=0.3.0 with
// python=3.6 gets sm_35 SASS and compute_52 PTX in every build.
func (r *resolution) torchCommonArch(f *Framework, row *kb.TorchCondaCUDAOnly) {
	if row.CommonFrom == "" || len(row.CommonSASS)+len(row.CommonPTX) == 0 {
		return
	}
	spec, err := envspec.ParseVersionSpec(r.fw.verText)
	if err != nil || spec == nil {
		return
	}
	after, err1 := envspec.ParseVersionSpec(">" + row.CommonThrough)
	before, err2 := envspec.ParseVersionSpec("<" + row.CommonFrom)
	if err1 != nil || err2 != nil || !envspec.Disjoint(spec, after) {
		return
	}
	why := fmt.Sprintf("every build of pytorch %s … %s, in %s and with whichever CUDA", row.CommonFrom, row.CommonThrough, distList(row.Dists))
	if !envspec.Disjoint(spec, before) {
		py := r.st.Python
		if py == "" || contains(row.EarlyPythons, py) {
			return
		}
		why += fmt.Sprintf(" (the earlier releases were built for Python %s only, not the file's %s)", orList(row.EarlyPythons), py)
	}
	f.CommonArch = &kb.ArchList{SASS: row.CommonSASS, PTX: row.CommonPTX, Known: true, Dist: f.Dist, Source: row.Source}
	f.LowestCode = row.LowestCode
	f.CommonWhy = why
}

// distList names distributions for messages ("pytorch-channel and defaults").
func distList(ds []kb.Distribution) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = string(d)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// OrList joins a list as "a, b or c".
func OrList(xs []string) string { return orList(xs) }

// orList joins a list as "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

func containsDist(ds []kb.Distribution, d kb.Distribution) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// rocmIndex says whether the pip section names a PyTorch ROCm wheel index
// (…/whl/rocm6.0) as an index or find-links page.
func (r *resolution) rocmIndex() bool {
	for _, d := range r.env.Pip {
		if o := pipOpt(d); o != nil && isIndexOption(o.Name) && DecodeIndexURL(o.Value).Variant == "rocm" {
			return true
		}
	}
	return false
}

// python reads the Python minor: the `python` dependency, a prefix's
// interpreter, or failing both the framework build's py tag.
func (r *resolution) python() {
	for _, it := range r.items {
		if it.from() != envspec.ProviderConda || it.name != "python" {
			continue
		}
		r.st.PythonPos, r.st.PythonItem = it.verPos(), it.label()
		if it.conda != nil && it.conda.Installed != nil {
			r.st.Python = majorMinor(it.conda.Installed.Version)
			return
		}
		r.st.Python = pythonSeries(it.verText)
		if r.st.Python == "" {
			r.st.PythonSpec = strings.TrimSpace(it.verText)
		}
		return
	}
	if v := r.env.PythonVersion; v != "" {
		r.st.Python = majorMinor(v)
		return
	}
	if r.fw != nil && r.fw.from() == envspec.ProviderConda {
		if py := DecodeBuild(r.fw.build).Python; py != "" {
			r.st.Python, r.st.PythonPos, r.st.PythonItem = py, r.fw.buildPos(), r.fw.label()
		}
	}
}

// pythonSeries: `=3.10`, `3.10.*`, `==3.10.12`, `3.10` give "3.10"; ranges
// (`>=3.11,<3.13`) and a bare major give "" (open).
func pythonSeries(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "=="), "=")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "*"), ".")
	if t == "" || strings.ContainsAny(t, "*<>!|,~ =") || leadingVersion(t) != t || !strings.Contains(t, ".") {
		return ""
	}
	return majorMinor(t)
}

func (r *resolution) companions() {
	f := r.st.Framework
	if f == nil {
		return
	}
	for _, name := range names(r.kb).CompanionsOf(f.Name) {
		for _, it := range r.items {
			if it.name != name {
				continue
			}
			r.companionFollowsTorch(it)
			r.st.Companions = append(r.st.Companions, Package{
				Name: name, Version: it.exact, From: it.from(), Channel: it.channel, ChannelWhy: it.channelWhy(), Pos: it.pos(),
				Spec: it.verText, Item: it.raw(), VersionPos: it.verPos(), VersionEnd: int(it.verEnd),
			})
		}
	}
}

// companionFollowsTorch moves a conda companion off the channel that
// publishes it first where that channel's builds of its release cannot sit
// beside the framework's build (companion_torch_build: conda-forge's
// torchvision from 0.9.1 requires a pytorch whose build string starts
// with cuda or cpu, which the pytorch channel's py3.10_cuda11.8_… builds do
// not): flexible channel priority then takes it from the framework's
// channel, where that one publishes it (review thirty-nine F37, corpus
// 127: torchvision=0.16.1 beside the pytorch channel's pytorch=2.1.1).
func (r *resolution) companionFollowsTorch(it *item) {
	f := r.st.Framework
	if r.kb == nil || f == nil || f.From != envspec.ProviderConda || it.from() != envspec.ProviderConda ||
		it.channel == "" || it.channel == f.Channel || f.Channel == "" || it.exact == "" ||
		(it.conda != nil && (it.conda.Installed != nil || (it.conda.Spec != nil && it.conda.Spec.Channel != ""))) {
		return
	}
	row, ok := r.kb.CompanionTorchBuildOf(distribution(it.channel), it.name, it.exact)
	if !ok || !slices.Contains(row.Excludes, f.Dist) || !publishes(f.Channel, it.name) {
		return
	}
	it.channel, it.firstChannel = f.Channel, false
	it.moved = fmt.Sprintf("%s's %s %s requires a pytorch build named %s…, which %s's pytorch builds are not", row.Dist, it.name, it.exact, strings.Join(row.Prefixes, "… or "), f.Channel)
	it.how = it.moved + ", so flexible channel priority takes it from " + f.Channel + " too (strict priority cannot solve it)"
}

// cudatoolkitPin is the file's conda cudatoolkit version spec and its
// words ("cudatoolkit<10.2,>10.0"), nil where it pins none.
func (r *resolution) cudatoolkitPin() (*envspec.VersionSpec, string) {
	for _, it := range r.items {
		if it.name != "cudatoolkit" || it.from() != envspec.ProviderConda || strings.TrimSpace(it.verText) == "" {
			continue
		}
		vs, err := envspec.ParseVersionSpec(it.verText)
		if err != nil || vs == nil {
			return nil, ""
		}
		return vs, strings.TrimSpace(it.raw())
	}
	return nil, ""
}

// condaForgeTFFits reports whether some conda-forge CUDA build of
// tensorflow release v installs beside the cudatoolkit the file pins:
// nvcc's run_exports make a CUDA 11.x build need cudatoolkit of that
// major at or above its own minor (X3_CF_NVCC_RUN_EXPORTS), and a CUDA 12
// build pulls cuda-version 12, beside which no cudatoolkit exists
// (CF_CUDA_VERSION_PIN).
func (r *resolution) condaForgeTFFits(v string, tk *envspec.VersionSpec) bool {
	for _, b := range r.kb.TensorFlowCondaForge(v) {
		m := majorOf(b.CUDA)
		if m <= 0 || m >= 12 {
			continue
		}
		for minor := 0; minor <= 9; minor++ {
			c := fmt.Sprintf("%d.%d", m, minor)
			if compareVersions(c, b.CUDA) >= 0 && (tk.MatchString(c) || tk.MatchString(c+".0")) {
				return true
			}
		}
	}
	return false
}
