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

// ruleEG401 holds the driver against the CUDA runtime: another major, or a
// driver below the major's minor-version-compatibility floor. Its step also
// raises EG402 (and EG409 where the driver cannot be judged).
var ruleEG401 = &Rule{
	Rule: finding.Rule{
		Code: "EG401", Name: "driver-too-old", Severity: finding.SeverityError,
		Title: "the driver cannot run the environment's CUDA runtime: another major, or below the minor-version-compatibility floor",
		Why: "A CUDA runtime needs a driver that supports its version. Within one major, minor-version compatibility lets an older driver " +
			"run a newer runtime if the driver is at least the major's floor (450.80.02 for CUDA 11.x, 525.60.13 for 12.x); across majors " +
			"nothing does. The job fails at its first CUDA call with \"CUDA driver version is insufficient for CUDA runtime version\".",
		Fix:    "Upgrade the driver to at least the version the runtime lists, or pin a CUDA runtime the driver supports.",
		Before: "# target: driver 470.57.02 (CUDA 11.4)\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		After:  "# target: driver 470.57.02 (CUDA 11.4)\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=11.8",
		Since:  "0.1.0",
	},
	run: runEG401,
}

// runEG401 judges the driver and keeps the CUDA version it supports for
// the architecture check.
func runEG401(c *checker) bool {
	c.driverCUDA = c.checkDriver()
	return true
}

