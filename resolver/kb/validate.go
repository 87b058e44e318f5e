package kb

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var (
	// 2.7 is the one Python 2 minor the tables name (PyTorch 1.0–1.4).
	pythonRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(2\.7|3\.\d+t?)$`) })
	ccRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d$`) })
	seriesRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+$`) })
	mmRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\d+(\.\d+)?$`) })
)

var validDists = map[Distribution]bool{DistPytorchConda: true, DistWheel: true, DistPyPI: true, DistCondaForge: true, DistDefaults: true}

// validator collects positioned problems while checking the tables.
type validator struct {
	k    *KB
	errs ErrorList
}

func (v *validator) at(table string, i int) pos {
	if p := v.k.positions[table]; i < len(p) {
		return p[i]
	}
	return pos{File: "(knowledge base)"}
}

func (v *validator) errf(table string, i int, format string, args ...any) {
	p := v.at(table, i)
	v.errs = append(v.errs, &Error{File: p.File, Line: p.Line, Msg: fmt.Sprintf("%s[%d]: ", table, i) + fmt.Sprintf(format, args...)})
}

// source checks that a row cites something: a known source key, or an
// explicitly third-party source.
func (v *validator) source(table string, i int, src string, keys map[string]bool) {
	if strings.TrimSpace(src) == "" {
		v.errf(table, i, "source is empty")
		return
	}
	if strings.Contains(src, "third-party") {
		return
	}
	// Most sources are keys separated by "; " and "field:": a word that
	// is a key answers at once. Only a source without one pays for the
	// search of every key in it (a key may be part of a longer word).
	for _, w := range strings.FieldsFunc(src, notKeyRune) {
		if keys[w] {
			return
		}
	}
	for k := range keys {
		if strings.Contains(src, k) {
			return
		}
	}
	v.errf(table, i, "source %q cites no key of the sources table", src)
}

// notKeyRune tells the characters that cannot be part of a source key.
func notKeyRune(r rune) bool {
	return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
}

func (v *validator) version(table string, i int, field, s string, re *regexp.Regexp) {
	if !re.MatchString(s) {
		v.errf(table, i, "%s %q is not a version of the expected form", field, s)
	}
}

