package resolver

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// Resolve works out the stack an environment gets. It never fails: what it
// cannot determine stays empty, and NoNameReason says why there is no
// canonical name. k may be nil (no knowledge base: nothing is looked up).
func Resolve(env *envspec.Env, k *kb.KB) *Stack {
	return resolve(env, k, "")
}

// ResolveFramework resolves the environment with name (pytorch,
// tensorflow, jax) as its framework, where the file installs that one
// beside the framework Resolve prefers (Stack.OtherFrameworks): the
// machine checks then judge that framework's build too. Nil where the
// file has no such framework.
func ResolveFramework(env *envspec.Env, k *kb.KB, name string) *Stack {
	if env == nil || name == "" {
		return nil
	}
	st := resolve(env, k, name)
	if st.Framework == nil || st.Framework.Name != name {
		return nil
	}
	return st
}

func resolve(env *envspec.Env, k *kb.KB, only string) *Stack {
	r := &resolution{env: env, kb: k, st: &Stack{}, only: only}
	if env == nil {
		r.st.NoNameReason = "no environment"
		return r.st
	}
	r.st.Kind = env.Kind
	r.collect()
	r.st.items = r.items
	r.framework()
	r.jaxlibRelease()
	r.otherChannels()
	r.python()  // before pipPick, which takes the release pip has wheels of for it
	r.pipPick() // before the evidence, which reads the index as the variant only where pip takes its build
	r.evidence()
	r.variant()
	r.unpublishedRelease()
	r.unpublishedOnDefaults()
	r.buildCUDA()
	r.cudnn()
	r.companions()
	if r.st.Framework != nil {
		r.st.Framework.OnlyFramework = r.condaHoldsOnlyFramework()
	}
	r.gpuLibs()
	r.gpuPackages()
	r.pipConflicts()
	r.st.NotFound = condaPipNames(r.env, r.kb)
	r.companionsOverCondaTorch()
	r.st.LibBreaks = libBreaks(&Context{Env: env, KB: k, Stack: r.st})
	if r.st.Framework != nil {
		r.st.Framework.MKLExcludes = mklExcludes(&Context{Env: env, KB: k, Stack: r.st})
	}
	unloadable := tfUnloadableCUDA(r.st, r.kb)
	if unloadable != nil {
		r.st.Framework.CUDAUnloadable = unloadable.Error()
	}
	if r.st.Framework != nil {
		r.defaultsToolkitPin(r.st.Framework)
	}
	name, err := CanonicalName(r.st)
	if cu := r.onlyBuildCUDA(); err != nil && cu != "" {
		cp := *r.st
		cp.CUDA = &CUDAInfo{Version: cu}
		if r.st.CUDA != nil {
			cp.CUDA.Evidence = r.st.CUDA.Evidence
		}
		name, err = CanonicalName(&cp)
	}
	if err == nil && unloadable != nil {
		name, err = "", unloadable
	}
	if err != nil {
		// "no item says which CUDA version" is true but misleads where the
		// release pins its CUDA itself and only the tables do not reach it
		// (review ten N11: tensorflow-gpu==0.12.1, whose GPU wheels need
		// CUDA 8.0)
		if why := r.uncoveredCUDA(); why != "" && r.st.Framework.Variant == "cuda" && (r.st.CUDA == nil || r.st.CUDA.Version == "") {
			err = errors.New(why)
			r.st.Framework.Uncovered = why
		}
	}
	if err != nil && r.st.Framework == nil {
		if why := r.frameworkMayComeFrom(); why != "" {
			err = errors.New(err.Error() + "; " + why)
		}
	}
	e := r.exportElsewhere()
	if e != nil {
		r.st.ExportedElsewhere = e.there
	}
	if err == nil {
		if elsewhere := r.exportedElsewhere(e); elsewhere != nil {
			name, err = "", elsewhere
		}
	}
	r.st.canonical, r.st.canonicalErr, r.st.named = name, err, true
	if err != nil {
		r.st.NoNameReason = err.Error()
	}
	return r.st
}

// uncoveredCUDA says, for an exactly pinned framework release older than
// every release the knowledge base lists, that the CUDA its build needs is
// not known for that reason; "" otherwise.
func (r *resolution) uncoveredCUDA() string {
	f := r.st.Framework
	if r.kb == nil || f == nil || f.Version == "" {
		return ""
	}
	switch f.Name {
	case "pytorch":
		if _, ok := r.kb.Release(f.Version); ok {
			return ""
		}
	case "tensorflow":
		if _, ok := r.kb.TensorFlow(f.Version); ok {
			return ""
		}
	}
	oldest := oldestListed(r.kb, f.Name)
	if oldest == "" || compareVersions(f.Version, oldest) >= 0 {
		return ""
	}
	return fmt.Sprintf("%s %s is older than the releases the knowledge base covers (from %s), so the CUDA version its build needs is not known", f.Name, f.Version, oldest)
}