// checkDriver raises EG401/EG402, or EG409 where the driver cannot be
// judged, and returns the CUDA version the driver supports ("" when
// unknown).
func (c *checker) checkDriver() string {
	h := c.h
	driverCUDA := c.hostDriverCUDA()
	rt := c.runtime()
	if rt == "" {
		if m := c.runtimeMajor(); m > 0 && driverCUDA != "" && c.checkDriverMajor(m, driverCUDA) {
			return driverCUDA
		}
		if c.driverRunsEveryCandidate(driverCUDA) {
			// Whichever runtime the build uses, the driver runs it: the
			// driver check is decided; the architecture step says what
			// stays unknown.
			return driverCUDA
		}
		if c.driverRunsEveryExtensionCUDA(driverCUDA) {
			return driverCUDA
		}
		why, hint := "its CUDA runtime version is not known, so the driver was not checked", runtimeUnknownHint(c.st.Framework, c.k)
		if fw := c.st.Framework; fw != nil && fw.VariantFrom != "" {
			// the variant is the knowledge base's, not the file's: say so
			why = fw.VariantFrom + ", and which of those runtimes it uses is not known, so the driver was not checked"
		} else if fw != nil && fw.Uncovered != "" {
			// the release fixes its CUDA; only the tables do not reach it
			// (review thirteen #111: tensorflow-gpu 0.12.1 needs CUDA 8.0)
			why = fw.Uncovered + " to envguard, and the driver was not checked"
			hint = "the release's own install guide names the CUDA its GPU build needs: check the driver against it, or pin a release the knowledge base covers (EG206)"
		}
		c.undecide(c.fwPos(), "driver", "runtime-unknown", c.build(), why, hint)
		return driverCUDA
	}
	if driverCUDA == "" {
		if h.Driver != "" && h.DriverBelowKB != "" {
			// Older than the first driver of the oldest CUDA the knowledge
			// base lists: it runs none of them, nor anything newer.
			c.add("EG401", c.cudaPos(),
				fmt.Sprintf("%s is older than %s, the first driver for CUDA %s, the oldest CUDA envguard knows: it cannot run this environment's CUDA %s runtime",
					c.driverLabel(), h.DriverBelowFloor, h.DriverBelowKB, rt),
				c.driverHint(rt, "", fmt.Sprintf("upgrade the driver to one that supports CUDA %s or newer", rt)))
			return ""
		}
		c.undecide(c.cudaPos(), "driver", "driver-cuda-unknown", c.build(), fmt.Sprintf("the CUDA version that driver %s supports is not known", orUnknown(h.Driver)),
			"give the target's cuda_driver (the CUDA version nvidia-smi prints), or update the knowledge base (--kb DIR)")
		return ""
	}
	if compareVersions(driverCUDA, rt) >= 0 {
		return driverCUDA
	}
	need := "a driver for it"
	if f, ok := c.k.DriverFloor(rt); ok && f.LinuxMin != "" {
		need = f.LinuxMin
	} else {
		c.note("no driver floor known for CUDA %s", rt)
	}
	rtMajor := majorOf(rt)
	floor := ""
	if f, ok := c.k.MinorCompatFloor(rtMajor); ok && f.LinuxFloor != "" && f.LinuxFloor != "unknown" {
		floor = f.LinuxFloor
	}
	msg := fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %s runtime needs %s", c.driverLabel(), driverCUDA, rt, need)
	if floor != "" {
		msg += fmt.Sprintf(", or at least %s through minor-version compatibility", floor)
	}
	upgrade := fmt.Sprintf("upgrade the driver to %s or newer, or pin a CUDA %s runtime the driver supports (%s or older)", need, majorOfStr(driverCUDA), driverCUDA)
	if fw := c.st.Framework; fw != nil && fw.Name == "pytorch" && fw.From == envspec.ProviderPip && fw.Version != "" {
		// a pip torch wheel pins its own runtime (torch_cuda_libs), so the
		// runtime comes down only with the build (review thirty-eight F8:
		// torch 2.7.0 pins nvidia-cuda-runtime-cu12==12.6.77)
		if b := c.olderBuild(driverCUDA, c.st.Python, false); b != "" {
			upgrade = fmt.Sprintf("upgrade the driver to %s or newer, or install a torch build whose CUDA runtime is %s or older (%s): the wheel brings its own runtime, so pinning the runtime alone does not change it", need, driverCUDA, b)
		}
	}
	if cudas, where, ok := c.releaseCUDAsAbove(driverCUDA); ok {
		// Pinning an older runtime cannot solve beside this release
		// (review ten #337: conda-forge built pytorch 2.9.1 for CUDA 12.9
		// only, so cuda-version=12.8 beside pytorch-gpu=2.9 has no
		// solution): the runtime comes down only with the release.
		upgrade = fmt.Sprintf("upgrade the driver to %s or newer; %s built %s %s for CUDA %s only, so a CUDA runtime the driver supports (%s or older) needs another %s release too",
			need, where, c.st.Framework.Name, c.st.Framework.Series(), strings.Join(cudas, ", "), driverCUDA, c.st.Framework.Name)
	}
	hint := c.driverHint(rt, driverCUDA, upgrade) + c.cpuIntentHint()
	if majorOf(driverCUDA) != rtMajor {
		c.add("EG401", c.cudaPos(), msg+fmt.Sprintf(": CUDA %d runtimes do not run on a CUDA %s driver", rtMajor, majorOfStr(driverCUDA)), hint)
		return driverCUDA
	}
	if rtMajor < 11 {
		// Minor-version compatibility began with CUDA 11 (NVIDIA's CUDA
		// Compatibility guide): before it a runtime needs its own driver.
		c.add("EG401", c.cudaPos(),
			msg+fmt.Sprintf(": before CUDA 11 there is no minor-version compatibility, so a CUDA %s runtime needs a driver for CUDA %s or newer", rt, rt), hint)
		return driverCUDA
	}
	drv := c.driverOrFloor(driverCUDA)
	switch {
	case floor == "" || drv == "":
		c.undecide(c.cudaPos(), "driver", "minor-compat-floor-unknown", c.build(),
			fmt.Sprintf("%s supports CUDA %s, older than the CUDA %s runtime, and whether it reaches the minor-version-compatibility floor of CUDA %d is not known", c.driverLabel(), driverCUDA, rt, rtMajor),
			hint)
	case compareVersions(drv, floor) < 0:
		c.add("EG401", c.cudaPos(), msg, hint)
	default:
		c.minorCompat(
			msg+": it runs only through minor-version compatibility (PTX JIT and newer APIs fail)", c.compatHint(rt, driverCUDA, hint))
	}
	return driverCUDA
}

// runtimeMajor is the CUDA major the environment's runtime is known by when
// its minor is not (jax[cuda12], jax-cuda12-plugin: pip installs whatever
// nvidia-*-cu12 runtime is newest), 0 when none.
func (c *checker) runtimeMajor() int {
	if c.st.CUDA == nil && c.st.Framework == nil {
		return c.extensionsMajor()
	}
	if c.st.CUDA == nil || c.st.CUDA.Version != "" {
		return 0
	}
	m := 0
	for _, e := range c.st.CUDA.Evidence {
		if e.Says == "" || strings.Contains(e.Says, ".") || majorOf(e.Says) < 0 {
			// a full version is runtime()'s business; evidence that names
			// no version at all (a --find-links page says only "cuda")
			// neither gives nor contradicts a major
			continue
		}
		n := majorOf(e.Says)
		if n <= 0 || (m != 0 && n != m) {
			return 0 // no major, or two that disagree (EG305's finding)
		}
		m = n
	}
	return m
}

