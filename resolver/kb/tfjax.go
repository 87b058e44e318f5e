package kb

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// JAXLibCondaForgeCuDNN returns the cuDNN majors conda-forge built a
// jaxlib release's CUDA builds against; false where no row names it.
func (k *KB) JAXLibCondaForgeCuDNN(version string) ([]string, bool) {
	v := padRelease3(stripLocal(version))
	for _, r := range k.JAXLibCondaForge {
		if r.Version == v {
			return r.CuDNN, true
		}
	}
	return nil, false
}

// ExtraRequirementsOf returns what a release's pip extra requires of
// other distributions, false where the knowledge base has no row for it.
// Extras compare PEP 685-normalised (with_cuda is with-cuda).
func (k *KB) ExtraRequirementsOf(pkg, version, extra string) ([]string, bool) {
	norm := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(s), "_", "-"), ".", "-")
	}
	for _, r := range k.ExtraRequirements {
		if norm(r.Package) == norm(pkg) && r.Version == version && norm(r.Extra) == norm(extra) {
			return r.Requires, true
		}
	}
	return nil, false
}

// ExtraPinsOf returns the unpublished pins of a release's pip extra.
func (k *KB) ExtraPinsOf(pkg, version, extra string) []ExtraPin {
	var out []ExtraPin
	for _, r := range k.ExtraPins {
		if r.Package == pkg && r.Version == version && r.Extra == extra {
			out = append(out, r)
		}
	}
	return out
}

// TensorFlowCondaForge returns conda-forge's CUDA builds of a TensorFlow
// release: the rows of the exact release, else those of the newest release
// of its series the table lists ("2.12.0" → the 2.12.1 rows when only those
// exist). Empty when conda-forge built no CUDA variant the table knows.
func (k *KB) TensorFlowCondaForge(version string) []TFCondaForge {
	v := padRelease3(stripLocal(version))
	var out []TFCondaForge
	for _, r := range k.TFCondaForge {
		if r.Version == v {
			out = append(out, r)
		}
	}
	if len(out) > 0 {
		return out
	}
	s := majorMinor(v)
	newest := ""
	for _, r := range k.TFCondaForge {
		if majorMinor(r.Version) == s {
			if c, ok := CompareDotted(r.Version, newest); newest == "" || (ok && c > 0) {
				newest = r.Version
			}
		}
	}
	for _, r := range k.TFCondaForge {
		if newest != "" && r.Version == newest {
			out = append(out, r)
		}
	}
	return out
}

// TensorFlowCondaCPUOnly says whether a plain conda `tensorflow` of this
// exact release is a CPU-only build on the distribution whatever the
// machine, and why: on conda-forge a release older than every CUDA build
// the feedstock's history shows (tensorflow_conda_forge); on defaults a
// release a tensorflow_conda_default row covers. ok is false where neither
// table settles it.
func (k *KB) TensorFlowCondaCPUOnly(version string, dist Distribution) (why string, ok bool) {
	v := padRelease3(stripLocal(version))
	switch dist {
	case DistCondaForge:
		oldest := ""
		for _, r := range k.TFCondaForge {
			if c, ok := CompareDotted(r.Version, oldest); oldest == "" || (ok && c < 0) {
				oldest = r.Version
			}
		}
		if c, ok := CompareDotted(v, oldest); oldest != "" && ok && c < 0 {
			return fmt.Sprintf("conda-forge built no CUDA variant of tensorflow before %s", oldest), true
		}
	case DistDefaults:
		for _, r := range k.TFCondaDefaults {
			if r.Dist != dist {
				continue
			}
			lo, ok1 := CompareDotted(v, r.From)
			hi, ok2 := CompareDotted(v, r.Before)
			if ok1 && ok2 && lo >= 0 && hi < 0 {
				return fmt.Sprintf("the defaults channel's tensorflow %s is the %s build by default; its GPU build comes only with %s", version, r.Default, r.GPU), true
			}
		}
	}
	return "", false
}

