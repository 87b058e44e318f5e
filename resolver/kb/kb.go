package kb

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// KB answers questions from Facts.
type KB struct {
	Facts

	// positions holds, per table key, where each row was read (for errors).
	positions map[string][]pos
	// gpuKeys are the normalised GPU names and aliases, longest first,
	// built on the first GPUByName: normalising every name costs more than
	// the rest of a one-file validation, which names no GPU.
	gpuKeys *gpuIndex
	// latestTorch is LatestTorch, worked out once by index: the rules ask
	// for it for every environment.
	latestTorch string
	// version is a digest of the data files' names and bytes (of a
	// stacked KB: of its layers' names and versions).
	version string
	// layers are the layers Stack built the KB from, lowest first; nil for
	// one layer (the embedded KB, or a directory Load read, named by
	// baseName and basePath). layerOf holds, per table key, the index in
	// layers of each row's layer (nil: every row is of the one layer).
	layers             []Layer
	layerOf            map[string][]uint8
	baseName, basePath string
	// libIdx indexes GPULibs and CUDAStack, built on first use (a KB is
	// not changed once made).
	libIdx atomic.Pointer[libIndex]
	// memo holds answers derived from the KB alone (Memo), which live and
	// go with it.
	memo sync.Map
}

// Memo returns the answer compute gives for key, working it out once per
// KB: for questions whose answer depends on the knowledge base alone and
// that a caller asks of many environments (the builder judges thousands).
// key names the question and its arguments.
func (k *KB) Memo(key string, compute func() string) string {
	if v, ok := k.memo.Load(key); ok {
		return v.(string)
	}
	v := compute()
	k.memo.Store(key, v)
	return v
}

// Version identifies the data the KB was read from: a digest of its files'
// names and bytes, the same for the embedded snapshot as for the YAML it
// was made from. Caches of results key on it.
func (k *KB) Version() string { return k.version }

// Release returns the release entry for an exact torch version ("2.0.1");
// a local part ("2.0.1+cu118") is ignored.
func (k *KB) Release(version string) (*TorchRelease, bool) {
	v := stripLocal(version)
	for i := range k.Torch {
		if k.Torch[i].Version == v {
			r := k.Torch[i]
			return &r, true
		}
	}
	return nil, false
}

// Series returns the releases of a series ("2.0"), oldest first, in
// whatever order the data files list them.
func (k *KB) Series(series string) []TorchRelease {
	s := majorMinor(stripLocal(series))
	var out []TorchRelease
	for _, r := range k.Torch {
		if majorMinor(r.Version) == s {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		c, _ := CompareDotted(out[i].Version, out[j].Version)
		return c < 0
	})
	return out
}

// SeriesInfo returns what PyTorch's release matrix says about a series
// ("2.12"), including series whose exact releases the KB does not list.
func (k *KB) SeriesInfo(series string) (*TorchSeries, bool) {
	s := majorMinor(stripLocal(series))
	for i := range k.Facts.Series {
		if k.Facts.Series[i].Series == s {
			r := k.Facts.Series[i]
			return &r, true
		}
	}
	return nil, false
}

// LatestTorch returns the newest torch release known. The data files are
// merged in name order (torch-1x.yaml before torch.yaml), so the newest is
// looked for, not taken from the end of the table.
func (k *KB) LatestTorch() string {
	if k.latestTorch != "" {
		return k.latestTorch
	}
	return k.scanLatestTorch()
}

func (k *KB) scanLatestTorch() string {
	newest := ""
	for _, r := range k.Torch {
		if c, ok := CompareDotted(r.Version, newest); newest == "" || (ok && c > 0) {
			newest = r.Version
		}
	}
	return newest
}

// LatestSeries returns the newest series of the release matrix ("2.14"),
// whatever order the data files list them in.
func (k *KB) LatestSeries() string {
	newest := ""
	for _, s := range k.Facts.Series {
		if c, ok := CompareDotted(s.Series, newest); newest == "" || (ok && c > 0) {
			newest = s.Series
		}
	}
	return newest
}

// NewerThanKB reports whether a torch version is newer than every release
// the KB lists, so that a check can say "newer than the knowledge base"
// instead of guessing. Unparsable versions report false.
func (k *KB) NewerThanKB(version string) bool {
	c, ok := CompareDotted(stripLocal(version), k.LatestTorch())
	return ok && c > 0
}

