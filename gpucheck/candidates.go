package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// maxCandidates bounds the builds one verdict is decided over: an open spec
// such as pytorch>=1.8 admits dozens of releases × variants, and the list a
// person reads must stay short.
const maxCandidates = 256

// candidate is one build the solver (or pip) could install for an
// environment that leaves the release, the variant or the CUDA version open.
type candidate struct {
	st    *resolver.Stack
	label string
}

// candidates lists the builds the knowledge base says the environment's
// framework spec admits in its distribution: each admitted release × each
// variant that distribution publishes for it, narrowed only by what pins the
// variant (the resolver's Pins: a build string, a +cuXXX wheel, pytorch-cuda,
// cudatoolkit where it selects, cuda-version). A CUDA package that does not
// select the framework's variant (cudatoolkit beside pytorch 2.x) narrows
// nothing: the solver may still pick any variant. ok is false when the
// builds cannot be listed (no distribution, no release known, too many).
func candidates(st *resolver.Stack, k knowledge) ([]candidate, bool) {
	cs, _, ok := listCandidates(st, k)
	return cs, ok
}

// pinLeavesVariantOpen reports whether the CUDA pin the variant was read
// from does not select it in some release the file admits (cudatoolkit=11.3
// beside an unpinned pytorch::pytorch, which may well be 2.x): the verdict
// the stack gives as read is then one build's only, and must be decided over
// the builds even where that one was decided.
func pinLeavesVariantOpen(st *resolver.Stack, k knowledge) bool {
	_, widened, ok := listCandidates(st, k)
	return ok && widened
}