// extensionsMajor is, for an environment with no framework and no CUDA
// item, the one CUDA major every GPU-code package's builds are for (RAPIDS
// 22.10's cudf, built for CUDA 11.0 … 11.8 only: review fifteen #74), so
// that the driver check can hold the driver against that major; 0 where a
// package's CUDA is not known or two majors meet.
func (c *checker) extensionsMajor() int {
	m := 0
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		if p.Role != resolver.RoleExtension {
			continue
		}
		if len(p.BuiltFor.CUDA) == 0 {
			return 0
		}
		for _, cu := range p.BuiltFor.CUDA {
			n := majorOf(cu)
			if n <= 0 || (m != 0 && n != m) {
				return 0
			}
			m = n
		}
	}
	return m
}

// checkDriverMajor decides the driver against a runtime known only by its
// major: any CUDA m.x from m.0 to the newest the knowledge base lists. It
// returns false where the outcome depends on which minor is installed.
func (c *checker) checkDriverMajor(m int, driverCUDA string) bool {
	newest := c.k.NewestCUDAOfMajor(m)
	dm := majorOf(driverCUDA)
	hint := c.driverHint(newest, driverCUDA, fmt.Sprintf("upgrade the driver to one for CUDA %s or newer", orUnknown(newest)))
	switch {
	case dm > m:
		return true
	case dm < m:
		c.add("EG401", c.cudaPos(),
			fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %d runtime (whichever %d.x is installed) does not run on a CUDA %d driver", c.driverLabel(), driverCUDA, m, m, dm),
			hint)
		return true
	case newest != "" && compareVersions(driverCUDA, newest) >= 0:
		return true
	}
	// Same major, older than the newest minor: the runtime runs natively
	// or, if newer than the driver, through minor-version compatibility,
	// which the driver reaches when it is at or above the major's floor.
	if !c.reachesCompatFloor(m, driverCUDA) {
		return false
	}
	// Who picks the minor: pip for a pip framework (jax[cuda12] takes the
	// newest nvidia-*-cu12 wheels), else the conda solver (cuda-version=12.*,
	// cuda-toolkit=12), and each is pinned its own way.
	who, pin := "the solver installs", "pin cuda-version="+driverCUDA
	if fw := c.st.Framework; jaxUsesHostCUDA(fw, c.k) {
		// before the cudaNN_pip extras the CUDA jaxlib brings no runtime:
		// it loads the CUDA installed on the machine
		who = "the machine's CUDA installation is (jax " + fw.Version + "'s CUDA jaxlib loads the CUDA it finds)"
		// jaxlib's CUDA wheels are built per CUDA major and cuDNN, not per
		// minor, and may need a minor at least that of their build: the
		// one pin that serves is the driver's own (review nineteen F6)
		c.minorCompat(
			fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %d runtime is whichever %d.x %s, up to %s: one newer than %s runs only through minor-version compatibility (PTX JIT and newer APIs fail)",
				c.driverLabel(), driverCUDA, m, m, who, orUnknown(newest), driverCUDA),
			c.hostCUDAHint(m, driverCUDA))
		return true
	} else if fw != nil && fw.Name == "jax" && fw.From == envspec.ProviderPip {
		// JAX's pip CUDA wheels are documented to run on any driver of
		// the major from its minor-version-compatibility floor, and XLA
		// compiles its kernels with the pip ptxas and nvJitLink, not the
		// driver's JIT: a driver older than that ptxas costs parallel
		// compilation only (jax-ml/jax#19821). A runtime-wheel pin leaves
		// the newer cuBLAS, nvJitLink and ptxas wheels jax's extra pulls,
		// so it is no fix (review thirty-eight F5, corpus 010).
		floor := ""
		if f, ok := c.k.MinorCompatFloor(m); ok && f.LinuxFloor != "unknown" {
			floor = f.LinuxFloor
		}
		c.minorCompat(
			fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %d wheels are whichever %d.x pip installs, up to %s: JAX runs them through minor-version compatibility (its CUDA %d wheels need a driver of %s or newer), and where XLA's ptxas is newer than the driver it compiles without parallelism (\"XLA is disabling parallel compilation\")",
				c.driverLabel(), driverCUDA, m, m, orUnknown(newest), m, orUnknown(floor)),
			fmt.Sprintf("nothing to fix in the driver for JAX to load these wheels (its GPU code is judged apart); for native support and parallel compilation, upgrade the driver to one for CUDA %s or newer", orUnknown(newest)))
		return true
	} else if fw != nil && fw.From == envspec.ProviderPip {
		who, pin = "pip installs", "pin the runtime wheel (nvidia-cuda-runtime-cu"+fmt.Sprint(m)+"=="+driverCUDA+".*)"
		if e := c.condaMajorOnly(); e != nil {
			// conda's CUDA item names the major only too (cuda-toolkit=12),
			// so the solver takes the newest minor as well: the pip pin
			// alone leaves conda's copy (review ten #77, corpus 010)
			who = fmt.Sprintf("pip installs (and %s, line %d, installs the newest %d.x from conda)", e.Item, e.Pos.Line, m)
			pin += fmt.Sprintf(", and cuda-version=%s beside %s", driverCUDA, e.Item)
		}
	}
	msg := fmt.Sprintf("%s supports CUDA %s; this environment's CUDA %d runtime is whichever %d.x %s, up to %s: one newer than %s runs only through minor-version compatibility (PTX JIT and newer APIs fail)",
		c.driverLabel(), driverCUDA, m, m, who, orUnknown(newest), driverCUDA)
	if lim, ok := c.retired(); ok && majorOf(lim.cuda) == m {
		// A GPU whose last branch runs this major: no driver upgrade
		// exists and any minor already runs through minor-version
		// compatibility, so the pin is for PTX JIT and newer APIs only,
		// not a way to make the file run (review thirty-eight F3: cudf
		// on a K80 was told to pin cuda-version=11.4 and to install a
		// framework the file does not have).
		c.minorCompat(msg, fmt.Sprintf("the %s runs no driver after R%d, so no driver past that branch applies; any CUDA %d.x runtime runs on it through minor-version compatibility, which is enough where the packages' SASS covers the GPU; only for PTX JIT or newer CUDA APIs %s",
			lim.gpuName(), lim.arch.LastBranch, m, pin))
		return true
	}
	c.minorCompat(msg, hint+", or "+pin)
	return true
}