// Variants returns the CUDA variants a distribution publishes for a series
// ("2.0"; "2.0.1" is read as its series).
func (k *KB) Variants(series string, dist Distribution) (*TorchVariants, bool) {
	s := majorMinor(stripLocal(series))
	for i := range k.TorchVariants {
		// A pointer into the table, not a copy: this runs for every rule
		// that asks, many times per file.
		if v := &k.TorchVariants[i]; v.Series == s && v.Dist == dist {
			return v, true
		}
	}
	return nil, false
}

// HasTorchVariants reports whether the torch_variants table has any row
// for a distribution: whether the knowledge base lists what it built.
func (k *KB) HasTorchVariants(dist Distribution) bool {
	for i := range k.TorchVariants {
		if k.TorchVariants[i].Dist == dist {
			return true
		}
	}
	return false
}

// Arch returns the architecture list of a build variant. A PyPI build is
// the wheel index's build of the same variant, so DistPyPI falls back to
// the DistWheel row. Rows with Known false are returned too: the caller
// must say it cannot decide. series may be a full release ("1.3.0"): a row
// for that release wins over the series row.
func (k *KB) Arch(series, cuda string, dist Distribution) (*ArchList, bool) {
	rel := stripLocal(strings.TrimSpace(series))
	s := majorMinor(rel)
	c := majorMinor(strings.TrimSpace(cuda))
	find := func(d Distribution) (*ArchList, bool) {
		var found *ArchList
		for i := range k.Facts.Arch {
			// Only PyTorch rows: TensorFlow's "2.15" would collide with torch series.
			a := &k.Facts.Arch[i]
			if a.Framework != "" || a.Series != s || a.CUDA != c || a.Dist != d {
				continue
			}
			switch a.Release {
			case rel:
				return a, true
			case "":
				found = a
			}
		}
		return found, found != nil
	}
	if a, ok := find(dist); ok {
		return a, true
	}
	if dist == DistPyPI {
		return find(DistWheel)
	}
	return nil, false
}

// Frameworks whose architecture rows FrameworkArch answers besides PyTorch.
const (
	FrameworkTensorFlow = "tensorflow"
	FrameworkJAX        = "jax"
)

// FrameworkArchRows is every architecture row of one framework's
// distribution (tensorflow, conda-forge), in file order.
func (k *KB) FrameworkArchRows(framework string, dist Distribution) []ArchList {
	var out []ArchList
	for _, a := range k.Facts.Arch {
		if a.Framework == framework && a.Dist == dist {
			out = append(out, a)
		}
	}
	return out
}

// FrameworkArch is Arch for any framework: pytorch rows as Arch answers, tensorflow and jax rows by framework, series and CUDA major.minor.
//
// framework "" / "pytorch" / "torch" is Arch itself. For "tensorflow",
// series is read as its major.minor ("2.15.1" → "2.15") and cuda as its
// major.minor; an empty cuda takes the series' row when it has only one.
// For "jax", series is the jaxlib or jax-cudaNN-plugin release ("0.4.30")
// and the row is the newest one at or below it for the CUDA major of cuda
// ("12.3" → 12). The dist argument is ignored for both (the pip wheel is
// the only official build, dist pypi) unless it is conda-forge and a
// conda-forge row exists, or it is defaults for tensorflow: then only a
// defaults row answers. Rows with Known false are returned too.
func (k *KB) FrameworkArch(framework, series, cuda string, dist Distribution) (*ArchList, bool) {
	fw := strings.ToLower(strings.TrimSpace(framework))
	switch fw {
	case "", "pytorch", "torch":
		return k.Arch(series, cuda, dist)
	case FrameworkTensorFlow:
		s := majorMinor(stripLocal(series))
		c := majorMinor(strings.TrimSpace(cuda))
		find := func(d Distribution) (*ArchList, bool) {
			var only *ArchList
			n := 0
			for i := range k.Facts.Arch {
				a := &k.Facts.Arch[i]
				if a.Framework != fw || a.Series != s || a.Dist != d {
					continue
				}
				if c != "" && a.CUDA == c {
					return a, true
				}
				only = a
				n++
			}
			if c == "" && n == 1 {
				return only, true
			}
			return nil, false
		}
		if dist == DistCondaForge {
			if a, ok := find(DistCondaForge); ok {
				return a, true
			}
		}
		if dist == DistDefaults {
			// defaults' tensorflow-gpu is compiled by Anaconda's recipe,
			// with a list of its own: the wheel's row does not speak for it.
			return find(DistDefaults)
		}
		return find(DistPyPI)
	case FrameworkJAX:
		v := stripLocal(series)
		major := strings.TrimSpace(cuda)
		if i := strings.IndexByte(major, '.'); i >= 0 {
			major = major[:i]
		}
		if v == "" || major == "" {
			return nil, false
		}
		find := func(d Distribution) (*ArchList, bool) {
			var best *ArchList
			for i := range k.Facts.Arch {
				a := &k.Facts.Arch[i]
				if a.Framework != fw || a.CUDA != major || a.Dist != d {
					continue
				}
				if c, ok := CompareDotted(a.Series, v); !ok || c > 0 {
					continue
				}
				if best == nil {
					best = a
				} else if c, ok := CompareDotted(a.Series, best.Series); ok && c > 0 {
					best = a
				}
			}
			return best, best != nil
		}
		if dist == DistCondaForge {
			if a, ok := find(DistCondaForge); ok {
				return a, true
			}
		}
		return find(DistPyPI)
	}
	return nil, false
}

