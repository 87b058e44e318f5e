package gpucheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG407: a CPU-only (or ROCm) framework build on a machine with NVIDIA
// GPUs.
var ruleEG407 = &Rule{
	Rule: finding.Rule{
		Code: "EG407", Name: "cpu-build-on-gpu", Severity: finding.SeverityWarning,
		Title:  "a CPU-only framework build on a machine with NVIDIA GPUs: the GPUs will sit idle",
		Why:    "A CPU-only build (cpuonly, a cpu build string, a +cpu wheel) never uses the GPUs; training runs on the CPU, many times slower. A ROCm build (+rocm6.0, the rocm wheel index) drives AMD GPUs only, so on NVIDIA GPUs it is CPU-only too.",
		Fix:    "Install the CUDA build of the framework.",
		Before: "dependencies:\n  - pytorch=2.3\n  - cpuonly",
		After:  "dependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	run: runEG407,
}

func runEG407(c *checker) bool {
	h := c.h
	fw := c.st.Framework
	if fw != nil && (fw.Variant == "cpu" || fw.Variant == "rocm") && h.Available && len(h.GPUs) > 0 {
		// A ROCm build drives AMD GPUs only: on NVIDIA GPUs it is a
		// CPU-only build, which is what EG407 is about.
		what := "a CPU-only build"
		if fw.Variant == "rocm" {
			what = "a ROCm build, for AMD GPUs: on NVIDIA GPUs it runs on the CPU only"
		}
		c.add("EG407", c.fwPos(),
			fmt.Sprintf("%s is %s; %s has %s: they will sit idle", fwName(fw), what, h.label(), countGPUs(h.GPUs)),
			eg407Hint(c, fw))
	}
	return true
}

// eg407Hint names the CUDA build to install in the framework's own
// distribution: a pip torch gets a wheel of its release from the PyTorch
// wheel index, the newest of the release's CUDA variants (the knowledge
// base's) that the machine's driver and GPUs run; a conda one the
// selector of its channel. Without that knowledge it stays generic.
func eg407Hint(c *checker, fw *resolver.Framework) string {
	generic := "install the framework's CUDA build for this machine's driver (for PyTorch: a +cuXYZ wheel from the PyTorch wheel index, pytorch-cuda=X.Y with -c pytorch -c nvidia, or a cuda build on conda-forge)"
	if fw.Name == "tensorflow" && fw.Version != "" {
		if t, ok := c.k.TensorFlow(fw.Version); ok && t.CUDA != "" {
			pkg := t.Package
			if pkg == "" {
				pkg = "tensorflow"
			}
			if why := c.tfGPUBuildFails(fw.Version, t.CUDA, t.CuDNN); why != "" {
				// proposing it would propose a failure (review ten #425:
				// tensorflow-gpu 2.0.0 on an H100)
				return fmt.Sprintf("TensorFlow %s's GPU build (%s==%s with CUDA %s and cuDNN %s, its tested configuration) would not run on %s either: %s; use a TensorFlow release built for this GPU", fw.Version, pkg, fw.Version, t.CUDA, t.CuDNN, c.h.label(), why)
			}
			return fmt.Sprintf("install TensorFlow %s's GPU build: %s==%s with CUDA %s and cuDNN %s beside it (TensorFlow's tested configuration)", fw.Version, pkg, fw.Version, t.CUDA, t.CuDNN)
		}
		if _, ok := c.k.TensorFlowPipCPUOnly(fw.Version); ok && fw.From == envspec.ProviderPip {
			// the release's GPU build is the other distribution, whose
			// CUDA the tables may not reach (1.3.0)
			return fmt.Sprintf("install TensorFlow %s's GPU build, tensorflow-gpu==%s, with the CUDA and cuDNN its install guide names; the knowledge base does not carry them for this release", fw.Version, fw.Version)
		}
	}
	if fw.Name == "pytorch" && fw.Version == "" && c.st.Python != "" {
		// the routes above need a release with a CUDA build that runs
		// here; the file's Python may have none (review fifty-five F30,
		// corpus 115: pytorch-cpu beside python=3.5.6 on an A100)
		return generic + c.pythonRoute(fw)
	}
	if fw.Name != "pytorch" || fw.Version == "" {
		return generic
	}
	series := fw.Series()
	switch {
	case fw.From == envspec.ProviderPip:
		if cu := c.newestRunningVariant(series, kb.DistWheel); cu != "" {
			tag := "cu" + strings.ReplaceAll(cu, ".", "")
			return fmt.Sprintf("install the CUDA %s wheel: torch==%s+%s with --index-url …/whl/%s (the newest CUDA variant of torch %s that %s runs)", cu, fw.Version, tag, tag, fw.Version, c.h.label())
		}
	case fw.Dist == kb.DistPytorchConda:
		if cu := c.newestRunningVariant(series, kb.DistPytorchConda); cu != "" {
			sel, channels := "pytorch-cuda=X.Y", "-c pytorch -c nvidia"
			if v, ok := c.k.Variants(series, kb.DistPytorchConda); ok && v.Selector != "" {
				sel = v.Selector
			}
			if strings.HasPrefix(sel, "cudatoolkit") {
				channels = "-c pytorch"
			}
			hint := fmt.Sprintf("select the CUDA build with %s in place of cpuonly or a cpu build string (%s; the newest CUDA variant of pytorch %s that %s runs)", strings.ReplaceAll(sel, "X.Y", cu), channels, fw.Version, c.h.label())
			return c.cudatoolkitSelectsOlder(series, sel) + hint
		}
	case fw.Dist == kb.DistCondaForge:
		return fmt.Sprintf("install conda-forge's CUDA build: pytorch=%s=cuda* (the solver takes its cuda-version from the solving machine's driver, __cuda: set CONDA_OVERRIDE_CUDA to %s's when solving elsewhere)", fw.Version, c.h.label())
	}
	return generic
}

// cudatoolkitSelectsOlder says, where the file pins cudatoolkit=X.Y but
// the release's pytorch-channel builds are selected by pytorch-cuda (from
// 1.13), which release that pin does select a CUDA build of: the newest
// whose selector is cudatoolkit and that has an X.Y variant (review
// fifteen #0, corpus 001: cudatoolkit=11.3 beside an open pytorch that
// resolves to 2.5.1, whose CUDA builds ignore it; 1.12.1 has the 11.3
// one). "" otherwise; else it ends with "; or ".
func (c *checker) cudatoolkitSelectsOlder(series, sel string) string {
	if strings.HasPrefix(sel, "cudatoolkit") {
		return ""
	}
	if c.st.CUDA == nil {
		return "" // a candidate build's stack: the caller over candidates asks
	}
	pin := ""
	for _, e := range c.st.CUDA.Evidence {
		if e.Kind == resolver.EvidenceCudatoolkit {
			pin = resolver.SeriesOf(e.Says)
		}
	}
	if pin == "" {
		return ""
	}
	best := ""
	for _, r := range c.releasesNewestFirst() {
		v, ok := c.k.Variants(resolver.SeriesOf(r), kb.DistPytorchConda)
		if ok && selects(resolver.EvidenceCudatoolkit, v.Selector) && contains(v.CUDA, pin) && (len(v.Releases) == 0 || contains(v.Releases, r)) {
			best = r
			break
		}
	}
	if best == "" || !c.sassOnEveryGPU(best, pin, kb.DistPytorchConda) {
		return "" // proposing it would propose a build that does not run here
	}
	return fmt.Sprintf("the file's cudatoolkit=%s selects nothing for pytorch %s, whose CUDA builds the pytorch channel selects with pytorch-cuda; it selects the CUDA %s build of pytorch %s and older: pin pytorch=%s with it; or ", pin, series, pin, best, best)
}

// newestRunningVariant is the newest CUDA variant of a release series in a
// distribution whose driver floor the host's driver meets and whose known
// architecture list runs on every GPU of the host; "" when none does or
// the knowledge base cannot say.
func (c *checker) newestRunningVariant(series string, dist kb.Distribution) string {
	v, ok := c.k.Variants(series, dist)
	if !ok || c.h.Driver == "" {
		return ""
	}
	driverCUDA := c.k.DriverCUDA(c.h.Driver)
	if driverCUDA == "" {
		return ""
	}
	best := ""
	for _, cu := range v.CUDA {
		if compareVersions(cu, driverCUDA) > 0 || best != "" && compareVersions(cu, best) <= 0 {
			continue
		}
		list, ok := c.k.Arch(series, cu, dist)
		if !ok || !list.Known {
			continue
		}
		runs := true
		for _, g := range c.h.GPUs {
			gcc, ok := parseCC(g.CC)
			if !ok {
				return ""
			}
			if r, _ := archVerdict(gcc, list); r == runsNone {
				runs = false
				break
			}
		}
		if runs {
			best = cu
		}
	}
	return best
}

// tfGPUBuildFails says why TensorFlow's GPU wheel of a release (built with
// CUDA cuda, beside cuDNN cudnn) runs on none of some GPU of the host, per
// the knowledge base: no SASS and no PTX for it, or PTX only while the
// cuDNN it needs carries no code for it (no hardware forward
// compatibility before cuDNN 9). "" where it runs or that is not known.
func (c *checker) tfGPUBuildFails(version, cuda, cudnn string) string {
	list, ok := c.k.FrameworkArch("tensorflow", version, cuda, kb.DistPyPI)
	if !ok || list == nil || !list.Known {
		return ""
	}
	for _, g := range c.h.GPUs {
		gcc, ok := parseCC(g.CC)
		if !ok {
			return ""
		}
		switch v, _ := archVerdict(gcc, list); v {
		case runsNone:
			return fmt.Sprintf("it carries %s, no code for %s", archSummary(list), gcc.sm())
		case runsPTX:
			if cudnn == "" {
				continue
			}
			if why, no := c.cudnnCarriesNo(cudnn, gcc); no {
				return fmt.Sprintf("it reaches %s only through PTX, and cuDNN %s cannot: %s", gcc.sm(), cudnn, why)
			}
		}
	}
	return ""
}

// cudnnCarriesNo says, with libCarries' reason, whether the knowledge base
// shows cuDNN release version carrying no code for a GPU: a tested
// configuration's cuDNN that a hint would otherwise propose.
func (c *checker) cudnnCarriesNo(version string, gcc cc) (string, bool) {
	carry, why := c.libCarries(&resolver.GPUPackage{Name: "cudnn", Lib: "cudnn", Version: version}, gcc)
	return why, carry == carriesNo
}

// pythonRoute says, for a pytorch on a file that pins Python, the newest
// release for that Python whose CUDA build has SASS for this machine's
// GPUs and runs on its driver: in the framework's own distribution, else
// on the PyTorch wheel index or conda-forge, naming where (review
// fifty-nine F19, F37: the pytorch channel stops at 2.5.1, while the
// index's 2.7.0 CUDA 12.8 build serves an RTX 5090 with Python 3.9 to
// 3.13). Only where none of them has one does it ask to raise the python
// pin; "" where the knowledge base cannot say.
func (c *checker) pythonRoute(fw *resolver.Framework) string {
	own := fw.Dist
	if fw.From == envspec.ProviderPip || own == "" || own == kb.DistPyPI {
		own = kb.DistWheel
	}
	py := c.st.Python
	driverCUDA := ""
	if c.h.Driver != "" {
		driverCUDA = c.k.DriverCUDA(c.h.Driver)
	}
	if driverCUDA == "" {
		return ""
	}
	dists := []kb.Distribution{own}
	for _, d := range []kb.Distribution{kb.DistWheel, kb.DistCondaForge} {
		if !slices.Contains(dists, d) {
			dists = append(dists, d)
		}
	}
	listed := false
	var where []string
	rels := c.releasesNewestFirst()
	for _, dist := range dists {
		where = append(where, resolver.DistWhere(dist))
		for _, rel := range rels {
			r, ok := c.k.Release(rel)
			if !ok || len(r.Python) == 0 || lacksPython(c.k, rel, dist, "", py) {
				continue
			}
			listed = true
			// SASS for every GPU: a build reaching one only through PTX
			// may still fail in the libraries it loads (cuDNN 7 on an A100)
			cu := c.newestVariantUpTo(resolver.SeriesOf(rel), dist, driverCUDA, true)
			if cu == "" {
				continue
			}
			if dist == own {
				return fmt.Sprintf("; for the file's Python %s the newest release with a CUDA build that has SASS for %s's GPUs and that its driver runs is pytorch %s (CUDA %s)", py, c.h.label(), rel, cu)
			}
			return fmt.Sprintf("; for the file's Python %s, %s has no CUDA build with SASS for %s's GPUs that its driver runs, but %s has pytorch %s (CUDA %s)", py, resolver.DistWhere(own), c.h.label(), resolver.DistWhere(dist), rel, cu)
		}
	}
	if !listed {
		return ""
	}
	return fmt.Sprintf("; no pytorch release built for the file's Python %s has a CUDA build with SASS for %s's GPUs that its driver runs (on %s), so raise the python pin as well", py, c.h.label(), strings.Join(where, ", "))
}