// listCandidates is candidates, and whether some release was listed with
// every variant because the pin does not select its variant.
func listCandidates(st *resolver.Stack, k knowledge) ([]candidate, bool, bool) {
	fw := st.Framework
	if fw == nil || fw.Name != "pytorch" || fw.Dist == "" {
		return nil, false, false
	}
	if pickBuilds(fw) {
		// pip takes PyPI's build beside an extra index (resolver.PipPick):
		// the builds are the pick's, never the index's.
		var out []candidate
		for _, b := range fw.PipPick.Builds(k) {
			label := fmt.Sprintf("%s %s CPU (PyPI)", fw.Name, b.Release)
			if b.Variant == "cuda" {
				label = fmt.Sprintf("%s %s CUDA %s (%s)", fw.Name, b.Release, b.CUDA, map[kb.Distribution]string{kb.DistPyPI: "PyPI", kb.DistWheel: "the index"}[b.Dist])
			}
			cs := buildStack(st, k, b.Release, b.Variant, b.CUDA)
			cs.Framework.Dist = b.Dist
			out = append(out, candidate{st: cs, label: label})
		}
		return out, false, len(out) > 0
	}
	pinned, pinKind := "", ""
	var pinRange *envspec.VersionSpec
	for _, p := range fw.Pins {
		if p.Says != "cpu" && p.Says != "cuda" && p.Says != "" {
			pinned, pinKind = resolver.SeriesOf(p.Says), p.Kind
		} else if p.Says == "cuda" && p.Kind == resolver.EvidencePytorchCUDA {
			// pytorch-cuda>=11.7 beside an open release: a range that
			// admits several CUDA versions is a bound to list builds by.
			if ms, err := envspec.ParseMatchSpec(p.Item); err == nil && ms.Version != nil {
				pinned, pinKind, pinRange = "range", p.Kind, ms.Version
			} else if err == nil && ms.Version == nil {
				// a bare pytorch-cuda selects the CUDA builds of the
				// releases that depend on it (1.13 … 2.5), whichever CUDA
				// (review fifty-seven F14, corpus 048)
				pinned, pinKind = "any", p.Kind
			}
		}
	}
	// admits reports whether the pin admits CUDA c: pytorch-cuda=12.1 only
	// 12.1, pytorch-cuda>=11.7 every CUDA from 11.7 on.
	admits := func(c string) bool {
		switch {
		case pinRange != nil:
			return pinRange.MatchString(c) || pinRange.MatchString(c+".0")
		case pinned == "" || pinned == "any":
			return true
		case !strings.Contains(pinned, "."):
			// cudatoolkit=9 is conda's 9.*: every 9.x the release was built with
			return strings.HasPrefix(c, pinned+".")
		}
		return c == pinned
	}
	if fw.Variant == "cuda" && pinned == "" && st.CUDA != nil && st.CUDA.Version != "" && len(fw.Pins) == 0 {
		// The variant is CUDA by other evidence and one runtime is read.
		pinned = st.CUDA.Version
	}
	rels := fw.Candidates
	if fw.Version != "" {
		rels = []string{fw.Version}
	}
	open := map[string]bool{} // releases whose variant the pin does not select
	allRows := false          // every release has a row for the channel (set below)
	if len(rels) == 0 && fw.Spec == "" && pinned != "" {
		// An unpinned release with a pinned CUDA variant: the solver can
		// pick any release the distribution publishes with that variant.
		// That list is complete only when the pin selects the variant of
		// every release the distribution publishes: cudatoolkit=11.3 beside
		// an unpinned pytorch selects up to 1.12, but the solver may as
		// well pick 2.x and its own pytorch-cuda, so nothing is listed.
		//
		// pytorch-cuda selects from 1.13 on; the releases before it never
		// depend on it, and conda installs an older release of a requested
		// package only when every newer one conflicts, which a release
		// built for the pinned pytorch-cuda does not. So those releases are
		// left out. A cudatoolkit pin selects only up to 1.12: a later
		// release (2.5.1 for an unpinned pytorch::pytorch) may come in any
		// of its variants, so all of its builds are listed. By the same
		// reasoning the releases before the newest one are left out too
		// (newestOpen below), where nothing else in the file could make
		// the newest conflict.
		allRows = true
		for _, rel := range k.TorchReleases() {
			v, ok := k.Variants(resolver.SeriesOf(rel), fw.Dist)
			if !ok {
				allRows = false
				continue
			}
			if v.NotPublished {
				continue
			}
			if !selects(pinKind, v.Selector) {
				if pinKind == resolver.EvidencePytorchCUDA && strings.HasPrefix(v.Selector, "cudatoolkit") {
					continue
				}
				if pinKind != resolver.EvidenceCudatoolkit {
					return nil, false, false
				}
				open[rel] = true
				rels = append(rels, rel)
				continue
			}
			for _, c := range v.CUDA {
				if admits(c) {
					rels = append(rels, rel)
					break
				}
			}
		}
	}
	if len(open) > 0 && allRows && newestOpen(st, rels, open) {
		rels = rels[len(rels)-1:]
	}
	if pinned == "any" && len(rels) > 0 && fw.Spec == "" && fw.Version == "" {
		// a bare pytorch-cuda beside a release nothing else in the file
		// could rule out: the solver takes the newest the channel
		// published (closedNewest), where it is one pytorch-cuda selects
		if rel, ok := closedNewest(st, k); ok && contains(rels, rel) {
			rels = []string{rel}
		}
	}
	if len(rels) == 0 && fw.Spec == "" && fw.Version == "" && pinned == "" {
		// Neither the release nor its CUDA is pinned: the solver takes the
		// newest release the channel published (newestOpen's reasoning),
		// which is known only for a channel that stopped publishing.
		if rel, ok := closedNewest(st, k); ok {
			rels = []string{rel}
		}
	}
	if len(rels) == 0 {
		return nil, false, false
	}
	var out []candidate
	channelNewest := ""
	if fw.Version == "" && (fw.Dist == kb.DistCondaForge || fw.Dist == kb.DistPytorchConda) {
		channelNewest = newestSeriesWithRow(k, fw.Dist)
	}
	for _, rel := range rels {
		series := resolver.SeriesOf(rel)
		v, ok := k.Variants(series, fw.Dist)
		if !ok && channelNewest != "" && seriesAfter(series, channelNewest) {
			// A release the spec admits that is newer than every series
			// this conda channel has a row for: conda-forge's rows stop at
			// the series its feedstock had built when it was read, and the
			// torch table runs further (2.14.0). For that channel the
			// release is as new as a release the knowledge base does not
			// list, which an open spec is not decided over either; EG502
			// too reads a missing row as not published. An older release
			// without a row (conda-forge before 1.6) still makes the list
			// unknowable, as does an exact release.
			continue
		}
		if !ok {
			return nil, false, false // a release whose variants are not known: cannot list the builds
		}
		if v.NotPublished || (len(v.Releases) > 0 && !contains(v.Releases, rel)) {
			// the distribution never built this release of the series
			// (conda-forge's 2.9 is 2.9.1 only: review ten #337)
			continue
		}
		// Where the CPU build was a package of another name (pytorch-cpu
		// before 1.2 on the pytorch channel: the KB's cpu_package), the
		// framework's own package has no CPU build for the solver to pick;
		// only a file that asks for that package (variant cpu) gets one.
		if v.CPU && v.CPUPackage == "" && (fw.Variant == "" || open[rel]) && !pythonLacks(st, k, rel, "") {
			out = append(out, candidate{st: buildStack(st, k, rel, "cpu", ""), label: fmt.Sprintf("%s %s CPU", fw.Name, rel)})
		}
		if fw.Variant == "cpu" {
			continue
		}
		for _, c := range v.CUDA {
			if fw.Variant == "cuda" && !open[rel] && !admits(c) {
				continue
			}
			if pythonLacks(st, k, rel, c) {
				// no build of this release for the file's Python: the
				// solver cannot pick it (review ten #440, #442: 2.1.x beside
				// python=3.12, corpus 057)
				continue
			}
			if fw.Dist == kb.DistCondaForge && !condaForgeFitsToolkit(st, c) {
				// the build's cudatoolkit or cuda-version requirement
				// conflicts with the file's cudatoolkit pin (review
				// thirty-three F23: 034's cudatoolkit=11.7 rules out
				// conda-forge's CUDA 11.8 and 12.0 builds of 2.0.0)
				continue
			}
			if wrapperLacks(st, k, rel, c) {
				// the wrapper the file asks for was never uploaded for
				// this (release, CUDA, Python): the solver cannot pick it
				continue
			}
			out = append(out, candidate{st: buildStack(st, k, rel, "cuda", c), label: fmt.Sprintf("%s %s CUDA %s", fw.Name, rel, c)})
		}
	}
	if len(out) == 0 || len(out) > maxCandidates {
		return nil, false, false
	}
	return out, len(open) > 0, true
}