// TensorFlowDefaultsRecipesFrom is the oldest release a
// tensorflow_conda_default row covers: the defaults channel's recipes
// begin there, so what it published of an older release is not known.
func (k *KB) TensorFlowDefaultsRecipesFrom() string {
	oldest := ""
	for _, r := range k.TFCondaDefaults {
		if c, ok := CompareDotted(r.From, oldest); oldest == "" || (ok && c < 0) {
			oldest = r.From
		}
	}
	return oldest
}

// TensorFlowBeforeDefaultsRecipes says whether a release is older than
// every tensorflow_conda_default row.
func (k *KB) TensorFlowBeforeDefaultsRecipes(version string) bool {
	from := k.TensorFlowDefaultsRecipesFrom()
	c, ok := CompareDotted(padRelease3(stripLocal(version)), from)
	return from != "" && ok && c < 0
}

// TensorFlowSelectVariant says which variant a pinned selector package
// (_tflow_select=2.3.0) picks for a defaults TensorFlow release: "cuda",
// "cpu", or "" where no tensorflow_conda_default row covering the release
// names that package and version.
func (k *KB) TensorFlowSelectVariant(release, pkg, version string) (string, *TFCondaDefault) {
	v := padRelease3(stripLocal(release))
	for i := range k.TFCondaDefaults {
		r := &k.TFCondaDefaults[i]
		lo, ok1 := CompareDotted(v, r.From)
		hi, ok2 := CompareDotted(v, r.Before)
		if !ok1 || !ok2 || lo < 0 || hi >= 0 || r.Select != pkg {
			continue
		}
		switch {
		case version == r.SelectGPU:
			return "cuda", r
		case slices.Contains(r.SelectCPU, version):
			return "cpu", r
		}
	}
	return "", nil
}

// KerasFor returns the keras a TensorFlow release takes ("2.12.0" → the
// 2.12 row).
func (k *KB) KerasFor(tfVersion string) (*KerasPair, bool) {
	s := majorMinor(stripLocal(tfVersion))
	for i := range k.Keras {
		if k.Keras[i].TensorFlow == s {
			p := k.Keras[i]
			return &p, true
		}
	}
	return nil, false
}

// JAXLibState is what the jaxlib table says about one release.
type JAXLibState struct {
	PythonMin  string
	PythonMax  string
	CUDA       []string
	CuDNNMin   string
	PluginOnly bool
	PTXASError bool
	// XLANewerTarget is kb.JAXLibChange's: the target XLA takes on a GPU
	// above compute capability 9.0 that it does not know; XLANewerTargetTo
	// the first later release that takes another ("" where none does).
	XLANewerTarget   string
	XLANewerTargetTo string
	Sources          []string
}

// JAXLibAt folds the jaxlib rows at or below a release; ok is false when
// the release is older than every row or does not parse.
func (k *KB) JAXLibAt(version string) (JAXLibState, bool) {
	var st JAXLibState
	v := stripLocal(version)
	any := false
	for _, r := range k.JAXLib {
		c, ok := CompareDotted(r.From, v)
		if !ok || c > 0 {
			continue
		}
		any = true
		if r.PythonMin != "" {
			st.PythonMin = r.PythonMin
		}
		if r.PythonMax != "" {
			st.PythonMax = r.PythonMax
		}
		if len(r.CUDA) > 0 {
			st.CUDA = r.CUDA
		}
		if r.CuDNNMin != "" {
			st.CuDNNMin = r.CuDNNMin
		}
		if r.PluginOnly {
			st.PluginOnly = true
		}
		if r.PTXASError {
			st.PTXASError = true
		}
		if r.XLANewerTarget != "" {
			st.XLANewerTarget = r.XLANewerTarget
		}
		st.Sources = append(st.Sources, r.Source)
	}
	for _, r := range k.JAXLib {
		if c, ok := CompareDotted(r.From, v); ok && c > 0 && r.XLANewerTarget != "" && r.XLANewerTarget != st.XLANewerTarget {
			st.XLANewerTargetTo = r.From
			break
		}
	}
	return st, any
}

