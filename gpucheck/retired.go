package gpucheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// retiredLimit is the tightest driver limit a retired GPU architecture puts
// on the host: the GPU, its architecture's last driver branch (the K80's
// Kepler stops at R470) and the newest CUDA that branch runs natively.
type retiredLimit struct {
	gpu  GPU
	arch *kb.GPUArchDriver
	cuda string // "11.4"
}

// gpuName names the limit's GPU as the hints do: its model, else
// "compute capability X.Y GPUs".
func (l retiredLimit) gpuName() string {
	if l.gpu.Name == "" || strings.HasPrefix(l.gpu.Name, "compute capability") {
		return "compute capability " + l.gpu.CC + " GPUs"
	}
	return l.gpu.Name
}

// retired returns the host's tightest retired-architecture limit, false
// where every GPU is of an architecture NVIDIA still supports (or none is
// known). A driver upgrade past the branch is no fix there: no later
// driver runs the GPU.
func (c *checker) retired() (retiredLimit, bool) {
	var best retiredLimit
	found := false
	for _, g := range c.h.GPUs {
		a, ok := c.k.LastDriverBranch(g.CC)
		if !ok || (found && a.LastBranch >= best.arch.LastBranch) {
			continue
		}
		cu := c.k.NewestCUDAOfBranch(a.LastBranch)
		if cu == "" {
			continue
		}
		best, found = retiredLimit{gpu: g, arch: a, cuda: cu}, true
	}
	return best, found
}

// driverHint is the hint for a driver (supporting CUDA driverCUDA, "" when
// unknown) too old for the CUDA runtime rt:
// upgrade, as the caller words it, where the host's GPUs run a driver that
// supports rt; otherwise the GPU's last driver branch, and a framework build
// whose CUDA runtime that driver runs.
func (c *checker) driverHint(rt, driverCUDA, upgrade string) string {
	lim, ok := c.retired()
	if !ok || (rt != "" && compareVersions(rt, lim.cuda) <= 0) {
		return upgrade
	}
	gpu := lim.gpuName()
	s := fmt.Sprintf("the %s (%s) runs no driver after R%d, NVIDIA's last branch for %s GPUs, and R%d supports CUDA %s natively (a newer runtime of its major only through minor-version compatibility): ",
		gpu, lim.arch.Arch, lim.arch.LastBranch, lim.arch.Arch, lim.arch.LastBranch, lim.cuda)
	if driverCUDA != "" && compareVersions(driverCUDA, lim.cuda) < 0 {
		s += fmt.Sprintf("update the driver within R%d and ", lim.arch.LastBranch)
	}
	native := c.olderBuild(lim.cuda, c.st.Python, false)
	if bound := c.compatBound(lim); bound != "" && (rt == "" || compareVersions(rt, bound) > 0) {
		// A newer runtime of the same major runs on the branch through
		// minor-version compatibility (EG402's caveat: PTX JIT and newer
		// APIs fail, so only SASS for every GPU counts). It is the newer
		// build, so it comes first (review ten #1171: a K80 beside CUDA
		// 12.4 was sent to pytorch 1.12.1 while 2.3.1's CUDA 11.8 build
		// carries sm_37); the native one follows where it exists. Only
		// where the file's runtime is past that (EG401): a runtime already
		// under minor-version compatibility (EG402) gains nothing.
		if b := c.olderBuild(bound, c.st.Python, true); b != "" && b != native {
			keeps := ""
			if py := c.st.Python; py != "" && native == "" {
				keeps = fmt.Sprintf(" (it keeps Python %s, which no CUDA %s or older build the knowledge base lists supports)", py, lim.cuda)
			}
			s += fmt.Sprintf("install a build whose CUDA runtime is %s or older: %s%s; its runtime is newer than %s, so it runs on R%d only through minor-version compatibility (EG402: PTX JIT and newer CUDA APIs fail; its SASS covers the GPU)",
				bound, b, keeps, lim.cuda, lim.arch.LastBranch)
			if native != "" {
				s += fmt.Sprintf("; a build whose runtime R%d supports natively: %s", lim.arch.LastBranch, native)
			}
			return s
		}
	}
	if native != "" {
		return s + fmt.Sprintf("install a build whose CUDA runtime is %s or older: %s", lim.cuda, native)
	}
	s += fmt.Sprintf("install a %s release built for CUDA %s or older", orStr(fwLabel(c.st.Framework), "framework"), lim.cuda)
	if fw := c.st.Framework; fw != nil && fw.Name == "jax" && fw.From == envspec.ProviderPip {
		// such a release must still carry code for the GPU: jaxlib
		// dropped Kepler in 0.4.4 while its CUDA 11 wheels went on
		// (review thirty-eight F31, corpus 111)
		s += c.jaxReleasesFor(lim)
	}
	if py := c.st.Python; py != "" {
		if b := c.olderBuild(lim.cuda, "", false); b != "" {
			// Such builds exist, none for the file's Python: say so
			// rather than leave the reader to find out at install time.
			s += fmt.Sprintf("; none the knowledge base lists supports Python %s, so the Python pin must go down too (e.g. %s)", py, b)
		}
	}
	return s
}