// DriverFloor returns the minimum Linux driver of a CUDA release: the exact
// row for an update ("12.6.3") when NVIDIA lists one, otherwise the GA row
// of its major.minor ("11.6" → 510.39.01).
func (k *KB) DriverFloor(cuda string) (*CUDADriver, bool) {
	c := strings.TrimSpace(cuda)
	if _, ok := parseDotted(c); !ok {
		return nil, false
	}
	for i := range k.CUDADrivers {
		if k.CUDADrivers[i].CUDA == c {
			d := k.CUDADrivers[i]
			return &d, true
		}
	}
	mm := majorMinor(c)
	if mm == c {
		return nil, false
	}
	for i := range k.CUDADrivers {
		if k.CUDADrivers[i].CUDA == mm {
			d := k.CUDADrivers[i]
			return &d, true
		}
	}
	return nil, false
}

// ToolkitArch returns the architecture range of a CUDA toolkit release,
// by its major.minor ("12.4.1" → the 12.4 row); false when the table has
// no row for it (a release it does not list, or no version).
func (k *KB) ToolkitArch(cuda string) (*ToolkitArch, bool) {
	c := majorMinor(strings.TrimSpace(cuda))
	if !seriesRe().MatchString(c) {
		return nil, false
	}
	for i := range k.Facts.ToolkitArch {
		if k.Facts.ToolkitArch[i].CUDA == c {
			t := k.Facts.ToolkitArch[i]
			return &t, true
		}
	}
	return nil, false
}

// CompressionFloor returns the row saying which drivers load GPU code
// compressed this way ("zstd"); false where the table has none.
func (k *KB) CompressionFloor(compression string) (*FatbinCompression, bool) {
	for i := range k.Facts.FatbinCompression {
		if k.Facts.FatbinCompression[i].Compression == compression {
			f := k.Facts.FatbinCompression[i]
			return &f, true
		}
	}
	return nil, false
}

// MinorCompatFloor returns the minor-version-compatibility floor of a major.
func (k *KB) MinorCompatFloor(major int) (*MinorCompat, bool) {
	for i := range k.MinorCompat {
		if k.MinorCompat[i].Major == major {
			m := k.MinorCompat[i]
			return &m, true
		}
	}
	return nil, false
}

// DriverCUDA returns the newest CUDA major.minor a Linux driver version
// supports, from the driver table; "" when the driver does not parse or is
// older than every row, which is below the CUDA 8.0 GA floor (367.48): the
// table goes back to CUDA 8.0, so any driver of that floor or later maps to
// a version (384.81 → 9.0, 388.73 → 9.0, 390.46 → 9.1). Rows NVIDIA gives
// only as a branch (R610) count only for drivers of a later branch, so the
// answer never overstates.
func (k *KB) DriverCUDA(driver string) string {
	d, ok := parseDotted(strings.TrimSpace(driver))
	if !ok {
		return ""
	}
	best := ""
	for _, r := range k.CUDADrivers {
		if majorMinor(r.CUDA) != r.CUDA {
			continue // update rows: the GA row of the minor decides
		}
		var fits bool
		if r.BranchOnly {
			b, ok := parseDotted(r.LinuxMin)
			fits = ok && d[0] > b[0]
		} else {
			c, ok := CompareDotted(driver, r.LinuxMin)
			fits = ok && c >= 0
		}
		if !fits {
			continue
		}
		if c, _ := CompareDotted(r.CUDA, best); best == "" || c > 0 {
			best = r.CUDA
		}
	}
	return best
}

