package kb

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The tables of GPU-code packages other than the frameworks (extensions.yaml,
// cudalibs.yaml): what each extension release was built for, which
// architectures each CUDA library release carries, which CUDA libraries a
// torch wheel pins and which C++ ABI each distribution's torch uses. A fact
// without a row is unknown; the rules then say so rather than guess.

// ABI names of the two C++ standard-library ABIs of libstdc++
// (_GLIBCXX_USE_CXX11_ABI=1 and =0).
const (
	ABICXX11    = "cxx11"
	ABIPreCXX11 = "pre-cxx11"
)

// Extension is a project with GPU code of its own beside the framework
// (flash-attn, xformers, vllm, torch-scatter, bitsandbytes, cupy, ...).
type Extension struct {
	Name  string   `yaml:"name"` // normalised pip name
	Conda []string `yaml:"conda,omitempty"`
	// Framework is the framework whose C++ or Python API it builds on:
	// torch, jax, tensorflow, or none (cupy).
	Framework string `yaml:"framework"`
	// TorchABI is true where the binary links libtorch's C++ API, so that
	// only the torch release and C++ ABI it was built against can load it.
	TorchABI bool `yaml:"torch_abi"`
	// RuntimePTX, where set, says why the package's kernels run only on a
	// driver that supports its build's CUDA release: it compiles them at
	// run time with that CUDA's NVRTC to PTX, which the driver loads, and
	// a driver loads no PTX of a newer ISA than its CUDA's (no
	// minor-version compatibility for PTX). Its rows' cuda lists are then
	// the NVRTC releases each build can load.
	RuntimePTX string `yaml:"runtime_ptx,omitempty"`
	// LocalVersion decodes a wheel's local version (after "+") with the
	// named groups cuda, torch and abi.
	LocalVersion string `yaml:"local_version,omitempty"`
	// IndexURL decodes an index or find-links URL with the named groups
	// torch and cuda.
	IndexURL string `yaml:"index_url,omitempty"`
	// MinCC is the lowest compute capability its GPU code runs on, where
	// the project states one.
	MinCC string `yaml:"min_cc,omitempty"`
	// FloorEveryRelease is true where the project states MinCC for every
	// release it has made (RAPIDS: Pascal or newer from the first release),
	// so that a GPU below it runs no release at all and is decided even
	// where the file leaves the release to the solver. Without it MinCC is
	// the floor of the releases without one of their own, and an unknown
	// release may be an older one with a lower floor (flash-attn 1.x).
	FloorEveryRelease bool `yaml:"floor_every_release,omitempty"`
	// NVCCMin lists, from a release on, the oldest CUDA toolkit any build
	// of the package can be made with, where its build refuses older ones
	// (TransformerEngine from 1.10: "CUDA 12.0+ is required"): a local or
	// unknown build of such a release carries nothing below what that
	// toolkit's major targets.
	NVCCMin []NVCCMin `yaml:"nvcc_min,omitempty"`
	// ArchUnknown says why no public source can give the GPU code of any
	// release (cuML's builds compile NVIDIA's private cumlprims_mg in), so
	// that the finding says so instead of only "no row", and does not ask
	// for a release the knowledge base could describe.
	ArchUnknown string `yaml:"arch_unknown,omitempty"`
	// JIT is true for a compiler that makes its GPU code on the machine
	// (triton): only MinCC decides whether a GPU can run it.
	JIT bool `yaml:"jit,omitempty"`
	// NVRTC is true for a package that compiles most of its kernels at
	// run time with the NVRTC of the CUDA its build uses (CuPy's
	// elementwise, reduction and raw kernels): on a GPU newer than that
	// NVRTC can target, the PTX the package ships does not decide it.
	NVRTC bool `yaml:"nvrtc,omitempty"`
	// NVRTCClampFrom is the first release known to cap the architecture it
	// asks NVRTC for at what that NVRTC compiles (CuPy's _get_arch), and
	// NVRTCIntCompareFrom the first that compares capabilities as numbers:
	// before it the cap compares strings, so a three-digit capability
	// ("120") passes uncapped and an NVRTC older than the GPU fails.
	NVRTCClampFrom      string `yaml:"nvrtc_clamp_from,omitempty"`
	NVRTCIntCompareFrom string `yaml:"nvrtc_int_compare_from,omitempty"`
	// NVRTCCubinFrom is the first release that has NVRTC compile machine
	// code (-arch=sm_XX) for the architecture it asks for rather than PTX,
	// in a build for CUDA NVRTCCubinCUDA or later: capped below a newer
	// GPU's major, that code does not run there.
	NVRTCCubinFrom string `yaml:"nvrtc_cubin_from,omitempty"`
	NVRTCCubinCUDA string `yaml:"nvrtc_cubin_cuda,omitempty"`
	// ToolkitLibs are the CUDA toolkit libraries the package links and
	// loads from the environment's toolkit (CuPy: cuBLAS, cuFFT, cuRAND,
	// cuSOLVER, cuSPARSE), each of that toolkit's release: their code
	// decides a GPU as much as the package's own.
	ToolkitLibs []string `yaml:"toolkit_libs,omitempty"`
	// CTKExtraFrom is the first release whose wheel declares the [ctk]
	// extra, which installs NVIDIA's CUDA wheels of its major beside it
	// (CuPy 14.0.0); an older release declares no extra that brings them.
	CTKExtraFrom string `yaml:"ctk_extra_from,omitempty"`
	// TorchCUDALib is true where one wheel carries a library per CUDA
	// release and loads the one named by torch's CUDA (bitsandbytes:
	// libbitsandbytes_cuda{torch.version.cuda}): the release's pypi rows
	// each describe one library, and torch's CUDA picks the row.
	TorchCUDALib bool `yaml:"torch_cuda_lib,omitempty"`
	// IndexSdistOnly is true where the package index carries only the
	// source (PyG's torch-scatter …): a pip install without the project's
	// own wheel page compiles it on the install machine, with that
	// machine's CUDA toolkit.
	IndexSdistOnly bool `yaml:"index_sdist_only,omitempty"`
	// SourceOnly is true where the project publishes no binary package at
	// all (NVIDIA's apex): every pip install compiles it on the install
	// machine, so no release row can say what GPU code it carries.
	SourceOnly bool `yaml:"source_only,omitempty"`
	// BuiltOnMachine is true where the package ships no prebuilt GPU code
	// of its own: its CUDA ops are compiled on the machine (deepspeed: at
	// first use with torch's C++ extension loader, or at install with
	// DS_BUILD_OPS=1) by the machine's nvcc, for the GPUs visible then or
	// TORCH_CUDA_ARCH_LIST. No release row can say what it carries.
	BuiltOnMachine bool `yaml:"built_on_machine,omitempty"`
	// SdistBuild, where set, is what the package index's source
	// distribution of its releases From … Through installs: its setup.py
	// first downloads the project's release wheel for the installed torch,
	// CUDA, C++ ABI and Python (release-asset rows), and otherwise compiles
	// with a default architecture list that always holds SASS. A GPU that
	// every release-asset row of the release and SASS both serve runs
	// whichever path pip takes.
	SdistBuild SdistBuild `yaml:"sdist_build,omitempty"`
	// CondaForgeBuild is conda-forge's package of the extension, built
	// against conda-forge's pytorch (PyG's pytorch_scatter): the project's
	// own wheels are built against PyTorch's own torch builds and fail to
	// import beside conda-forge's, so it is that package a hint names
	// beside a conda-forge torch. The names the extension is recognised
	// by among conda packages are Conda's.
	CondaForgeBuild string `yaml:"conda_forge_build,omitempty"`
	// CondaForgeReleases lists every release conda-forge has published of
	// the package (pre-releases, which go to a label, left out), and
	// CondaForgeCompleteFrom the first of them from which every linux_64
	// build has a conda-forge row: a conda-forge item that leaves the
	// release open is judged over the rows of each release its spec admits
	// (cupy>=12.0.0 beside cudatoolkit=11.8), and stays unknown where the
	// spec admits an older one.
	CondaForgeReleases     []string `yaml:"conda_forge_releases,omitempty"`
	CondaForgeCompleteFrom string   `yaml:"conda_forge_complete_from,omitempty"`
	// CondaForgeComplete lists releases before CondaForgeCompleteFrom (or
	// where there is none) that have a row for every linux_64 build too,
	// so that a spec admitting only such releases (openmm=7.7, whose one
	// main-label release is 7.7.0) is judged over them.
	CondaForgeComplete []string `yaml:"conda_forge_complete,omitempty"`
	// IndexReleases lists every release of the package on the package
	// index (pre-releases left out) up to the newest an index_releases row
	// names, and IndexCompleteFrom the first from which every release has
	// a pypi row for its Linux x86_64 wheel: a pip line that leaves the
	// release open is judged over the rows of each release its spec
	// admits (cupy-cuda12x>=13.0.0), as CondaForgeReleases does for conda.
	IndexReleases     []string `yaml:"index_releases,omitempty"`
	IndexCompleteFrom string   `yaml:"index_complete_from,omitempty"`
	Source            string   `yaml:"source"`
	Note              string   `yaml:"note,omitempty"`
}

// SdistBuild is an extension's source-distribution install behaviour.
type SdistBuild struct {
	From    string   `yaml:"from"`
	Through string   `yaml:"through"`
	SASS    []string `yaml:"sass"` // what the default source build always compiles
	// NVCCSASS is what the default build adds from an nvcc release on
	// (flash-attn: sm_90 from 11.8, sm_100 and sm_120 from 12.8).
	NVCCSASS []NVCCSASS `yaml:"nvcc_sass,omitempty"`
	// NVCCTorchMajor is true where the build goes through torch's
	// BuildExtension, whose CUDA check refuses an nvcc of another major
	// than torch.version.cuda: a build that happens was made by an nvcc of
	// torch's CUDA major, at least major.0, so each NVCCSASS row at or
	// below that is in it.
	NVCCTorchMajor bool   `yaml:"nvcc_torch_major,omitempty"`
	Source         string `yaml:"source"`
}

// NVCCMin is the oldest CUDA toolkit (major.minor) the package's build
// accepts from release From on.
type NVCCMin struct {
	From   string `yaml:"from"`
	CUDA   string `yaml:"cuda"`
	Source string `yaml:"source"`
}

// NVCCMinOf is the oldest CUDA toolkit any build of release version can
// have been made with, "" where no row says.
func (e *Extension) NVCCMinOf(version string) string {
	i := latestFrom(len(e.NVCCMin), func(i int) string { return e.NVCCMin[i].From }, nil, version)
	if i < 0 {
		return ""
	}
	return e.NVCCMin[i].CUDA
}

// latestFrom is the index of the row, of n, whose from(i) is the latest
// at or below version among those keep accepts (every row where keep is
// nil), -1 where none is: the row a release falls under in a table of
// "from this release on" rows.
func latestFrom(n int, from func(i int) string, keep func(i int) bool, version string) int {
	best := -1
	for i := range n {
		if keep != nil && !keep(i) {
			continue
		}
		if c, ok := CompareDotted(from(i), version); !ok || c > 0 {
			continue
		}
		if best < 0 {
			best = i
		} else if c, ok := CompareDotted(from(i), from(best)); ok && c > 0 {
			best = i
		}
	}
	return best
}

// NVCCSASS is the SASS a source build adds where its nvcc is From or
// newer.
type NVCCSASS struct {
	From string   `yaml:"from"` // an nvcc (CUDA) major.minor
	SASS []string `yaml:"sass"`
}

// SASSWithNVCCAtLeast is the SASS the default build carries whatever its
// nvcc, given that nvcc is at least floor (a CUDA major.minor): SASS and
// each NVCCSASS row at or below floor. floor "" gives SASS alone.
func (sb SdistBuild) SASSWithNVCCAtLeast(floor string) []string {
	out := append([]string(nil), sb.SASS...)
	if floor == "" {
		return out
	}
	for _, r := range sb.NVCCSASS {
		if c, ok := CompareDotted(r.From, floor); ok && c <= 0 {
			out = append(out, r.SASS...)
		}
	}
	return out
}

// ExtensionBuild is what one release of an extension, from one
// distribution, was built for.
type ExtensionBuild struct {
	Name    string `yaml:"name"`
	Version string `yaml:"version"`
	// Dist: pypi, release-asset, pytorch-index, pyg-index,
	// flashinfer-index (pip), or conda-forge, pytorch-channel (conda -c
	// pytorch), xformers-channel (conda -c xformers), rapidsai-channel,
	// pyg-channel, pytorch3d-channel or dglteam-channel; index-sdist is the
	// package index's source, which pip compiles on the install machine
	// against the torch the environment already has (DistIndexSdist).
	Dist string `yaml:"dist"`
	// Series, where true, makes Version a major.minor series ("23.08"):
	// the row holds for every release of it (23.08.00, 23.08.01), since
	// each was built from the same branch with the same flags; a file
	// that pins only the series (cudf==23.8.*, cudf=22.08) gets it too.
	Series bool `yaml:"series,omitempty"`
	// NoDeviceCode, with ArchKnown, says the build compiles no GPU code of
	// its own (a header-only library, or one built from host sources only
	// that calls the CUDA runtime): there is no kernel image to miss, so
	// only the extension's compute-capability floor decides a GPU.
	NoDeviceCode bool `yaml:"no_device_code,omitempty"`
	// Torch lists the torch releases ("2.5.1") or series ("2.6") the
	// builds were made against.
	Torch []string `yaml:"torch"`
	// TorchPin is true where the metadata pins torch exactly
	// (Requires-Dist torch==X).
	TorchPin  bool     `yaml:"torch_pin,omitempty"`
	CUDA      []string `yaml:"cuda,omitempty"` // variants: "12.4" or a major "12"
	ABI       []string `yaml:"abi,omitempty"`  // cxx11, pre-cxx11
	Python    []string `yaml:"python,omitempty"`
	SASS      []string `yaml:"sass,omitempty"`
	PTX       []string `yaml:"ptx,omitempty"`
	ArchKnown bool     `yaml:"arch_known,omitempty"`
	MinCC     string   `yaml:"min_cc,omitempty"`
	// DispatchBelowCC is where the release's own kernels stop: it selects
	// them by the GPU's compute capability from tables that end below
	// this one (xformers' memory-efficient attention, cutlassF/cutlassB:
	// "80 <= cc && cc < 90" in 0.0.17 … 0.0.19), so a GPU at or above it
	// finds no kernel to launch, whatever SASS or PTX the build carries.
	DispatchBelowCC string `yaml:"dispatch_below_cc,omitempty"`
	// SupportedCC lists the compute capabilities the project's own
	// support statement for the release names (NVIDIA's TensorRT support
	// matrix and release notes), for a library whose vendor describes it
	// by the GPUs it supports rather than by SASS and PTX lists (TensorRT
	// refuses a GPU its release does not support: "Unsupported SM",
	// "Target GPU SM 120 is not supported by this TensorRT release"). A
	// GPU of a listed compute capability runs the release; one below
	// MinCC fails; any other is left undecided, for the reason
	// UnlistedCC gives. Not with arch_known, sass, ptx or no_device_code.
	SupportedCC []string `yaml:"supported_cc,omitempty"`
	// UnlistedCC, with SupportedCC, says why a GPU at or above MinCC and
	// outside SupportedCC is not decided (a newer architecture the
	// release supports only under a condition the environment does not
	// fix, or one whose support the sources leave open).
	UnlistedCC string `yaml:"unlisted_cc,omitempty"`
	// ImportCUDACheck, on an index-sdist row, is how much of the CUDA
	// version the package compares at import between its own build and
	// torch.version.cuda, raising on a difference (a CPU build reads as
	// CUDA 0): "major.minor" or "major". Where it is major.minor, a build
	// that imports was compiled with torch's own CUDA, whatever nvcc the
	// install machine had; "" where the package makes no such check.
	ImportCUDACheck string `yaml:"import_cuda_check,omitempty"`
	// CUDAExact, on a conda row, says the build's run requirement pins
	// exactly the CUDA releases listed (cudatoolkit X.Y|X.Y.*, cuda-version
	// X.Y), so an environment of any other CUDA cannot install it; without
	// it the list may admit more than the build installs beside, never
	// less.
	CUDAExact bool `yaml:"cuda_exact,omitempty"`
	// CUDAFromMachine, on a pypi row, says the release loads the library
	// of the CUDA runtime its setup finds on the machine (bitsandbytes
	// before 0.41.0: cudaRuntimeGetVersion of the libcudart.so in
	// CONDA_PREFIX/lib, LD_LIBRARY_PATH or /usr/local/cuda/lib64), not the
	// one torch's CUDA names: the release's rows are every library the
	// wheel carries, any of which may load, so a GPU is decided only
	// where none of them carries code for it.
	CUDAFromMachine bool `yaml:"cuda_from_machine,omitempty"`
	// TorchRequires is the torch requirement the release's metadata
	// declares (setup.py install_requires, pyproject dependencies), in
	// specifier form (">=2.0,<3"); "any" for a bare torch, "none" where
	// it declares no torch, "" where it was not read. A release whose
	// requirement excludes the environment's torch would make pip replace
	// that torch, so hints do not propose it.
	TorchRequires string `yaml:"torch_requires,omitempty"`
	// OptionalOps, where set, says how the release treats its compiled
	// ops as optional: a failed load of them is caught at import, and the
	// package runs on without them (torchao 0.11.0: try/except around
	// torch.ops.load_library, logged at debug level). A build for another
	// torch, or one without code for the GPU, then fails only the calls to
	// those ops, which the job decides, not its import: no EG211 or EG410,
	// an EG409 the machine decides instead.
	OptionalOps string `yaml:"optional_ops,omitempty"`
	// BuiltOnMachine, where set, says how the release gets its GPU code
	// on the machine instead of shipping it (flashinfer-python from 0.3.0:
	// its kernels are compiled at first use or downloaded): what they
	// carry is the machine's to decide, not a fact a row could hold.
	BuiltOnMachine string `yaml:"built_on_machine,omitempty"`
	Source         string `yaml:"source"`
	Note           string `yaml:"note,omitempty"`
}

// AdmitsTorch reports whether the release's torch requirement admits a
// torch release, and whether that is known: a requirement that was not
// read, or does not parse, is not known.
func (b ExtensionBuild) AdmitsTorch(torch string) (admits, known bool) {
	switch b.TorchRequires {
	case "":
		return false, false
	case "any", "none":
		return true, true
	}
	ok, err := admitsSpec(b.TorchRequires, torch)
	if err != nil {
		return false, false
	}
	return ok, true
}

// pipBuildDist are the extension_builds distributions pip installs from
// (besides DistIndexSdist, whose rows obey rules of their own).
var pipBuildDist = map[string]bool{"pypi": true, "release-asset": true, "pytorch-index": true, "pyg-index": true, "flashinfer-index": true}

// CondaBuildChannel maps each conda distribution of extension_builds to
// the channel that serves it.
var CondaBuildChannel = map[string]string{
	"conda-forge": "conda-forge", "pytorch-channel": "pytorch", "xformers-channel": "xformers", "rapidsai-channel": "rapidsai",
	"pyg-channel": "pyg", "pytorch3d-channel": "pytorch3d", "dglteam-channel": "dglteam",
}

// DistIndexSdist is the extension_builds distribution of a package whose
// package-index release is its source alone: pip compiles it on the
// install machine, so a row of it describes what every such build shares
// (architecture flags its setup.py fixes, the check it makes at import).
const DistIndexSdist = "index-sdist"

// Import CUDA checks an index-sdist row may name.
const (
	ImportCUDAMajorMinor = "major.minor"
	ImportCUDAMajor      = "major"
)

// CUDALibArch says from which release a CUDA library carries code for a
// compute capability, and from which it no longer does.
type CUDALibArch struct {
	Lib string `yaml:"lib"` // cublas, cudnn, nccl, ...
	CC  string `yaml:"cc"`
	// Since is the first release with code for CC: the CUDA toolkit
	// release for the toolkit's own libraries, the library's own version
	// for cudnn, nccl and cusparselt.
	Since string `yaml:"since"`
	Until string `yaml:"until,omitempty"` // first release without it
	// CarriesThrough, with Until, is the last release known to carry code
	// for CC: the releases after it and before Until are neither known to
	// carry it nor known to lack it (no source read for them), so they
	// stay undecided where Until alone would count them as carrying it.
	CarriesThrough string `yaml:"carries_through,omitempty"`
	// NoneThrough is the last release known to carry no code of its own
	// for CC in a library that is not hardware forward compatible: no
	// release at or below it runs on a GPU of that compute capability
	// (cuDNN before 9.0.0 on a GPU newer than its support matrix lists).
	NoneThrough string `yaml:"none_through,omitempty"`
	// CUDA, where set, limits the row to builds of the library for a CUDA
	// toolkit release the condition admits (">=12.8"): one comparison
	// with a major.minor, read by ParseCUDACond. cuDNN's support matrix
	// lists Blackwell only beside CUDA 12.8 and later, and an NCCL build
	// carries the SASS its CUDA's compiler can make; a release number
	// alone says neither.
	CUDA   string `yaml:"cuda,omitempty"`
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}

// CUDACond is a cuda_lib_arch row's condition on the CUDA toolkit release
// of a library build: Op is one of >=, >, <=, < and ==, Version a
// major.minor.
type CUDACond struct {
	Op      string
	Version string
}

// ParseCUDACond reads a condition such as ">=12.8" (spaces allowed
// after the operator). It returns an error that names the bad part.
func ParseCUDACond(s string) (CUDACond, error) {
	t := strings.TrimSpace(s)
	var op string
	for _, o := range []string{">=", "<=", "==", ">", "<"} {
		if strings.HasPrefix(t, o) {
			op = o
			break
		}
	}
	if op == "" {
		return CUDACond{}, fmt.Errorf("cuda condition %q does not start with >=, >, <=, < or ==", s)
	}
	v := strings.TrimSpace(t[len(op):])
	if !cudaMinorRE.MatchString(v) {
		return CUDACond{}, fmt.Errorf("cuda condition %q: %q is not a CUDA major.minor such as 12.8", s, v)
	}
	return CUDACond{Op: op, Version: v}, nil
}

var (
	cudaMinorRE = regexp.MustCompile(`^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$`)
	cudaMajorRE = regexp.MustCompile(`^(0|[1-9]\d{0,2})$`)
)

// Holds reports whether a build for the CUDA release cuda ("12.8", or a
// major alone, "12") meets the condition. decided is false where cuda is
// empty or malformed, and where a major alone leaves it open (12 against
// >=12.8: 12.6 fails, 12.9 passes).
func (c CUDACond) Holds(cuda string) (holds, decided bool) {
	if cudaMinorRE.MatchString(cuda) {
		return c.test(compareMinor(cuda, c.Version)), true
	}
	if !cudaMajorRE.MatchString(cuda) {
		return false, false
	}
	// A major alone stands for each of its minors: the lowest, one above
	// any release, and, in the condition's own major, the minors around
	// its bound decide it when they all agree.
	points := []string{cuda + ".0", cuda + ".999"}
	if major, minor, _ := strings.Cut(c.Version, "."); major == cuda {
		m, _ := strconv.Atoi(minor)
		points = append(points, c.Version, major+"."+strconv.Itoa(m+1))
		if m > 0 {
			points = append(points, major+"."+strconv.Itoa(m-1))
		}
	}
	first := c.test(compareMinor(points[0], c.Version))
	for _, p := range points[1:] {
		if c.test(compareMinor(p, c.Version)) != first {
			return false, false
		}
	}
	return first, true
}

func (c CUDACond) test(cmp int) bool {
	switch c.Op {
	case ">=":
		return cmp >= 0
	case ">":
		return cmp > 0
	case "<=":
		return cmp <= 0
	case "<":
		return cmp < 0
	}
	return cmp == 0
}

// compareMinor compares two major.minor strings of cudaMinorRE's form.
func compareMinor(a, b string) int {
	am, an, _ := strings.Cut(a, ".")
	bm, bn, _ := strings.Cut(b, ".")
	for _, p := range [][2]string{{am, bm}, {an, bn}} {
		x, _ := strconv.Atoi(p[0])
		y, _ := strconv.Atoi(p[1])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// PinnedLib is one exact requirement of a framework wheel.
type PinnedLib struct {
	Name    string `yaml:"name"`
	Version string `yaml:"version"`
}

// TorchCUDALibs is the CUDA libraries one torch wheel variant pins.
type TorchCUDALibs struct {
	Torch  string      `yaml:"torch"`
	CUDA   string      `yaml:"cuda"`
	Dist   string      `yaml:"dist"` // wheel or pypi
	Libs   []PinnedLib `yaml:"libs"`
	Source string      `yaml:"source"`
	Note   string      `yaml:"note,omitempty"`
}

// TorchCXXABI is the C++ ABI of one distribution's torch builds over a
// range of releases.
type TorchCXXABI struct {
	Dist   string   `yaml:"dist"`
	From   string   `yaml:"from"`
	Until  string   `yaml:"until,omitempty"`
	CUDA   []string `yaml:"cuda,omitempty"` // only these variants; empty: all
	ABI    string   `yaml:"abi"`
	Source string   `yaml:"source"`
	Note   string   `yaml:"note,omitempty"`
}

// ExtensionByName returns the extension a pip or conda name (in any
// spelling PEP 503 folds together) names.
func (k *KB) ExtensionByName(name string) (*Extension, bool) {
	idx := k.libs()
	i, ok := idx.extensions[name]
	// The first row either spelling names wins, as a scan of the rows would.
	if j, ok2 := idx.extensions[pipName(name)]; ok2 && (!ok || j < i) {
		i, ok = j, true
	}
	if !ok {
		return nil, false
	}
	return &k.Extensions[i], true
}

// ExtensionBuildsOf returns every row for one release of an extension
// (a local version is ignored), in file order.
func (k *KB) ExtensionBuildsOf(name, version string) []ExtensionBuild {
	n, v := pipName(name), stripLocal(version)
	if e, ok := k.ExtensionByName(name); ok {
		// a conda name of the extension (pytorch-scatter, dgl-cuda10.1)
		// reaches the rows, which carry the extension's name
		n = e.Name
	}
	var out []ExtensionBuild
	for _, b := range k.ExtensionBuilds {
		if b.Name == n && (b.Version == v || b.Series && InSeries(v, b.Version)) {
			out = append(out, b)
		}
	}
	return out
}

// ExtensionSeriesBuilds returns the rows of an extension that hold for a
// whole major.minor series (series rows) of the series given ("23.8" or
// "23.08": the parts compare as numbers), in file order.
func (k *KB) ExtensionSeriesBuilds(name, series string) []ExtensionBuild {
	n := pipName(name)
	var out []ExtensionBuild
	for _, b := range k.ExtensionBuilds {
		if b.Name == n && b.Series && sameSeries(series, b.Version) {
			out = append(out, b)
		}
	}
	return out
}

// OptionalOpsBuild is the row of an extension release that treats its
// compiled ops as optional (ExtensionBuild.OptionalOps), if it has one.
func (k *KB) OptionalOpsBuild(name, version string) (*ExtensionBuild, bool) {
	for _, b := range k.ExtensionReleases(name) {
		if b.Version == version && b.OptionalOps != "" {
			return &b, true
		}
	}
	return nil, false
}

// InSeries reports whether a release (23.08.01, 23.8.0) belongs to a
// major.minor series (23.08), comparing the parts as numbers.
func InSeries(release, series string) bool {
	parts := strings.Split(release, ".")
	if len(parts) < 3 {
		return false
	}
	return sameSeries(parts[0]+"."+parts[1], series)
}

// sameSeries compares two major.minor series as numbers (23.8 = 23.08).
func sameSeries(a, b string) bool {
	if strings.Count(a, ".") != 1 || strings.Count(b, ".") != 1 {
		return false
	}
	c, ok := CompareDotted(a, b)
	return ok && c == 0
}

// ExtensionReleases returns every row of an extension, any release, in
// file order.
func (k *KB) ExtensionReleases(name string) []ExtensionBuild {
	n := pipName(name)
	var out []ExtensionBuild
	for _, b := range k.ExtensionBuilds {
		if b.Name == n {
			out = append(out, b)
		}
	}
	return out
}

// LatestExtension returns the newest release of an extension the KB has a
// build row for.
func (k *KB) LatestExtension(name string) string {
	n, best := pipName(name), ""
	for _, b := range k.ExtensionBuilds {
		if b.Name != n {
			continue
		}
		if best == "" {
			best = b.Version
		} else if c, ok := CompareDotted(best, b.Version); ok && c < 0 {
			best = b.Version
		}
	}
	return best
}

// CUDALibArchOf returns the rows of one library for one compute capability.
func (k *KB) CUDALibArchOf(lib, cc string) []CUDALibArch {
	var out []CUDALibArch
	for _, r := range k.CUDALibArch {
		if r.Lib == lib && r.CC == cc {
			out = append(out, r)
		}
	}
	return out
}

// TorchCUDALibsOf returns the pins of one torch release's CUDA variant.
func (k *KB) TorchCUDALibsOf(torch, cuda string) (*TorchCUDALibs, bool) {
	v := stripLocal(torch)
	for i := range k.TorchCUDALibs {
		if k.TorchCUDALibs[i].Torch == v && k.TorchCUDALibs[i].CUDA == cuda {
			return &k.TorchCUDALibs[i], true
		}
	}
	return nil, false
}

// PytorchChannelCuDNN is the cuDNN release a pytorch-channel build series
// for one CUDA variant was built with and copies into its package: the
// cudnn<X.Y.Z> of its build strings (py3.9_cuda11.3_cudnn8.2.0_0), which
// pytorch/builder reads from the libcudnn of the build's image.
type PytorchChannelCuDNN struct {
	Series string `yaml:"series"` // torch major.minor
	// Release, where set, limits the row to one release of the series
	// (1.7.0 and 1.7.1 of CUDA 11.0 carry cuDNN 8.0.3 and 8.0.5); a row
	// without it speaks for every release of the series.
	Release string `yaml:"release,omitempty"`
	CUDA    string `yaml:"cuda"` // the CUDA variant, major.minor
	// CuDNN is major.minor.patch, as the build string has it; a
	// torch_wheel_cudnn row may name only the series (8.0) where the build
	// image's cuDNN changed within it and no source says which it had.
	CuDNN string `yaml:"cudnn"`
	// Dist, in torch_wheel_cudnn only, names the pip distributions whose
	// build of the variant carries this cuDNN: wheel (the PyTorch wheel
	// index's +cuXYZ build) and pypi (the package index's plain torch,
	// where it is that same build); a pytorch_channel_cudnn row has none.
	Dist   []Distribution `yaml:"dist,omitempty"`
	Source string         `yaml:"source"`
	Note   string         `yaml:"note,omitempty"`
}

// PytorchChannelCuDNNOf returns the cuDNN a pytorch-channel build of a
// torch release (of series) for a CUDA variant loads, where the knowledge
// base knows: the row for that release, else the series' row.
func (k *KB) PytorchChannelCuDNNOf(series, release, cuda string) (*PytorchChannelCuDNN, bool) {
	return k.TorchCuDNNOf(DistPytorchConda, series, release, cuda)
}

// TorchCuDNNOf returns the cuDNN one distribution's torch build of a
// release (of series) for a CUDA variant carries, where the knowledge
// base knows: pytorch_channel_cudnn for the pytorch channel,
// torch_wheel_cudnn (rows that name dist) for the wheel index and the
// package index; the row for that release, else the series' row.
func (k *KB) TorchCuDNNOf(dist Distribution, series, release, cuda string) (*PytorchChannelCuDNN, bool) {
	var rows []PytorchChannelCuDNN
	switch dist {
	case DistPytorchConda:
		rows = k.PytorchChannelCuDNN
	case DistWheel, DistPyPI:
		rows = k.TorchWheelCuDNN
	}
	var found *PytorchChannelCuDNN
	for i := range rows {
		r := &rows[i]
		if r.Series != series || r.CUDA != cuda || dist != DistPytorchConda && !slices.Contains(r.Dist, dist) {
			continue
		}
		switch {
		case r.Release != "" && r.Release == release:
			return r, true
		case r.Release == "" && found == nil:
			found = r
		}
	}
	return found, found != nil
}

// CondaForgeTorchCuDNNOf is the cuDNN major conda-forge's pytorch build of
// a series for a CUDA variant requires, where the knowledge base has it.
func (k *KB) CondaForgeTorchCuDNNOf(series, cuda string) (*CondaForgeTorchCuDNN, bool) {
	for i := range k.CondaForgeTorchCuDNN {
		if r := &k.CondaForgeTorchCuDNN[i]; r.Series == series && slices.Contains(r.CUDA, cuda) {
			return r, true
		}
	}
	return nil, false
}

// DefaultsTorchCuDNNOf is the cuDNN the defaults channel's pytorch build
// of a release for a CUDA variant requires, where the knowledge base has it.
func (k *KB) DefaultsTorchCuDNNOf(release, cuda string) (*DefaultsTorchCuDNN, bool) {
	v := stripLocal(release)
	for i := range k.DefaultsTorchCuDNN {
		r := &k.DefaultsTorchCuDNN[i]
		lo, ok1 := CompareDotted(v, r.From)
		hi, ok2 := CompareDotted(v, r.Through)
		if ok1 && ok2 && lo >= 0 && hi <= 0 && slices.Contains(r.CUDA, cuda) {
			return r, true
		}
	}
	return nil, false
}

// CuDNNNewest is the newest cuDNN release NVIDIA built for one CUDA
// toolkit release: a build for that CUDA loads this release or an older
// one, whichever the file leaves open.
type CuDNNNewest struct {
	CUDA  string `yaml:"cuda"`  // major.minor
	CuDNN string `yaml:"cudnn"` // major.minor.patch
	// Oldest, where set, is the oldest cuDNN release NVIDIA built for that
	// CUDA: with CuDNN it bounds the releases such a build can load.
	Oldest string `yaml:"oldest,omitempty"`
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}

// NewestCuDNNFor returns the newest cuDNN built for a CUDA major.minor,
// where the knowledge base knows.
func (k *KB) NewestCuDNNFor(cuda string) (*CuDNNNewest, bool) {
	for i := range k.CuDNNNewest {
		if r := &k.CuDNNNewest[i]; r.CUDA == cuda {
			return r, true
		}
	}
	return nil, false
}

// CuDNNLastOfMajor is the last cuDNN release of one major, or of one
// minor series: a build that loads libcudnn.so.N gets a release at or below
// it, and cudnn=8.7 gets 8.7.0, the only 8.7 release NVIDIA published.
type CuDNNLastOfMajor struct {
	Major  string `yaml:"major"` // "7", or a series "8.7"
	Last   string `yaml:"last"`  // major.minor.patch
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}

// LastCuDNNOfMajor returns the last cuDNN release of a major ("7") or of
// a minor series ("8.7"), where the knowledge base knows.
func (k *KB) LastCuDNNOfMajor(major string) (*CuDNNLastOfMajor, bool) {
	for i := range k.CuDNNLastOfMajor {
		if r := &k.CuDNNLastOfMajor[i]; r.Major == major {
			return r, true
		}
	}
	return nil, false
}

// TorchABIOf returns the C++ ABI of a distribution's torch release and
// CUDA variant ("" for the CPU build), and the row that says so.
func (k *KB) TorchABIOf(dist, torch, cuda string) (*TorchCXXABI, bool) {
	v := stripLocal(torch)
	for i := range k.TorchCXXABIs {
		r := &k.TorchCXXABIs[i]
		if r.Dist != dist {
			continue
		}
		if c, ok := CompareDotted(v, r.From); !ok || c < 0 {
			continue
		}
		if r.Until != "" {
			if c, ok := CompareDotted(v, r.Until); !ok || c >= 0 {
				continue
			}
		}
		if len(r.CUDA) > 0 && !containsString(r.CUDA, cuda) {
			continue
		}
		return r, true
	}
	return nil, false
}

// gpuPackages checks extensions.yaml and cudalibs.yaml: every row cites a
// source, names and versions have their form, the regexps compile with the
// groups the decoders read, and each build names a known extension.
// IndexOtherProjectOf returns the index_name_other_project row of an
// extension name (matched after PEP 503 normalisation), where the package
// index's project of that name is another project.
func (k *KB) IndexOtherProjectOf(name string) (*IndexOtherProject, bool) {
	n := pipName(name)
	for i := range k.IndexOtherProjects {
		if pipName(k.IndexOtherProjects[i].Name) == n {
			return &k.IndexOtherProjects[i], true
		}
	}
	return nil, false
}

// HasRelease reports whether the index's project has the release, compared
// as PEP 440 versions where both parse (0.9.10.dev0 and 0.9.10dev are one
// release), else as written.
func (r *IndexOtherProject) HasRelease(version string) bool {
	for _, v := range r.Releases {
		if v == version {
			return true
		}
		if c, ok := CompareDotted(v, version); ok && c == 0 {
			return true
		}
	}
	return false
}

func (v *validator) gpuPackages(keys map[string]bool) {
	ver := regexp.MustCompile(`^\d+(\.\d+)*([a-z]+\d*)?(\.post\d+)?$`)
	cc := regexp.MustCompile(`^\d+\.\d+$`)
	known := map[string]bool{}
	for i, e := range v.k.Extensions {
		v.source("extensions", i, e.Source, keys)
		if (len(e.IndexReleases) == 0) != (e.IndexCompleteFrom == "") || e.IndexCompleteFrom != "" && !slices.Contains(e.IndexReleases, e.IndexCompleteFrom) {
			v.errf("extensions", i, "index_releases and index_complete_from go together, and index_complete_from %q must be one of the releases", e.IndexCompleteFrom)
		}
		for _, r := range e.CondaForgeComplete {
			if !slices.Contains(e.CondaForgeReleases, r) {
				v.errf("extensions", i, "conda_forge_complete: %q is not among conda_forge_releases", r)
			} else if len(v.k.ExtensionBuildsOf(e.Name, r)) == 0 {
				v.errf("extensions", i, "conda_forge_complete: %q has no extension_builds rows", r)
			}
		}
		for _, lib := range e.ToolkitLibs {
			if row, ok := v.k.CUDALibByName(lib); !ok || !row.Toolkit {
				v.errf("extensions", i, "toolkit_libs: %q is not a CUDA toolkit library (cuda_libs with toolkit: true)", lib)
			}
		}
		if e.Name == "" || pipName(e.Name) != e.Name {
			v.errf("extensions", i, "name %q is not a normalised pip name", e.Name)
		}
		if known[e.Name] {
			v.errf("extensions", i, "duplicate extension %s", e.Name)
		}
		known[e.Name] = true
		switch e.Framework {
		case "torch", "jax", "tensorflow", "none":
		default:
			v.errf("extensions", i, "framework %q is not torch, jax, tensorflow or none", e.Framework)
		}
		for field, expr := range map[string]string{"local_version": e.LocalVersion, "index_url": e.IndexURL} {
			if expr == "" {
				continue
			}
			re, err := regexp.Compile(expr)
			if err != nil {
				v.errf("extensions", i, "%s: %v", field, err)
				continue
			}
			names := strings.Join(re.SubexpNames(), " ")
			if !strings.Contains(names, "torch") && !strings.Contains(names, "cuda") {
				v.errf("extensions", i, "%s names neither a torch nor a cuda group", field)
			}
		}
		if e.MinCC != "" && !cc.MatchString(e.MinCC) {
			v.errf("extensions", i, "min_cc %q is not a compute capability", e.MinCC)
		}
		if e.FloorEveryRelease && e.MinCC == "" {
			v.errf("extensions", i, "floor_every_release without min_cc")
		}
		for _, r := range e.NVCCMin {
			v.source("extensions", i, r.Source, keys)
			v.version("extensions", i, "nvcc_min.from", r.From, ver)
			if strings.Count(r.CUDA, ".") != 1 {
				v.errf("extensions", i, "nvcc_min.cuda %q is not a CUDA major.minor", r.CUDA)
			}
		}
		if sb := e.SdistBuild; sb.From != "" || len(sb.SASS) > 0 {
			v.source("extensions", i, sb.Source, keys)
			v.version("extensions", i, "sdist_build.from", sb.From, ver)
			v.version("extensions", i, "sdist_build.through", sb.Through, ver)
			if len(sb.SASS) == 0 {
				v.errf("extensions", i, "sdist_build lists no sass")
			}
			for _, c := range sb.SASS {
				if !cc.MatchString(c) {
					v.errf("extensions", i, "sdist_build sass %q is not a compute capability", c)
				}
			}
			for _, r := range sb.NVCCSASS {
				if !cudaMinorRE.MatchString(r.From) {
					v.errf("extensions", i, "sdist_build nvcc_sass from %q is not a CUDA major.minor", r.From)
				}
				if len(r.SASS) == 0 {
					v.errf("extensions", i, "sdist_build nvcc_sass from %q lists no sass", r.From)
				}
				for _, c := range r.SASS {
					if !cc.MatchString(c) {
						v.errf("extensions", i, "sdist_build nvcc_sass sass %q is not a compute capability", c)
					}
				}
			}
		}
	}
	for i, r := range v.k.IndexOtherProjects {
		v.source("index_name_other_project", i, r.Source, keys)
		if !known[r.Name] {
			v.errf("index_name_other_project", i, "extension %q has no row in extensions", r.Name)
		}
		if r.What == "" || (len(r.Releases) == 0) != r.NoProject {
			v.errf("index_name_other_project", i, "what is required, and releases unless no_project (and not with it)")
		}
	}
	for i, b := range v.k.ExtensionBuilds {
		v.source("extension_builds", i, b.Source, keys)
		if !known[b.Name] {
			v.errf("extension_builds", i, "extension %q has no row in extensions", b.Name)
		}
		v.version("extension_builds", i, "version", b.Version, ver)
		if b.Series && !cc.MatchString(b.Version) {
			v.errf("extension_builds", i, "a series row's version %q is not major.minor", b.Version)
		}
		switch {
		case pipBuildDist[b.Dist] || CondaBuildChannel[b.Dist] != "":
			if b.ImportCUDACheck != "" {
				v.errf("extension_builds", i, "import_cuda_check is for %s rows, not %s", DistIndexSdist, b.Dist)
			}
		case b.Dist == DistIndexSdist:
			// A source build is made against whatever torch and nvcc the
			// install machine has: a row naming them would contradict it.
			if len(b.Torch) > 0 || len(b.CUDA) > 0 || len(b.ABI) > 0 {
				v.errf("extension_builds", i, "a %s row names no torch, cuda or abi: the install machine's decide them", DistIndexSdist)
			}
			switch b.ImportCUDACheck {
			case "", ImportCUDAMajorMinor, ImportCUDAMajor:
			default:
				v.errf("extension_builds", i, "import_cuda_check %q is not %s or %s", b.ImportCUDACheck, ImportCUDAMajorMinor, ImportCUDAMajor)
			}
		default:
			v.errf("extension_builds", i, "dist %q is not a known distribution", b.Dist)
		}
		for _, a := range b.ABI {
			if a != ABICXX11 && a != ABIPreCXX11 {
				v.errf("extension_builds", i, "abi %q is not %s or %s", a, ABICXX11, ABIPreCXX11)
			}
		}
		for _, c := range append(append([]string{}, b.SASS...), b.PTX...) {
			if !cc.MatchString(c) {
				v.errf("extension_builds", i, "architecture %q is not a compute capability", c)
			}
		}
		switch {
		case b.NoDeviceCode && (!b.ArchKnown || len(b.SASS) > 0 || len(b.PTX) > 0):
			v.errf("extension_builds", i, "no_device_code needs arch_known and no sass or ptx")
		case b.ArchKnown && !b.NoDeviceCode && len(b.SASS) == 0 && len(b.PTX) == 0:
			v.errf("extension_builds", i, "arch_known without sass or ptx (no_device_code says a build has none)")
		}
		switch b.TorchRequires {
		case "", "any", "none":
		default:
			if _, err := admitsSpec(b.TorchRequires, "1.0.0"); err != nil {
				v.errf("extension_builds", i, "torch_requires: %v", err)
			}
		}
		if b.CUDAFromMachine && (b.Dist != "pypi" || len(b.CUDA) == 0 || !b.ArchKnown) {
			v.errf("extension_builds", i, "cuda_from_machine is for a pypi row with its cuda and its architectures (arch_known)")
		}
		v.supportedCC(i, b, cc)
		if b.DispatchBelowCC != "" && (!cc.MatchString(b.DispatchBelowCC) || !b.ArchKnown) {
			v.errf("extension_builds", i, "dispatch_below_cc %q must be a compute capability, on a row whose architectures are known", b.DispatchBelowCC)
		}
	}
	for i, r := range v.k.CUDALibArch {
		v.source("cuda_lib_arch", i, r.Source, keys)
		if !cc.MatchString(r.CC) {
			v.errf("cuda_lib_arch", i, "cc %q is not a compute capability", r.CC)
		}
		if r.Since == "" && r.Until == "" && r.NoneThrough == "" {
			v.errf("cuda_lib_arch", i, "none of since, until and none_through is set")
		}
		if c, ok := CompareDotted(r.CarriesThrough, r.Until); r.CarriesThrough != "" && (r.Until == "" || !ok || c >= 0) {
			v.errf("cuda_lib_arch", i, "carries_through %s needs an until after it", r.CarriesThrough)
		}
		if r.CUDA != "" {
			if _, err := ParseCUDACond(r.CUDA); err != nil {
				v.errf("cuda_lib_arch", i, "%v", err)
			}
		}
	}
	for i, t := range v.k.TorchCUDALibs {
		v.torchCUDALibs(i, t, keys, ver)
	}
	for i, l := range v.k.CUDALibPackages {
		v.source("cuda_lib_packages", i, l.Source, keys)
		if l.Lib == "" || len(l.Pip)+len(l.Conda) == 0 {
			v.errf("cuda_lib_packages", i, "lib and at least one package name are required")
		}
		if len(l.Releases) > 0 && !l.Toolkit {
			v.errf("cuda_lib_packages", i, "releases pair a toolkit library's versions with their toolkit; %s is not a toolkit library", l.Lib)
		}
		for _, r := range l.Releases {
			if r.Version == "" || strings.Count(r.CUDA, ".") != 1 {
				v.errf("cuda_lib_packages", i, "release %q of %s needs a version and a CUDA major.minor, not %q", r.Version, l.Lib, r.CUDA)
			}
		}
	}
	for i, r := range v.k.PytorchChannelCuDNN {
		v.source("pytorch_channel_cudnn", i, r.Source, keys)
		if strings.Count(r.CuDNN, ".") != 2 || strings.Count(r.Series, ".") != 1 || strings.Count(r.CUDA, ".") != 1 ||
			r.Release != "" && !strings.HasPrefix(r.Release, r.Series+".") {
			v.errf("pytorch_channel_cudnn", i, "series %q, release %q, cuda %q and cudnn %q must be major.minor, a release of the series or empty, major.minor and major.minor.patch", r.Series, r.Release, r.CUDA, r.CuDNN)
		}
	}
	for i, r := range v.k.PytorchChannelCuDNN {
		if len(r.Dist) > 0 {
			v.errf("pytorch_channel_cudnn", i, "dist is for torch_wheel_cudnn rows; a pytorch_channel_cudnn row is the pytorch channel's")
		}
	}
	for i, r := range v.k.TorchWheelCuDNN {
		const table = "torch_wheel_cudnn"
		v.source(table, i, r.Source, keys)
		if n := strings.Count(r.CuDNN, "."); n < 1 || n > 2 || strings.Count(r.Series, ".") != 1 || strings.Count(r.CUDA, ".") != 1 ||
			r.Release != "" && !strings.HasPrefix(r.Release, r.Series+".") {
			v.errf(table, i, "series %q, release %q, cuda %q and cudnn %q must be major.minor, a release of the series or empty, major.minor and major.minor.patch (or major.minor where only the series is known)", r.Series, r.Release, r.CUDA, r.CuDNN)
		}
		if len(r.Dist) == 0 {
			v.errf(table, i, "dist is empty: name %s, %s or both", DistWheel, DistPyPI)
		}
		for _, d := range r.Dist {
			if d != DistWheel && d != DistPyPI {
				v.errf(table, i, "dist %q is not %s or %s", d, DistWheel, DistPyPI)
				continue
			}
			if vs, ok := v.k.Variants(r.Series, d); !ok || !containsString(vs.CUDA, r.CUDA) {
				v.errf(table, i, "cuda %q is not a CUDA variant of torch %s on %s (torch_variants)", r.CUDA, r.Series, d)
			}
		}
	}
	for i, r := range v.k.CondaForgeTorchCuDNN {
		v.source("conda_forge_torch_cudnn", i, r.Source, keys)
		if r.Major != "8" && r.Major != "9" || len(r.CUDA) == 0 || strings.Count(r.Series, ".") != 1 {
			v.errf("conda_forge_torch_cudnn", i, "series must be major.minor, cuda non-empty and cudnn_major 8 or 9")
		}
	}
	for i, r := range v.k.CompanionTorchBuild {
		v.source("companion_torch_build", i, r.Source, keys)
		if r.Name == "" || len(r.Prefixes) == 0 || len(r.Excludes) == 0 || strings.Count(r.From, ".") < 1 {
			v.errf("companion_torch_build", i, "name, prefixes, excludes and a from release are required")
		}
	}
	for i, r := range v.k.PythonFloors {
		v.source("python_floors", i, r.Source, keys)
		if len(r.Names) == 0 || r.Dist == "" || strings.Count(r.From, ".") < 1 || strings.Count(r.PythonMin, ".") != 1 {
			v.errf("python_floors", i, "names, a dist, a from release and a major.minor python_min are required")
		}
		for _, n := range r.Names {
			if _, ok := v.k.ExtensionByName(n); !ok {
				v.errf("python_floors", i, "%q is no extension", n)
			}
		}
	}
	for i, r := range v.k.MPSVariables {
		v.source("mps_variables", i, r.Source, keys)
		if !strings.HasPrefix(r.Name, "PYTORCH_") || strings.ToUpper(r.Name) != r.Name {
			v.errf("mps_variables", i, "name %q must be an upper-case PYTORCH_ variable", r.Name)
		}
	}
	for i, r := range v.k.ChannelBuildCode {
		v.source("channel_build_code", i, r.Source, keys)
		if r.Name == "" || r.Channel == "" || strings.Count(r.CUDAFrom, ".") != 1 || (r.CUDABelow != "" && strings.Count(r.CUDABelow, ".") != 1) || len(r.SASS)+len(r.PTX) == 0 || r.Built == "" {
			v.errf("channel_build_code", i, "name, channel, a CUDA major.minor cuda_from (and cuda_below where set), some code and built are required")
		} else if c, ok := CompareDotted(r.CUDAFrom, r.CUDABelow); r.CUDABelow != "" && (!ok || c >= 0) {
			v.errf("channel_build_code", i, "cuda_from %q is not below cuda_below %q", r.CUDAFrom, r.CUDABelow)
		}
		if _, ok := v.k.ExtensionByName(r.Name); !ok {
			v.errf("channel_build_code", i, "%q is no extension of the extensions table", r.Name)
		}
	}
	for i, r := range v.k.CondaForgeCUDAFloat {
		v.source("conda_forge_cuda_float", i, r.Source, keys)
		if strings.Count(r.From, ".") != 1 || r.Requirement == "" {
			v.errf("conda_forge_cuda_float", i, "from %q must be a CUDA major.minor and requirement non-empty", r.From)
		}
	}
	for i, r := range v.k.DefaultsTorchCuDNN {
		v.source("defaults_torch_cudnn", i, r.Source, keys)
		c, ok := CompareDotted(r.From, r.Through)
		if !ok || c > 0 || len(r.CUDA) == 0 || strings.Count(r.HostCuDNN, ".") < 2 {
			v.errf("defaults_torch_cudnn", i, "from %q must be a release no later than through %q, cuda non-empty and host_cudnn a full release", r.From, r.Through)
		}
	}
	for i, r := range v.k.CuDNNNewest {
		v.source("cudnn_newest", i, r.Source, keys)
		if strings.Count(r.CuDNN, ".") != 2 || strings.Count(r.CUDA, ".") != 1 {
			v.errf("cudnn_newest", i, "cuda %q and cudnn %q must be major.minor and major.minor.patch", r.CUDA, r.CuDNN)
		}
		if r.Oldest != "" {
			if c, ok := CompareDotted(r.Oldest, r.CuDNN); strings.Count(r.Oldest, ".") != 2 || !ok || c > 0 {
				v.errf("cudnn_newest", i, "oldest %q must be a major.minor.patch no newer than cudnn %q", r.Oldest, r.CuDNN)
			}
		}
	}
	for i, r := range v.k.CuDNNLastOfMajor {
		v.source("cudnn_last_of_major", i, r.Source, keys)
		if strings.Count(r.Major, ".") > 1 || strings.Count(r.Last, ".") != 2 || !strings.HasPrefix(r.Last, r.Major+".") {
			v.errf("cudnn_last_of_major", i, "major %q and last %q must be a major (or major.minor) and a major.minor.patch of it", r.Major, r.Last)
		}
	}
	for i, a := range v.k.TorchCXXABIs {
		v.source("torch_cxx_abi", i, a.Source, keys)
		if a.ABI != ABICXX11 && a.ABI != ABIPreCXX11 {
			v.errf("torch_cxx_abi", i, "abi %q is not %s or %s", a.ABI, ABICXX11, ABIPreCXX11)
		}
	}
}

// torchCUDALibs checks one torch_cuda_libs row: a torch release the KB
// lists, a CUDA variant its series publishes on the distribution named
// (a row for a build that does not exist could never be looked up, and
// most likely misreads its source), and exact, distinct pins.
func (v *validator) torchCUDALibs(i int, t TorchCUDALibs, keys map[string]bool, ver *regexp.Regexp) {
	const table = "torch_cuda_libs"
	v.source(table, i, t.Source, keys)
	if _, ok := v.k.Release(t.Torch); !ok || stripLocal(t.Torch) != t.Torch {
		v.errf(table, i, "torch %q is not a release in the torch table", t.Torch)
	}
	dist := Distribution(t.Dist)
	switch dist {
	case DistWheel, DistPyPI:
		series := majorMinor(t.Torch)
		if vs, ok := v.k.Variants(series, dist); !ok || !containsString(vs.CUDA, t.CUDA) {
			var have []string
			if ok {
				have = vs.CUDA
			}
			v.errf(table, i, "cuda %q is not a CUDA variant of torch %s on %s (torch_variants lists %s)", t.CUDA, series, dist, strings.Join(have, ", "))
		}
	default:
		v.errf(table, i, "dist %q is not %s or %s", t.Dist, DistWheel, DistPyPI)
	}
	if len(t.Libs) == 0 {
		v.errf(table, i, "libs is empty")
	}
	seen := map[string]bool{}
	for _, l := range t.Libs {
		n := pipName(l.Name)
		if l.Name == "" || seen[n] {
			v.errf(table, i, "lib %q is empty or listed twice", l.Name)
		}
		seen[n] = true
		v.version(table, i, "version of "+l.Name, l.Version, ver)
	}
}

// CUDALibPackage names the pip and conda packages that ship one CUDA
// library (cudalib-packages.yaml).
type CUDALibPackage struct {
	Lib   string   `yaml:"lib"`
	Pip   []string `yaml:"pip,omitempty"` // a * matches any run of characters
	Conda []string `yaml:"conda,omitempty"`
	// Toolkit is true for the CUDA toolkit's own libraries, whose
	// releases follow the toolkit's (cuBLAS 12.6.4.1 is CUDA 12.6's).
	Toolkit bool `yaml:"toolkit,omitempty"`
	// VersionFollowsToolkit lists the CUDA majors in which the library's
	// own version starts with the toolkit release it shipped in (cuBLAS
	// 12.6.4.1 in CUDA 12.6), so that a pinned package names its toolkit.
	VersionFollowsToolkit []string `yaml:"version_follows_toolkit,omitempty"`
	// Releases pairs library releases whose own version does not name
	// their toolkit (cuBLAS 11.11.3.6) with the toolkit release they
	// shipped in (CUDA 11.8).
	Releases []ToolkitLibRelease `yaml:"releases,omitempty"`
	Source   string              `yaml:"source"`
	Note     string              `yaml:"note,omitempty"`
}

// ToolkitLibRelease is one release of a toolkit library and the CUDA
// toolkit release (major.minor) it shipped in.
type ToolkitLibRelease struct {
	Version string `yaml:"version"`
	CUDA    string `yaml:"cuda"`
}

// ToolkitOf is the CUDA toolkit release (major.minor) a library release
// shipped in, where the library's row pairs them.
func (l *CUDALibPackage) ToolkitOf(version string) (string, bool) {
	for _, r := range l.Releases {
		if r.Version == version {
			return r.CUDA, true
		}
	}
	return "", false
}

// LibToolkitOf is the CUDA toolkit release (major.minor) a release of a
// toolkit library shipped in: the library's own releases rows, else the
// CUDA of the torch wheel builds that pin that release (PyTorch pins each
// CUDA variant's own toolkit wheels: torch 2.2.0+cu121 pins
// nvidia-curand-cu12 10.3.2.106 beside the 12.1 runtime), where every
// such build has one CUDA. Review forty-four F40: 011's libcurand
// 10.3.2.106 read as of an unknown toolkit.
func (k *KB) LibToolkitOf(lib, version string) (string, bool) {
	row, ok := k.CUDALibByName(lib)
	if !ok || !row.Toolkit {
		return "", false
	}
	if cu, ok := row.ToolkitOf(version); ok {
		return cu, true
	}
	found := ""
	for _, t := range k.TorchCUDALibs {
		for _, l := range t.Libs {
			if l.Version != version {
				continue
			}
			if cl, ok := k.CUDALibOf(l.Name, true); !ok || cl.Lib != lib {
				continue
			}
			if found != "" && found != t.CUDA {
				return "", false
			}
			found = t.CUDA
		}
	}
	return found, found != ""
}

// CUDALibOf names the CUDA library a package ships (cublas for
// nvidia-cublas-cu12 and libcublas).
func (k *KB) CUDALibOf(name string, pip bool) (*CUDALibPackage, bool) {
	idx := k.libs()
	n, pats := name, idx.cudaLibConda
	if pip {
		n, pats = pipName(name), idx.cudaLibPip
	}
	for _, p := range pats {
		if globMatchParts(p.parts, n) {
			return &k.CUDALibPackages[p.lib], true
		}
	}
	return nil, false
}

// CUDALibByName returns the row of a library by its name (cublas).
func (k *KB) CUDALibByName(lib string) (*CUDALibPackage, bool) {
	for i := range k.CUDALibPackages {
		if k.CUDALibPackages[i].Lib == lib {
			return &k.CUDALibPackages[i], true
		}
	}
	return nil, false
}

// NormalizeName is a pip requirement's name in PEP 503 form, extras
// dropped.
func NormalizeName(name string) string { return pipName(name) }

// admitsSpec reports whether a requirement of comma-joined clauses, each
// an operator (>=, >, <=, <, ==, !=) and a dotted release (">=2.0,<3"),
// admits a dotted release. An error names the part that does not parse;
// a release that is not dotted (a local or pre-release part) is an error
// too, so that nothing is admitted by a guess.
func admitsSpec(spec, v string) (bool, error) {
	v, _, _ = strings.Cut(v, "+")
	if _, ok := parseDotted(v); !ok {
		return false, fmt.Errorf("release %q is not a dotted release", v)
	}
	for _, cl := range strings.Split(spec, ",") {
		cl = strings.TrimSpace(cl)
		var op string
		for _, o := range []string{">=", "<=", "==", "!=", ">", "<"} {
			if strings.HasPrefix(cl, o) {
				op = o
				break
			}
		}
		if op == "" {
			return false, fmt.Errorf("requirement %q: clause %q has no operator >=, >, <=, <, == or !=", spec, cl)
		}
		c, ok := CompareDotted(v, strings.TrimSpace(cl[len(op):]))
		if !ok {
			return false, fmt.Errorf("requirement %q: clause %q is not an operator and a dotted release", spec, cl)
		}
		var in bool
		switch op {
		case ">=":
			in = c >= 0
		case "<=":
			in = c <= 0
		case "==":
			in = c == 0
		case "!=":
			in = c != 0
		case ">":
			in = c > 0
		case "<":
			in = c < 0
		}
		if !in {
			return false, nil
		}
	}
	return true, nil
}

// supportedCC checks an extension_builds row's supported_cc and
// unlisted_cc: compute capabilities, none below the row's min_cc, which
// they need, and never beside a SASS/PTX description of the same build.
func (v *validator) supportedCC(i int, b ExtensionBuild, cc *regexp.Regexp) {
	if len(b.SupportedCC) == 0 {
		if b.UnlistedCC != "" {
			v.errf("extension_builds", i, "unlisted_cc without supported_cc")
		}
		return
	}
	if b.ArchKnown || b.NoDeviceCode || len(b.SASS) > 0 || len(b.PTX) > 0 {
		v.errf("extension_builds", i, "supported_cc is for a release described by the GPUs it supports, not beside arch_known, sass, ptx or no_device_code")
	}
	if b.MinCC == "" {
		v.errf("extension_builds", i, "supported_cc without min_cc (the floor below which no GPU runs the release)")
	}
	if b.UnlistedCC == "" {
		v.errf("extension_builds", i, "supported_cc without unlisted_cc (why a GPU outside the list is not decided)")
	}
	seen := map[string]bool{}
	for _, c := range b.SupportedCC {
		if !cc.MatchString(c) {
			v.errf("extension_builds", i, "supported_cc %q is not a compute capability", c)
			continue
		}
		if seen[c] {
			v.errf("extension_builds", i, "supported_cc lists %s twice", c)
		}
		seen[c] = true
		if b.MinCC != "" {
			if cmp, ok := CompareDotted(c, b.MinCC); ok && cmp < 0 {
				v.errf("extension_builds", i, "supported_cc %s is below min_cc %s", c, b.MinCC)
			}
		}
	}
}

// MPSVariable returns the mps_variables row of an environment variable.
func (k *KB) MPSVariable(name string) (*MPSVariable, bool) {
	for i := range k.MPSVariables {
		if k.MPSVariables[i].Name == name {
			return &k.MPSVariables[i], true
		}
	}
	return nil, false
}

// ChannelBuildCodeOf returns the channel_build_code rows of an extension
// on a channel, in CUDA order; none where the channel's builds are not
// described as a whole.
func (k *KB) ChannelBuildCodeOf(name, channel string) []ChannelBuildCode {
	var out []ChannelBuildCode
	for _, r := range k.ChannelBuildCode {
		if r.Name == name && r.Channel == channel {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b ChannelBuildCode) int { c, _ := CompareDotted(a.CUDAFrom, b.CUDAFrom); return c })
	return out
}

// Admits reports whether the row covers builds for CUDA cuda ("11.8").
func (r ChannelBuildCode) Admits(cuda string) bool {
	lo, ok := CompareDotted(cuda, r.CUDAFrom)
	if !ok || lo < 0 {
		return false
	}
	if r.CUDABelow == "" {
		return true
	}
	hi, ok := CompareDotted(cuda, r.CUDABelow)
	return ok && hi < 0
}

// CondaForgeCUDAFloatOf is the conda_forge_cuda_float rule for a package
// built with nvcc of CUDA cuda (major.minor): the row of its major whose
// From is the latest at or below it; false where none is.
func (k *KB) CondaForgeCUDAFloatOf(cuda string) (*CondaForgeCUDAFloat, bool) {
	major, _, _ := strings.Cut(cuda, ".")
	rows := k.CondaForgeCUDAFloat
	i := latestFrom(len(rows), func(i int) string { return rows[i].From }, func(i int) bool {
		m, _, _ := strings.Cut(rows[i].From, ".")
		return m == major
	}, cuda)
	if i < 0 {
		return nil, false
	}
	return &rows[i], true
}

// CompanionTorchBuildOf is the companion_torch_build row of a companion
// release on a distribution, false where none holds (an older release, or
// a release not known).
func (k *KB) CompanionTorchBuildOf(dist Distribution, name, version string) (*CompanionTorchBuild, bool) {
	for i := range k.CompanionTorchBuild {
		r := &k.CompanionTorchBuild[i]
		if r.Dist != dist || r.Name != name {
			continue
		}
		if c, ok := CompareDotted(version, r.From); ok && c >= 0 {
			return r, true
		}
	}
	return nil, false
}

// CondaForgeCompleteRelease says whether every linux_64 conda-forge build
// of release v has a row: v is one conda_forge_releases lists, at or after
// conda_forge_complete_from or named in conda_forge_complete.
func (e *Extension) CondaForgeCompleteRelease(v string) bool {
	if !slices.Contains(e.CondaForgeReleases, v) {
		return false
	}
	if slices.Contains(e.CondaForgeComplete, v) {
		return true
	}
	if e.CondaForgeCompleteFrom == "" {
		return false
	}
	c, ok := CompareDotted(v, e.CondaForgeCompleteFrom)
	return ok && c >= 0
}

// PythonFloorOf is the oldest Python dist's builds of release version of
// the package install on, from the python_floors row it falls under; ok
// is false where no row covers it.
func (k *KB) PythonFloorOf(name string, dist Distribution, version string) (string, bool) {
	i := latestFrom(len(k.PythonFloors), func(i int) string { return k.PythonFloors[i].From },
		func(i int) bool {
			r := &k.PythonFloors[i]
			return r.Dist == dist && slices.Contains(r.Names, name)
		}, version)
	if i < 0 {
		return "", false
	}
	return k.PythonFloors[i].PythonMin, true
}