// condaForgeFitsToolkit reports whether a conda-forge build for CUDA c can
// be installed beside the cudatoolkit X.Y the file pins (true where it pins
// none): nvcc's run_exports make a build with CUDA 11.2 or later need
// cudatoolkit >=c,<next major, and an older one cudatoolkit c.*
// (X3_CF_NVCC_RUN_EXPORTS); a CUDA 12 build pulls cuda-version 12.x, which
// constrains cudatoolkit to its own version, of which none exists
// (CF_CUDA_VERSION_PIN).
func condaForgeFitsToolkit(st *resolver.Stack, c string) bool {
	if st.CUDA == nil {
		return true
	}
	for _, e := range st.CUDA.Evidence {
		if e.Kind != resolver.EvidenceCudatoolkit || strings.Count(e.Says, ".") != 1 {
			continue
		}
		switch {
		case majorOf(c) >= 12 || majorOf(c) != majorOf(e.Says):
			return false
		case compareVersions(c, "11.2") >= 0:
			if compareVersions(c, e.Says) > 0 {
				return false
			}
		case c != e.Says:
			return false
		}
	}
	return true
}

// newestOpen reports whether the solver takes the newest of rels (sorted
// oldest first), a release whose variant the cudatoolkit pin does not
// select: cudatoolkit=11.3 beside an unpinned pytorch::pytorch. 1.13 and
// later do not depend on cudatoolkit, so no pin of it conflicts with them,
// and conda installs an older release only when every newer one conflicts.
// conda's classic solver maximizes the versions of the requested packages
// before it minimizes track features (conda/resolve.py, Resolve.solve), so
// 2.5.1's CPU build, which needs nothing from the nvidia channel, is taken
// over 1.12.1 CUDA 11.3 even where no CUDA build of 2.5.1 can be installed
// (no nvidia channel for pytorch-cuda's cuda-* packages, corpus 001): the
// builds listed are then a superset of what can come, so a verdict they
// all give holds. That holds only while nothing else in the file could
// rule the newest release out: a Python pin (the newest may have no build
// for it), a pinned companion (torchvision=0.11 needs 1.10), or any other
// conda package (its own Python range or pins) leaves every release listed.
func newestOpen(st *resolver.Stack, rels []string, open map[string]bool) bool {
	return len(rels) > 0 && open[rels[len(rels)-1]] && st.Python == "" && nothingRulesOutNewest(st)
}

// nothingRulesOutNewest reports whether no conda package of the file
// beside the framework could rule its newest release out: every one is a
// companion, the CUDA stack, python or pip (OnlyFramework), and no
// companion is pinned (torchvision=0.11 needs 1.10).
func nothingRulesOutNewest(st *resolver.Stack) bool {
	if !st.Framework.OnlyFramework {
		return false
	}
	for _, c := range st.Companions {
		if c.Version != "" || c.Spec != "" {
			return false
		}
	}
	return true
}