// TensorFlow returns the tested configuration of a TensorFlow version:
// the exact row, else the row of its series ("2.16.2" → the 2.16.1 row).
// TensorFlowConfigs lists the tested-build table's releases.
func (k *KB) TensorFlowConfigs() []TFConfig { return k.Facts.TensorFlow }

func (k *KB) TensorFlow(version string) (*TFConfig, bool) {
	v := stripLocal(version)
	for i := range k.Facts.TensorFlow {
		if k.Facts.TensorFlow[i].Version == v {
			t := k.Facts.TensorFlow[i]
			return &t, true
		}
	}
	s := majorMinor(v)
	for i := range k.Facts.TensorFlow {
		if majorMinor(k.Facts.TensorFlow[i].Version) == s {
			t := k.Facts.TensorFlow[i]
			return &t, true
		}
	}
	return nil, false
}

// JAXByMajor returns JAX's CUDA wheel flavour for a CUDA major.
func (k *KB) JAXByMajor(major int) (*JAXCuda, bool) {
	for i := range k.JAX {
		if k.JAX[i].Major == major {
			j := k.JAX[i]
			return &j, true
		}
	}
	return nil, false
}

// condaName drops a channel prefix ("conda-forge::cupy") and case.
func condaName(name string) string {
	// Most names arrive lower case and bare (the resolver lowers them):
	// one scan says so, instead of trimming, searching and lowering.
	bare := true
	for i := 0; i < len(name) && bare; i++ {
		c := name[i]
		bare = c > ' ' && c != ':' && c < 0x80 && (c < 'A' || c > 'Z')
	}
	if bare {
		return name
	}
	name = strings.TrimSpace(name)
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return strings.ToLower(name)
}

// LibByConda returns the GPU library a conda package name belongs to.
func (k *KB) LibByConda(name string) (*GPULib, bool) {
	if i, ok := k.libs().conda[condaName(name)]; ok {
		return &k.GPULibs[i], true
	}
	return nil, false
}

// LibByPip returns the GPU library a pip name belongs to. Names are
// compared in PEP 503 form, extras dropped; exact names win over patterns.
func (k *KB) LibByPip(name string) (*GPULib, bool) {
	n := pipName(name)
	if n == "" {
		return nil, false
	}
	idx := k.libs()
	if i, ok := idx.pipExact[n]; ok {
		return &k.GPULibs[i], true
	}
	for _, p := range idx.pipPatterns {
		if globMatchParts(p.parts, n) {
			return &k.GPULibs[p.lib], true
		}
	}
	return nil, false
}

// libIndex maps names to rows of GPULibs. Every pip and conda item of every
// file is looked up, several times, so the tables are indexed once per KB.
type libIndex struct {
	conda       map[string]int
	pipExact    map[string]int
	pipPatterns []pipPattern
	cudaStack   map[string]bool
	// cudaStackPatterns are CUDAStackPatterns split at their stars.
	cudaStackPatterns [][]string
	cudaPackages      map[string]string
	cudaConsumers     map[string]bool
	// extensions maps an extension's pip name, and its conda names as
	// written and normalised, to its row of Extensions.
	extensions map[string]int
	// cudaLibPip and cudaLibConda are CUDALibPackages' names, split at
	// their stars, in row order.
	cudaLibPip, cudaLibConda []pipPattern
}

// pipPattern is a pip name pattern split at its stars once, up front.
type pipPattern struct {
	parts []string
	lib   int
}