// compatHint is the hint of an EG402 (the runtime runs through
// minor-version compatibility): where a retired GPU caps the driver, a
// driver upgrade is no fix and the runtime already runs, so the hint says
// so, and offers an older runtime only for what compatibility cannot do
// (review ten #1171, #1248: a K80 told that R470 runs CUDA 11.4 at most,
// beside a CUDA 11.7 build the message itself said runs); elsewhere it is
// the driver hint.
func (c *checker) compatHint(rt, driverCUDA, hint string) string {
	lim, ok := c.retired()
	if !ok || rt == "" || majorOf(rt) != majorOf(lim.cuda) {
		return hint
	}
	gpu := lim.gpuName()
	s := fmt.Sprintf("the %s runs no driver after R%d, so no driver past that branch applies; the CUDA %s runtime runs on it through minor-version compatibility, which is enough where the build's SASS covers the GPU (EG408 says where only PTX does)",
		gpu, lim.arch.LastBranch, rt)
	if driverCUDA != "" && compareVersions(driverCUDA, lim.cuda) < 0 {
		s += fmt.Sprintf("; update the driver within R%d", lim.arch.LastBranch)
	}
	if b := c.olderBuild(lim.cuda, c.st.Python, false); b != "" {
		return s + fmt.Sprintf("; for PTX JIT or newer CUDA APIs install a build whose CUDA runtime is %s or older: %s", lim.cuda, b)
	}
	if py := c.st.Python; py != "" {
		if b := c.olderBuild(lim.cuda, "", false); b != "" {
			s += fmt.Sprintf("; a build whose CUDA runtime is %s or older (for PTX JIT or newer CUDA APIs) supports no Python %s the knowledge base lists, so the Python pin would go down too (e.g. %s)", lim.cuda, py, b)
		}
	}
	return s
}

// compatBound is the newest CUDA of the retired limit's major where the
// branch's drivers reach that major's minor-version-compatibility floor
// (R470 and CUDA 11's 450.80.02: any 11.x), "" where no newer runtime runs
// that way or the knowledge base cannot say.
func (c *checker) compatBound(lim retiredLimit) string {
	m := majorOf(lim.cuda)
	f, ok := c.k.MinorCompatFloor(m)
	if !ok || f.LinuxFloor == "" || f.LinuxFloor == "unknown" || majorOf(f.LinuxFloor) > lim.arch.LastBranch {
		return ""
	}
	newest := c.k.NewestCUDAOfMajor(m)
	if newest == "" || compareVersions(newest, lim.cuda) <= 0 {
		return ""
	}
	return newest
}

// olderBuild names the newest PyTorch build, in the file's distribution (a
// PyPI torch: the PyTorch wheel index, where every CUDA variant is
// published), whose CUDA runtime is at most bound and whose known
// architecture list runs on every GPU of the host, of a release that
// supports the Python minor given (any, where it is ""); with sassOnly,
// only SASS for every GPU counts (a runtime under minor-version
// compatibility cannot JIT its PTX); "" where the
// knowledge base lists none, or the framework is not PyTorch. Only builds
// the knowledge base lists are named.
func (c *checker) olderBuild(bound, python string, sassOnly bool) string {
	return c.olderBuildAdmitted(bound, python, sassOnly, nil)
}