type resolution struct {
	env   *envspec.Env
	kb    *kb.KB
	st    *Stack
	items []*item
	fw    *item // the primary framework's item
	// only names the framework to resolve (ResolveFramework), "" for the
	// preferred one.
	only string
	// torchPins are the exact nvidia-* pins of the pip torch wheel the
	// file installs (torch_cuda_libs), for pipConflicts.
	torchPins []pipDemand
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

// onlyBuildCUDA is the CUDA of the one build the framework's distribution
// published of its pinned release that the file's selecting CUDA pins admit,
// where the pins name a major alone: pytorch=1.1.0 beside cudatoolkit=9
// (conda's 9.*) can only be the pytorch channel's CUDA 9.0 build, since
// 1.1.0 was built for 9.0 and 10.0. The checks list that build as the only
// candidate (gpucheck/candidates.go); the name follows them. A conda-forge
// CUDA build of a series built for one CUDA alone needs no pin. "" where
// no pin narrows, the pin does not select the variant (cudatoolkit beside
// a 1.13 or later pytorch), or more or fewer than one build is left.
func (r *resolution) onlyBuildCUDA() string {
	f := r.st.Framework
	if r.kb == nil || f == nil || f.Name != "pytorch" || f.Variant != "cuda" || (r.st.CUDA != nil && (r.st.CUDA.Version != "" || r.st.CUDA.NotPublished != "")) {
		return ""
	}
	series := SeriesOf(f.Version)
	if f.Version == "" {
		series = oneSeries(f.Candidates)
	}
	if series == "" {
		return ""
	}
	v, ok := r.kb.Variants(series, f.Dist)
	if !ok || v.NotPublished {
		return ""
	}
	var says []string
	pinned := false // an item names a CUDA version
	if r.st.CUDA != nil {
		for _, e := range r.st.CUDA.Evidence {
			pinned = pinned || strings.ContainsAny(e.Says, "0123456789")
			if e.Kind == EvidenceCudatoolkit && strings.HasPrefix(v.Selector, "cudatoolkit") && e.Says != "" {
				says = append(says, e.Says)
			}
		}
	}
	if len(says) == 0 && (pinned || f.Dist != kb.DistCondaForge || len(v.CUDA) != 1) {
		// With nothing that narrows, a series conda-forge built for one
		// CUDA only is that CUDA (review twenty-three: pytorch-gpu=2.9,
		// whose conda-forge builds are CUDA 12.9 alone).
		return ""
	}
	only := ""
	for _, c := range v.CUDA {
		admitted := true
		for _, s := range says {
			admitted = admitted && (c == s || strings.HasPrefix(c, s+"."))
		}
		if admitted {
			if only != "" {
				return ""
			}
			only = c
		}
	}
	return only
}

// frameworkMayComeFrom says where a framework the file does not name may
// still come from, for the name's refusal: a requirements file its pip
// section reads (-r), which envguard does not read, or a local project
// installed with an extra, whose dependencies are in its own setup files
// (review sixteen: 059's -r requirements_cuda.txt, 181's -e .[gpu]); ""
// where nothing says so.
func (r *resolution) frameworkMayComeFrom() string {
	var why []string
	for _, d := range r.env.Pip {
		o := pipOpt(d)
		if o == nil {
			continue
		}
		switch o.Name {
		case "-r", "--requirement":
			why = append(why, fmt.Sprintf("the pip section reads %s (line %d), which envguard does not read, so whether it brings one is not known", o.Value, d.Raw.Pos.Line))
		}
	}
	for _, p := range r.st.GPUPackages {
		if p.LocalProject {
			why = append(why, fmt.Sprintf("%s (line %d) installs a local project with a GPU extra, whose dependencies are in its own setup files, which envguard does not read", p.Item, p.Line))
		}
	}
	return strings.Join(why, "; ")
}

// jaxlibRelease records the jaxlib release a file pins beside jax
// (jaxlib==0.1.68+cuda111), whose wheels carry jax's GPU code.
func (r *resolution) jaxlibRelease() {
	f := r.st.Framework
	if f == nil || f.Name != "jax" {
		return
	}
	for _, it := range r.items {
		switch {
		case it.name == "jaxlib" && it.exact != "" && f.JAXLib == "":
			f.JAXLib = stripLocal(it.exact)
			f.JAXLibUnfindable = jaxlibUnfindable(r.env)
		case f.From == envspec.ProviderPip && it.from() == envspec.ProviderPip && it.exact != "" && pipNVCC.MatchString(it.name):
			f.PipPTXAS = stripLocal(it.exact)
		}
	}
}

// pipNVCC matches the pip packages that carry the ptxas jax points XLA at
// (nvidia-cuda-nvcc-cu12; nvidia-cuda-nvcc from CUDA 13).
var pipNVCC = regexp.MustCompile(`^nvidia-cuda-nvcc(-cu\d+)?$`)

// otherChannels records the channels beside a conda pytorch's own that
// publish pytorch too (Framework.OtherChannels).
func (r *resolution) otherChannels() {
	f := r.st.Framework
	if f == nil || f.Name != "pytorch" || f.From != envspec.ProviderConda {
		return
	}
	for _, n := range channelNames(r.env) {
		if (n == "pytorch" || n == "conda-forge") && n != f.Channel && !slices.Contains(f.OtherChannels, n) {
			f.OtherChannels = append(f.OtherChannels, n)
		}
		f.NVIDIAChannel = f.NVIDIAChannel || n == "nvidia"
	}
}

// companionsOverCondaTorch records the pip torchvision and torchaudio
// lines that install the package index's wheel over a conda pytorch (no
// local version, no index option): the wheel is built for the CUDA the
// index serves, and torchvision (another major) and torchaudio (another
// version) refuse to load beside a torch built for another CUDA. Where
// the knowledge base gives the wheel's CUDA (pypi_companion_cuda) and it
// differs, the line is CompanionsMismatched (EG211); where it does not
// say, CompanionsOpen (every target open on it) (review twenty-five: 173's
// pip torchvision==0.12.0 beside conda's pytorch 1.11.0 for CUDA 11.3).
func (r *resolution) companionsOverCondaTorch() {
	f := r.st.Framework
	if f == nil || f.Name != "pytorch" || f.From != envspec.ProviderConda || f.Variant != "cuda" || r.env.IsInstalled() {
		return
	}
	if _, _, foreign := ForeignExport(r.env); foreign {
		return // another platform's export: its builds are not Linux's
	}
	for _, d := range r.env.Pip {
		if o := pipOpt(d); o != nil && isIndexOption(o.Name) {
			return // which build pip takes from the index is another question
		}
	}
	cuda := "its CUDA build"
	if r.st.CUDA != nil && r.st.CUDA.Version != "" {
		cuda = "CUDA " + r.st.CUDA.Version
	}
	conda := map[string]bool{}
	for _, it := range r.items {
		if it.from() == envspec.ProviderConda {
			conda[it.name] = true
		}
	}
	for _, it := range r.items {
		if it.from() != envspec.ProviderPip || (it.name != "torchvision" && it.name != "torchaudio") || it.local != "" || conda[it.name] {
			// conda's own copy is installed first: the pip line finds it
			// (EG301 where the two differ)
			continue
		}
		refuses := "another CUDA major"
		if it.name == "torchaudio" {
			refuses = "another CUDA version"
		}
		if wheel, tv := r.pypiCompanionCUDA(it); wheel != "" && r.st.CUDA != nil && hasMinor(r.st.CUDA.Version) {
			same := majorOf(wheel) == majorOf(r.st.CUDA.Version)
			if it.name == "torchaudio" {
				same = majorMinor(wheel) == majorMinor(r.st.CUDA.Version)
			}
			if !same {
				r.st.CompanionsMismatched = append(r.st.CompanionsMismatched, CompanionOpen{Item: it.raw(), Pos: it.pos(),
					Why: fmt.Sprintf("%s is the package index's build for CUDA %s (that of the index's torch %s it pairs with), and the environment's torch is conda's pytorch %s (%s): %s refuses to load beside a torch built for %s (%s)", it.raw(), wheel, tv, f.Version, cuda, it.name, refuses, importCheck[it.name])})
			}
			continue
		}
		r.st.CompanionsOpen = append(r.st.CompanionsOpen, CompanionOpen{Item: it.raw(), Pos: it.pos(),
			Why: fmt.Sprintf("pip installs the package index's %s over conda's pytorch %s (%s); that wheel is built for the CUDA the index serves, which the knowledge base does not give, and %s refuses to load beside a torch built for %s", it.raw(), f.Version, cuda, it.name, refuses)})
	}
}

// importCheck is how each companion refuses a torch of another CUDA when
// it is imported.
var importCheck = map[string]string{
	"torchvision": `extension.py: "Detected that PyTorch and torchvision were compiled with different CUDA versions"`,
	"torchaudio":  "its _check_cuda_version, run at import",
}

// pypiCompanionCUDA is the CUDA of the package index's wheel of a pinned
// torch companion, where the knowledge base gives it: the CUDA of the
// index's torch release it pairs with (pypi_companion_cuda), and that
// torch release; "" where not known or the wheel is the CPU build.
func (r *resolution) pypiCompanionCUDA(it *item) (string, string) {
	if r.kb == nil || it.exact == "" || !r.kb.PyPICompanionFollowsTorch(it.name) {
		return "", ""
	}
	tv := companionTorch(r.kb, it)
	if tv == "" {
		return "", ""
	}
	build, _ := pypiBuild(r.kb, r.env, tv)
	if !hasMinor(build) {
		return "", ""
	}
	return build, tv
}