// closedDist is the torch release list where distribution d publishes no
// more releases (the row of the newest series the knowledge base knows
// says not published: the pytorch channel after 2.5), so that the
// releases it has are all it will have; nil where it still publishes, or
// the knowledge base lists no releases.
func closedDist(k knowledge, d kb.Distribution) []string {
	rels := k.TorchReleases()
	if len(rels) == 0 {
		return nil
	}
	if v, ok := k.Variants(rels[len(rels)-1], d); !ok || !v.NotPublished {
		return nil
	}
	return rels
}

// closedNewest is the release the solver takes for a framework whose
// release and CUDA the file leaves open, from a distribution that publishes
// no more (the pytorch channel after 2.5: its newest series' row says not
// published): conda installs the newest release of a requested package
// unless something else in the file rules it out (newestOpen), and a
// channel that still publishes may serve a release newer than the tables.
// A pinned Python takes the newest release built for it, where the
// knowledge base lists the Pythons of that release and of every newer one.
func closedNewest(st *resolver.Stack, k knowledge) (string, bool) {
	fw := st.Framework
	if !nothingRulesOutNewest(st) {
		return "", false
	}
	rels := closedDist(k, fw.Dist)
	for i := len(rels) - 1; i >= 0; i-- {
		rel := rels[i]
		v, ok := k.Variants(rel, fw.Dist)
		if !ok {
			return "", false
		}
		if v.NotPublished || (len(v.Releases) > 0 && !contains(v.Releases, rel)) {
			continue
		}
		if st.Python == "" {
			return rel, true
		}
		r, ok := k.Release(rel)
		if !ok || len(r.Python) == 0 {
			return "", false // whether it was built for the file's Python is not known
		}
		if !lacksPython(k, rel, fw.Dist, "", st.Python) {
			return rel, true
		}
	}
	return "", false
}

// pickBuilds reports whether the framework's builds are those of its
// PipPick: pip takes PyPI's build of the release beside an extra index,
// or which one is not determined.
func pickBuilds(fw *resolver.Framework) bool {
	return fw != nil && fw.PipPick != nil && !fw.PipPick.FromIndex
}

// selects reports whether a pin of this kind selects the variant of a
// series whose distribution selects with selector ("pytorch-cuda=X.Y",
// "cudatoolkit=X.Y", or "" for pip and conda-forge).
func selects(kind, selector string) bool {
	switch kind {
	case resolver.EvidencePytorchCUDA:
		return strings.HasPrefix(selector, "pytorch-cuda")
	case resolver.EvidenceCudatoolkit:
		return strings.HasPrefix(selector, "cudatoolkit")
	}
	return true
}

// buildStack is the stack with one candidate build filled in, with the
// CUDA libraries that build loads.
func buildStack(st *resolver.Stack, k knowledge, version, variant, cuda string) *resolver.Stack {
	cp := *st
	// what refuses the file as written is the whole file's, said once
	cp.PinConflicts, cp.NotFound = nil, nil
	fw := *st.Framework
	fw.Version, fw.Variant, fw.Candidates = version, variant, nil
	cp.Framework = &fw
	cp.CUDA = nil
	if cuda != "" {
		info := resolver.CUDAInfo{Version: cuda}
		if st.CUDA != nil {
			info.Evidence = st.CUDA.Evidence
		}
		cp.CUDA = &info
	}
	// a conda-forge build's libraries may be a later release the file pins
	// (review forty F9: its pytorch 2.0.0 CUDA 11.2 build beside
	// cudatoolkit=11.7 loads CUDA 11.7's cuBLAS) or any of its major
	cp.GPUPackages = candidateLibs(st.GPUPackages, k, &fw, st.CuDNN, variant, cuda, resolver.CondaForgeToolkitLibs(k, &fw, st.CUDA, cuda))
	return &cp
}