// olderBuildAdmitted is olderBuild among the releases in admitted (every
// release, where it is nil).
func (c *checker) olderBuildAdmitted(bound, python string, sassOnly bool, admitted []string) string {
	fw := c.st.Framework
	if fw == nil || fw.Name != "pytorch" {
		return ""
	}
	dist := fw.Dist
	if dist == kb.DistPyPI || (dist == "" && fw.From == envspec.ProviderPip) {
		dist = kb.DistWheel
	}
	if dist != kb.DistWheel && dist != kb.DistPytorchConda && dist != kb.DistCondaForge {
		return ""
	}
	if own := fw.Version; own != "" && strings.TrimLeft(fw.Spec, "=") == own && (admitted == nil || slices.Contains(admitted, own)) {
		// the file's own release first, where it has such a build: it
		// keeps the packages pinned beside it (review thirty-one F23, 149:
		// intel-extension-for-pytorch 2.1.0 refuses any torch but 2.1)
		series := resolver.SeriesOf(own)
		if v, ok := c.k.Variants(series, dist); ok && (len(v.Releases) == 0 || contains(v.Releases, own)) {
			if cu := c.newestVariantUpTo(series, dist, bound, sassOnly); cu != "" && !c.cudnnLacksHost(dist, own, cu) {
				if r, ok := c.k.Release(own); ok && (python == "" || (len(r.Python) > 0 && !lacksPython(c.k, own, dist, cu, python))) {
					return buildLabel(dist, own, cu, v.Selector)
				}
			}
		}
	}
	rels := c.releasesNewestFirst()
	seen := map[string]bool{}
	for _, rel := range rels {
		series := resolver.SeriesOf(rel)
		if seen[series] {
			continue
		}
		seen[series] = true
		v, ok := c.k.Variants(series, dist)
		if !ok {
			continue
		}
		cu := c.newestVariantUpTo(series, dist, bound, sassOnly)
		if cu == "" {
			continue
		}
		rel := c.newestRelease(series, v, dist, cu, python)
		if rel == "" || c.cudnnLacksHost(dist, rel, cu) || (admitted != nil && !slices.Contains(admitted, rel)) {
			continue
		}
		return buildLabel(dist, rel, cu, v.Selector)
	}
	return ""
}

// newestRelease is the newest release of a series that the distribution
// built, with CUDA variant cu, for the Python minor given (any, where it
// is ""): its experimental minors count, as builds exist for them (the
// pytorch channel's 2.3.1 for Python 3.12, review ten #440); "" where none
// does or the knowledge base cannot say.
func (c *checker) newestRelease(series string, v *kb.TorchVariants, dist kb.Distribution, cu, python string) string {
	for _, rel := range c.releasesNewestFirst() {
		if resolver.SeriesOf(rel) != series || (len(v.Releases) > 0 && !contains(v.Releases, rel)) {
			continue
		}
		if python != "" {
			r, ok := c.k.Release(rel)
			if !ok || len(r.Python) == 0 || lacksPython(c.k, rel, dist, cu, python) {
				continue
			}
		}
		return rel
	}
	return ""
}

// releasesNewestFirst lists the knowledge base's torch releases, newest
// first.
func (c *checker) releasesNewestFirst() []string {
	rels := slices.Clone(c.k.TorchReleases())
	slices.SortStableFunc(rels, func(a, b string) int { return compareVersions(b, a) })
	return rels
}

// newestVariantUpTo is newestRunningVariant with the CUDA bound given: the
// newest CUDA variant of the series, at most bound, whose known
// architecture list runs on every GPU of the host.
func (c *checker) newestVariantUpTo(series string, dist kb.Distribution, bound string, sassOnly bool) string {
	v, ok := c.k.Variants(series, dist)
	if !ok {
		return ""
	}
	best := ""
	for _, cu := range v.CUDA {
		if compareVersions(cu, bound) > 0 || (best != "" && compareVersions(cu, best) <= 0) {
			continue
		}
		if c.runsOnEveryGPU(series, cu, dist, sassOnly) {
			best = cu
		}
	}
	return best
}

// runsOnEveryGPU reports whether the build's architecture list is known and
// runs (SASS or PTX; SASS only with sassOnly) on every GPU of the host.
func (c *checker) runsOnEveryGPU(series, cu string, dist kb.Distribution, sassOnly bool) bool {
	list, ok := c.k.Arch(series, cu, dist)
	if !ok || !list.Known {
		return false
	}
	for _, g := range c.h.GPUs {
		gcc, ok := parseCC(g.CC)
		if !ok {
			return false
		}
		if r, _ := archVerdict(gcc, list); r == runsNone || (sassOnly && r != runsSASS) {
			return false
		}
	}
	return true
}