// driverRunsEveryCandidate says whether the driver supports every CUDA
// runtime the framework's build may use, where the knowledge base lists
// them (conda pytorch before 0.4.0: one of 7.5, 8.0, 9.0, 9.1).
func (c *checker) driverRunsEveryCandidate(driverCUDA string) bool {
	fw := c.st.Framework
	if fw == nil || driverCUDA == "" {
		return false
	}
	runtimes := fw.RuntimeCandidates
	if len(runtimes) == 0 {
		runtimes = c.closedDistRuntimes()
	}
	if len(runtimes) == 0 {
		return false
	}
	for _, rt := range runtimes {
		if !strings.Contains(rt, ".") || compareVersions(driverCUDA, rt) < 0 {
			return false
		}
	}
	return true
}

// driverRunsEveryExtensionCUDA decides the driver of an environment with
// no framework whose GPU packages each name the CUDA releases their builds
// run with (conda-forge's cupy 12.3.0: 11.2 … 12.9): where the driver runs
// each, natively or, within its major, through minor-version compatibility
// from the major's floor, the check is decided, and EG402 names the
// releases that need that compatibility (review fifty F2, corpus 004).
func (c *checker) driverRunsEveryExtensionCUDA(driverCUDA string) bool {
	if c.st.Framework != nil || driverCUDA == "" {
		return false
	}
	dm := majorOf(driverCUDA)
	var all, newer []string
	for i := range c.st.GPUPackages {
		p := &c.st.GPUPackages[i]
		if p.Role != resolver.RoleExtension {
			continue
		}
		if len(p.BuiltFor.CUDA) == 0 {
			// one whose build is not known is left open on its own line
			// (what it was built for, EG409)
			if p.Code.Known {
				return false
			}
			continue
		}
		for _, cu := range p.BuiltFor.CUDA {
			m := majorOf(cu)
			switch {
			case !strings.Contains(cu, ".") || m <= 0 || m > dm:
				return false
			case m == dm && compareVersions(cu, driverCUDA) > 0:
				if !c.reachesCompatFloor(m, driverCUDA) {
					return false
				}
				if !contains(newer, cu) {
					newer = append(newer, cu)
				}
			}
			if !contains(all, cu) {
				all = append(all, cu)
			}
		}
	}
	if len(all) == 0 {
		return false
	}
	if len(newer) > 0 {
		slices.SortFunc(newer, compareVersions)
		slices.SortFunc(all, compareVersions)
		c.minorCompat(
			fmt.Sprintf("%s supports CUDA %s; the GPU packages' builds the file admits run with CUDA %s, and a build for CUDA %s runs only through minor-version compatibility (PTX JIT and newer APIs fail)",
				c.driverLabel(), driverCUDA, resolver.RangeOf(all), resolver.RangeOf(newer)),
			c.driverHint(newer[len(newer)-1], driverCUDA, "pin cuda-version="+driverCUDA+" (or older) so that the solver takes a build the driver runs natively, or upgrade the driver"))
	}
	return true
}