// candidateLibs are the GPU packages of one candidate build fw. The stack
// as read gave the framework the toolkit libraries of the CUDA it read (or
// none, where it read no runtime: cudatoolkit=9 beside pytorch 1.1); a
// candidate loads those of its own CUDA, and a CPU build loads none of
// what the framework brings. The cuDNN a pytorch-channel build copies in
// is that of the candidate's series and CUDA, as for a build the file
// pins (resolver.PytorchChannelCuDNN); buildCuDNN is what the file's
// build string says of it. A cuDNN the build string names in full stays.
// Packages the file names itself stay. tk is which toolkit libraries the
// build loads (a conda-forge build's may be another release than cuda's).
func candidateLibs(pkgs []resolver.GPUPackage, k knowledge, fw *resolver.Framework, buildCuDNN, variant, cuda string, tk resolver.ToolkitRelease) []resolver.GPUPackage {
	var out []resolver.GPUPackage
	named := map[string]bool{}                  // libraries the file names
	bundled := map[string]resolver.GPUPackage{} // the framework's own, not the runtime's
	for _, p := range pkgs {
		switch {
		case p.Role != resolver.RoleCUDALibrary:
			out = append(out, p)
		case p.BundledWith == "":
			named[p.Lib] = true
			out = append(out, p)
		case variant == "cuda" && p.BundledWith != resolver.RuntimeBundled(p.Version):
			bundled[p.Lib] = p
		}
	}
	if variant != "cuda" || cuda == "" {
		return out
	}
	// in the resolver's order, so that messages list them as for a build
	// the file pins
	for _, lib := range resolver.FrameworkCUDALibsOf(fw.Name) {
		if named[lib] {
			continue
		}
		p, ok := bundled[lib]
		if ok && !(lib == "cudnn" && channelRow(p)) {
			out = append(out, p)
			delete(bundled, lib)
			continue
		}
		delete(bundled, lib)
		if cl, ok := k.CUDALibByName(lib); ok && cl.Toolkit {
			out = append(out, tk.Lib(lib))
			continue
		}
		if lib == "cudnn" {
			if p, ok := resolver.PytorchChannelCuDNN(k, fw, cuda, buildCuDNN); ok {
				out = append(out, p)
				continue
			}
		}
		with := resolver.FrameworkPackage(fw.Name)
		out = append(out, resolver.GPUPackage{Name: lib, Role: resolver.RoleCUDALibrary, Lib: lib, BundledWith: with, Unknown: "which " + lib + " release " + with + " loads is not known"})
	}
	// what the framework's wheel pins beyond those (nccl, nvjitlink)
	for _, p := range pkgs {
		if _, ok := bundled[p.Lib]; ok && p.Role == resolver.RoleCUDALibrary {
			out = append(out, p)
		}
	}
	return out
}

// channelRow reports whether the framework's cuDNN is one a candidate
// build redoes: no release (a file that leaves the release open), or the
// pytorch_channel_cudnn row of the CUDA the file reads. A cuDNN a build
// string names (cuda11.3_cudnn8.2.0) or a wheel pins holds as read.
func channelRow(p resolver.GPUPackage) bool {
	if p.Version == "" {
		return true
	}
	for _, e := range p.Evidence {
		if e.Kind == resolver.EvidenceKBRow {
			return true
		}
	}
	return false
}