// validate checks every row and the agreement between tables: each row has
// a source, versions parse and are ordered where order matters, each
// torchvision belongs to one torch minor, every CUDA variant has a driver
// floor, every Arch row's series exists.
func (k *KB) validate() ErrorList {
	v := &validator{k: k}
	if k.Date == "" {
		v.errs = append(v.errs, &Error{File: "(knowledge base)", Msg: "date is missing (set it in meta.yaml)"})
	} else if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(k.Date) {
		v.errs = append(v.errs, &Error{File: "(knowledge base)", Msg: fmt.Sprintf("date %q is not YYYY-MM-DD", k.Date)})
	}
	keys := map[string]bool{}
	for i, s := range k.Sources {
		if s.Key == "" || s.Title == "" {
			v.errf("sources", i, "key and title are required")
		}
		if keys[s.Key] {
			v.errf("sources", i, "duplicate key %q", s.Key)
		}
		keys[s.Key] = true
	}

	series := map[string]bool{}
	tvMinor := map[string]string{}
	for i, s := range k.Facts.Series {
		v.version("torch_series", i, "series", s.Series, seriesRe())
		v.source("torch_series", i, s.Source, keys)
		if series[s.Series] {
			v.errf("torch_series", i, "duplicate series %s", s.Series)
		}
		// sorted within each file; the files may come in any order
		if i > 0 && v.at("torch_series", i-1).File == v.at("torch_series", i).File {
			if c, ok := CompareDotted(k.Facts.Series[i-1].Series, s.Series); ok && c >= 0 {
				v.errf("torch_series", i, "series %s is not after %s (keep the table sorted)", s.Series, k.Facts.Series[i-1].Series)
			}
		}
		series[s.Series] = true
		for _, p := range append(append([]string{}, s.Python...), s.PythonExperimental...) {
			v.version("torch_series", i, "python", p, pythonRe())
		}
		for _, c := range append(append([]string{}, s.CUDAStable...), s.CUDAExperimental...) {
			v.cuda("torch_series", i, c)
		}
		if s.TorchvisionMinor != "" {
			v.version("torch_series", i, "torchvision_minor", s.TorchvisionMinor, seriesRe())
			if prev, dup := tvMinor[s.TorchvisionMinor]; dup {
				v.errf("torch_series", i, "torchvision %s belongs to torch %s and %s", s.TorchvisionMinor, prev, s.Series)
			}
			tvMinor[s.TorchvisionMinor] = s.Series
		}
	}

	tvOwner := map[string]string{}
	seenT := map[string]bool{}
	for i, r := range k.Torch {
		v.version("torch", i, "version", r.Version, releaseRe())
		v.source("torch", i, r.Source, keys)
		if seenT[r.Version] {
			v.errf("torch", i, "duplicate release %s", r.Version)
		}
		seenT[r.Version] = true
		if i > 0 && v.at("torch", i-1).File == v.at("torch", i).File {
			if c, ok := CompareDotted(k.Torch[i-1].Version, r.Version); ok && c >= 0 {
				v.errf("torch", i, "version %s is not after %s (keep the table sorted)", r.Version, k.Torch[i-1].Version)
			}
		}
		s := majorMinor(r.Version)
		info, ok := k.SeriesInfo(s)
		if !ok {
			v.errf("torch", i, "series %s of %s is not in torch_series", s, r.Version)
		}
		if len(r.Python) == 0 {
			v.errf("torch", i, "python is empty")
		}
		for _, p := range append(append([]string{}, r.Python...), r.PythonExperimental...) {
			v.version("torch", i, "python", p, pythonRe())
		}
		for _, tv := range []string{r.Torchvision, r.TorchvisionConda} {
			if tv == "" {
				continue
			}
			v.version("torch", i, "torchvision", tv, releaseRe())
			if owner, dup := tvOwner[tv]; dup && owner != s {
				v.errf("torch", i, "torchvision %s belongs to torch %s and %s", tv, owner, s)
			}
			tvOwner[tv] = s
			if ok && info.TorchvisionMinor != "" && majorMinor(tv) != info.TorchvisionMinor {
				v.errf("torch", i, "torchvision %s is not of series %s that torch_series gives for %s", tv, info.TorchvisionMinor, s)
			}
		}
	}

	type vk struct {
		s string
		d Distribution
	}
	seenV := map[vk]bool{}
	for i, t := range k.TorchVariants {
		v.source("torch_variants", i, t.Source, keys)
		if !validDists[t.Dist] {
			v.errf("torch_variants", i, "unknown dist %q", t.Dist)
		}
		if !series[t.Series] {
			v.errf("torch_variants", i, "series %s is not in torch_series", t.Series)
		}
		if seenV[vk{t.Series, t.Dist}] {
			v.errf("torch_variants", i, "duplicate row for %s %s", t.Series, t.Dist)
		}
		seenV[vk{t.Series, t.Dist}] = true
		if t.NotPublished && (len(t.CUDA) > 0 || t.CPU) {
			v.errf("torch_variants", i, "not_published rows list no variants")
		}
		for _, c := range t.CUDA {
			v.cuda("torch_variants", i, c)
		}
		for _, r := range t.Releases {
			if majorMinor(r) != t.Series {
				v.errf("torch_variants", i, "release %s is not of series %s", r, t.Series)
			}
		}
		if t.Default != "" {
			v.cuda("torch_variants", i, t.Default)
			if !t.NotPublished && !containsString(t.CUDA, t.Default) {
				v.errf("torch_variants", i, "default %s is not one of its cuda variants", t.Default)
			}
		}
		for _, os := range t.CPUOnlyOn {
			if os != "windows" && os != "macos" {
				v.errf("torch_variants", i, "cpu_only_on %q is not windows or macos", os)
			}
		}
	}

	for i, r := range k.CondaBuildForms {
		v.source("conda_build_forms", i, r.Source, keys)
		v.version("conda_build_forms", i, "since", r.Since, releaseRe())
		if r.Package == "" || r.CUDAGlob == "" || r.CPUGlob == "" {
			v.errf("conda_build_forms", i, "package, cuda_glob and cpu_glob are required")
		}
		if !validDists[r.Dist] {
			v.errf("conda_build_forms", i, "unknown dist %q", r.Dist)
		}
	}

	for i, r := range k.CondaVariantPicks {
		v.source("conda_variant_pick", i, r.Source, keys)
		v.version("conda_variant_pick", i, "from", r.From, releaseRe())
		v.version("conda_variant_pick", i, "through", r.Through, releaseRe())
		if c, ok := CompareDotted(r.From, r.Through); ok && c > 0 {
			v.errf("conda_variant_pick", i, "from %s is after through %s", r.From, r.Through)
		}
		if r.Package == "" || !validDists[r.Dist] {
			v.errf("conda_variant_pick", i, "package and a known dist are required")
		}
		switch r.CPURank {
		case "build_number", "track_features", "none":
		default:
			v.errf("conda_variant_pick", i, "cpu_rank %q is not build_number, track_features or none", r.CPURank)
		}
		switch r.CUDANeeds {
		case "driver", "build_cuda", "none":
		default:
			v.errf("conda_variant_pick", i, "cuda_needs %q is not driver, build_cuda or none", r.CUDANeeds)
		}
		for _, c := range r.CUDA {
			if !mmRe().MatchString(c) {
				v.errf("conda_variant_pick", i, "cuda %q is not a version", c)
			}
		}
	}

	for i, r := range k.CondaReleases {
		v.source("conda_releases", i, r.Source, keys)
		if r.Package == "" || len(r.Releases) == 0 {
			v.errf("conda_releases", i, "package and releases are required")
		}
		if !validDists[r.Dist] {
			v.errf("conda_releases", i, "unknown dist %q", r.Dist)
		}
		for _, rel := range r.Releases {
			v.version("conda_releases", i, "releases", rel, condaRelRe())
		}
		if (r.CompleteFrom == "") != (r.CompleteThrough == "") {
			v.errf("conda_releases", i, "complete_from and complete_through go together")
		} else if r.CompleteFrom != "" {
			if c, ok := CompareDotted(r.CompleteFrom, r.CompleteThrough); !ok || c > 0 {
				v.errf("conda_releases", i, "complete_from %q is after complete_through %q", r.CompleteFrom, r.CompleteThrough)
			}
		}
	}

	for i, r := range k.TensorFlowDefaultsGPU {
		v.source("tensorflow_defaults_gpu", i, r.Source, keys)
		v.version("tensorflow_defaults_gpu", i, "last_linux", r.LastLinux, releaseRe())
		v.version("tensorflow_defaults_gpu", i, "complete_from", r.CompleteFrom, releaseRe())
		if !mmRe().MatchString(r.PythonFrom) {
			v.errf("tensorflow_defaults_gpu", i, "python_from %q must be a Python major.minor", r.PythonFrom)
		}
		if i > 0 {
			v.errf("tensorflow_defaults_gpu", i, "one row only")
		}
	}
	for i, r := range k.TensorFlowDefaultsCUDAChoices {
		v.source("tensorflow_defaults_cuda_choices", i, r.Source, keys)
		v.version("tensorflow_defaults_cuda_choices", i, "release", r.Release, releaseRe())
		if len(r.CUDA) < 2 {
			v.errf("tensorflow_defaults_cuda_choices", i, "cuda must list two toolkits or more (one goes in tensorflow_defaults_builds)")
		}
		if r.CuDNNMajor == "" || strings.Contains(r.CuDNNMajor, ".") {
			v.errf("tensorflow_defaults_cuda_choices", i, "cudnn_major %q must be a cuDNN major", r.CuDNNMajor)
		}
		for _, cu := range r.CUDA {
			if strings.Count(cu, ".") != 1 {
				v.errf("tensorflow_defaults_cuda_choices", i, "cuda %q must be major.minor", cu)
			}
		}
	}
	for i, r := range k.TensorFlowDefaultsBuilds {
		v.source("tensorflow_defaults_builds", i, r.Source, keys)
		v.version("tensorflow_defaults_builds", i, "release", r.Release, releaseRe())
		if !mmRe().MatchString(r.CUDA) || !mmRe().MatchString(r.CuDNN) {
			v.errf("tensorflow_defaults_builds", i, "cuda %q and cudnn %q must be major.minor", r.CUDA, r.CuDNN)
		}
	}

	for i, r := range k.TorchStaticLibs {
		v.source("torch_static_libs", i, r.Source, keys)
		if !validDists[r.Dist] || r.Lib == "" {
			v.errf("torch_static_libs", i, "a known dist and a lib are required")
		}
		v.version("torch_static_libs", i, "from", r.From, releaseRe())
		v.version("torch_static_libs", i, "through", r.Through, releaseRe())
		if c, ok := CompareDotted(r.From, r.Through); !ok || c > 0 {
			v.errf("torch_static_libs", i, "from %q is after through %q", r.From, r.Through)
		}
	}

	for i, r := range k.TorchCondaCUDAOnly {
		v.source("torch_conda_cuda_only", i, r.Source, keys)
		v.version("torch_conda_cuda_only", i, "before", r.Before, releaseRe())
		if len(r.Platforms) == 0 || len(r.Dists) == 0 || len(r.CUDA) == 0 {
			v.errf("torch_conda_cuda_only", i, "platforms, dists and cuda are required")
		}
		for _, d := range r.Dists {
			if !validDists[d] {
				v.errf("torch_conda_cuda_only", i, "unknown dist %q", d)
			}
		}
		for _, c := range r.CUDA {
			// CUDA 7.5 predates cuda_drivers' oldest row: the form only
			if !mmRe().MatchString(c) {
				v.errf("torch_conda_cuda_only", i, "cuda %q is not a version", c)
			}
		}
		v.torchCommonArch(i, r)
	}

	type ak struct {
		f, s, r, c string
		d          Distribution
	}
	seenA := map[ak]bool{}
	for i, a := range k.Facts.Arch {
		v.source("arch", i, a.Source, keys)
		if len(a.PTXOneOf) > 0 && (len(a.PTX) > 0 || a.PTXUnknown || len(a.PTXOneOf) < 2) {
			v.errf("arch", i, "ptx_one_of lists two or more alternatives, and goes without ptx and ptx_unknown")
		}
		if a.CommonOnly && (!a.Known || a.PTXOpen() || len(a.SASS) == 0) {
			v.errf("arch", i, "common_only needs known: true, the shared SASS, and a decided PTX list")
		}
		if a.DevBuilds != "" {
			v.source("arch", i, a.DevBuilds, keys)
		}
		if !validDists[a.Dist] {
			v.errf("arch", i, "unknown dist %q", a.Dist)
		}
		switch a.Framework {
		case "": // PyTorch: the series is one of torch_series
			if !series[a.Series] {
				v.errf("arch", i, "series %s is not in torch_series", a.Series)
			}
			v.cuda("arch", i, a.CUDA)
		case FrameworkTensorFlow, FrameworkJAX:
			v.frameworkArch(i, a)
		default:
			v.errf("arch", i, "unknown framework %q (tensorflow, jax, or none for pytorch)", a.Framework)
		}
		if a.Release != "" && (a.Framework != "" || majorMinor(a.Release) != a.Series || strings.Count(a.Release, ".") != 2) {
			v.errf("arch", i, "release %q is not a PyTorch release of series %s", a.Release, a.Series)
		}
		if seenA[ak{a.Framework, a.Series, a.Release, a.CUDA, a.Dist}] {
			v.errf("arch", i, "duplicate row for %s %s%s cuda %s %s", a.Framework, a.Series, a.Release, a.CUDA, a.Dist)
		}
		seenA[ak{a.Framework, a.Series, a.Release, a.CUDA, a.Dist}] = true
		if a.Known && len(a.SASS) == 0 {
			v.errf("arch", i, "known row with no sass")
		}
		if !a.Known && (len(a.SASS) > 0 || len(a.PTX) > 0) {
			v.errf("arch", i, "unknown row lists architectures; set known: true or empty them")
		}
		if !a.Known && a.Note == "" {
			v.errf("arch", i, "unknown row needs a note saying why")
		}
		for j, cc := range a.SASS {
			v.version("arch", i, "sass", cc, ccRe())
			if j > 0 {
				if c, ok := CompareDotted(a.SASS[j-1], cc); ok && c >= 0 {
					v.errf("arch", i, "sass %s is not after %s (keep sorted)", cc, a.SASS[j-1])
				}
			}
		}
		for _, cc := range a.PTX {
			v.version("arch", i, "ptx", cc, ccRe())
		}
	}
	// Every variant a distribution publishes has an architecture row, known
	// or explicitly unknown (pypi builds use the wheel rows; conda-forge's
	// come from its feedstock's build scripts).
	for i, t := range k.TorchVariants {
		for _, c := range t.CUDA {
			if _, ok := k.Arch(t.Series, c, t.Dist); !ok {
				v.errf("torch_variants", i, "no arch row for %s cuda %s %s", t.Series, c, t.Dist)
			}
		}
	}

	for i, f := range k.FatbinCompression {
		v.source("fatbin_compression", i, f.Source, keys)
		v.version("fatbin_compression", i, "min_cuda", f.MinCUDA, mmRe())
		if f.Compression == "" {
			v.errf("fatbin_compression", i, "no compression")
		}
	}
	seenD := map[string]bool{}
	for i, d := range k.CUDADrivers {
		v.source("cuda_drivers", i, d.Source, keys)
		v.version("cuda_drivers", i, "cuda", d.CUDA, mmRe())
		if _, ok := parseDotted(d.LinuxMin); !ok {
			v.errf("cuda_drivers", i, "linux_min %q does not parse", d.LinuxMin)
		}
		if seenD[d.CUDA] {
			v.errf("cuda_drivers", i, "duplicate row for %s", d.CUDA)
		}
		seenD[d.CUDA] = true
		// An update never needs an older driver than its GA row.
		if mm := majorMinor(d.CUDA); mm != d.CUDA {
			if ga, ok := k.DriverFloor(mm); ok && ga.CUDA == mm {
				if c, ok := CompareDotted(d.LinuxMin, ga.LinuxMin); ok && c < 0 {
					v.errf("cuda_drivers", i, "update %s needs %s, below its GA row's %s", d.CUDA, d.LinuxMin, ga.LinuxMin)
				}
			} else {
				v.errf("cuda_drivers", i, "update %s has no GA row %s", d.CUDA, mm)
			}
		}
	}
	// Newer GA rows never need an older driver.
	var prev *CUDADriver
	for _, d := range sortedGA(k.CUDADrivers) {
		if prev != nil {
			if c, ok := CompareDotted(d.LinuxMin, prev.LinuxMin); ok && c < 0 {
				idx := indexDriver(k.CUDADrivers, d.CUDA)
				v.errf("cuda_drivers", idx, "CUDA %s needs %s, older than CUDA %s's %s", d.CUDA, d.LinuxMin, prev.CUDA, prev.LinuxMin)
			}
		}
		d := d
		prev = &d
	}

	for i, m := range k.MinorCompat {
		v.source("minor_compat", i, m.Source, keys)
		if _, ok := parseDotted(m.LinuxFloor); !ok {
			v.errf("minor_compat", i, "linux_floor %q does not parse", m.LinuxFloor)
		}
		if c, ok := CompareDotted(m.LinuxFloor, fmt.Sprint(m.BranchMin)); !ok || c < 0 {
			v.errf("minor_compat", i, "linux_floor %s is below branch_min %d", m.LinuxFloor, m.BranchMin)
		}
	}

	names := map[string]int{}
	for i, g := range k.GPUs {
		v.source("gpus", i, g.Source, keys)
		v.version("gpus", i, "cc", g.CC, ccRe())
		if g.Name == "" || g.Arch == "" {
			v.errf("gpus", i, "name and arch are required")
		}
		if g.MinCUDA != "" {
			v.version("gpus", i, "min_cuda", g.MinCUDA, seriesRe())
		}
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			key := strings.Join(gpuTokens(n), " ")
			if j, dup := names[key]; dup && j != i {
				v.errf("gpus", i, "name %q is also GPU %d's", n, j)
			}
			names[key] = i
		}
	}

	for i, g := range k.CompanionGaps {
		v.source("companion_variants_unpublished", i, g.Source, keys)
		if g.Package == "" || g.Version == "" || g.Use == "" || len(g.Variants) == 0 {
			v.errf("companion_variants_unpublished", i, "package, version, variants and use are required")
		}
		if c, ok := CompareDotted(g.Use, g.Version); !ok || c <= 0 {
			v.errf("companion_variants_unpublished", i, "use %s is not a release after %s", g.Use, g.Version)
		}
	}
	archOfCC := map[string]string{}
	for i, a := range k.GPUArchDrivers {
		v.source("gpu_arch_drivers", i, a.Source, keys)
		if a.Arch == "" || len(a.CC) == 0 || a.LastBranch <= 0 {
			v.errf("gpu_arch_drivers", i, "arch, cc and last_branch are required")
		}
		for _, cc := range a.CC {
			v.version("gpu_arch_drivers", i, "cc", cc, ccRe())
			if other, dup := archOfCC[cc]; dup {
				v.errf("gpu_arch_drivers", i, "compute capability %s is also %s's", cc, other)
			}
			archOfCC[cc] = a.Arch
		}
	}
	// A GPU row and the architecture rows agree: a GPU whose compute
	// capability a retired architecture lists is of that architecture.
	for i, g := range k.GPUs {
		if a, ok := archOfCC[g.CC]; ok && a != g.Arch {
			v.errf("gpus", i, "%s is %s, but gpu_arch_drivers lists compute capability %s under %s", g.Name, g.Arch, g.CC, a)
		}
	}

	seenTF := map[string]bool{}
	for i, t := range k.Facts.TensorFlow {
		v.source("tensorflow", i, t.Source, keys)
		v.version("tensorflow", i, "version", t.Version, mmRe())
		v.cuda("tensorflow", i, t.CUDA)
		if seenTF[t.Version] {
			v.errf("tensorflow", i, "duplicate row for %s", t.Version)
		}
		seenTF[t.Version] = true
		for _, p := range t.Python {
			v.version("tensorflow", i, "python", p, pythonRe())
		}
	}

	for i, j := range k.JAX {
		v.source("jax", i, j.Source, keys)
		if j.Major <= 0 || len(j.Packages) == 0 || j.Extra == "" {
			v.errf("jax", i, "extra, major and packages are required")
		}
		if _, ok := k.MinorCompatFloor(j.Major); !ok && j.Major >= 11 {
			v.errf("jax", i, "CUDA major %d has no minor-compat floor", j.Major)
		}
	}

	v.tfJAX(keys)
	v.tfJAXReleases(keys)
	v.tfJAXExtras(keys)
	v.tfJAXExtraCUDA(keys)

	libs := map[string]bool{}
	condaOwner := map[string]string{}
	pipOwner := map[string]string{}
	for i, l := range k.GPULibs {
		v.source("gpu_libs", i, l.Source, keys)
		if l.CondaForgeCUDASince != "" && (len(l.Conda) == 0 || !dottedReleaseRe.MatchString(l.CondaForgeCUDASince)) {
			v.errf("gpu_libs", i, "conda_forge_cuda_since %q needs conda names and a release", l.CondaForgeCUDASince)
		}
		if libs[l.Lib] {
			v.errf("gpu_libs", i, "duplicate lib %q", l.Lib)
		}
		libs[l.Lib] = true
		for _, c := range l.Conda {
			if o, dup := condaOwner[c]; dup {
				v.errf("gpu_libs", i, "conda name %q also belongs to %s", c, o)
			}
			condaOwner[c] = l.Lib
		}
		for _, p := range l.Pip {
			if p != pipName(p) && !strings.Contains(p, "*") {
				v.errf("gpu_libs", i, "pip name %q is not in PEP 503 form", p)
			}
			if o, dup := pipOwner[p]; dup {
				v.errf("gpu_libs", i, "pip name %q also belongs to %s", p, o)
			}
			pipOwner[p] = l.Lib
		}
	}
	if len(k.CUDAStack) > 0 && k.CUDAStackSource == "" {
		v.errs = append(v.errs, &Error{File: v.at("cuda_stack", 0).File, Line: v.at("cuda_stack", 0).Line, Msg: "cuda_stack needs cuda_stack_source"})
	}
	seenS := map[string]bool{}
	for i, s := range k.CUDAStack {
		if seenS[s] {
			v.errf("cuda_stack", i, "duplicate %q", s)
		}
		seenS[s] = true
	}
	v.resolverNames(keys)
	v.torchTriton(keys)
	v.gpuPackages(keys)
	v.condaAbsentNames(keys)
	v.torchPythonBuilds(keys)
	v.toolkitArch(keys)
	v.indexReleases(keys)
	v.learnedBuilds()
	v.libBreaks(keys)
	v.condaForgeTorchMKL(keys)
	return v.errs
}