// padRelease3 writes 2.12 as 2.12.0.
func padRelease3(v string) string {
	if strings.Count(v, ".") == 1 {
		return v + ".0"
	}
	return v
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var (
	releaseRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+\.\d+$`) })
	// a conda package's release may have four parts (cudnn 8.9.7.29),
	// or two where the package numbers its releases so (mkl 2019.5)
	condaRelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+(\.\d+(\.\d+)?)?$`) })
	majorRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+$`) })
	jaxCUDARe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(>=)?\d+\.\d+$`) })
	cudnnMinRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+(\.\d+)?$`) })
	dateRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`) })
	// a package-index release: 2.15.0, 2.15.0.post1, 0.4.26
	indexRelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+(\.\d+)+(\.post\d+)?$`) })
	// name[extra]>=1.2,<2 with no marker
	extraRequirementRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?\s*((==|>=|<=|!=|~=|<|>)\s*[0-9][0-9A-Za-z.*+]*\s*,?\s*)*$`)
	})
)

// tfJAX checks the conda-forge TensorFlow, keras and jaxlib tables.
func (v *validator) tfJAX(keys map[string]bool) {
	k := v.k
	type cfKey struct{ ver, cuda string }
	seen := map[cfKey]bool{}
	for i, r := range k.TFCondaForge {
		v.source("tensorflow_conda_forge", i, r.Source, keys)
		v.version("tensorflow_conda_forge", i, "version", r.Version, releaseRe())
		v.cuda("tensorflow_conda_forge", i, r.CUDA)
		if len(r.CuDNN) == 0 {
			v.errf("tensorflow_conda_forge", i, "cudnn is empty")
		}
		for _, d := range r.CuDNN {
			v.version("tensorflow_conda_forge", i, "cudnn", d, majorRe())
		}
		if seen[cfKey{r.Version, r.CUDA}] {
			v.errf("tensorflow_conda_forge", i, "duplicate row for %s cuda %s", r.Version, r.CUDA)
		}
		seen[cfKey{r.Version, r.CUDA}] = true
		if i > 0 {
			p := k.TFCondaForge[i-1]
			c, ok := CompareDotted(p.Version, r.Version)
			if ok && (c > 0 || (c == 0 && cmpOr(p.CUDA, r.CUDA) >= 0)) {
				v.errf("tensorflow_conda_forge", i, "%s cuda %s is not after %s cuda %s (keep the table sorted)", r.Version, r.CUDA, p.Version, p.CUDA)
			}
		}
	}
	seenJ := map[string]bool{}
	for i, r := range k.JAXLibCondaForge {
		v.source("jaxlib_conda_forge", i, r.Source, keys)
		v.version("jaxlib_conda_forge", i, "version", r.Version, releaseRe())
		if len(r.CuDNN) == 0 {
			v.errf("jaxlib_conda_forge", i, "cudnn is empty")
		}
		for _, d := range r.CuDNN {
			v.version("jaxlib_conda_forge", i, "cudnn", d, majorRe())
		}
		if seenJ[r.Version] {
			v.errf("jaxlib_conda_forge", i, "duplicate row for %s", r.Version)
		}
		seenJ[r.Version] = true
		if i > 0 {
			if c, ok := CompareDotted(k.JAXLibCondaForge[i-1].Version, r.Version); ok && c >= 0 {
				v.errf("jaxlib_conda_forge", i, "%s is not after %s (keep the table sorted)", r.Version, k.JAXLibCondaForge[i-1].Version)
			}
		}
	}
	for i, r := range k.ExtraPins {
		v.source("extra_pins_unpublished", i, r.Source, keys)
		if r.Package == "" || r.Extra == "" || !strings.Contains(r.Pin, "==") {
			v.errf("extra_pins_unpublished", i, "package, extra and an exact pin (name==version) are required")
		}
		v.version("extra_pins_unpublished", i, "version", r.Version, releaseRe())
		for _, p := range r.Python {
			v.version("extra_pins_unpublished", i, "python", p, pythonRe())
		}
	}
	for i, r := range k.ExtraRequirements {
		v.source("extra_requirements", i, r.Source, keys)
		if r.Package == "" || r.Extra == "" || len(r.Requires) == 0 {
			v.errf("extra_requirements", i, "package, extra and requires are required")
		}
		v.version("extra_requirements", i, "version", r.Version, indexRelRe())
		for _, req := range r.Requires {
			if !extraRequirementRe().MatchString(req) {
				v.errf("extra_requirements", i, "requirement %q is not a name with an optional [extra] and version clauses, no marker", req)
			}
		}
	}
	for i, r := range k.TFCondaDefaults {
		v.source("tensorflow_conda_default", i, r.Source, keys)
		v.version("tensorflow_conda_default", i, "from", r.From, releaseRe())
		v.version("tensorflow_conda_default", i, "before", r.Before, releaseRe())
		if r.Dist != DistDefaults || r.Default == "" || r.GPU == "" {
			v.errf("tensorflow_conda_default", i, "dist defaults, default and gpu are required")
		}
	}
	seenK := map[string]bool{}
	for i, r := range k.Keras {
		v.source("keras", i, r.Source, keys)
		v.version("keras", i, "tensorflow", r.TensorFlow, seriesRe())
		if seenK[r.TensorFlow] {
			v.errf("keras", i, "duplicate row for tensorflow %s", r.TensorFlow)
		}
		seenK[r.TensorFlow] = true
		if !kerasSpecRe().MatchString(r.Keras) {
			v.errf("keras", i, "keras %q is not a >=X.Y[,<X.Z] spec", r.Keras)
		}
	}
	for i, r := range k.JAXLib {
		v.source("jaxlib", i, r.Source, keys)
		v.version("jaxlib", i, "from", r.From, releaseRe())
		if i > 0 {
			if c, ok := CompareDotted(k.JAXLib[i-1].From, r.From); ok && c >= 0 {
				v.errf("jaxlib", i, "from %s is not after %s (keep the table sorted)", r.From, k.JAXLib[i-1].From)
			}
		}
		if r.PythonMin != "" {
			v.version("jaxlib", i, "python_min", r.PythonMin, pythonRe())
		}
		if r.PythonMax != "" {
			v.version("jaxlib", i, "python_max", r.PythonMax, pythonRe())
		}
		for _, c := range r.CUDA {
			if !jaxCUDARe().MatchString(c) {
				v.errf("jaxlib", i, "cuda %q is not X.Y or >=X.Y", c)
				continue
			}
			v.cuda("jaxlib", i, strings.TrimPrefix(c, ">="))
		}
		if r.CuDNNMin != "" {
			v.version("jaxlib", i, "cudnn_min", r.CuDNNMin, cudnnMinRe())
		}
		if t := r.XLANewerTarget; t != "" && t != "sm_90" && t != "sm_90a" {
			v.errf("jaxlib", i, "xla_newer_target %q is neither sm_90 nor sm_90a", t)
		}
		if r.PythonMin == "" && r.PythonMax == "" && len(r.CUDA) == 0 && r.CuDNNMin == "" && !r.PluginOnly && !r.PTXASError && r.XLANewerTarget == "" {
			v.errf("jaxlib", i, "row changes nothing")
		}
	}
}