// overCandidates decides a verdict the file leaves to the solver by
// checking every build it could install: when they all run (or all fail),
// which one is picked does not matter. It returns false when the builds
// cannot be listed.
func (c *checker) overCandidates() bool {
	cands, ok := candidates(c.st, c.k)
	// picked: what was assumed where the builds were narrowed to those
	// conda installs on this machine (conda_variant_pick)
	picked := ""
	if ok {
		cands, picked = c.solverPick(cands)
	} else {
		cands, picked, ok = c.pickCandidates()
	}
	if !ok {
		return false
	}
	if kept, why := c.cudatoolkitRulesOut(cands); why != "" {
		cands = kept
		if picked != "" {
			picked += "; "
		}
		picked += why
	}
	// said is a finding's message with what was assumed of the build
	said := func(msg string) string {
		if picked == "" {
			return msg
		}
		return msg + " (" + picked + ")"
	}
	type outcome struct {
		label   string
		series  string // the candidate's release series
		release string // and its release, where it fixes one
		verdict Verdict
		ds      []finding.Diagnostic
		und     []Undecided
	}
	var outs []outcome
	for _, cand := range cands {
		sub := check(cand.st, c.h, c.k, c.opt)
		outs = append(outs, outcome{cand.label, cand.st.Framework.Series(), cand.st.Framework.Version, sub.verdict(), sub.ds, sub.undecided})
	}
	fw := c.st.Framework
	what := fwName(fw)
	if fw.Dist != "" {
		what += " (" + string(fw.Dist) + ")"
	}
	all := func(v Verdict) bool {
		for _, o := range outs {
			if o.verdict != v {
				return false
			}
		}
		return true
	}
	// What concerns the machine rather than the build (busy GPUs, MIG)
	// holds whichever build is picked.
	machine := func(d finding.Diagnostic) bool { return d.Code == "EG405" || d.Code == "EG406" }
	var kept []finding.Diagnostic
	for _, d := range c.ds {
		if machine(d) {
			kept = append(kept, d)
		}
	}
	c.ds, c.undecided = kept, nil
	// Every build undecided for the same reasons: which one the solver
	// takes does not matter either, and the builds' own findings say what
	// is open (the CUDA 10.2 libraries on sm_80 through PTX, corpus 005),
	// where "the file leaves the build to the solver" would blame a choice
	// that decides nothing (cudatoolkit=9 admits one build, corpus 183).
	sameUnknown := all(VerdictUnknown)
	for _, o := range outs {
		sameUnknown = sameUnknown && UndecidedText(o.und) == UndecidedText(outs[0].und)
	}
	switch {
	case all(VerdictOK), all(VerdictFail), sameUnknown:
		// Each finding is shown once per code, from the first build that
		// has it, with how many of the builds it holds for: a warning true
		// of one variant only (EG402 on the newest CUDA) is still worth
		// reading, and hiding it because the others lack it would not be.
		var order []string
		byCode := map[string][]string{}
		first := map[string]finding.Diagnostic{}
		// Checks left undecided in a build that fails anyway (an extension
		// no build can vouch for) are kept whole, from the first build that
		// has them, each finding with its undecided check.
		undecidedFrom := -1
		for i, o := range outs {
			if len(o.und) > 0 {
				undecidedFrom = i
				break
			}
		}
		if undecidedFrom >= 0 {
			o := outs[undecidedFrom]
			// The builds that leave a check open: the message names the
			// first one's build, which is not the one the solver picks
			// (conda and pip take the newest release admitted), so it is
			// said to be that build's.
			var open []string
			for _, x := range outs {
				if len(x.und) > 0 {
					open = append(open, x.label)
				}
			}
			for _, d := range o.ds {
				if d.Code == "EG409" {
					switch {
					case sameUnknown && len(outs) > 1:
						d.Message += fmt.Sprintf(" (so for each of the %d builds the file admits: %s)", len(outs), labels(outs, func(o outcome) string { return o.label }))
					case len(outs) > 1:
						d.Message += fmt.Sprintf(" (as %s has it; %d of the %d builds the file admits leave a check open: %s)", o.label, len(open), len(outs), shortList(open))
					}
					c.ds = append(c.ds, d)
				}
			}
			c.undecided = append(c.undecided, o.und...)
		}
		firstLabel, firstSeries := map[string]string{}, map[string]string{}
		// differs: a code whose finding reads otherwise in another build
		// (cuDNN 8.7.0 in the 2.0 builds, 9.1.0 in the 2.4 ones): the one
		// shown is then said to be the first build's, not every build's.
		differs := map[string]bool{}
		for _, o := range outs {
			seen := map[string]bool{"EG409": true}
			for _, d := range o.ds {
				if machine(d) || seen[d.Code] {
					continue
				}
				seen[d.Code] = true
				if f, ok := first[d.Code]; !ok {
					first[d.Code] = d
					firstLabel[d.Code], firstSeries[d.Code] = o.label, o.series
					order = append(order, d.Code)
				} else if f.Message != d.Message {
					differs[d.Code] = true
				}
				byCode[d.Code] = append(byCode[d.Code], o.label)
			}
		}
		for _, code := range order {
			d := first[code]
			d.Message = said(d.Message)
			if code == "EG407" && c.st.Framework != nil && c.st.Framework.Dist == kb.DistPytorchConda {
				// the candidate's stack has lost the file's cudatoolkit
				// pin; this one has it (review fifteen #0)
				series := firstSeries[code]
				if v, ok := c.k.Variants(series, kb.DistPytorchConda); ok {
					d.Hint = c.cudatoolkitSelectsOlder(series, v.Selector) + d.Hint
				}
			}
			switch {
			case len(outs) > 1 && differs[code]:
				d.Message += fmt.Sprintf(" (as %s has it; %d of the %d builds the file admits have an %s of their own, not all worded alike: %s)", firstLabel[code], len(byCode[code]), len(outs), code, shortList(byCode[code]))
			case len(outs) > 1:
				d.Message += fmt.Sprintf(" (so for %d of the %d builds the file admits: %s)", len(byCode[code]), len(outs), shortList(byCode[code]))
			}
			c.ds = append(c.ds, d)
		}
		word := "each runs"
		switch {
		case all(VerdictFail):
			word = "none runs"
		case sameUnknown:
			word = "none can be checked, each for the same reasons"
		}
		if picked != "" {
			c.note("%s", picked)
		}
		if len(outs) == 1 && pickBuilds(fw) {
			c.note("decided for the build pip takes beside the extra index (%s)", outs[0].label)
		} else {
			c.note("decided over the %d builds the file admits (%s): %s", len(outs), labels(outs, func(o outcome) string { return o.label }), word)
		}
	default:
		var runs, idle, fails, open []string
		reason := "builds-disagree"
		for _, o := range outs {
			switch o.verdict {
			case VerdictOK:
				// A CPU build leaves GPUs idle only where there are GPUs: on
				// a machine with none (driver: none) it simply runs.
				if strings.HasSuffix(o.label, " CPU") && len(c.h.GPUs) > 0 {
					idle = append(idle, o.label)
				} else {
					runs = append(runs, o.label)
				}
			case VerdictFail:
				fails = append(fails, o.label+" ("+firstError(o.ds)+")")
			default:
				open = append(open, o.label+" ("+o.und[0].Why+")")
				if reason == "builds-disagree" {
					reason = o.und[0].Reason
				}
			}
		}
		var parts []string
		if len(runs) > 0 {
			parts = append(parts, "runs with "+shortList(runs))
		}
		if len(idle) > 0 {
			parts = append(parts, "leaves the GPUs idle with "+shortList(idle))
		}
		if len(fails) > 0 {
			parts = append(parts, "fails with "+shortList(fails))
		}
		if len(open) > 0 {
			parts = append(parts, "cannot be checked with "+shortList(open))
		}
		check := "variant"
		if fw.Version == "" {
			check = "release"
		}
		hint := variantHint(c.k, fw, fw.Version == "")
		if len(runs) == 0 && len(open) == 0 && len(fails) > 0 {
			// No admitted CUDA build runs here: pinning one of them is no
			// way to a working GPU (review eleven #408: an RTX 5090 told to
			// pin a pytorch-channel release, none of which has code for it).
			from := "the file admits"
			if fw.Dist != "" {
				// the builds listed are the distribution's the framework
				// comes from; another channel the file lists may have
				// newer ones (review fifty-eight F19, corpus 099: defaults'
				// 2.9.1 beside the pytorch channel's)
				from = "from " + resolver.DistWhere(fw.Dist) + " that the file admits"
			}
			hint = "no build " + from + " runs on " + c.h.label() + "'s GPUs (each CUDA build fails; a CPU build leaves them idle): use a release and source whose builds carry code for them, or a CPU build on purpose"
			if rel := oneRelease(outs, func(o outcome) string { return o.release }); fw.Version == "" && len(fw.Candidates) != 1 && rel != "" {
				// The solver takes the newest release the spec admits; an
				// older one it admits may run (review twenty-one F14: an
				// unpinned pytorch-channel pytorch on a K80, where 1.12.1
				// for CUDA 11.3 runs and 2.5.1 does not).
				hint = "no build of " + fwName(fw) + " " + rel + ", the release the solver takes (the newest the file admits), runs on " + c.h.label() + "'s GPUs (each CUDA build fails; a CPU build leaves them idle)"
				// a spec whose releases were not listed names none to take
				if b := c.olderBuildAdmitted(c.driverCUDA, c.st.Python, false, fw.Candidates); b != "" && (len(fw.Candidates) > 0 || fw.Spec == "") {
					hint += ": pin an older release whose builds do, such as " + b + ", or a CPU build on purpose"
				} else {
					hint += ": use a release and source whose builds carry code for them, or a CPU build on purpose"
				}
			}
		}
		c.undecide(c.fwPos(), check, reason, what,
			said(fmt.Sprintf(LeavesBuild+"%s, and it %s", solverOf(fw), strings.Join(parts, "; "))),
			hint)
	}
	return true
}