// toolkitArch checks cuda_arch: one row per CUDA major.minor, sorted, each
// with a driver row; compute capabilities of the form "8.6"; the SASS range
// not inverted and PTX not below it; and a newer toolkit never reaching a
// lower architecture than an older one.
func (v *validator) toolkitArch(keys map[string]bool) {
	const table = "cuda_arch"
	rows := v.k.Facts.ToolkitArch
	seen := map[string]bool{}
	for i, r := range rows {
		v.source(table, i, r.Source, keys)
		if !seriesRe().MatchString(r.CUDA) {
			v.errf(table, i, "cuda %q is not a major.minor version", r.CUDA)
		} else if _, ok := v.k.DriverFloor(r.CUDA); !ok {
			v.errf(table, i, "cuda %s has no row in cuda_drivers", r.CUDA)
		}
		if seen[r.CUDA] {
			v.errf(table, i, "duplicate row for %s", r.CUDA)
		}
		seen[r.CUDA] = true
		good := true
		for _, f := range []struct{ name, cc string }{{"min_sass", r.MinSASS}, {"max_sass", r.MaxSASS}, {"max_ptx", r.MaxPTX}} {
			if !ccRe().MatchString(f.cc) {
				v.errf(table, i, "%s %q is not a compute capability like \"8.6\"", f.name, f.cc)
				good = false
			}
		}
		if good {
			if c, _ := CompareDotted(r.MinSASS, r.MaxSASS); c > 0 {
				v.errf(table, i, "min_sass %s is above max_sass %s", r.MinSASS, r.MaxSASS)
			}
			if c, _ := CompareDotted(r.MaxPTX, r.MinSASS); c < 0 {
				v.errf(table, i, "max_ptx %s is below min_sass %s", r.MaxPTX, r.MinSASS)
			}
		}
		if i == 0 {
			continue
		}
		p := rows[i-1]
		if c, ok := CompareDotted(p.CUDA, r.CUDA); ok && c >= 0 {
			v.errf(table, i, "cuda %s is not after %s (keep the table sorted)", r.CUDA, p.CUDA)
			continue
		}
		if c, ok := CompareDotted(r.MaxSASS, p.MaxSASS); ok && c < 0 {
			v.errf(table, i, "max_sass %s of CUDA %s is below CUDA %s's %s", r.MaxSASS, r.CUDA, p.CUDA, p.MaxSASS)
		}
		if c, ok := CompareDotted(r.MaxPTX, p.MaxPTX); ok && c < 0 {
			v.errf(table, i, "max_ptx %s of CUDA %s is below CUDA %s's %s", r.MaxPTX, r.CUDA, p.CUDA, p.MaxPTX)
		}
	}
}