// runtimeUnknownHint says how to fix the CUDA runtime of the build at hand.
// JAX's pip CUDA wheels (jax[cuda12], jax-cuda12-plugin) carry no runtime of
// their own: they load the nvidia-*-cu12 wheels pip resolves, any CUDA 12.x
// from 12.1 (JAX_INSTALL), so pytorch-cuda or a +cuXYZ wheel mean nothing
// there.
func runtimeUnknownHint(fw *resolver.Framework, k knowledge) string {
	if fw != nil && fw.Name == "jax" && fw.From == envspec.ProviderPip {
		if jaxUsesHostCUDA(fw, k) {
			// Before the cudaNN_pip extras no pip wheel brought the
			// runtime: jaxlib's CUDA build loads the machine's CUDA. The
			// major is known where the file pins the jaxlib build or an
			// extra whose release pins one (runtimeMajor); here it is not.
			since, _ := k.JAXPipCUDASince()
			return fmt.Sprintf("jax %s predates the cuda11_pip/cuda12_pip extras (from %s), so no pip wheel brings its CUDA runtime: its jaxlib CUDA build loads the CUDA installed on the machine; pin the jaxlib build (jaxlib==%s+cudaNN… from JAX's find-links page, or jax[cuda]==%s where that release's extra pins one) and hold the machine's CUDA installation against nvidia-smi's CUDA version", fw.Version, since, fw.Version, fw.Version)
		}
		return "JAX's CUDA wheels load the CUDA runtime pip installs for them (nvidia-cuda-runtime-cuNN, any minor of the major): read it on the machine with `pip show nvidia-cuda-runtime-cu12` and hold it against nvidia-smi's CUDA version, or take jaxlib from conda-forge (jaxlib=*=cuda12* with cuda-version=12.X), whose runtime envguard can check"
	}
	if fw != nil && fw.Name == "tensorflow" && fw.From == envspec.ProviderConda && fw.Dist != kb.DistCondaForge {
		// The defaults channel's tensorflow-gpu (the channel a file with
		// none gets) loads the cudatoolkit the solver puts beside it,
		// which a cudatoolkit pin fixes; its
		// release alone does not tell envguard which, and pytorch-cuda or
		// a +cuXYZ wheel mean nothing there.
		return "pin the CUDA toolkit the tensorflow-gpu build loads (cudatoolkit=X.Y beside it), with the tensorflow-gpu release (tensorflow-gpu=X.Y.Z)"
	}
	if fw != nil && fw.Name == "tensorflow" {
		// TensorFlow has no pytorch-cuda and no +cuXYZ wheels: each
		// distribution fixes its runtime its own way.
		if fw.From == envspec.ProviderPip {
			return "pin the CUDA runtime the tensorflow wheel loads: cudatoolkit=X.Y from conda beside it, or from 2.14 on tensorflow[and-cuda] with nvidia-cuda-runtime-cuNN==X.Y.*"
		}
		return "pin conda-forge's CUDA variant of tensorflow: cuda-version=X.Y, or a cudaXYZ build string (tensorflow=X.Y.Z=cuda112*)"
	}
	if fw != nil && fw.VariantFrom != "" {
		// releases before the knowledge base's tables: pytorch-cuda,
		// cuda-version and +cuXYZ wheels did not exist yet
		return preTableHint("the driver and the GPU architectures")
	}
	return "pin the CUDA variant (pytorch-cuda=X.Y, cuda-version=X.Y, a cudaXYZ build string or a +cuXYZ wheel)"
}