// oneRelease is the release every outcome is of, "" where they differ or
// one fixes none.
func oneRelease[T any](xs []T, f func(T) string) string {
	rel := ""
	for i, x := range xs {
		r := f(x)
		if r == "" || (i > 0 && r != rel) {
			return ""
		}
		rel = r
	}
	return rel
}

func labels[T any](xs []T, f func(T) string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = f(x)
	}
	return shortList(s)
}

// shortList joins at most six items and says how many more there are.
func shortList(s []string) string {
	const max = 6
	if len(s) <= max {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:max], ", ") + fmt.Sprintf(" and %d more", len(s)-max)
}

func firstError(ds []finding.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == finding.SeverityError {
			return d.Code
		}
	}
	return "no error"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// newestSeriesWithRow is the newest series of the torch table a
// distribution has a variants row for; "" when it has none.
func newestSeriesWithRow(k knowledge, d kb.Distribution) string {
	newest := ""
	for _, rel := range k.TorchReleases() {
		s := resolver.SeriesOf(rel)
		if _, ok := k.Variants(s, d); ok && (newest == "" || seriesAfter(s, newest)) {
			newest = s
		}
	}
	return newest
}

// seriesAfter reports whether series a ("2.14") is newer than b ("2.9").
func seriesAfter(a, b string) bool {
	c, ok := kb.CompareDotted(a, b)
	return ok && c > 0
}