// torchTriton checks triton.yaml: versions of three parts, one row per torch
// release, sorted by torch.
func (v *validator) torchTriton(keys map[string]bool) {
	full := releaseRe()
	seen := map[string]bool{}
	for i, t := range v.k.TorchTriton {
		v.version("torch_triton", i, "torch", t.Torch, full)
		v.version("torch_triton", i, "triton", t.Triton, full)
		v.source("torch_triton", i, t.Source, keys)
		if seen[t.Torch] {
			v.errf("torch_triton", i, "duplicate torch %s", t.Torch)
		}
		seen[t.Torch] = true
		if i > 0 {
			if c, ok := CompareDotted(v.k.TorchTriton[i-1].Torch, t.Torch); ok && c >= 0 {
				v.errf("torch_triton", i, "torch %s is not after %s (keep the table sorted)", t.Torch, v.k.TorchTriton[i-1].Torch)
			}
		}
	}
}

// frameworkArch checks a TensorFlow or JAX arch row: the pip wheel (dist
// pypi), conda-forge, or for TensorFlow defaults (Anaconda's recipe, whose
// builds FrameworkArch never answers with the wheel's row); a TensorFlow row names a series of the tensorflow
// table and, for pypi, the CUDA that table gives the series; a JAX row names
// a release X.Y.Z and a CUDA major.
func (v *validator) frameworkArch(i int, a ArchList) {
	if a.Dist != DistPyPI && a.Dist != DistCondaForge && (a.Dist != DistDefaults || a.Framework != FrameworkTensorFlow) {
		v.errf("arch", i, "%s rows are dist pypi (the official wheel) or conda-forge (tensorflow also defaults), not %q", a.Framework, a.Dist)
	}
	switch a.Framework {
	case FrameworkTensorFlow:
		v.version("arch", i, "series", a.Series, seriesRe())
		v.cuda("arch", i, a.CUDA)
		var cudas []string
		for _, t := range v.k.Facts.TensorFlow {
			if majorMinor(t.Version) == a.Series && !containsString(cudas, t.CUDA) {
				cudas = append(cudas, t.CUDA)
			}
		}
		if len(cudas) == 0 {
			v.errf("arch", i, "tensorflow series %s is not in the tensorflow table", a.Series)
		} else if a.Dist == DistPyPI && !containsString(cudas, a.CUDA) {
			v.errf("arch", i, "tensorflow %s was built with cuda %s, not %s", a.Series, strings.Join(cudas, ", "), a.CUDA)
		}
	case FrameworkJAX:
		v.version("arch", i, "series", a.Series, releaseRe())
		if !majorRe().MatchString(a.CUDA) {
			v.errf("arch", i, "jax cuda %q is not a CUDA major (\"12\")", a.CUDA)
		}
	}
}

