package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG207 reports a conda GPU framework whose accelerator variant nothing
// pins. Pip torch is left to EG304, which says the same of wheels; pip
// TensorFlow ships one wheel for both, and pip jax without a CUDA extra is
// the CPU build.
var ruleEG207 = &Rule{
	Rule: finding.Rule{
		Code:     "EG207",
		Name:     "variant-not-pinned",
		Severity: finding.SeverityWarning,
		Fixable:  finding.FixUnsafe,
		Title:    "a GPU framework with no pinned accelerator variant",
		Why: "conda-forge and the pytorch channel publish CUDA and CPU builds under one name. Without a pin " +
			"the solver decides per machine (conda-forge by the __cuda virtual package): CI without a GPU gets the " +
			"CPU build and a GPU node the CUDA one, so the file tested is not the environment trained in. cuda-version " +
			"alone constrains which CUDA build is chosen but does not exclude the CPU one.",
		Fix:    "Pin the variant: pytorch-cuda=X.Y or cpuonly on the pytorch channel; a build string (pytorch=*=cuda*) or pytorch-gpu / pytorch-cpu on conda-forge.",
		Before: "channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.4.1\n",
		After:  "channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.4.1=cuda12*\n  - cuda-version=12.4\n",
		Since:  "0.1.0",
	},
	run: runEG207,
}

func runEG207(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil {
		return nil
	}
	f := st.Framework
	if f.From != envspec.ProviderConda || f.Variant != "" || len(f.Pins) > 0 {
		return nil
	}
	// where no platform of the file has CUDA builds (macOS, win-arm64) the
	// solver has no variant to choose from
	if !anyCUDAPlatform(c.Env) {
		return nil
	}
	var k VariantKB
	if c.KB != nil {
		k = c.KB
	}
	hint := VariantHint(k, f)
	msg := fmt.Sprintf("%s%s has no pinned accelerator variant: the solver picks a CUDA or a CPU build on each machine", f.Item, at(f.Pos))
	if why := cudaOnEveryMachine(c.KB, f); why != "" {
		// review thirty-one F40 (152): the pytorch channel's CUDA builds
		// win on every machine; what is open is which CUDA
		msg = fmt.Sprintf("%s%s has no pinned accelerator variant: %s", f.Item, at(f.Pos), why)
	}
	if tk := f.DefaultsToolkitPin; tk != nil {
		// review twenty-eight F1 (071): whether defaults has the release
		// is not known; if it does not, the pytorch channel's build is
		// selected by the file's cudatoolkit, the same on every machine
		msg = fmt.Sprintf("%s%s may come from the defaults channel, listed first, which the knowledge base does not know to have published pytorch %s nor how its builds are chosen; if it comes from the pytorch channel instead, %s%s selects that channel's CUDA build, the same on every machine", f.Item, at(f.Pos), f.DefaultsRelease, tk.Raw.Value, at(tk.Raw.Pos))
		hint = fmt.Sprintf("list the pytorch channel before defaults, or write pytorch::pytorch, so that %s selects the pytorch channel's CUDA build; or %s", tk.Raw.Value, hint)
	}
	if sel := pytorchChannelSelector(c, f); sel != nil {
		msg += fmt.Sprintf("; %s%s selects the build of the pytorch channel's pytorch only, and with %s listed first pytorch comes from %s, whose builds neither depend on it nor are constrained by it",
			sel.Dep.Raw.Value, at(sel.Dep.Raw.Pos), f.Channel, distWhere(f.Dist))
		// the route that keeps the file's selector first: a build glob
		// beside it would mix conda-forge's pytorch with the nvidia
		// channel's CUDA packages (review forty-one F6, corpus 014)
		var sk SeriesKB
		if c.KB != nil {
			sk = c.KB
		}
		if f.IgnoredSelector == "" {
			// VariantHint already leads with the selector's route where
			// it knows the selector is ignored (corpus 038 read it twice)
			hint = SelectorRoute(sk, sel.Dep.Raw.Value) + "; or drop it and " + hint
		}
	}
	if f.ChannelMoved != "" && f.Channel != "" {
		// the builds named are those of the channel it comes from
		where := f.Channel
		if f.Dist != "" {
			where = distWhere(f.Dist)
		}
		msg += fmt.Sprintf("; %s, so it comes from %s", f.ChannelMoved, where)
	} else if f.ChannelMoved != "" {
		msg += "; " + f.ChannelMoved
	}
	if v := mpsVariable(c); v != nil {
		// review forty-three F10 (095): a file made for Apple silicon,
		// where no CUDA build exists to pin
		msg += fmt.Sprintf("; the file sets %s%s, a variable of PyTorch's Apple-silicon (MPS) backend, so it may be written for macOS, where pytorch has no CUDA build and this file installs as it is", v.Key.Value, at(v.Key.Pos))
		hint = "if the file is for macOS, validate it with --platform osx-arm64 and give Linux GPU machines a file of their own; for Linux, " + hint
	}
	d := newFinding(c.rule, f.Pos, 0, msg, hint)
	d.Edits = eg207Edits(c, f)
	return []finding.Diagnostic{d}
}

