package resolver

import (
	"fmt"
	"sort"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// item is one dependency of either side, reduced to what resolution needs.
type item struct {
	name string // conda name, or the PEP 503 normalised pip name
	// conda or pip is the dependency the item was read from (see from).
	conda   *envspec.CondaDep
	pip     *envspec.PipDep
	verText string // the version spec as written (conda syntax), "" when none
	exact   string // the exact release the item pins, "" when open
	local   string // pip local version (+cu118), without '+'
	build   string
	channel string // resolved conda channel, "" when unknown or pip
	// how says how channel was chosen, for messages, unless firstChannel
	// is set: the channel is then the first of channels: that publishes
	// the name, and channelWhy words that (most items never reach a
	// message, so the sentence is not built for them).
	how          string
	firstChannel bool
	// verShift and buildShift place the version and the build within the
	// item (see verPos, buildPos); verEnd and buildEnd are their end
	// columns. Offsets rather than positions keep an item small: a file
	// makes one per dependency.
	verShift, buildShift int32
	verEnd, buildEnd     int32
}

// from is the installer the item comes from.
func (it *item) from() envspec.Provider {
	if it.pip != nil {
		return envspec.ProviderPip
	}
	return envspec.ProviderConda
}

// extras are a pip requirement's extras (jax[cuda12]).
func (it *item) extras() []string {
	if it.pip != nil && it.pip.Line != nil && it.pip.Line.Req != nil {
		return it.pip.Line.Req.Extras
	}
	return nil
}

// raw is the item as written.
func (it *item) raw() string {
	switch {
	case it.conda != nil:
		return it.conda.Raw.Value
	case it.pip != nil:
		return it.pip.Raw.Value
	}
	return ""
}

// pos is where the item starts.
func (it *item) pos() envspec.Pos {
	switch {
	case it.conda != nil:
		return it.conda.Raw.Pos
	case it.pip != nil:
		return it.pip.Raw.Pos
	}
	return envspec.Pos{}
}

// verPos is where the item's version starts (the item's start when it
// has none).
func (it *item) verPos() envspec.Pos { return it.pos().Shift(int(it.verShift)) }

// buildPos is where the item's build string starts (the item's start when
// it has none).
func (it *item) buildPos() envspec.Pos { return it.pos().Shift(int(it.buildShift)) }

// channelWhy says how the item's channel was chosen.
func (it *item) channelWhy() string {
	if it.firstChannel {
		return "first channel in channels: that publishes " + it.name
	}
	return it.how
}

// label is the item as a message names it.
func (it *item) label() string {
	if raw := it.raw(); raw != "" {
		return raw
	}
	return it.name
}

// Resolve works out the stack an environment gets. It never fails: what it
// cannot determine stays empty, and NoNameReason says why there is no
// canonical name. k may be nil (no knowledge base: nothing is looked up).
func Resolve(env *envspec.Env, k *kb.KB) *Stack {
	r := &resolution{env: env, kb: k, st: &Stack{}}
	if env == nil {
		r.st.NoNameReason = "no environment"
		return r.st
	}
	r.collect()
	r.st.items = r.items
	r.framework()
	r.evidence()
	r.variant()
	r.python()
	r.cudnn()
	r.companions()
	r.gpuLibs()
	name, err := CanonicalName(r.st)
	r.st.canonical, r.st.canonicalErr, r.st.named = name, err, true
	if err != nil {
		r.st.NoNameReason = err.Error()
	}
	return r.st
}

type resolution struct {
	env   *envspec.Env
	kb    *kb.KB
	st    *Stack
	items []*item
	fw    *item // the primary framework's item
	// pins are the evidence items that fix the primary framework's variant.
	pins []Evidence
	// torchPip is set when a pip torch-family requirement exists, which is
	// when a PyTorch wheel index URL matters.
	torchPip bool
}

func (r *resolution) collect() {
	r.st.conda = make([]*item, len(r.env.Deps))
	// One backing array for every item, and the channels: names read once
	// rather than once per conda item.
	// store never grows past its capacity, so the pointers into it stay.
	store := make([]item, 0, len(r.env.Deps)+len(r.env.Pip))
	keep := func(it *item) *item {
		store = append(store, *it)
		p := &store[len(store)-1]
		r.items = append(r.items, p)
		return p
	}
	r.items = make([]*item, 0, cap(store))
	channels := channelNames(r.env)
	for i, d := range r.env.Deps {
		var it item
		if fillCondaItem(&it, channels, d) {
			r.st.conda[i] = keep(&it)
		}
	}
	for _, d := range r.env.Pip {
		var it item
		if fillPipItem(&it, d) {
			keep(&it)
			switch it.name {
			case "torch", "torchvision", "torchaudio":
				r.torchPip = true
			}
		}
	}
}

// channelNames are the names of env's channels: entries, in order.
func channelNames(env *envspec.Env) []string {
	out := make([]string, len(env.Channels))
	for i, c := range env.Channels {
		out[i] = channelName(c.Value)
	}
	return out
}

// condaItem reads a conda dependency; an installed one takes its exact
// version, build and channel from the prefix.
func readCondaItem(env *envspec.Env, d *envspec.CondaDep) *item {
	it := &item{}
	if !fillCondaItem(it, channelNames(env), d) {
		return nil
	}
	return it
}

// fillCondaItem is readCondaItem into it, a zero item, with env's channel
// names at hand; false when d names no package.
func fillCondaItem(it *item, channels []string, d *envspec.CondaDep) bool {
	it.conda = d
	if d.Spec != nil {
		s := d.Spec
		it.name = strings.ToLower(s.Name)
		it.build = s.Build
		if s.VersionSpan.Start >= 0 && s.VersionSpan.End > s.VersionSpan.Start && s.VersionSpan.End <= len(d.Raw.Value) {
			it.verText = d.Raw.Value[s.VersionSpan.Start:s.VersionSpan.End]
			it.verShift, it.verEnd = spanShift(d.Raw.Pos, s.VersionSpan)
		} else if s.Version != nil {
			it.verText = s.Version.String()
		}
		if s.BuildSpan.Start >= 0 && s.BuildSpan.End > s.BuildSpan.Start && s.BuildSpan.End <= len(d.Raw.Value) {
			it.buildShift, it.buildEnd = spanShift(d.Raw.Pos, s.BuildSpan)
		}
		it.exact = exactConda(it.verText)
		it.channel, it.how, it.firstChannel = resolveChannel(channels, it.name, s.Channel)
	}
	if in := d.Installed; in != nil {
		if it.name == "" {
			it.name = strings.ToLower(in.Name)
		}
		it.exact, it.verText, it.build = in.Version, in.Version, in.Build
		if in.Channel != "" {
			it.channel, it.how, it.firstChannel = channelName(in.Channel), "installed from it", false
		}
	}
	return it.name != ""
}

// condaItem is d, the i-th of Env.Deps, as Resolve read it, or read now
// when the Stack was not made by Resolve from this Env (a rule tested on a
// hand-made Stack).
func (c *Context) condaItem(i int, d *envspec.CondaDep) *item {
	if c.Stack != nil && i < len(c.Stack.conda) && len(c.Stack.conda) == len(c.Env.Deps) && c.Env.Deps[i] == d {
		return c.Stack.conda[i] // nil: Resolve found no package name
	}
	return readCondaItem(c.Env, d)
}

// pipItem reads a pip requirement (options are read by evidence()).
func readPipItem(d *envspec.PipDep) *item {
	it := &item{}
	if !fillPipItem(it, d) {
		return nil
	}
	return it
}

// fillPipItem is readPipItem into it, a zero item; false when d names no
// package.
func fillPipItem(it *item, d *envspec.PipDep) bool {
	it.pip = d
	if d.Line != nil && d.Line.Req != nil {
		q := d.Line.Req
		it.name = q.Normalized
		if it.name == "" {
			it.name = pep503(q.Name)
		}
		var text strings.Builder
		for i, sp := range q.Specifiers {
			op := sp.Op
			if op == "===" {
				op = "=="
			}
			v := sp.Version
			if i := strings.IndexByte(v, '+'); i >= 0 {
				if op == "==" || op == "" {
					it.local = strings.ToLower(v[i+1:])
				}
				v = v[:i]
			}
			if i > 0 {
				text.WriteByte(',')
			}
			text.WriteString(op)
			text.WriteString(v)
		}
		it.verText = text.String()
		if len(q.Specifiers) == 1 && (q.Specifiers[0].Op == "==" || q.Specifiers[0].Op == "===") &&
			!strings.Contains(q.Specifiers[0].Version, "*") {
			it.exact = padRelease(stripLocal(q.Specifiers[0].Version))
		}
		if q.SpecSpan.Start >= 0 && q.SpecSpan.End > q.SpecSpan.Start && q.SpecSpan.End <= len(d.Raw.Value) {
			it.verShift, it.verEnd = spanShift(d.Raw.Pos, q.SpecSpan)
		}
	}
	if in := d.Installed; in != nil {
		if it.name == "" {
			it.name = pep503(in.Name)
		}
		v := in.Version
		if i := strings.IndexByte(v, '+'); i >= 0 {
			it.local = strings.ToLower(v[i+1:])
			v = v[:i]
		}
		it.exact, it.verText = v, "=="+v
	}
	return it.name != ""
}

// spanShift is spanPos kept in an item: the shift of the span's start
// from the item's start (its verPos or buildPos) and the span's end column.
func spanShift(base envspec.Pos, sp envspec.Span) (shift, end int32) {
	_, e := spanPos(base, sp)
	return int32(sp.Start), int32(e)
}

// spanPos places a caret on a part of an item: the column is the item's
// column plus the span's start.
func spanPos(base envspec.Pos, sp envspec.Span) (envspec.Pos, int) {
	p := base.Shift(sp.Start)
	if base.Col == 0 {
		return p, 0
	}
	return p, base.Col + sp.End
}

// exactConda returns the release a conda version spec pins, or "": `==2.0.1`,
// `=2.0.1` (conda reads it as 2.0.1*, which no later release matches) and a
// bare `2.0.1` pin a release; `=2.0`, `2.0.*`, ranges and alternatives do not.
// `==2.12` pins 2.12 exactly and is read as 2.12.0.
func exactConda(text string) string {
	t := strings.TrimSpace(text)
	double := strings.HasPrefix(t, "==")
	t = strings.TrimPrefix(strings.TrimPrefix(t, "=="), "=")
	if t == "" || strings.ContainsAny(t, "*<>!|,~ =^$()") {
		return ""
	}
	// Count the dotted parts of the public version without splitting: this
	// runs for every conda item, several times per file.
	pub, _, _ := strings.Cut(t, "+")
	parts := 1
	for i := 0; i < len(pub); i++ {
		if pub[i] != '.' {
			continue
		}
		if i == 0 || i == len(pub)-1 || pub[i-1] == '.' {
			return "" // an empty part
		}
		parts++
	}
	if pub == "" {
		return ""
	}
	if parts >= 3 {
		return t
	}
	if double && parts == 2 {
		return padRelease(t)
	}
	return ""
}

// padRelease writes a two-part release as three (2.12 → 2.12.0): PEP 440
// and conda both treat missing trailing parts as zero.
func padRelease(v string) string {
	if strings.Count(v, ".") == 1 {
		return v + ".0"
	}
	return v
}

// Channel priority. A package comes from the channel written before `::`
// when there is one; otherwise from the first channel in `channels:` that
// publishes a package of that name (strict channel priority, which conda-forge
// recommends and which flexible priority also follows whenever the first
// channel can satisfy the spec). Whether a channel publishes a name is
// decided by publishes below; unknown channels are assumed not to publish the
// framework and CUDA packages this resolver looks at.

// resolveChannel returns the channel a conda package comes from and how that
// was decided: the sentence, or firstChannel when it was the first of
// channels (the names of env's channels:) that publishes the name.
func resolveChannel(channels []string, name, explicit string) (channel, how string, firstChannel bool) {
	if explicit != "" {
		return channelName(explicit), "written as " + explicit + "::", false
	}
	for _, n := range channels {
		if publishes(n, name) {
			return n, "", true
		}
	}
	return "", "", false
}

// channelName reduces a channel URL or label path to its name:
// https://conda.example/pytorch/label/nightly → pytorch.
func channelName(c string) string {
	n := envspec.SourceChannel(c)
	switch n {
	case "main", "anaconda", "pkgs", "r", "msys2":
		// anaconda.org's "anaconda" channel and the bare member names
		// serve the defaults packages
		return "defaults"
	}
	return n
}

// pytorchChannelOnly are packages only the pytorch channel publishes (the
// mutex and selectors of its build variants).
var pytorchChannelOnly = map[string]bool{"pytorch-cuda": true, "pytorch-mutex": true, "cpuonly": true}

// publishes says whether a channel publishes a package name.
func publishes(channel, name string) bool {
	switch channel {
	case "pytorch", "pytorch-nightly", "pytorch-test":
		switch name {
		case "pytorch", "torchvision", "torchaudio", "torchtext", "torchdata", "torchtriton",
			"pytorch-cpu", "torchvision-cpu", // the CPU builds before 1.2
			"pytorch-cuda", "pytorch-mutex", "cpuonly", "magma-cuda110", "magma-cuda113", "magma-cuda116", "magma-cuda117", "magma-cuda118", "magma-cuda121":
			return true
		}
		return false
	case "nvidia":
		return name == "cudatoolkit" || strings.HasPrefix(name, "cuda-") || strings.HasPrefix(name, "libcu") ||
			strings.HasPrefix(name, "libnv") || strings.HasPrefix(name, "libnpp") || name == "cudnn" || name == "nccl"
	case "conda-forge", "defaults":
		return !pytorchChannelOnly[name]
	}
	return false
}

// distribution maps a framework's channel to the knowledge base's
// distribution.
func distribution(channel string) kb.Distribution {
	switch channel {
	case "pytorch", "pytorch-nightly", "pytorch-test":
		return kb.DistPytorchConda
	case "conda-forge":
		return kb.DistCondaForge
	case "defaults":
		return kb.DistDefaults
	}
	return ""
}

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
	for _, b := range best {
		if b != nil {
			r.fw = b
			break
		}
	}
	if r.fw == nil {
		if r.env.Torch != nil {
			r.st.Framework = &Framework{Name: "pytorch", Version: stripLocal(r.env.Torch.Version), From: envspec.ProviderPip}
			return
		}
		r.frameworkFromCompanion()
		return
	}
	it := r.fw
	r.pastCondaForge(it)
	for _, c := range r.items {
		if c.name == "torchvision" || c.name == "torchaudio" {
			r.pastCondaForge(c)
		}
	}
	f := &Framework{
		Name: frameworkOf(it), Version: it.exact, Spec: it.verText, From: it.from(),
		Channel: it.channel, ChannelWhy: it.channelWhy(), Build: it.build, Pos: it.pos(),
		Item: it.raw(), VersionPos: it.verPos(), VersionEnd: int(it.verEnd),
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
		it.exact == "" || (it.conda != nil && it.conda.Installed != nil) || !it.firstChannel {
		return
	}
	switch {
	case torchConda[it.name]:
		vs, ok := r.kb.Variants(seriesOf(it.exact), kb.DistCondaForge)
		if !ok || (!vs.NotPublished && (len(vs.Releases) == 0 || contains(vs.Releases, it.exact))) {
			return
		}
	case it.name == "torchvision" || it.name == "torchaudio":
		// the companion releases conda-forge built, as far as they were read
		var built []string
		for _, v := range r.kb.TorchVariants {
			if v.Dist == kb.DistCondaForge {
				if it.name == "torchvision" {
					built = append(built, v.Torchvision...)
				} else {
					built = append(built, v.Torchaudio...)
				}
			}
		}
		// the lists run from each feedstock's first commit; a release newer
		// than the newest read is not known either way
		if len(built) == 0 || contains(built, it.exact) || compareVersions(it.exact, built[len(built)-1]) > 0 {
			return
		}
	default:
		return
	}
	past := false
	for _, c := range r.env.Channels {
		n := channelName(c.Value)
		if n == "conda-forge" {
			past = true
			continue
		}
		if past && publishes(n, it.name) {
			it.channel, it.firstChannel = n, false
			it.how = fmt.Sprintf("conda-forge never built %s %s, so flexible channel priority takes it from the next channel in channels: that publishes it (strict priority cannot solve it)", it.name, it.exact)
			return
		}
	}
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
	if r.env.Torch != nil && f.Name == "pytorch" {
		f.Version = stripLocal(r.env.Torch.Version)
	}
	if f.Version == "" && f.Spec != "" {
		f.Candidates = r.candidates(f.Name, f.Spec)
	}
	r.st.Framework = f
}

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

func stripLocal(v string) string {
	pub, _, _ := strings.Cut(v, "+")
	return pub
}

// wheelIndex reports whether a pip option points at a PyTorch wheel index.
func (r *resolution) wheelIndex() bool {
	for _, d := range r.env.Pip {
		if o := pipOpt(d); o != nil && isIndexOption(o.Name) && strings.Contains(strings.ToLower(o.Value), "/whl") {
			return true
		}
	}
	return false
}

func pipOpt(d *envspec.PipDep) *envspec.PipOption {
	if d.Line == nil {
		return nil
	}
	return d.Line.Option
}

func isIndexOption(name string) bool {
	switch name {
	case "--index-url", "--extra-index-url", "-i", "--find-links", "-f":
		return true
	}
	return false
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

// cudaPackages are the conda packages whose version is a CUDA version.
var cudaPackages = map[string]string{
	"pytorch-cuda": EvidencePytorchCUDA,
	"cuda-version": EvidenceCUDAVersion,
	"cudatoolkit":  EvidenceCudatoolkit,
	"cuda-toolkit": EvidenceCUDAPackage,
	"cuda-runtime": EvidenceCUDAPackage,
	"cuda-cudart":  EvidenceCUDAPackage,
}

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
	if r.torchPip {
		for _, d := range r.env.Pip {
			o := pipOpt(d)
			if o == nil || !isIndexOption(o.Name) {
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
	if len(cuda) > 0 {
		r.st.CUDA = &CUDAInfo{Evidence: cuda}
		if a := authority(cuda); a != nil && strings.Contains(a.Says, ".") {
			r.st.CUDA.Version = a.Says
			if pc := pytorchCUDAVersions(r.kb); a.Kind == EvidencePytorchCUDA && len(pc) > 0 && !contains(pc, a.Says) {
				r.st.CUDA.NotPublished = fmt.Sprintf("%s names a pytorch-cuda the pytorch channel never published (it has %s)", a.Item, strings.Join(pc, ", "))
			}
		}
		if r.st.CUDA.NotPublished == "" {
			r.st.CUDA.NotPublished = r.unbuiltCondaForgeCUDA()
		}
	}
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

type addFunc func(Evidence, bool)

func (r *resolution) condaEvidence(it *item, fw string, primary bool, add addFunc) {
	ev := func(kind, says string, pos envspec.Pos, end int) Evidence {
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
			add(ev(EvidenceMutex, says, it.pos(), 0), r.isTorch())
		}
	case it.name == "pytorch-mutex":
		if a := DecodeBuild(it.build); a.Variant == "cuda" || a.Variant == "cpu" {
			add(ev(EvidenceMutex, a.Variant, it.buildPos(), int(it.buildEnd)), r.isTorch())
		}
	case it.name == "cpuonly":
		add(ev(EvidenceMutex, "cpu", it.pos(), 0), r.isTorch())
	case cudaPackages[it.name] != "":
		kind := cudaPackages[it.name]
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
	a := DecodePipName(it.name, it.extras())
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
	if f.Name == "pytorch" && r.fw != nil && r.fw.from() == envspec.ProviderPip && strings.HasPrefix(r.fw.local, "rocm") {
		rocm = true
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
	}
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

func (r *resolution) cudnn() {
	for _, it := range r.items {
		if it.from() == envspec.ProviderConda && it.name == "cudnn" {
			r.st.CuDNNPos = it.verPos()
			if s := pythonSeries(it.verText); s != "" {
				r.st.CuDNN = s
				return
			}
			if t := strings.TrimPrefix(strings.TrimPrefix(it.verText, "=="), "="); t != "" && leadingDigits(t) == t {
				r.st.CuDNN = t
				return
			}
		}
	}
	if r.fw != nil {
		r.st.CuDNN, r.st.CuDNNPos = DecodeBuild(r.fw.build).CuDNN, r.fw.buildPos()
	}
}

// companionNames are the libraries released in lockstep with a framework.
var companionNames = map[string][]string{"pytorch": {"torchvision", "torchaudio"}}

func (r *resolution) companions() {
	f := r.st.Framework
	if f == nil {
		return
	}
	for _, name := range companionNames[f.Name] {
		for _, it := range r.items {
			if it.name != name {
				continue
			}
			r.st.Companions = append(r.st.Companions, Package{
				Name: name, Version: it.exact, From: it.from(), Channel: it.channel, ChannelWhy: it.channelWhy(), Pos: it.pos(),
				Spec: it.verText, Item: it.raw(), VersionPos: it.verPos(), VersionEnd: int(it.verEnd),
			})
		}
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
			if c := cudaPackages[it.name]; c != "" {
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
	if a := DecodePipName(it.name, it.extras()); a.Major > 0 {
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