// cuda checks a CUDA major.minor named by a row: it must parse and have a
// driver floor.
func (v *validator) cuda(table string, i int, c string) {
	if !mmRe().MatchString(c) {
		v.errf(table, i, "cuda %q is not a version", c)
		return
	}
	if _, ok := v.k.DriverFloor(c); !ok {
		v.errf(table, i, "cuda %s has no row in cuda_drivers", c)
	}
}

func sortedGA(rows []CUDADriver) []CUDADriver {
	var ga []CUDADriver
	for _, r := range rows {
		if majorMinor(r.CUDA) == r.CUDA {
			ga = append(ga, r)
		}
	}
	for i := 1; i < len(ga); i++ {
		for j := i; j > 0; j-- {
			if c, _ := CompareDotted(ga[j-1].CUDA, ga[j].CUDA); c > 0 {
				ga[j-1], ga[j] = ga[j], ga[j-1]
			}
		}
	}
	return ga
}

func indexDriver(rows []CUDADriver, cuda string) int {
	for i, r := range rows {
		if r.CUDA == cuda {
			return i
		}
	}
	return 0
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// resolverNames checks the name tables the resolver reads: the CUDA-stack
// patterns, the CUDA packages, the CUDA consumers and the companions.
func (v *validator) resolverNames(keys map[string]bool) {
	k := v.k
	if len(k.CUDAStackPatterns) > 0 && k.CUDAStackPatternsSource == "" {
		at := v.at("cuda_stack_patterns", 0)
		v.errs = append(v.errs, &Error{File: at.File, Line: at.Line, Msg: "cuda_stack_patterns needs cuda_stack_patterns_source"})
	}
	seen := map[string]bool{}
	for i, p := range k.CUDAStackPatterns {
		if seen[p] {
			v.errf("cuda_stack_patterns", i, "duplicate %q", p)
		}
		seen[p] = true
	}
	seen = map[string]bool{}
	for i, p := range k.CUDAPackages {
		switch p.Kind {
		case "pytorch-cuda", "cuda-version", "cudatoolkit", "cuda-package":
		default:
			v.errf("cuda_packages", i, "kind %q is not pytorch-cuda, cuda-version, cudatoolkit or cuda-package", p.Kind)
		}
		if seen[p.Name] {
			v.errf("cuda_packages", i, "duplicate %q", p.Name)
		}
		seen[p.Name] = true
		v.source("cuda_packages", i, p.Source, keys)
	}
	seen = map[string]bool{}
	for i, c := range k.CUDAConsumers {
		if seen[c.Name] {
			v.errf("cuda_consumers", i, "duplicate %q", c.Name)
		}
		seen[c.Name] = true
		v.source("cuda_consumers", i, c.Source, keys)
	}
	seen = map[string]bool{}
	for i, c := range k.Companions {
		if seen[c.Framework] || len(c.Libs) == 0 {
			v.errf("companions", i, "framework %q is listed twice or has no libs", c.Framework)
		}
		seen[c.Framework] = true
		v.source("companions", i, c.Source, keys)
	}
}

// dottedReleaseRe is a plain dotted release (1.15.1).
var dottedReleaseRe = regexp.MustCompile(`^\d+(\.\d+)+$`)

// torchCommonArch checks a torch_conda_cuda_only row's common
// architectures: each a compute capability, given together with the span
// of releases they hold for (common_from … common_through, inside the
// row's releases) and the lowest architecture with code, which no common
// one may be below.
func (v *validator) torchCommonArch(i int, r TorchCondaCUDAOnly) {
	const t = "torch_conda_cuda_only"
	has := len(r.CommonSASS) > 0 || len(r.CommonPTX) > 0 || r.LowestCode != "" || r.CommonFrom != "" || r.CommonThrough != ""
	if !has {
		if len(r.EarlyPythons) > 0 {
			v.errf(t, i, "early_pythons needs common_from")
		}
		return
	}
	if r.CommonFrom == "" || r.CommonThrough == "" || r.LowestCode == "" || len(r.CommonSASS)+len(r.CommonPTX) == 0 {
		v.errf(t, i, "common_sass or common_ptx, lowest_code, common_from and common_through go together")
		return
	}
	v.version(t, i, "common_from", r.CommonFrom, releaseRe())
	v.version(t, i, "common_through", r.CommonThrough, releaseRe())
	if c, ok := CompareDotted(r.CommonFrom, r.CommonThrough); !ok || c > 0 {
		v.errf(t, i, "common_from %q is after common_through %q", r.CommonFrom, r.CommonThrough)
	}
	if c, ok := CompareDotted(r.CommonThrough, r.Before); !ok || c >= 0 {
		v.errf(t, i, "common_through %q is not before %q", r.CommonThrough, r.Before)
	}
	v.version(t, i, "lowest_code", r.LowestCode, ccRe())
	for _, field := range []struct {
		name string
		ccs  []string
	}{{"common_sass", r.CommonSASS}, {"common_ptx", r.CommonPTX}} {
		for _, cc := range field.ccs {
			v.version(t, i, field.name, cc, ccRe())
			if c, ok := CompareDotted(cc, r.LowestCode); ok && c < 0 {
				v.errf(t, i, "%s %q is below lowest_code %q", field.name, cc, r.LowestCode)
			}
		}
	}
	for _, p := range r.EarlyPythons {
		if !mmRe().MatchString(p) {
			v.errf(t, i, "early_pythons %q is not a Python minor", p)
		}
	}
}