// mpsVariable is the first variable the file sets that PyTorch's MPS
// backend reads (mps_variables), nil where none.
func mpsVariable(c *Context) *envspec.Variable {
	if c.KB == nil || c.Env == nil {
		return nil
	}
	for i := range c.Env.Variables {
		if _, ok := c.KB.MPSVariable(c.Env.Variables[i].Key.Value); ok {
			return &c.Env.Variables[i]
		}
	}
	return nil
}

// cudaOnEveryMachine says, for a release whose distribution's CUDA builds
// need no driver to install and rank above its CPU builds
// (conda_variant_pick, cuda_needs none: the pytorch channel's pytorch-mutex),
// that conda takes a CUDA build everywhere and which CUDA stays open; ""
// where the knowledge base does not say so.
func cudaOnEveryMachine(k *kb.KB, f *Framework) string {
	if k == nil || f.Version == "" || f.Dist == "" {
		return ""
	}
	row, ok := k.CondaVariantPick(f.Name, f.Dist, f.Version)
	if !ok || row.CUDANeeds != "none" || row.CPURank == "none" {
		return ""
	}
	vs, ok := k.Variants(seriesOf(f.Version), f.Dist)
	if !f.NVIDIAChannel && (!ok || !strings.HasPrefix(vs.Selector, "cudatoolkit")) {
		// pytorch-cuda's CUDA packages come from the nvidia channel: without
		// it the CUDA builds may not solve, and conda falls back to the CPU one
		return fmt.Sprintf("%s ranks its CUDA builds of %s %s above its CPU builds on every machine, but they need pytorch-cuda's CUDA packages, which its install commands take from the nvidia channel, and the file does not list it, so whether conda can install a CUDA build or falls back to the CPU build is not known", distWhere(f.Dist), f.Name, f.Version)
	}
	which := "which CUDA build is left to the solver"
	if ok && !vs.NotPublished && len(vs.CUDA) > 0 {
		which = fmt.Sprintf("which CUDA build (%s %s has CUDA %s) is left to the solver", f.Name, seriesOf(f.Version), strings.Join(vs.CUDA, ", "))
	}
	return fmt.Sprintf("%s's CUDA builds of %s %s need no driver to install and rank above its CPU builds, so conda installs a CUDA build on every machine, with a GPU or without, and %s", distWhere(f.Dist), f.Name, f.Version, which)
}