// tfJAXReleases checks the jax release list and TensorFlow's pip CUDA extra.
func (v *validator) tfJAXReleases(keys map[string]bool) {
	k := v.k
	for i, r := range k.JAXReleases {
		v.source("jax_releases", i, r.Source, keys)
		v.version("jax_releases", i, "version", r.Version, releaseRe())
		v.version("jax_releases", i, "date", r.Date, dateRe())
		if i > 0 {
			if c, ok := CompareDotted(k.JAXReleases[i-1].Version, r.Version); ok && c >= 0 {
				v.errf("jax_releases", i, "%s is not after %s (keep the table sorted)", r.Version, k.JAXReleases[i-1].Version)
			}
		}
		if st, ok := k.JAXLibAt(r.Version); !ok || !st.PluginOnly {
			v.errf("jax_releases", i, "%s is older than the plugin switch (the jaxlib row with plugin_only)", r.Version)
		}
	}
	for i, r := range k.TFPipCPUOnly {
		v.source("tensorflow_pip_cpu_only", i, r.Source, keys)
		if _, err := admitsSpec(r.Releases, "1.0.0"); err != nil || r.Releases == "" {
			v.errf("tensorflow_pip_cpu_only", i, "releases %q is not a version specifier", r.Releases)
		}
	}
	for i, r := range k.TFPTXEveryListed {
		v.source("tensorflow_ptx_every_listed", i, r.Source, keys)
		if _, err := admitsSpec(r.Releases, "1.0.0"); err != nil || r.Releases == "" {
			v.errf("tensorflow_ptx_every_listed", i, "releases %q is not a version specifier", r.Releases)
		}
		if r.Dist != DistPyPI && r.Dist != DistDefaults && r.Dist != DistCondaForge {
			v.errf("tensorflow_ptx_every_listed", i, "dist %q is not pypi, defaults or conda-forge", r.Dist)
		}
	}
	for i, r := range k.TFPipCUDA {
		v.source("tensorflow_pip_cuda", i, r.Source, keys)
		v.version("tensorflow_pip_cuda", i, "from", r.From, releaseRe())
		if r.Extra == "" {
			v.errf("tensorflow_pip_cuda", i, "extra is required")
		}
	}
}

var kerasSpecRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^>=\d+\.\d+(,<\d+\.\d+)?$`) })

func cmpOr(a, b string) int {
	c, ok := CompareDotted(a, b)
	if !ok {
		return strings.Compare(a, b)
	}
	return c
}

// JAXReleaseList returns the jax releases of the plugin era, oldest first.
func (k *KB) JAXReleaseList() []JAXRelease { return k.JAXReleases }

// TensorFlowPipCUDA returns the pip extra that installs NVIDIA's CUDA
// wheels with a TensorFlow release (and-cuda from 2.14.0); false where the
// release predates it or no row says.
func (k *KB) TensorFlowPipCUDA(version string) (*TFPipCUDA, bool) {
	v := padRelease3(stripLocal(version))
	for i := range k.TFPipCUDA {
		if c, ok := CompareDotted(v, k.TFPipCUDA[i].From); ok && c >= 0 {
			r := k.TFPipCUDA[i]
			return &r, true
		}
	}
	return nil, false
}

// TensorFlowPipCPUOnly returns the row saying that a release's
// package-index `tensorflow` is the CPU-only build; false where no row
// says so (the wheel has GPU support, or the knowledge base does not know).
func (k *KB) TensorFlowPipCPUOnly(version string) (*TFPipCPUOnly, bool) {
	v := padRelease3(stripLocal(version))
	for i := range k.TFPipCPUOnly {
		if ok, err := admitsSpec(k.TFPipCPUOnly[i].Releases, v); err == nil && ok {
			r := k.TFPipCPUOnly[i]
			return &r, true
		}
	}
	return nil, false
}

// TensorFlowPTXEveryListed returns the row saying that a distribution's
// build of a TensorFlow release carries PTX for every architecture it
// lists; false where no row says so.
func (k *KB) TensorFlowPTXEveryListed(dist Distribution, version string) (*TFPTXEveryListed, bool) {
	v := padRelease3(stripLocal(version))
	for i := range k.TFPTXEveryListed {
		r := k.TFPTXEveryListed[i]
		if ok, err := admitsSpec(r.Releases, v); err == nil && ok && r.Dist == dist {
			return &r, true
		}
	}
	return nil, false
}

// FirstTensorFlowPipCUDA is the oldest tensorflow_pip_cuda row: the pip
// extra that installs NVIDIA's CUDA wheels with TensorFlow and the first
// release that has it; false when the knowledge base has none.
func (k *KB) FirstTensorFlowPipCUDA() (*TFPipCUDA, bool) {
	return FirstTFPipCUDA(k.TFPipCUDA)
}

// FirstTFPipCUDA is the row of rows with the oldest From.
func FirstTFPipCUDA(rows []TFPipCUDA) (*TFPipCUDA, bool) {
	var first *TFPipCUDA
	for i := range rows {
		if c, ok := CompareDotted(rows[i].From, firstFrom(first)); first == nil || (ok && c < 0) {
			first = &rows[i]
		}
	}
	if first == nil {
		return nil, false
	}
	r := *first
	return &r, true
}

func firstFrom(r *TFPipCUDA) string {
	if r == nil {
		return ""
	}
	return r.From
}

// tfJAXExtras checks the jax extras table: each row is a span of releases
// with a source, and an open row says how far it was read.
func (v *validator) tfJAXExtras(keys map[string]bool) {
	seen := map[string]bool{}
	for i, r := range v.k.JAXExtras {
		v.source("jax_extras", i, r.Source, keys)
		v.version("jax_extras", i, "since", r.Since, releaseRe())
		if r.Extra == "" {
			v.errf("jax_extras", i, "extra is required")
		}
		switch {
		case r.Until == "" && r.Through == "":
			v.errf("jax_extras", i, "an open row needs through (the newest release read)")
		case r.Until != "" && r.Through != "":
			v.errf("jax_extras", i, "until and through exclude each other")
		case r.Until != "":
			v.version("jax_extras", i, "until", r.Until, releaseRe())
			if c, ok := CompareDotted(r.Since, r.Until); ok && c >= 0 {
				v.errf("jax_extras", i, "until %s is not after since %s", r.Until, r.Since)
			}
		default:
			v.version("jax_extras", i, "through", r.Through, releaseRe())
		}
		if n := normalizePEP503(r.Extra); seen[n] {
			v.errf("jax_extras", i, "%s has a second row (one span per extra)", r.Extra)
		} else {
			seen[n] = true
		}
	}
}

// tfJAXExtraCUDA checks the jax_extra_cuda rows: a span with a source
// and a CUDA major.
func (v *validator) tfJAXExtraCUDA(keys map[string]bool) {
	for i, r := range v.k.JAXExtraCUDA {
		v.source("jax_extra_cuda", i, r.Source, keys)
		v.version("jax_extra_cuda", i, "since", r.Since, releaseRe())
		if r.Extra == "" || r.Major <= 0 {
			v.errf("jax_extra_cuda", i, "extra and major are required")
		}
		switch {
		case (r.Until == "") == (r.Through == ""):
			v.errf("jax_extra_cuda", i, "exactly one of until and through is required")
		case r.Until != "":
			v.version("jax_extra_cuda", i, "until", r.Until, releaseRe())
		default:
			v.version("jax_extra_cuda", i, "through", r.Through, releaseRe())
		}
	}
}

// JAXExtraCUDAMajor is the CUDA major of the build jax release's extra
// pins (jax[cuda]==0.3.10: jaxlib==0.3.10+cuda11.cudnn82, so 11); false
// where no row covers the release.
func (k *KB) JAXExtraCUDAMajor(release, extra string) (int, bool) {
	n := normalizePEP503(extra)
	for _, r := range k.JAXExtraCUDA {
		if normalizePEP503(r.Extra) != n {
			continue
		}
		if c, ok := CompareDotted(release, r.Since); !ok || c < 0 {
			continue
		}
		if r.Until != "" {
			if c, ok := CompareDotted(release, r.Until); ok && c < 0 {
				return r.Major, true
			}
			continue
		}
		if c, ok := CompareDotted(release, r.Through); ok && c <= 0 {
			return r.Major, true
		}
	}
	return 0, false
}

// JAXPipCUDASince returns the first jax release that declares a CUDA
// extra named cudaNN_pip (cuda11_pip, cuda12_pip): the extras that first
// brought NVIDIA's CUDA runtime wheels through pip. Before it, a jaxlib
// CUDA wheel loads the machine's own CUDA installation. False where the
// table has no such extra.
func (k *KB) JAXPipCUDASince() (string, bool) {
	first := ""
	for _, r := range k.JAXExtras {
		n := normalizePEP503(r.Extra)
		if !strings.HasPrefix(n, "cuda") || !strings.HasSuffix(n, "-pip") {
			continue
		}
		if first == "" || cmpOr(r.Since, first) < 0 {
			first = r.Since
		}
	}
	return first, first != ""
}

// JAXExtraDeclared reports whether jax release declares the extra (PEP 685
// names: cuda12-pip is cuda12_pip); known is false where the release is
// newer than every release the table was read through, or the table is
// empty.
func (k *KB) JAXExtraDeclared(release, extra string) (declared, known bool) {
	n := normalizePEP503(extra)
	newest := ""
	for _, r := range k.JAXExtras {
		end := r.Until
		if end == "" {
			end = r.Through
		}
		if newest == "" || cmpOr(end, newest) > 0 {
			newest = end
		}
		if normalizePEP503(r.Extra) != n {
			continue
		}
		c, ok := CompareDotted(release, r.Since)
		if !ok {
			return false, false
		}
		if c < 0 {
			continue
		}
		if r.Until != "" {
			if u, ok := CompareDotted(release, r.Until); ok && u < 0 {
				return true, true
			}
			continue
		}
		if t, ok := CompareDotted(release, r.Through); ok && t <= 0 {
			return true, true
		}
		return false, false // past the newest release read
	}
	if newest == "" {
		return false, false
	}
	if c, ok := CompareDotted(release, newest); !ok || c > 0 {
		return false, false
	}
	return false, true
}

// CondaReleasesOf is the conda_releases row of a package on a distribution.
func (k *KB) CondaReleasesOf(pkg string, dist Distribution) (*CondaReleases, bool) {
	for i := range k.CondaReleases {
		if r := &k.CondaReleases[i]; r.Package == pkg && r.Dist == dist {
			return r, true
		}
	}
	return nil, false
}

// CondaPublished says whether a distribution published a release of a
// conda package, per conda_releases: published where a row lists it; not
// published where a row's complete span (by series) holds the release and
// its list does not; known false where no row speaks for it.
func (k *KB) CondaPublished(pkg string, dist Distribution, release string) (published, known bool) {
	series := majorMinor(release)
	for _, r := range k.CondaReleases {
		if r.Package != pkg || r.Dist != dist {
			continue
		}
		for _, v := range r.Releases {
			if v == release {
				return true, true
			}
		}
		if r.CompleteFrom == "" {
			continue
		}
		if InDottedSpan(series, r.CompleteFrom, r.CompleteThrough) {
			return false, true
		}
	}
	return false, false
}

// TensorFlowDefaultsGPULast is the last release of the defaults channel's
// linux tensorflow-gpu, false where no row says.
func (k *KB) TensorFlowDefaultsGPULast() (*TensorFlowDefaultsGPU, bool) {
	if len(k.TensorFlowDefaultsGPU) == 0 {
		return nil, false
	}
	return &k.TensorFlowDefaultsGPU[0], true
}

// TensorFlowDefaultsCUDAChoicesOf is the toolkits the defaults channel
// built a tensorflow-gpu release with, where it built several.
func (k *KB) TensorFlowDefaultsCUDAChoicesOf(release string) (*TensorFlowDefaultsCUDAChoice, bool) {
	for i := range k.TensorFlowDefaultsCUDAChoices {
		if r := &k.TensorFlowDefaultsCUDAChoices[i]; r.Release == release {
			return r, true
		}
	}
	return nil, false
}

// TensorFlowDefaultsBuildOf is the defaults channel's one build of a
// tensorflow-gpu release, where the knowledge base has it.
func (k *KB) TensorFlowDefaultsBuildOf(release string) (*TensorFlowDefaultsBuild, bool) {
	for i := range k.TensorFlowDefaultsBuilds {
		if r := &k.TensorFlowDefaultsBuilds[i]; r.Release == release {
			return r, true
		}
	}
	return nil, false
}

// TorchLinksStatically returns the torch_static_libs row saying that dist's
// CUDA build of torch release links lib into torch itself; false where no
// row says so.
func (k *KB) TorchLinksStatically(dist Distribution, release, lib string) (*TorchStaticLib, bool) {
	for i := range k.TorchStaticLibs {
		r := &k.TorchStaticLibs[i]
		if r.Dist != dist || r.Lib != lib {
			continue
		}
		if InDottedSpan(release, r.From, r.Through) {
			return r, true
		}
	}
	return nil, false
}

// CondaBuildForm is the row of conda_build_forms for a package of a
// distribution that covers release: the one with the newest Since at or
// before it. False where no row covers it.
func (k *KB) CondaBuildForm(pkg string, dist Distribution, release string) (*CondaBuildForm, bool) {
	var best *CondaBuildForm
	for i := range k.CondaBuildForms {
		r := &k.CondaBuildForms[i]
		if r.Package != pkg || r.Dist != dist {
			continue
		}
		if c, ok := CompareDotted(release, r.Since); !ok || c < 0 {
			continue
		}
		if best == nil || cmpOr(r.Since, best.Since) > 0 {
			best = r
		}
	}
	if best == nil {
		return nil, false
	}
	r := *best
	return &r, true
}

// JAXArchProbes returns the jax versions at which the CUDA major's wheels'
// architecture list can change or a release is known: the series of each
// architecture row of that major (a release takes the newest row at or
// below it) and every release of JAXReleases, oldest first. Checking each
// of them that an open spec admits, plus the spec's lower bound, covers
// every list the spec's releases can have.
func (k *KB) JAXArchProbes(major string) []string {
	seen := map[string]bool{}
	var out []string
	for i := range k.Facts.Arch {
		a := &k.Facts.Arch[i]
		if a.Framework == FrameworkJAX && a.CUDA == major && a.Dist == DistPyPI && !seen[a.Series] {
			seen[a.Series] = true
			out = append(out, a.Series)
		}
	}
	for _, r := range k.JAXReleases {
		if !r.Yanked && !seen[r.Version] {
			seen[r.Version] = true
			out = append(out, r.Version)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		c, ok := CompareDotted(out[i], out[j])
		return ok && c < 0
	})
	return out
}

// CondaVariantPick returns the conda_variant_pick row whose span holds
// release of pkg in dist; false where no row does.
func (k *KB) CondaVariantPick(pkg string, dist Distribution, release string) (*CondaVariantPick, bool) {
	for i := range k.CondaVariantPicks {
		r := &k.CondaVariantPicks[i]
		if r.Package != pkg || r.Dist != dist {
			continue
		}
		if c, ok := CompareDotted(release, r.From); !ok || c < 0 {
			continue
		}
		if c, ok := CompareDotted(release, r.Through); !ok || c > 0 {
			continue
		}
		row := *r
		return &row, true
	}
	return nil, false
}

// InDottedSpan says whether dotted version v lies in [from, through], both
// ends included; false where any of them does not compare.
func InDottedSpan(v, from, through string) bool {
	lo, ok1 := CompareDotted(v, from)
	hi, ok2 := CompareDotted(v, through)
	return ok1 && ok2 && lo >= 0 && hi <= 0
}