// pythonLacks reports whether the framework's distribution never built a
// pytorch release (with CUDA variant c, "" for the CPU build) for the
// file's Python (lacksPython).
func pythonLacks(st *resolver.Stack, k knowledge, rel, c string) bool {
	fw := st.Framework
	if st.Python == "" || fw.Name != "pytorch" {
		return false
	}
	return lacksPython(k, rel, fw.Dist, c, st.Python)
}

// lacksPython reports whether dist never built pytorch release rel (CUDA
// variant cuda, "" for the CPU build) for a Python minor, per the
// knowledge base: the distribution's own list (torch_python_builds), else
// the release's supported and experimental minors, which both have builds.
// A release whose Python list is not known lacks nothing.
func lacksPython(k knowledge, rel string, dist kb.Distribution, cuda, python string) bool {
	r, ok := k.Release(rel)
	if !ok || len(r.Python) == 0 {
		return false
	}
	if row, ok := k.PythonBuilds(rel, dist, cuda); ok {
		return !row.Supports(python, r.Python, r.PythonExperimental)
	}
	return !contains(r.Python, python) && !contains(r.PythonExperimental, python)
}

// wrapperLacks reports whether the wrapper metapackage the file lists
// (conda-forge's pytorch-gpu) has no upload of release rel's CUDA c build
// for the file's Python, per the knowledge base (pytorch-gpu 2.4.1 has no
// Python 3.10 CUDA 12.0 upload, conda-forge/pytorch-cpu-feedstock#338).
func wrapperLacks(st *resolver.Stack, k knowledge, rel, c string) bool {
	fw := st.Framework
	if fw.Wrapper == "" || st.Python == "" {
		return false
	}
	row, ok := k.PackagePythonBuilds(fw.Wrapper, rel, fw.Dist, c)
	return ok && contains(row.Missing, st.Python)
}

// cudatoolkitRulesOut drops the pytorch channel's CUDA 12 builds where the
// file pins a cudatoolkit of another major and its CUDA packages come from
// conda-forge (no nvidia channel, conda-forge before defaults):
// pytorch-cuda 12.x requires CUDA 12 packages, conda-forge's require
// cuda-version 12.x, and cuda-version's run_constrained admits only
// cudatoolkit 12.x (X5_CF_CUDA_VERSION), so conda cannot install one
// beside that pin (review fifty-six F12, corpus 050: cudatoolkit=10.2
// beside an open pytorch). A list left empty is not narrowed.
func (c *checker) cudatoolkitRulesOut(cands []candidate) ([]candidate, string) {
	fw := c.st.Framework
	if fw == nil || fw.Dist != kb.DistPytorchConda || fw.NVIDIAChannel || c.st.CUDA == nil {
		return cands, ""
	}
	pin := ""
	for _, e := range c.st.CUDA.Evidence {
		if e.Kind == resolver.EvidenceCudatoolkit && e.Says != "" {
			pin = resolver.SeriesOf(e.Says)
		}
	}
	if pin == "" || majorOf(pin) == 12 || majorOf(pin) <= 0 {
		return cands, ""
	}
	fromCF := false
	for _, ch := range fw.OtherChannels {
		if ch == "defaults" {
			break
		}
		if ch == "conda-forge" {
			fromCF = true
			break
		}
	}
	if !fromCF {
		return cands, ""
	}
	var kept []candidate
	var dropped []string
	for _, cd := range cands {
		f := cd.st.Framework
		cu := ""
		if cd.st.CUDA != nil {
			cu = cd.st.CUDA.Version
		}
		if f.Variant == "cuda" && majorOf(cu) == 12 {
			if v, ok := c.k.Variants(resolver.SeriesOf(f.Version), kb.DistPytorchConda); ok && strings.HasPrefix(v.Selector, "pytorch-cuda") {
				dropped = append(dropped, cd.label)
				continue
			}
		}
		kept = append(kept, cd)
	}
	if len(dropped) == 0 || len(kept) == 0 {
		return cands, ""
	}
	which := dropped[0]
	if len(dropped) > 1 {
		which = fmt.Sprintf("%d builds, %s … %s", len(dropped), dropped[0], dropped[len(dropped)-1])
	}
	return kept, fmt.Sprintf("left out: the CUDA 12 builds (%s), which cannot install beside the file's cudatoolkit=%s: their pytorch-cuda takes conda-forge's CUDA 12 packages, which require cuda-version 12.x, and cuda-version admits only cudatoolkit 12.x", which, pin)
}