// eg207Edits pins the CUDA variant for the CUDA the file's other pins name
// (cuda-version, cuda-runtime, ...), where they all name one major.minor:
// on the pytorch channel the release's selector (pytorch-cuda=X.Y, or
// cudatoolkit=X.Y up to 1.12) where the channel published that CUDA; on
// conda-forge the build, pytorch=2.4.1=cuda12* as the rule's After shows.
// Unsafe: the file might have meant to leave CPU machines the CPU build.
func eg207Edits(c *Context, f *Framework) []finding.Edit {
	st := c.Stack
	if c.Env == nil || c.Env.Kind != envspec.KindEnvFile || st.CUDA == nil || !hasMinor(st.CUDA.Version) || len(st.CUDA.Evidence) == 0 {
		return nil
	}
	cuda := majorMinor(st.CUDA.Version)
	for _, e := range st.CUDA.Evidence {
		if majorMinor(e.Says) != cuda {
			return nil // the pins disagree: EG201's business first
		}
	}
	dep := condaDepAt(c.Env, f.Pos)
	if dep == nil || dep.Spec == nil || dep.Spec.Build != "" {
		return nil
	}
	switch {
	case f.Name == "pytorch" && f.Dist == kb.DistPytorchConda && c.KB != nil && f.Version != "":
		vs, ok := c.KB.Variants(seriesOf(f.Version), kb.DistPytorchConda)
		if !ok || vs.NotPublished {
			return nil
		}
		sel, _, _ := strings.Cut(vs.Selector, "=")
		if sel == "" || sel == "cpuonly" {
			return nil
		}
		for _, v := range vs.CUDA {
			if majorMinor(v) == cuda {
				if ed, ok := c.Env.InsertItemBefore(dep.Raw.Pos, sel+"="+cuda); ok {
					return []finding.Edit{ed}
				}
			}
		}
	case (f.Name == "pytorch" || f.Name == "tensorflow") && f.Dist == kb.DistCondaForge:
		raw := strings.TrimSpace(dep.Raw.Value)
		if raw != dep.Raw.Value || strings.ContainsAny(raw, "[]() <>!~*|,") {
			return nil
		}
		build := fmt.Sprintf("cuda%d*", majorOf(cuda))
		var text string
		switch strings.Count(raw, "=") {
		case 0:
			text = raw + "=*=" + build
		case 1:
			text = raw + "=" + build
		default:
			return nil // == or a build already: not a form to extend
		}
		if ed, ok := c.Env.ReplaceAt(dep.Raw.Pos, raw, text); ok {
			return []finding.Edit{ed}
		}
	}
	return nil
}

// VariantKB is what VariantHint reads of the knowledge base.
type VariantKB interface {
	Variants(series string, dist kb.Distribution) (*kb.TorchVariants, bool)
	TorchReleases() []string
	CondaBuildForm(pkg string, dist kb.Distribution, release string) (*kb.CondaBuildForm, bool)
	CondaPublished(pkg string, dist kb.Distribution, release string) (published, known bool)
	TensorFlowCondaCPUOnly(version string, dist kb.Distribution) (why string, ok bool)
}