// preTableHint is the hint for a release older than the knowledge base's
// tables whose CUDA is open (conda pytorch before 0.4.0), naming what a
// covered release would have checked.
func preTableHint(checked string) string {
	return "pin a release the knowledge base covers, with its CUDA variant, to have " + checked + " checked; these releases chose their CUDA through feature packages (cuda80, cuda90, cuda91), which envguard does not read"
}

// cpuIntentHint adds, where the file asks conda for a CPU build
// (cpuonly) beside a pip torch that pip takes as a CUDA wheel, the CPU
// wheel of that release: what the file meant, which needs no driver
// (review forty-five F11, corpus 149: cpuonly and intel-extension-for-
// pytorch beside torch==2.1.0, the package index's CUDA 12.1 wheel).
func (c *checker) cpuIntentHint() string {
	fw := c.st.Framework
	if fw == nil || fw.Name != "pytorch" || fw.From != envspec.ProviderPip || fw.Version == "" || fw.CPUOnlyBeside == "" {
		return ""
	}
	v, ok := c.k.Variants(resolver.SeriesOf(fw.Version), kb.DistWheel)
	if !ok || !v.CPU || (len(v.Releases) > 0 && !contains(v.Releases, fw.Version)) {
		return ""
	}
	return fmt.Sprintf("; or, for the CPU build the file's %s asks for, torch==%s+cpu from the PyTorch wheel index (…/whl/cpu), which needs no driver: pip's plain torch==%s is the CUDA build", fw.CPUOnlyBeside, fw.Version, fw.Version)
}

func (c *checker) driverLabel() string {
	h := c.h
	switch {
	case h.Source == SourceOverride && h.Driver == "":
		return fmt.Sprintf("the driver (CONDA_OVERRIDE_CUDA=%s)", h.CUDADriver)
	case h.DriverAssumed:
		return fmt.Sprintf("a driver for CUDA %s (taken as %s)", h.CUDADriver, h.Driver)
	case h.Driver == "":
		return "the driver"
	case h.DriverRange != "":
		return fmt.Sprintf("driver %s (the oldest of %s)", h.Driver, h.DriverRange)
	}
	return "driver " + h.Driver
}

func (c *checker) rtSuffix() string {
	if rt := c.runtime(); rt != "" {
		return " " + rt
	}
	return ""
}

// jaxUsesHostCUDA reports whether a pip jax is of a release before the
// knowledge base's first cudaNN_pip extra (JAXPipCUDASince): its CUDA
// jaxlib bundles no runtime and loads the CUDA installed on the machine.
func jaxUsesHostCUDA(fw *resolver.Framework, k knowledge) bool {
	if fw == nil || fw.Name != "jax" || fw.From != envspec.ProviderPip || fw.Version == "" {
		return false
	}
	since, ok := k.JAXPipCUDASince()
	if !ok {
		return false
	}
	c, ok := kb.CompareDotted(fw.Version, since)
	return ok && c < 0
}

// releaseCUDAsAbove reports the CUDA variants the framework's conda
// distribution built its release's series for, where every one of them is
// newer than bound: a file cannot pin an older runtime beside that
// release. False where the knowledge base does not list the variants, or
// one is at most bound, or the framework is not a conda pytorch.
func (c *checker) releaseCUDAsAbove(bound string) ([]string, string, bool) {
	fw := c.st.Framework
	if fw == nil || fw.Name != "pytorch" || fw.Series() == "" ||
		(fw.Dist != kb.DistCondaForge && fw.Dist != kb.DistPytorchConda && fw.Dist != kb.DistDefaults) {
		return nil, "", false
	}
	v, ok := c.k.Variants(fw.Series(), fw.Dist)
	if !ok || v.NotPublished || len(v.CUDA) == 0 {
		return nil, "", false
	}
	for _, cu := range v.CUDA {
		if compareVersions(cu, bound) <= 0 {
			return nil, "", false
		}
	}
	return v.CUDA, resolver.DistWhere(fw.Dist), true
}