func (k *KB) libs() *libIndex {
	if idx := k.libIdx.Load(); idx != nil {
		return idx
	}
	idx := &libIndex{conda: map[string]int{}, pipExact: map[string]int{}, cudaStack: map[string]bool{}}
	for _, c := range k.CUDAStack {
		idx.cudaStack[c] = true
	}
	for _, p := range k.CUDAStackPatterns {
		idx.cudaStackPatterns = append(idx.cudaStackPatterns, strings.Split(p, "*"))
	}
	idx.cudaPackages = make(map[string]string, len(k.CUDAPackages))
	for _, p := range k.CUDAPackages {
		idx.cudaPackages[p.Name] = p.Kind
	}
	idx.cudaConsumers = make(map[string]bool, len(k.CUDAConsumers))
	for _, c := range k.CUDAConsumers {
		idx.cudaConsumers[c.Name] = true
	}
	// The first row that names a package wins, as the linear scan did.
	for i, l := range k.GPULibs {
		for _, c := range l.Conda {
			if _, dup := idx.conda[c]; !dup {
				idx.conda[c] = i
			}
		}
		for _, p := range l.Pip {
			if strings.Contains(p, "*") {
				idx.pipPatterns = append(idx.pipPatterns, pipPattern{strings.Split(p, "*"), i})
			} else if _, dup := idx.pipExact[p]; !dup {
				idx.pipExact[p] = i
			}
		}
	}
	idx.extensions = make(map[string]int, 2*len(k.Extensions))
	for i, e := range k.Extensions {
		for _, n := range append([]string{e.Name}, e.Conda...) {
			for _, key := range []string{n, pipName(n)} {
				if _, dup := idx.extensions[key]; !dup {
					idx.extensions[key] = i
				}
			}
		}
	}
	for i, l := range k.CUDALibPackages {
		for _, p := range l.Pip {
			idx.cudaLibPip = append(idx.cudaLibPip, pipPattern{strings.Split(p, "*"), i})
		}
		for _, c := range l.Conda {
			idx.cudaLibConda = append(idx.cudaLibConda, pipPattern{strings.Split(c, "*"), i})
		}
	}
	// Two first callers may both build it; they build the same index.
	k.libIdx.CompareAndSwap(nil, idx)
	return k.libIdx.Load()
}

// IsCUDAStack reports whether a conda package is part of a CUDA stack:
// one that cuda_stack names.
func (k *KB) IsCUDAStack(name string) bool {
	return k.libs().cudaStack[condaName(name)]
}

// InCUDAStack reports whether EG302 counts a conda package (a lower-case
// name) as the conda CUDA stack: cuda_stack names it, or it matches one of
// cuda_stack_patterns.
func (k *KB) InCUDAStack(name string) bool {
	idx := k.libs()
	if idx.cudaStack[condaName(name)] {
		return true
	}
	for _, p := range idx.cudaStackPatterns {
		if globMatchParts(p, name) {
			return true
		}
	}
	return false
}

// CUDAPackageKind says what a conda package's version says of the CUDA
// version (pytorch-cuda, cuda-version, cudatoolkit or cuda-package), ""
// for a package whose version is not a CUDA version.
func (k *KB) CUDAPackageKind(name string) string {
	return k.libs().cudaPackages[name]
}

// IsCUDAConsumer reports whether a conda package other than a framework
// links against the CUDA runtime conda installs.
func (k *KB) IsCUDAConsumer(name string) bool {
	return k.libs().cudaConsumers[name]
}

// CompanionsOf lists the libraries released in lockstep with a framework.
func (k *KB) CompanionsOf(framework string) []string {
	for _, c := range k.Companions {
		if c.Framework == framework {
			return c.Libs
		}
	}
	return nil
}

// TorchWheelIndexURL is the root of PyTorch's wheel index ("" when the
// knowledge base has none): a variant's index is the root plus its local
// version (cu121, cpu).
func (k *KB) TorchWheelIndexURL() string {
	if k == nil || len(k.Facts.TorchWheelIndex) == 0 {
		return ""
	}
	return k.Facts.TorchWheelIndex[0].URL
}

// CompanionGap returns the row saying which local variants of a companion
// release (torchvision 0.8.0) were never published; false where none is
// listed.
func (k *KB) CompanionGap(pkg, version string) (*CompanionGap, bool) {
	for i := range k.CompanionGaps {
		if g := k.CompanionGaps[i]; g.Package == pkg && g.Version == version {
			return &g, true
		}
	}
	return nil, false
}