// VariantHint says how to pin the accelerator variant of a conda framework
// in the words its distribution and release understand: the pytorch
// channel's selector of that release (cudatoolkit up to 1.12,
// pytorch-cuda from 1.13; cpuonly from 1.2, the pytorch-cpu package
// before), the defaults channel's build strings, conda-forge's build
// strings and metapackages. EG207 gives it as its hint, and gpucheck's
// EG409 where the builds the file admits disagree. k may be nil.
func VariantHint(k VariantKB, f *Framework) string {
	switch {
	case f.Name == "pytorch" && f.Dist == kb.DistPytorchConda:
		return pytorchChannelVariantHint(k, f)
	case f.Name == "pytorch" && f.Dist == kb.DistDefaults && f.IgnoredSelector != "":
		return fmt.Sprintf("to use %s, take pytorch from the pytorch channel, which it selects builds of: pytorch::pytorch (with pytorch::torchvision and pytorch::torchaudio where the file has them), or list pytorch before defaults; otherwise drop it and %s", f.IgnoredSelector, defaultsVariantHint(k, f))
	case f.Name == "pytorch" && f.Dist == kb.DistDefaults:
		return defaultsVariantHint(k, f)
	case f.Name == "pytorch":
		return "pin the build (pytorch=*=cuda* with cuda-version=X.Y, or pytorch=*=cpu*), or use pytorch-gpu / pytorch-cpu"
	case f.Name == "tensorflow" && f.Version != "" && k != nil && tfNoCondaForgeCUDA(k, f.Version) != "":
		// no build string of tensorflow selects a CUDA build of a release
		// conda-forge built on CPU only (review fifty-five F20, corpus 083:
		// tensorflow==1.4.0)
		return fmt.Sprintf("for the GPU build use the tensorflow-gpu package rather than tensorflow: %s, so no build string of tensorflow %s selects one", tfNoCondaForgeCUDA(k, f.Version), f.Version)
	case f.Name == "tensorflow":
		return "pin the build (tensorflow=*=cuda* or tensorflow=*=cpu*), or use tensorflow-gpu / tensorflow-cpu"
	}
	return "pin jaxlib's build (jaxlib=*=cuda* or jaxlib=*=cpu*)"
}

// tfNoCondaForgeCUDA says why conda-forge has no CUDA build of a
// TensorFlow release, "" where it may.
func tfNoCondaForgeCUDA(k VariantKB, version string) string {
	if k == nil {
		return ""
	}
	why, ok := k.TensorFlowCondaCPUOnly(version, kb.DistCondaForge)
	if !ok {
		return ""
	}
	return why
}

// pytorchChannelVariantHint names the selector the pytorch channel used for
// the release (cudatoolkit=X.Y up to 1.12, pytorch-cuda=X.Y for 1.13–2.5:
// the knowledge base's torch_variants, from the previous-versions page) and
// the CUDA versions it offered, so the fix is one the channel can solve.
func pytorchChannelVariantHint(k VariantKB, f *Framework) string {
	// pytorch-cuda's CUDA packages (cuda-cudart, libcublas, ...) are on
	// the nvidia channel, which PyTorch's own commands add (-c pytorch -c
	// nvidia): without it the selector does not solve (review thirty-four
	// F17, 157)
	generic := "add pytorch-cuda=X.Y (pytorch 1.13–2.5, with the nvidia channel listed: its CUDA packages are there) or cudatoolkit=X.Y (pytorch 1.12 and older) for a CUDA build, or cpuonly for a CPU build"
	v := f.Version
	if v == "" && len(f.Candidates) > 0 {
		v = f.Candidates[len(f.Candidates)-1]
	}
	if v == "" || k == nil {
		return generic
	}
	if vs, ok := k.Variants(seriesOf(v), kb.DistPytorchConda); ok && !vs.NotPublished && len(vs.CUDA) > 0 {
		sel, _, _ := strings.Cut(vs.Selector, "=")
		if sel == "" {
			sel = "pytorch-cuda"
		}
		cpu := ", or cpuonly for a CPU build"
		switch {
		case vs.CPUPackage != "":
			cpu = fmt.Sprintf(", or the package %s in place of pytorch for a CPU build", vs.CPUPackage)
		case !vs.CPU:
			cpu = ""
		}
		nvidia := ""
		if sel == "pytorch-cuda" {
			nvidia = ", with the nvidia channel listed: its CUDA packages are there"
		}
		return fmt.Sprintf("add %s=X.Y for a CUDA build (pytorch %s on the pytorch channel has CUDA %s%s)%s",
			sel, seriesOf(v), strings.Join(vs.CUDA, ", "), nvidia, cpu)
	}
	oldest := ""
	for _, r := range k.TorchReleases() {
		if oldest == "" || compareVersions(r, oldest) < 0 {
			oldest = r
		}
	}
	if oldest != "" && compareVersions(v, oldest) < 0 {
		return fmt.Sprintf("add cudatoolkit=X.Y for a CUDA build (before pytorch-cuda, the pytorch channel selected the CUDA build of %s with cudatoolkit), or cpuonly for a CPU build", fwLabel(f))
	}
	return generic
}