// condaMajorOnly is the file's conda CUDA item that names a CUDA major
// only (cuda-toolkit=12, cuda-version=12), nil where there is none.
func (c *checker) condaMajorOnly() *resolver.Evidence {
	if c.st.CUDA == nil {
		return nil
	}
	for i, e := range c.st.CUDA.Evidence {
		switch e.Kind {
		case resolver.EvidenceCUDAPackage, resolver.EvidenceCUDAVersion:
			if e.Says != "" && !strings.Contains(e.Says, ".") {
				return &c.st.CUDA.Evidence[i]
			}
		}
	}
	return nil
}

// hostDriverCUDA is the CUDA version the host's driver supports: as the
// target gives it, else from its driver version ("" when neither says).
func (c *checker) hostDriverCUDA() string {
	if c.h.CUDADriver == "" && c.h.Driver != "" {
		return c.k.DriverCUDA(c.h.Driver)
	}
	return c.h.CUDADriver
}

// driverOrFloor is the host's driver version, or where only the CUDA
// version it supports is known, the oldest driver that supports that
// CUDA: a lower bound of the real one ("" when neither is known).
func (c *checker) driverOrFloor(driverCUDA string) string {
	if c.h.Driver != "" {
		return c.h.Driver
	}
	if f, ok := c.k.DriverFloor(driverCUDA); ok && !f.BranchOnly {
		return f.LinuxMin
	}
	return ""
}

// reachesCompatFloor says whether the host's driver is known to reach the
// minor-version-compatibility floor of CUDA major m (false where the floor
// or the driver is not known).
func (c *checker) reachesCompatFloor(m int, driverCUDA string) bool {
	f, ok := c.k.MinorCompatFloor(m)
	drv := c.driverOrFloor(driverCUDA)
	return ok && f.LinuxFloor != "" && f.LinuxFloor != "unknown" && drv != "" && compareVersions(drv, f.LinuxFloor) >= 0
}

// hostCUDAHint is the driver hint for a build that loads the CUDA it finds
// on the machine: install the driver's own CUDA release there, and, on a
// GPU whose last driver branch that is, say so instead of "upgrade".
func (c *checker) hostCUDAHint(m int, driverCUDA string) string {
	pin := "install CUDA " + driverCUDA + " on the machine, the newest " + fmt.Sprint(m) + ".x its driver runs natively"
	if lim, ok := c.retired(); ok {
		return fmt.Sprintf("the %s runs no driver after R%d, NVIDIA's last branch for %s GPUs: %s", lim.gpuName(), lim.arch.LastBranch, lim.arch.Arch, pin)
	}
	return pin + ", or upgrade the driver"
}

// closedDistRuntimes lists every CUDA runtime a pytorch release the file
// admits was built with on its distribution, where that distribution
// publishes no more releases (the pytorch channel after 2.5: its rows for
// the newest series the knowledge base knows say not published), so that
// the list is whole; nil otherwise. Review thirty-six F35: an open
// pytorch and pytorch-cuda from the pytorch channel use one of CUDA
// 7.5 … 12.4, all of which a CUDA 12.8 driver runs.
func (c *checker) closedDistRuntimes() []string {
	fw := c.st.Framework
	if fw.Name != "pytorch" || fw.Version != "" || fw.Dist == "" || fw.Channel == "" {
		return nil
	}
	// a distribution still publishing may serve a release newer than the
	// tables, with a newer CUDA
	rels := closedDist(c.k, fw.Dist)
	if rels == nil {
		return nil
	}
	admitted := fw.Candidates
	if len(admitted) == 0 {
		if fw.Spec != "" {
			return nil // a spec the resolver did not expand
		}
		admitted = rels
	}
	var out []string
	for _, rel := range admitted {
		v, ok := c.k.Variants(rel, fw.Dist)
		if !ok {
			if compareVersions(rel, rels[len(rels)-1]) > 0 {
				return nil
			}
			continue // a series the tables do not list for it: older, with an older CUDA
		}
		for _, cu := range v.CUDA {
			if !slices.Contains(out, cu) {
				out = append(out, cu)
			}
		}
	}
	return out
}