// buildLabel names a build as its distribution installs it.
func buildLabel(dist kb.Distribution, rel, cu, selector string) string {
	tag := "cu" + strings.ReplaceAll(cu, ".", "")
	switch dist {
	case kb.DistWheel:
		return fmt.Sprintf("torch==%s+%s from the PyTorch wheel index (…/whl/%s), with that release's torchvision and torchaudio", rel, tag, tag)
	case kb.DistPytorchConda:
		if selector == "" {
			selector = "pytorch-cuda=X.Y"
		}
		return fmt.Sprintf("pytorch=%s with %s from the pytorch channel, with that release's torchvision and torchaudio", rel, strings.ReplaceAll(selector, "X.Y", cu))
	}
	return fmt.Sprintf("conda-forge's pytorch %s built for CUDA %s", rel, cu)
}

// fwLabel is the framework's name as a hint says it.
func fwLabel(fw *resolver.Framework) string {
	if fw == nil {
		return ""
	}
	return fw.Name
}

// cudnnLacksHost reports whether the cuDNN a PyTorch build loads (the
// exact nvidia-cudnn wheel a torch wheel pins, the cuDNN a pytorch-channel
// series copies into its package) is known to carry no code for some GPU
// of the host: such a build fails there (EG410) whatever its own SASS, so
// a hint must not propose it (pytorch 2.5.1 for CUDA 11.8 loads cuDNN
// 9.1.0, which lists no Kepler). A cuDNN the knowledge base cannot place
// does not count against the build.
func (c *checker) cudnnLacksHost(dist kb.Distribution, rel, cu string) bool {
	var p resolver.GPUPackage
	switch dist {
	case kb.DistWheel:
		row, ok := c.k.TorchCUDALibsOf(rel, cu)
		if !ok {
			// a wheel that pins no nvidia-cudnn carries its own
			// (torch_wheel_cudnn)
			fw := &resolver.Framework{Name: "pytorch", Dist: kb.DistWheel, Version: rel}
			if p, ok = resolver.PytorchChannelCuDNN(c.k, fw, cu, ""); !ok {
				return false
			}
			p.BuiltFor = resolver.BuiltFor{CUDA: []string{cu}}
			break
		}
		for _, l := range row.Libs {
			// nvidia-cudnn-cu11, -cu12, -cu13: the wheel's own cuDNN release.
			if n := kb.NormalizeName(l.Name); strings.HasPrefix(n, "nvidia-cudnn-") {
				p = resolver.GPUPackage{Name: n, Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: l.Version, BuiltFor: resolver.BuiltFor{CUDA: []string{cu}}, Known: true}
			}
		}
	case kb.DistPytorchConda:
		fw := &resolver.Framework{Name: "pytorch", Dist: kb.DistPytorchConda, Version: rel}
		ch, ok := resolver.PytorchChannelCuDNN(c.k, fw, cu, "")
		if !ok {
			return false
		}
		p = ch
		p.BuiltFor = resolver.BuiltFor{CUDA: []string{cu}}
	}
	if p.Lib == "" || p.Version == "" {
		return false
	}
	for _, g := range c.h.GPUs {
		gcc, ok := parseCC(g.CC)
		if !ok {
			continue
		}
		if has, _ := c.libCarries(&p, gcc); has == carriesNo {
			return true
		}
	}
	return false
}

// jaxReleasesFor narrows a retired GPU's jax hint to the releases whose
// wheels, by the architecture rows of a CUDA major the branch runs, carry
// code for the GPU: ", whose jaxlib still carries code for sm_37: releases
// before 0.4.4, where it was dropped". "" where the rows do not say.
func (c *checker) jaxReleasesFor(lim retiredLimit) string {
	gcc, ok := parseCC(lim.gpu.CC)
	if !ok {
		return ""
	}
	runs := map[string]bool{}
	var series []string
	for _, r := range c.k.FrameworkArchRows("jax", kb.DistPyPI) {
		if !r.Known || majorOf(r.CUDA) > majorOf(lim.cuda) {
			continue
		}
		if _, seen := runs[r.Series]; !seen {
			series = append(series, r.Series)
			runs[r.Series] = false
		}
		if v, _ := archVerdict(gcc, &r); v != runsNone {
			runs[r.Series] = true
		}
	}
	slices.SortFunc(series, compareVersions)
	ran := false
	for _, sr := range series {
		switch {
		case runs[sr]:
			ran = true
		case ran:
			return fmt.Sprintf(" whose jaxlib still carries code for %s: a release before %s, whose jaxlib dropped it", gcc.sm(), sr)
		}
	}
	if !ran && len(series) > 0 {
		return fmt.Sprintf("; but no jaxlib release carries code for %s, so no jax release runs on the %s", gcc.sm(), lim.gpuName())
	}
	return ""
}