// defaultsVariantHint names the build globs the defaults channel's pytorch
// answers to for the release the file admits, from the knowledge base's
// conda_build_forms (the recipe's string: lines): cuda* up to 1.12.0,
// gpu_cuda* from the 1.12.1 rebuild on, and the pytorch-gpu / pytorch-cpu
// metapackages from 2.5.1. An unpinned release resolves to the newest.
func defaultsVariantHint(k VariantKB, f *Framework) string {
	v := f.Version
	if v == "" && len(f.Candidates) > 0 {
		v = f.Candidates[len(f.Candidates)-1]
	}
	generic := "pin the build: pytorch=*=<glob> with the CUDA or the CPU build string the defaults channel gives the release (conda search pytorch -c defaults lists them)"
	if k == nil {
		return generic
	}
	if v == "" {
		// unpinned: the newest release the knowledge base knows
		for _, r := range k.TorchReleases() {
			if v == "" || compareVersions(r, v) > 0 {
				v = r
			}
		}
	}
	form, ok := k.CondaBuildForm("pytorch", kb.DistDefaults, v)
	if !ok {
		return generic
	}
	if pub, known := k.CondaPublished("pytorch", kb.DistDefaults, v); (f.Version != "" || len(f.Candidates) > 0) && (!known || !pub) {
		// Whether defaults has the release the file pins is not known (an
		// unpinned pytorch is defaults' newest, whichever it is), so the solver may
		// take it from another channel the file lists, whose builds are
		// named otherwise (the pytorch channel's py3.9_cuda11.1_cudnn8.0.5_0,
		// conda-forge's cuda118_py310h…): defaults' own globs would solve to
		// nothing there (review 9 #489, corpus 071). These globs match
		// every channel's names.
		return fmt.Sprintf("pin the build: %s for a CUDA build or %s for a CPU one; whether the defaults channel published pytorch %s is not known, so another channel the file lists may serve it, and %s",
			buildPin(f, "*cuda*"), buildPin(f, "*cpu*"), v, globsMatchEvery(form))
	}
	pin := fmt.Sprintf("%s for a CUDA build or %s for a CPU one", buildPin(f, form.CUDAGlob), buildPin(f, form.CPUGlob))
	since := fmt.Sprintf(" (the defaults channel's recipe names its builds so from pytorch %s on)", form.Since)
	if next := nextBuildForm(k, form); next != "" {
		// a later recipe names them otherwise (gpu_cuda… from 1.12.1):
		// "from 1.2.0 on" read as holding today (review forty-two F13)
		since = fmt.Sprintf(" (the defaults channel's recipe names its builds so from pytorch %s until %s, which changed the names)", form.Since, next)
	}
	if len(f.OtherChannels) > 0 {
		// The solver may take the build from another channel the file
		// lists, whose names the defaults globs do not match, and whether
		// defaults has a CUDA build of the release at all is not in its
		// name form (its 1.6.0 was CPU-only: review eighteen F38, 126).
		pin = fmt.Sprintf("%s for a CUDA build or %s for a CPU one; the file lists %s beside defaults, and %s",
			buildPin(f, "*cuda*"), buildPin(f, "*cpu*"), strings.Join(f.OtherChannels, " and "), globsMatchEvery(form))
		since = ""
	}
	if form.GPUPackage != "" && form.CPUPackage != "" {
		// The recipe read adds them from form.Since on, but the channel
		// has pytorch-cpu packages of earlier recipes too: no release is
		// named as their first (review seventeen F4).
		return fmt.Sprintf("use %s or %s (the defaults channel's metapackages that select its GPU or its CPU build), or pin the build: %s", form.GPUPackage, form.CPUPackage, pin)
	}
	return "pin the build: " + pin + since
}

// globsMatchEvery says that *cuda*/*cpu* match the build names of every
// channel that may serve the release, the defaults recipe's among them.
func globsMatchEvery(form *kb.CondaBuildForm) string {
	return fmt.Sprintf("these globs match the defaults recipe's %s/%s builds as well as the pytorch channel's py…_cuda…/py…_cpu_… and conda-forge's cuda…/cpu_… ones",
		strings.TrimSuffix(form.CUDAGlob, "*")+"…", strings.TrimSuffix(form.CPUGlob, "*")+"…")
}

// nextBuildForm is the first release whose defaults build names follow
// another form than form, "" where none the knowledge base lists does.
func nextBuildForm(k VariantKB, form *kb.CondaBuildForm) string {
	rels := append([]string(nil), k.TorchReleases()...)
	sortVersions(rels)
	for _, r := range rels {
		if compareVersions(r, form.Since) <= 0 {
			continue
		}
		if f, ok := k.CondaBuildForm(form.Package, form.Dist, r); ok && f.Since != form.Since {
			return r
		}
	}
	return ""
}

// buildPin is the file's pytorch spec with a build glob added: its version
// kept (pytorch=1.9=*cuda*, review thirty-nine F19: the hint's
// pytorch=*=*cuda* dropped the file's =1.9), a range in conda's bracket
// form, and * where it pins none.
func buildPin(f *Framework, glob string) string {
	v := strings.TrimSpace(f.Spec)
	plain := strings.TrimLeft(v, "=")
	switch {
	case v == "" || v == "*":
		return "pytorch=*=" + glob
	case !strings.ContainsAny(plain, "<>!|,~ ="):
		return "pytorch=" + plain + "=" + glob
	}
	return fmt.Sprintf("pytorch[version='%s',build='%s']", v, glob)
}

// SelectorRoute is the way to keep a pytorch-channel selector (pytorch-cuda,
// cpuonly) that the file's pytorch, taken from another channel, ignores;
// it names the channel's last series where the knowledge base gives it.
func SelectorRoute(k SeriesKB, sel string) string {
	ends := ""
	if last := lastPublishedSeries(k, kb.DistPytorchConda); last != "" {
		ends = ", whose releases end at " + last
	}
	return fmt.Sprintf("to keep %s, take pytorch from the pytorch channel (pytorch::pytorch%s), whose builds it selects", sel, ends)
}

// SeriesKB is what lastPublishedSeries reads of the knowledge base.
type SeriesKB interface {
	Variants(series string, dist kb.Distribution) (*kb.TorchVariants, bool)
	TorchReleases() []string
}

// lastPublishedSeries is the newest torch series a distribution published
// (its torch_variants row not marked not_published); "" where the
// knowledge base has none, or no knowledge base is given.
func lastPublishedSeries(k SeriesKB, d kb.Distribution) string {
	if k == nil {
		return ""
	}
	rels := k.TorchReleases()
	for i := len(rels) - 1; i >= 0; i-- {
		s := seriesOf(rels[i])
		if v, ok := k.Variants(s, d); ok && !v.NotPublished {
			return s
		}
	}
	return ""
}

// pytorchChannelSelector is the file's pytorch-cuda or cpuonly where the
// framework is the defaults channel's pytorch: those are the pytorch
// channel's selectors (its pytorch builds depend on them); the defaults
// recipe's builds do not, so they leave defaults' variant open. Nil
// otherwise.

func pytorchChannelSelector(c *Context, f *Framework) *condaItem {
	// review thirty-one F37 (014): conda-forge listed first is the same
	// case as defaults
	if f.Name != "pytorch" || (f.Dist != kb.DistDefaults && f.Dist != kb.DistCondaForge) || c.Env == nil {
		return nil
	}
	for _, it := range condaItems(c.Env) {
		if it.Name == "pytorch-cuda" || it.Name == "cpuonly" {
			return &it
		}
	}
	return nil
}
