// Package kb is envguard's knowledge base: the facts that change with every
// release (PyTorch ↔ companions ↔ Python ↔ CUDA variants, the architectures
// each build carries, CUDA ↔ minimum driver, GPU ↔ compute capability,
// TensorFlow's tested configurations, the GPU libraries on each side of
// pip/conda). Every fact carries the public source it was read from; the
// whole carries a date. The data lives in embedded YAML files, and Load reads
// a newer copy from a directory without a rebuild (--kb DIR).
package kb

// Distribution is where a framework build comes from.
type Distribution string

const (
	DistPytorchConda Distribution = "pytorch-channel" // conda -c pytorch (with pytorch-cuda / cudatoolkit)
	DistWheel        Distribution = "wheel"           // PyTorch's own pip index (/whl/cu118, /whl/cpu)
	DistPyPI         Distribution = "pypi"            // plain `pip install torch` from PyPI
	DistCondaForge   Distribution = "conda-forge"     // conda-forge pytorch (cuda-version, cudaXYZ builds)
	DistDefaults     Distribution = "defaults"        // the defaults channel's pytorch (cudaXYpy… builds, _pytorch_select)
)

// TorchRelease is one PyTorch release (2.0.1) with its companions.
type TorchRelease struct {
	Version     string   `yaml:"version"` // full release, e.g. "2.0.1"
	Torchvision string   `yaml:"torchvision"`
	Torchaudio  string   `yaml:"torchaudio"` // "" where no matching torchaudio was released
	Python      []string `yaml:"python"`     // supported minors, e.g. ["3.8","3.9","3.10","3.11"]
	// PythonExperimental lists minors a source calls experimental (not in Python).
	PythonExperimental []string `yaml:"python_experimental,omitempty"`
	// TorchvisionConda and TorchaudioConda are set where the pytorch
	// channel paired the release with other companions than pip did (2.0.0).
	TorchvisionConda string `yaml:"torchvision_conda,omitempty"`
	TorchaudioConda  string `yaml:"torchaudio_conda,omitempty"`
	Source           string `yaml:"source"`
	Note             string `yaml:"note,omitempty"` // disagreements between sources, stated
}

// TorchVariants says which CUDA variants of a release series (2.0) a
// distribution publishes.
type TorchVariants struct {
	Series string       `yaml:"series"` // "2.0"
	Dist   Distribution `yaml:"dist"`
	CUDA   []string     `yaml:"cuda"` // ["11.7","11.8"]
	CPU    bool         `yaml:"cpu"`
	// Default is the CUDA variant a plain install gives (PyPI's torch), "" if unknown.
	Default string `yaml:"default,omitempty"`
	// Selector is how a conda command line picks the variant
	// ("pytorch-cuda=X.Y", "cudatoolkit=X.Y"); "" for pip.
	Selector string `yaml:"selector,omitempty"`
	// NotPublished marks a series the distribution does not publish at all
	// (the pytorch channel after 2.5): CUDA is empty and CPU false.
	NotPublished bool `yaml:"not_published,omitempty"`
	// Releases lists the releases of the series the distribution built
	// (conda-forge skipped some: 2.0.1, 2.5.0); empty means every release.
	Releases []string `yaml:"releases,omitempty"`
	// Torchvision and Torchaudio list the companion releases the
	// distribution built for the series, where they differ from pip's
	// pairing (conda-forge); empty: none read.
	Torchvision []string `yaml:"torchvision,omitempty"`
	Torchaudio  []string `yaml:"torchaudio,omitempty"`
	// CPUOnlyOn names the operating systems ("windows", "macos") where this
	// distribution's build of the series has no CUDA at all: PyPI's torch
	// is the CPU build there, whatever Default says for Linux.
	CPUOnlyOn []string `yaml:"cpu_only_on,omitempty"`
	// CPUPackage names the package the CPU build came as where it was not
	// the framework's own name with a selector (the pytorch channel's
	// pytorch-cpu before 1.2, when cpuonly came); "" otherwise.
	CPUPackage string `yaml:"cpu_package,omitempty"`
	Source     string `yaml:"source"`
	Note       string `yaml:"note,omitempty"`
}

// TorchCondaCUDAOnly is a span of early releases (those before Before)
// whose conda package named pytorch was published only as CUDA builds on
// Platforms by each of Dists, and by no other distribution the knowledge
// base knows: which CUDA is open, CPU or CUDA is not. A CPU build, where
// there was one, was a package of another name (CPUPackage).
type TorchCondaCUDAOnly struct {
	Before     string         `yaml:"before"`    // first release the row no longer covers ("0.4.0")
	Platforms  []string       `yaml:"platforms"` // conda subdirs: ["linux-64"]
	Dists      []Distribution `yaml:"dists"`     // the distributions that published those releases
	CUDA       []string       `yaml:"cuda"`      // the CUDA versions their builds were made with
	CPUPackage string         `yaml:"cpu_package,omitempty"`
	// CommonSASS and CommonPTX are the architectures every build of the
	// releases CommonFrom … CommonThrough carries, in each of Dists and
	// whichever CUDA it was made with: SASS ("3.5") and PTX ("5.2") that
	// each recipe's TORCH_CUDA_ARCH_LIST names. LowestCode is the lowest
	// architecture any of those builds has code for (SASS or PTX): a GPU
	// below it has code in none. All empty where the recipes were not
	// read.
	CommonSASS    []string `yaml:"common_sass,omitempty"`
	CommonPTX     []string `yaml:"common_ptx,omitempty"`
	LowestCode    string   `yaml:"lowest_code,omitempty"`
	CommonFrom    string   `yaml:"common_from,omitempty"`
	CommonThrough string   `yaml:"common_through,omitempty"`
	// EarlyPythons are the only Pythons the releases before CommonFrom
	// were built for (their lists are not known): a file whose Python is
	// another admits none of them.
	EarlyPythons []string `yaml:"early_pythons,omitempty"`
	Source       string   `yaml:"source"`
	Note         string   `yaml:"note,omitempty"`
}

// CondaVariantPick is how conda chooses between the CPU and the CUDA
// builds of one span of releases (From … Through) of a conda package in one
// distribution, on linux-64, when the file pins no variant: what the
// recipe gives the CUDA builds to outrank the CPU builds (CPURank), and
// what the CUDA builds run-depend on of conda's __cuda virtual package,
// which conda sets to the newest CUDA the machine's driver supports and
// leaves out on a machine with no NVIDIA driver (CUDANeeds). CUDA lists
// the CUDA versions of the release's CUDA builds where no torch_variants
// row lists them (the defaults channel). From these the GPU check takes,
// per target, the builds conda installs where the environment is created
// on that machine.
type CondaVariantPick struct {
	Package string       `yaml:"package"`
	Dist    Distribution `yaml:"dist"`
	From    string       `yaml:"from"`    // first release the row covers
	Through string       `yaml:"through"` // last release the row covers
	// CPURank is how the CPU builds rank below the CUDA builds of the same
	// release: "build_number" (the CUDA builds' build numbers are offset
	// above every CPU build's), "track_features" (the CPU builds carry a
	// feature), or "none" (nothing in the uploaded builds ranks them: which
	// one conda takes where both install is not decided by the recipe).
	CPURank string `yaml:"cpu_rank"`
	// CUDANeeds is what every CUDA build run-depends on: "driver" (an
	// unversioned __cuda: any NVIDIA driver), "build_cuda" (__cuda >= the
	// build's own CUDA version) or "none" (no __cuda at all: the CUDA
	// builds install on any machine, the pytorch channel's).
	CUDANeeds string   `yaml:"cuda_needs"`
	CUDA      []string `yaml:"cuda,omitempty"`
	Source    string   `yaml:"source"`
	Note      string   `yaml:"note,omitempty"`
}

// CondaReleases is the releases of a conda package one distribution
// published, as far as its sources were read. Within CompleteFrom …
// CompleteThrough (series, both included) the list is complete: a release
// of that span that is not listed was never published there. Outside it,
// an unlisted release is not known either way.
type CondaReleases struct {
	Package         string       `yaml:"package"`
	Dist            Distribution `yaml:"dist"`
	Releases        []string     `yaml:"releases"`
	CompleteFrom    string       `yaml:"complete_from,omitempty"`
	CompleteThrough string       `yaml:"complete_through,omitempty"`
	Source          string       `yaml:"source"`
	Note            string       `yaml:"note,omitempty"`
}

// TorchStaticLib says that a distribution's CUDA builds of torch releases
// From … Through link a CUDA library into torch itself, so that the
// environment's package of that library is not what torch loads (the
// pytorch channel's NCCL: USE_STATIC_NCCL=1 in every recipe).
type TorchStaticLib struct {
	Dist    Distribution `yaml:"dist"`
	Lib     string       `yaml:"lib"`
	From    string       `yaml:"from"`
	Through string       `yaml:"through"`
	Source  string       `yaml:"source"`
	Note    string       `yaml:"note,omitempty"`
}

// TensorFlowDefaultsBuild is the one CUDA toolkit (and cuDNN) the defaults
// channel's recipe built a tensorflow-gpu release with, where every commit
// of that release's recipe names the same (ANACONDA_TF_RECIPES): the
// runtime the release's GPU build loads, whatever the file pins beside it.
type TensorFlowDefaultsBuild struct {
	Release string `yaml:"release"`
	CUDA    string `yaml:"cuda"`
	CuDNN   string `yaml:"cudnn"`
	// Python, where read, lists the Python minors the channel built the
	// release's GPU build for (its recipe's py_version), which are not the
	// package index's.
	Python []string `yaml:"python,omitempty"`
	Source string   `yaml:"source"`
	Note   string   `yaml:"note,omitempty"`
}

// TensorFlowDefaultsCUDAChoice is every CUDA toolkit the defaults
// channel's recipe built a tensorflow-gpu release with, where it built
// several (ANACONDA_TF_RECIPES): one of them is the runtime the release's
// GPU build loads, which the file's cudatoolkit pin, where it has one,
// picks.
type TensorFlowDefaultsCUDAChoice struct {
	Release string   `yaml:"release"`
	CUDA    []string `yaml:"cuda"`
	// CuDNNMajor is the cuDNN major every one of those builds was made
	// with (the recipe's cudnn pin per toolkit), which the build opens.
	CuDNNMajor string `yaml:"cudnn_major"`
	Source     string `yaml:"source"`
	Note       string `yaml:"note,omitempty"`
}

// TensorFlowDefaultsGPU is the last release of the defaults channel's
// tensorflow-gpu metapackage on linux: after it the recipe builds the gpu
// variant for Windows only.
type TensorFlowDefaultsGPU struct {
	LastLinux string `yaml:"last_linux"`
	// CompleteFrom is the first release from which tensorflow_defaults_builds
	// and tensorflow_defaults_cuda_choices list every linux GPU release up
	// to LastLinux; PythonFrom the Python minor no release before
	// CompleteFrom was built for (nor any later minor), so that a file
	// whose Python is PythonFrom or later admits only listed releases.
	CompleteFrom string `yaml:"complete_from"`
	PythonFrom   string `yaml:"python_from"`
	Source       string `yaml:"source"`
	Note         string `yaml:"note,omitempty"`
}

// CondaBuildForm is how one distribution's recipe names the CUDA and CPU
// builds of a conda package from release Since on (until the next row's
// Since): the build-string globs that select each (`pytorch=*=gpu_cuda*`),
// and the metapackages that select them where the recipe has them.
type CondaBuildForm struct {
	Package    string       `yaml:"package"`
	Dist       Distribution `yaml:"dist"`
	Since      string       `yaml:"since"`
	CUDAGlob   string       `yaml:"cuda_glob"`
	CPUGlob    string       `yaml:"cpu_glob"`
	GPUPackage string       `yaml:"gpu_package,omitempty"`
	CPUPackage string       `yaml:"cpu_package,omitempty"`
	Source     string       `yaml:"source"`
	Note       string       `yaml:"note,omitempty"`
}

// ArchList is the set of GPU architectures compiled into one build variant.
type ArchList struct {
	Series string `yaml:"series"`
	// Release, where set, is the one release of the series ("1.3.0") the
	// row describes: the build scripts changed within some series (1.3.0
	// and 1.3.1 differ), and a release row wins over the series row for
	// that release, which then speaks only for the others.
	Release string       `yaml:"release,omitempty"`
	CUDA    string       `yaml:"cuda"`
	Dist    Distribution `yaml:"dist"`
	// SASS lists compute capabilities with machine code ("8.6").
	SASS []string `yaml:"sass"`
	// PTX lists compute capabilities whose PTX is embedded.
	PTX []string `yaml:"ptx"`
	// Known is false where the sources do not say (the check then reports
	// that it cannot decide rather than guessing).
	Known bool `yaml:"known"`
	// PTXUnknown is true where the SASS list is known but whether PTX is
	// embedded is not (PTX then lists nothing).
	PTXUnknown bool `yaml:"ptx_unknown,omitempty"`
	// PTXOneOf, where set (PTX then lists nothing), says the build carries
	// the PTX of exactly one of these, which depends on the build number
	// (conda-forge's 1.11.0: compute_50 in builds 0-1, the newest
	// architecture in the rebuild): a GPU at or above all of them runs
	// through PTX either way.
	PTXOneOf []string `yaml:"ptx_one_of,omitempty"`
	// CommonOnly says the recipe set more than one list for this build
	// over its commits, and SASS and PTX are the entries every one of them
	// has: the upload carries at least these, and which others is not
	// known. A GPU they serve by SASS is decided; another is not.
	CommonOnly bool `yaml:"common_only,omitempty"`
	// Framework is whose build the row describes: "" is PyTorch (Arch only
	// answers these), "tensorflow" (Series is the TF series "2.15", CUDA
	// the toolkit the release was built with) or "jax" (Series is the
	// first jaxlib / jax-cudaNN-plugin release the list applies to,
	// "0.4.12"; CUDA is the wheel flavour's major, "12"). FrameworkArch
	// answers all of them.
	Framework string `yaml:"framework,omitempty"`
	Source    string `yaml:"source"`
	Note      string `yaml:"note,omitempty"`
	// DevBuilds, where set, is the source showing that the series'
	// development builds (nightlies, release candidates) were built with
	// this same list. Where empty the list holds for the releases only:
	// the build scripts changed within some series (+PTX kept for
	// nightlies, architectures added), so a development build's list is
	// then not known.
	DevBuilds string `yaml:"dev_builds,omitempty"`
}

// PTXOpen says whether the row leaves the build's PTX open: not known at
// all (PTXUnknown), or one of several by build number (PTXOneOf).
func (a *ArchList) PTXOpen() bool { return a.PTXUnknown || len(a.PTXOneOf) > 0 }

// CUDADriver is a CUDA toolkit release and the minimum Linux driver it needs.
type CUDADriver struct {
	CUDA     string `yaml:"cuda"` // "12.4" (major.minor; the GA row)
	LinuxMin string `yaml:"linux_min"`
	// WindowsMin is NVIDIA's Windows minimum, "" where NVIDIA prints N/A.
	WindowsMin string `yaml:"windows_min,omitempty"`
	// Label is the row label as NVIDIA prints it ("CUDA 12.6 GA").
	Label string `yaml:"label,omitempty"`
	// BranchOnly marks rows where NVIDIA names only a driver branch
	// (LinuxMin is then the branch number, e.g. "610"): a lower bound.
	BranchOnly bool   `yaml:"branch_only,omitempty"`
	Note       string `yaml:"note,omitempty"`
	Source     string `yaml:"source"`
}

// MinorCompat is the minor-version-compatibility floor of a CUDA major: a
// driver at or above it runs any runtime of that major (with limits).
type MinorCompat struct {
	Major        int    `yaml:"major"`
	LinuxFloor   string `yaml:"linux_floor"`
	WindowsFloor string `yaml:"windows_floor,omitempty"`
	// BranchMin/BranchMax are the driver branches NVIDIA's current table
	// gives (">= 525", "< 580"); BranchMax 0 = no upper bound.
	BranchMin int    `yaml:"branch_min"`
	BranchMax int    `yaml:"branch_max,omitempty"`
	Note      string `yaml:"note,omitempty"`
	Source    string `yaml:"source"`
}

// FatbinCompression says which drivers load GPU code compressed one way:
// those of CUDA MinCUDA and later (zstd: 12.4, whose Linux driver floor is
// cuda_drivers' 12.4 row).
type FatbinCompression struct {
	Compression string `yaml:"compression"` // "zstd"
	MinCUDA     string `yaml:"min_cuda"`
	Source      string `yaml:"source"`
	Note        string `yaml:"note,omitempty"`
}

// ToolkitArch is what one CUDA toolkit release's nvcc can target.
type ToolkitArch struct {
	CUDA    string `yaml:"cuda"`     // "12.0" (major.minor)
	MinSASS string `yaml:"min_sass"` // "5.0": lowest compute capability with SASS
	MaxSASS string `yaml:"max_sass"` // "9.0": highest
	MaxPTX  string `yaml:"max_ptx"`  // "9.0": highest compute_XX it emits PTX for
	// LibsForwardOpen, where set, says why no public source decides
	// whether the toolkit's own libraries (cuBLAS, cuFFT, cuRAND, cuSOLVER,
	// cuSPARSE) run on a GPU of a newer major than MaxSASS through the
	// PTX they carry: such a GPU's check is listed as a fact no public
	// source holds, not one the knowledge base lacks.
	LibsForwardOpen string `yaml:"libs_forward_open,omitempty"`
	Source          string `yaml:"source"`
	Note            string `yaml:"note,omitempty"`
}

// GPU is a GPU model and its compute capability.
type GPU struct {
	Name    string   `yaml:"name"`              // NVIDIA's name, e.g. "H100"
	Aliases []string `yaml:"aliases,omitempty"` // other spellings NVML or people use
	CC      string   `yaml:"cc"`                // "9.0"
	Arch    string   `yaml:"arch"`              // "Hopper"
	// MinCUDA is the first toolkit that targets it, only where a source says.
	MinCUDA string `yaml:"min_cuda,omitempty"`
	Note    string `yaml:"note,omitempty"`
	Source  string `yaml:"source"`
}

// GPUArchDriver is the last driver branch that supports a retired GPU
// architecture: no driver of a later branch runs its GPUs, so upgrading the
// driver past it is no fix on such a machine.
type GPUArchDriver struct {
	Arch string `yaml:"arch"` // "Kepler", as gpus.yaml names it
	// CC lists the compute capabilities the source gives the architecture.
	CC         []string `yaml:"cc"`
	LastBranch int      `yaml:"last_branch"` // 470
	// LastCUDAToolkit is the last toolkit series that targets it ("11.x").
	LastCUDAToolkit string `yaml:"last_cuda_toolkit,omitempty"`
	Note            string `yaml:"note,omitempty"`
	Source          string `yaml:"source"`
}

// CompanionGap is a companion release whose pip wheel was never published
// for some local variants of the torch release it pairs with (torchvision
// 0.8.0 has no +cu110 wheel): Use is the release issued in its place.
type CompanionGap struct {
	Package  string   `yaml:"package"`  // "torchvision"
	Version  string   `yaml:"version"`  // "0.8.0"
	Variants []string `yaml:"variants"` // local labels never published: ["cu110"]
	Use      string   `yaml:"use"`      // "0.8.1"
	Note     string   `yaml:"note,omitempty"`
	Source   string   `yaml:"source"`
}

// TFConfig is one TensorFlow tested build configuration.
type TFConfig struct {
	Version string   `yaml:"version"` // "2.12" (series) or "2.12.0"
	Python  []string `yaml:"python"`
	CUDA    string   `yaml:"cuda"`
	CuDNN   string   `yaml:"cudnn"`
	Package string   `yaml:"package,omitempty"`
	Note    string   `yaml:"note,omitempty"`
	Source  string   `yaml:"source"`
}

// JAXCuda is a JAX CUDA wheel flavour (jax[cuda12], jax-cuda12-plugin).
type JAXCuda struct {
	Extra    string   `yaml:"extra"`    // "cuda12"
	Major    int      `yaml:"major"`    // 12
	Packages []string `yaml:"packages"` // jax-cuda12-plugin, jax-cuda12-pjrt
	MinJAX   string   `yaml:"min_jax,omitempty"`
	Note     string   `yaml:"note,omitempty"`
	Source   string   `yaml:"source"`
}

// TFCondaForge is one CUDA build of a TensorFlow release on conda-forge:
// what conda-forge built it with, which is what a conda-forge TensorFlow
// is held to (not TensorFlow's pip-tested configuration).
type TFCondaForge struct {
	Version string `yaml:"version"` // "2.12.0"
	CUDA    string `yaml:"cuda"`    // "11.2": the build string's cuda112
	// CuDNN lists the cuDNN majors of the build environments ("8"); cudnn's
	// run_exports then require that major.
	CuDNN  []string `yaml:"cudnn"`
	Note   string   `yaml:"note,omitempty"`
	Source string   `yaml:"source"`
}

// JAXLibCondaForge is what conda-forge built one jaxlib release's CUDA
// builds against: the cuDNN majors of its build environments, whose
// run_exports the packages then require (cudnn >=X.Y.Z,<X+1).
type JAXLibCondaForge struct {
	Version string   `yaml:"version"` // "0.4.30"
	CuDNN   []string `yaml:"cudnn"`   // ["8"]; two where a rebuild moved it
	Note    string   `yaml:"note,omitempty"`
	Source  string   `yaml:"source"`
}

// ExtraPin is a requirement a pip extra of one framework release pins
// (tensorflow[and-cuda]==2.15.0 requires tensorrt-libs==8.6.1) that the
// package index never served, so pip fails with "No matching distribution".
// IndexOtherProject says that the package index's project of an
// extension's name is another project: the GPU extension itself is not
// published there (NVIDIA's apex builds from its git repository and names
// itself 0.1), and Releases, every release the index's project has as pip
// lists them, is all pip can install under the name. An == pin of any
// other release, with no other index or find-links page, is "No matching
// distribution found".
type IndexOtherProject struct {
	Name     string   `yaml:"name"` // the extension's name, as in extensions
	What     string   `yaml:"what"` // what the index's project is
	Releases []string `yaml:"releases"`
	// NoProject says the index has no project of the name at all (its
	// wheels are on the project's own pages only); Releases is then empty.
	NoProject bool   `yaml:"no_project,omitempty"`
	Source    string `yaml:"source"`
	Note      string `yaml:"note,omitempty"`
}

// ExtraRequirement is what a pip extra of one release requires of other
// distributions, NVIDIA's CUDA wheels above all, as its metadata states
// them (tensorflow[and-cuda]==2.15.0: nvidia-cudnn-cu12==8.9.4.25, …;
// jax[cuda12]==0.4.30: jax-cuda12-plugin[with_cuda]==0.4.30): beside a
// torch wheel that pins another release of one of them, pip cannot
// install both.
type ExtraRequirement struct {
	Package  string   `yaml:"package"`  // "tensorflow", "jax-cuda12-plugin"
	Version  string   `yaml:"version"`  // exact release
	Extra    string   `yaml:"extra"`    // "and-cuda", "with_cuda" (compared PEP 685-normalised)
	Requires []string `yaml:"requires"` // PEP 508 requirements, markers dropped
	Note     string   `yaml:"note,omitempty"`
	Source   string   `yaml:"source"`
}

type ExtraPin struct {
	Package string `yaml:"package"` // "tensorflow"
	Version string `yaml:"version"` // exact release, "2.15.0"
	Extra   string `yaml:"extra"`   // "and-cuda"
	Pin     string `yaml:"pin"`     // "tensorrt-libs==8.6.1"
	// Python lists the Python minors on which the pin cannot be met (the
	// pinned release has no wheel for them); empty: every Python.
	Python []string `yaml:"python,omitempty"`
	// Fixed names the release whose extra drops or fixes the pin, where a
	// source says so ("2.15.0.post1"); empty when none does.
	Fixed  string `yaml:"fixed,omitempty"`
	Note   string `yaml:"note,omitempty"`
	Source string `yaml:"source"`
}

// TFCondaDefault is the build a plain `tensorflow` gets on a conda channel
// for a range of releases, where that build is CPU-only whatever the
// machine: the GPU build comes only under another name.
type TFCondaDefault struct {
	Dist    Distribution `yaml:"dist"`    // "defaults"
	From    string       `yaml:"from"`    // first release the row covers
	Before  string       `yaml:"before"`  // first release it no longer covers
	Default string       `yaml:"default"` // the CPU variant installed ("mkl")
	GPU     string       `yaml:"gpu"`     // the package that brings the GPU build ("tensorflow-gpu")
	// Select is the package whose version picks the variant
	// ("_tflow_select"), SelectGPU the version that is the GPU build's
	// and SelectCPU those of the CPU builds (eigen, mkl).
	Select    string   `yaml:"select,omitempty"`
	SelectGPU string   `yaml:"select_gpu,omitempty"`
	SelectCPU []string `yaml:"select_cpu,omitempty"`
	Note      string   `yaml:"note,omitempty"`
	Source    string   `yaml:"source"`
}

// KerasPair is the keras a TensorFlow series takes.
type KerasPair struct {
	TensorFlow string `yaml:"tensorflow"` // series, "2.12"
	Keras      string `yaml:"keras"`      // conda version spec, ">=2.12,<2.13"
	Note       string `yaml:"note,omitempty"`
	Source     string `yaml:"source"`
}

// JAXLibChange is what one jaxlib release changed about Python, CUDA and
// cuDNN; a release takes, field by field, the newest row at or below it.
type JAXLibChange struct {
	From      string `yaml:"from"` // first jaxlib release the change applies to
	PythonMin string `yaml:"python_min,omitempty"`
	// CUDA lists the CUDA versions the GPU wheels serve (">=12.1", "10.2").
	CUDA     []string `yaml:"cuda,omitempty"`
	CuDNNMin string   `yaml:"cudnn_min,omitempty"`
	// PythonMax is the newest Python minor with wheels, from the release
	// that added it.
	PythonMax string `yaml:"python_max,omitempty"`
	// PluginOnly marks releases whose jaxlib has no CUDA variant (CUDA
	// comes from the jax-cudaNN plugin packages).
	PluginOnly bool `yaml:"plugin_only,omitempty"`
	// PTXASError marks releases whose XLA fails a compilation when the
	// ptxas it runs does not know the GPU (no fallback to the driver).
	PTXASError bool `yaml:"ptxas_error,omitempty"`
	// XLANewerTarget is the LLVM target XLA compiles a program's kernels
	// for on a GPU newer than the newest it knows (compute capability above
	// 9.0 before it learnt Blackwell): "sm_90a" where its GetSmName forced
	// the Hopper-only accelerated target onto every GPU it took for a 9.0,
	// "sm_90" where the suffix was kept to Hopper again. sm_90a PTX is not
	// forward compatible: no ptxas or driver compiles it for another
	// architecture.
	XLANewerTarget string `yaml:"xla_newer_target,omitempty"`
	Note           string `yaml:"note,omitempty"`
	Source         string `yaml:"source"`
}

// GPULib is a GPU library with its names on each side of pip/conda.
type GPULib struct {
	Lib   string   `yaml:"lib"`   // canonical name: torch, cupy, tensorflow, ...
	Conda []string `yaml:"conda"` // conda package names
	// Pip lists pip names; a trailing * is a prefix match (cupy-cuda*).
	Pip []string `yaml:"pip"`
	// CUDAFromPip describes how the CUDA major is written in the pip name,
	// e.g. "cupy-cuda{major}x"; "" when the name does not say.
	// (CUDAMajorFromPipName reads it.)
	// CondaChannels are the channels that publish its conda packages (CUDA
	// builds included), as its install documentation names them; empty
	// where the knowledge base does not say. EG302's fix moves a pip line
	// to conda only onto one of them.
	CondaChannels []string `yaml:"conda_channels,omitempty"`
	// CondaForgeCUDASince is the first release conda-forge built with CUDA
	// for a library whose conda package has CPU and CUDA builds: its
	// conda-forge packages of older releases are CPU-only and carry no GPU
	// code ("" where it does not say).
	CondaForgeCUDASince string `yaml:"conda_forge_cuda_since,omitempty"`
	Note                string `yaml:"note,omitempty"`
	Source              string `yaml:"source"`
}

// WheelIndex is a package index's root URL, with its source.
type WheelIndex struct {
	URL    string `yaml:"url"`
	Source string `yaml:"source"`
}

// CUDAPackage is a conda package whose version is a CUDA version.
type CUDAPackage struct {
	Name string `yaml:"name"`
	// Kind is what its version says of the environment's CUDA, an evidence
	// kind of the resolver: pytorch-cuda, cuda-version, cudatoolkit, or
	// cuda-package (cuda-toolkit, cuda-runtime, cuda-cudart).
	Kind   string `yaml:"kind"`
	Source string `yaml:"source"`
}

// CUDAConsumer is a conda package other than a framework that links
// against the CUDA runtime conda installs.
type CUDAConsumer struct {
	Name   string `yaml:"name"`
	Note   string `yaml:"note,omitempty"`
	Source string `yaml:"source"`
}

// Companions are the libraries released in lockstep with a framework.
type Companions struct {
	Framework string   `yaml:"framework"`
	Libs      []string `yaml:"libs"`
	Source    string   `yaml:"source"`
}

// Facts is the whole knowledge base as loaded. Each slice field is a table
// (its yaml key names it) that files add rows to, and each string field a
// value that one file at most sets: addFile merges them by reflection, so a
// new table needs a field here and nothing in the merge.
//
// Each table's `key` tag names the row fields (by yaml key, comma-separated;
// "." for a table of plain strings) that identify a row across layers: a
// row of a later layer (downloaded, learned, --kb DIR) with the same key
// replaces the earlier row, any other row is added (Stack). `order:"key"`
// marks the tables kept sorted by their key, which Stack re-sorts after
// adding rows. TestEveryTableHasKey fails for a table without a key.
type Facts struct {
	Date          string          `yaml:"date"`
	Torch         []TorchRelease  `yaml:"torch" key:"version" order:"key"`
	TorchVariants []TorchVariants `yaml:"torch_variants" key:"series,dist"`
	// TorchCondaCUDAOnly lists the early releases whose conda package
	// `pytorch` was a CUDA build on every build of a platform, in every
	// distribution that published it (torch-0x.yaml).
	TorchCondaCUDAOnly []TorchCondaCUDAOnly `yaml:"torch_conda_cuda_only" key:"before"`
	// CondaReleases lists the releases of a conda package one
	// distribution published, and the span of series within which that
	// list is complete (torch-defaults-releases.yaml).
	CondaReleases []CondaReleases `yaml:"conda_releases" key:"package,dist"`
	// TorchStaticLibs lists the CUDA libraries a distribution's torch
	// builds link statically (torch-static-libs.yaml).
	TorchStaticLibs []TorchStaticLib `yaml:"torch_static_libs" key:"dist,lib,from"`
	// TensorFlowDefaultsBuilds lists the defaults channel's tensorflow-gpu
	// releases built with one CUDA toolkit only (tensorflow-defaults-builds.yaml).
	TensorFlowDefaultsBuilds []TensorFlowDefaultsBuild `yaml:"tensorflow_defaults_builds" key:"release"`
	// TensorFlowDefaultsCUDAChoices lists the defaults channel's
	// tensorflow-gpu releases built with several CUDA toolkits, and which.
	TensorFlowDefaultsCUDAChoices []TensorFlowDefaultsCUDAChoice `yaml:"tensorflow_defaults_cuda_choices" key:"release"`
	// TensorFlowDefaultsGPU says where the defaults channel's linux
	// tensorflow-gpu package ends.
	TensorFlowDefaultsGPU []TensorFlowDefaultsGPU `yaml:"tensorflow_defaults_gpu" key:"last_linux"`
	// CondaBuildForms says how a distribution's conda recipe writes the
	// build strings of a framework's CUDA and CPU builds, per span of
	// releases (torch-defaults.yaml): the glob a spec pins them with.
	CondaBuildForms []CondaBuildForm `yaml:"conda_build_forms" key:"package,dist,since"`
	// CondaVariantPicks says how conda picks the CPU or a CUDA build of a
	// release whose variant the file leaves open, per span of releases
	// (variant-pick.yaml).
	CondaVariantPicks []CondaVariantPick `yaml:"conda_variant_pick" key:"package,dist,from"`
	Arch              []ArchList         `yaml:"arch" key:"framework,series,release,cuda,dist"`
	CUDADrivers       []CUDADriver       `yaml:"cuda_drivers" key:"cuda"`
	MinorCompat       []MinorCompat      `yaml:"minor_compat" key:"major"`
	ToolkitArch       []ToolkitArch      `yaml:"cuda_arch" key:"cuda" order:"key"` // what each toolkit's nvcc targets
	// FatbinCompression is the oldest driver that loads each kind of
	// compressed GPU code, as the CUDA release whose driver first does.
	FatbinCompression []FatbinCompression `yaml:"fatbin_compression" key:"compression"`
	GPUs              []GPU               `yaml:"gpus" key:"name"`
	// GPUArchDrivers is the last driver branch of each retired architecture.
	GPUArchDrivers []GPUArchDriver `yaml:"gpu_arch_drivers" key:"arch"`
	// CompanionGaps lists companion releases with local variants never
	// published, and the release issued in their place.
	CompanionGaps []CompanionGap `yaml:"companion_variants_unpublished" key:"package,version"`
	TensorFlow    []TFConfig     `yaml:"tensorflow" key:"version"`
	JAX           []JAXCuda      `yaml:"jax" key:"extra"`
	// TFCondaForge lists conda-forge's TensorFlow CUDA builds.
	TFCondaForge []TFCondaForge `yaml:"tensorflow_conda_forge" key:"version,cuda" order:"key"`
	// TFCondaDefaults lists the conda channels' CPU-only default builds of
	// a plain `tensorflow`.
	TFCondaDefaults []TFCondaDefault `yaml:"tensorflow_conda_default" key:"dist,from"`
	// Keras pairs TensorFlow series with their keras.
	Keras []KerasPair `yaml:"keras" key:"tensorflow"`
	// JAXLib lists jaxlib's Python/CUDA/cuDNN changes, oldest first.
	JAXLib []JAXLibChange `yaml:"jaxlib" key:"from" order:"key"`
	// JAXLibCondaForge lists the cuDNN majors conda-forge built each jaxlib
	// release's CUDA builds against.
	JAXLibCondaForge []JAXLibCondaForge `yaml:"jaxlib_conda_forge" key:"version" order:"key"`
	// JAXReleases lists the jax releases of the plugin era (jax[cudaNN]==X).
	JAXReleases []JAXRelease `yaml:"jax_releases" key:"version"`
	// JAXExtras lists the CUDA extras each jax release declares
	// (jax[cuda12]): pip ignores an extra a release lacks.
	JAXExtras []JAXExtra `yaml:"jax_extras" key:"extra,since"`
	// JAXExtraCUDA says which CUDA major the jaxlib or plugin a jax
	// extra pins is built for, per span of releases, where the extra's
	// name does not say it (jax[cuda]: CUDA 11 up to 0.4.25, 12 after).
	JAXExtraCUDA []JAXExtraCUDA `yaml:"jax_extra_cuda" key:"extra,since"`
	// TFPipCUDA names the pip extra that brings TensorFlow NVIDIA's CUDA wheels.
	TFPipCUDA []TFPipCUDA `yaml:"tensorflow_pip_cuda" key:"extra"`
	// TFPipCPUOnly lists the releases whose package-index `tensorflow` is
	// the CPU-only build (the GPU build was tensorflow-gpu).
	TFPipCPUOnly []TFPipCPUOnly `yaml:"tensorflow_pip_cpu_only" key:"releases"`
	// TFPTXEveryListed lists the TensorFlow builds that carry PTX for every
	// architecture they list, whichever list that is.
	TFPTXEveryListed []TFPTXEveryListed `yaml:"tensorflow_ptx_every_listed" key:"dist,releases"`
	// ExtraPins lists pins a framework release's pip extra makes that the
	// package index never served: the extra cannot be installed.
	ExtraPins []ExtraPin `yaml:"extra_pins_unpublished" key:"package,version,extra,pin"`
	// ExtraRequirements lists what a release's pip extra requires of
	// other distributions (its CUDA wheels), per package, release and
	// extra.
	ExtraRequirements []ExtraRequirement `yaml:"extra_requirements" key:"package,version,extra"`
	// IndexOtherProjects lists GPU extensions whose name on the package
	// index belongs to another project (NVIDIA's apex is not the index's
	// apex), with that project's releases: a pin of another release finds
	// nothing there.
	IndexOtherProjects []IndexOtherProject `yaml:"index_name_other_project" key:"name"`
	GPULibs            []GPULib            `yaml:"gpu_libs" key:"lib"`
	// TorchWheelIndex is the root of PyTorch's wheel index, one row: a
	// variant's index is the root plus its local version (cu121, cpu).
	TorchWheelIndex []WheelIndex `yaml:"torch_wheel_index" key:"url"`
	// CUDAStack lists conda package names that make up a CUDA stack
	// (cudatoolkit, cuda-version, cuda-toolkit, cudnn, pytorch-cuda...).
	CUDAStack []string `yaml:"cuda_stack" key:"."`
	// CUDAStackPatterns are the names EG302 counts as the conda CUDA stack
	// beyond CUDAStack's, by pattern: a * matches any run of characters.
	CUDAStackPatterns []string `yaml:"cuda_stack_patterns" key:"."`
	// CUDAPackages are the conda packages whose version is a CUDA version.
	CUDAPackages []CUDAPackage `yaml:"cuda_packages" key:"name"`
	// CUDAConsumers are conda packages other than the frameworks that link
	// against the CUDA runtime conda installs.
	CUDAConsumers []CUDAConsumer `yaml:"cuda_consumers" key:"name"`
	// Companions are the libraries released in lockstep with a framework.
	Companions []Companions `yaml:"companions" key:"framework"`
	// TorchTriton is the triton release each torch wheel pins (triton.yaml).
	TorchTriton []TorchTriton `yaml:"torch_triton" key:"torch" order:"key"`
	// TorchPythonBuilds says which Python minors a distribution built a
	// release for, where that differs from the release's own list.
	TorchPythonBuilds []TorchPythonBuilds `yaml:"torch_python_builds" key:"torch,dist,package,cuda,platforms"`
	// Extensions and ExtensionBuilds are the GPU extensions beside the
	// frameworks and what each release was built for (extensions.yaml).
	Extensions      []Extension      `yaml:"extensions" key:"name"`
	ExtensionBuilds []ExtensionBuild `yaml:"extension_builds" key:"name,version,dist,torch,cuda,abi,python"`
	// CUDALibArch, TorchCUDALibs and TorchCXXABIs are the CUDA libraries'
	// architectures, torch wheels' pins and torch's C++ ABI (cudalibs.yaml).
	CUDALibArch   []CUDALibArch   `yaml:"cuda_lib_arch" key:"lib,cc,since,cuda,none_through"`
	TorchCUDALibs []TorchCUDALibs `yaml:"torch_cuda_libs" key:"torch,cuda,dist"`
	TorchCXXABIs  []TorchCXXABI   `yaml:"torch_cxx_abi" key:"dist,from,cuda"`
	// PytorchChannelCuDNN is the cuDNN each pytorch-channel build series
	// copies into its package, per CUDA variant (cudalibs.yaml).
	PytorchChannelCuDNN []PytorchChannelCuDNN `yaml:"pytorch_channel_cudnn" key:"series,release,cuda"`
	// TorchWheelCuDNN is the cuDNN each pip torch build (the wheel
	// index's, and the package index's where it is the same build)
	// carries, per series and CUDA variant (cudalibs-wheel.yaml).
	TorchWheelCuDNN []PytorchChannelCuDNN `yaml:"torch_wheel_cudnn" key:"series,release,cuda"`
	// CondaForgeTorchCuDNN is the cuDNN major conda-forge's pytorch CUDA
	// builds of a series require, per CUDA variant
	// (torch-conda-forge-cudnn.yaml).
	CondaForgeTorchCuDNN []CondaForgeTorchCuDNN `yaml:"conda_forge_torch_cudnn" key:"series,cudnn_major"`
	// CondaForgeCUDAFloat says which CUDA toolkit libraries conda-forge's
	// packages built with an nvcc of a CUDA release run with: any release
	// of its major from its own on, whichever the solver installs.
	CondaForgeCUDAFloat []CondaForgeCUDAFloat `yaml:"conda_forge_cuda_float" key:"from"`
	// ChannelBuildCode is the GPU code every build a channel published of
	// an extension carries, by the CUDA it was built for, where one build
	// workflow made them all (the pyg channel's).
	ChannelBuildCode []ChannelBuildCode `yaml:"channel_build_code" key:"name,channel,cuda_from"`
	// MPSVariables are the environment variables of PyTorch's Apple-silicon
	// (MPS) backend, which a file written for macOS sets.
	MPSVariables []MPSVariable `yaml:"mps_variables" key:"name"`
	// CondaForgeTorchMKL is the mkl major conda-forge's linux-64 pytorch
	// builds run with, per span of releases (torch-conda-forge-mkl.yaml).
	CondaForgeTorchMKL []CondaForgeTorchMKL `yaml:"conda_forge_torch_mkl" key:"from"`
	// LibBreaks are libraries a framework build links dynamically and
	// loads in whatever release the solver gives it, from a release on
	// which the build fails at import (lib-breaks.yaml).
	LibBreaks []LibBreak `yaml:"lib_breaks" key:"framework,dist,lib"`
	// PythonFloors is the oldest Python a distribution's builds of an
	// extension's releases install on, from each release that changed it
	// (python-floors.yaml).
	PythonFloors []PythonFloor `yaml:"python_floors" key:"dist,from"`
	// CompanionTorchBuild lists conda companions whose builds accept only
	// a pytorch build of their own channel's naming.
	CompanionTorchBuild []CompanionTorchBuild `yaml:"companion_torch_build" key:"dist,name,from"`
	// DefaultsTorchCuDNN is the cuDNN the defaults channel's pytorch CUDA
	// builds require, per span of releases and CUDA variant
	// (torch-defaults-cudnn.yaml).
	DefaultsTorchCuDNN []DefaultsTorchCuDNN `yaml:"defaults_torch_cudnn" key:"from,host_cudnn"`
	// CondaAbsentNames are PyPI names no channel listed publishes as a
	// conda package, with the conda package to write instead (torch:
	// pytorch; conda-names.yaml).
	CondaAbsentNames []CondaAbsentName `yaml:"conda_absent_names" key:"name"`
	// DefaultsOnly are conda packages only the defaults channel publishes
	// (Anaconda's variant selectors), which conda-forge never built.
	DefaultsOnly []DefaultsOnlyPackage `yaml:"defaults_only" key:"name"`
	// PyPICompanionCUDA names the torch companions whose package-index
	// wheels are built for the CUDA of the package index's torch release
	// they pair with (conda-names.yaml).
	PyPICompanionCUDA []PyPICompanionCUDA `yaml:"pypi_companion_cuda" key:"name"`
	// CuDNNNewest is the newest cuDNN release NVIDIA built for a CUDA
	// toolkit release (cudalibs.yaml): a ceiling on the cuDNN a build for
	// that CUDA can load.
	CuDNNNewest []CuDNNNewest `yaml:"cudnn_newest" key:"cuda"`
	// CuDNNLastOfMajor is the last cuDNN release of each major
	// (cudalibs-2.yaml): every release a build that loads libcudnn.so.N
	// can get is at or below it.
	CuDNNLastOfMajor []CuDNNLastOfMajor `yaml:"cudnn_last_of_major" key:"major"`
	// CUDALibPackages names the packages each CUDA library ships in
	// (cudalib-packages.yaml).
	CUDALibPackages []CUDALibPackage `yaml:"cuda_lib_packages" key:"lib"`
	// IndexReleases is what a package index says of releases the other
	// tables may not know yet (index-releases.yaml; kbsync proposes them).
	IndexReleases []IndexRelease `yaml:"index_releases" key:"package,version"`
	// LearnedBuilds are builds whose GPU code `envguard kb learn` read
	// from their binaries (learned.go): the learned layer, never embedded.
	LearnedBuilds []LearnedBuild `yaml:"learned_builds" key:"ecosystem,package,version,build,sha256"`

	// Sources names every source a row's Source may cite by key.
	Sources []SourceRef `yaml:"sources" key:"key"`
	// Series holds per-series facts (RELEASE.md's compatibility matrix),
	// also for series whose exact patch releases the KB does not list.
	Series []TorchSeries `yaml:"torch_series" key:"series" order:"key"`
	// CUDAStackSource cites CUDAStack.
	CUDAStackSource string `yaml:"cuda_stack_source"`
	// CUDAStackPatternsSource cites CUDAStackPatterns.
	CUDAStackPatternsSource string `yaml:"cuda_stack_patterns_source"`
	// DateNote says what the date covers.
	DateNote string `yaml:"date_note"`
}

// SourceRef is one public source the rows cite by Key.
type SourceRef struct {
	Key   string `yaml:"key"`
	Title string `yaml:"title"`
	URL   string `yaml:"url,omitempty"`
	// Read says which copy was read and when.
	Read string `yaml:"read,omitempty"`
}

// TorchSeries is one PyTorch minor series as PyTorch's release matrix
// declares it.
type TorchSeries struct {
	Series             string   `yaml:"series"` // "2.12"
	Python             []string `yaml:"python"`
	PythonExperimental []string `yaml:"python_experimental,omitempty"`
	CUDAStable         []string `yaml:"cuda_stable"`
	CUDAExperimental   []string `yaml:"cuda_experimental,omitempty"`
	CuDNN              string   `yaml:"cudnn,omitempty"`
	// TorchvisionMinor is the torchvision minor series ("0.27").
	TorchvisionMinor string `yaml:"torchvision_minor"`
	Source           string `yaml:"source"`
	Note             string `yaml:"note,omitempty"`
}

// TorchTriton is the exact triton release a torch wheel requires
// (Requires-Dist `triton==X; <markers>`). Only pip wheels carry this pin.
type TorchTriton struct {
	Torch  string `yaml:"torch"`  // "2.5.1"
	Triton string `yaml:"triton"` // "3.1.0"
	// Markers are the environment markers of the requirement, as printed.
	Markers string `yaml:"markers,omitempty"`
	Source  string `yaml:"source"`
	Note    string `yaml:"note,omitempty"`
}

// TorchPythonBuilds is which Python minors one distribution built one
// release for (torch-python-builds.yaml), where that differs from the
// release's own list: conda-forge built pytorch 1.13 for Python 3.11, the
// pytorch channel never built 2.0.0 for it. Exactly one of Python and
// Missing is set.
type TorchPythonBuilds struct {
	Torch string       `yaml:"torch"` // exact release, "2.0.0"
	Dist  Distribution `yaml:"dist"`
	// CUDA lists the CUDA variants (major.minor) the row speaks for; empty
	// means every build of the release on Dist, the CPU build included.
	CUDA []string `yaml:"cuda,omitempty"`
	// Platforms lists the conda subdirs (win-64, osx-arm64) the row speaks
	// for; empty means every platform. A row for some platforms says
	// nothing about the others: torch 2.5.1 has cp313 wheels on Linux but
	// none on Windows.
	Platforms []string `yaml:"platforms,omitempty"`
	// Package, where set, is a wrapper metapackage the row speaks for
	// instead of the framework's own package (conda-forge's pytorch-gpu,
	// whose uploads lack some cells the pytorch package has): only
	// PackagePythonBuilds answers such rows.
	Package string `yaml:"package,omitempty"`
	// Python is the complete list of minors Dist built the release for.
	Python []string `yaml:"python,omitempty"`
	// Missing lists minors of the release's list (or of its experimental
	// list) that Dist never built.
	Missing []string `yaml:"missing,omitempty"`
	Source  string   `yaml:"source"`
	Note    string   `yaml:"note,omitempty"`
}

// IndexRelease is what a package index publishes about one release: its
// Requires-Python, the Python and platform tags of its files, the CUDA
// wheels its metadata pins, and when it was uploaded. It says nothing of
// GPU architectures: an index never does, and envguard never guesses them.
// Rows are proposed by kbsync (resolver/kb/cmd/kbsync) and merged by hand.
type IndexRelease struct {
	Package string `yaml:"package"` // normalised project name, "torch"
	Version string `yaml:"version"` // "2.15.0"
	// RequiresPython is the release's Requires-Python, as served.
	RequiresPython string `yaml:"requires_python,omitempty"`
	// Uploaded is the earliest upload of the release's files: a date
	// (2026-10-15) or, where the source gives only that, a month (2026-10).
	Uploaded string `yaml:"uploaded,omitempty"`
	// Python and Platforms are the wheel tags of the release's files.
	Python    []string `yaml:"python,omitempty"`
	Platforms []string `yaml:"platforms,omitempty"`
	// CUDAPins are the nvidia-* (and other CUDA) requirements of the
	// release's Linux wheel, as Requires-Dist prints them.
	CUDAPins []string `yaml:"cuda_pins,omitempty"`
	// URL is the page the row was read from, SHA256 the hash of that
	// response (or of the metadata file), Read the date it was read.
	URL    string `yaml:"url,omitempty"`
	SHA256 string `yaml:"sha256,omitempty"`
	Read   string `yaml:"read"`
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}

// JAXRelease is one jax release whose CUDA support comes from the
// jax-cudaNN plugins (`pip install "jax[cuda12]==X"`).
type JAXRelease struct {
	Version string `yaml:"version"` // "0.4.30"
	Date    string `yaml:"date"`    // "2024-06-18"
	// Yanked marks a release withdrawn from the package index.
	Yanked bool   `yaml:"yanked,omitempty"`
	Note   string `yaml:"note,omitempty"`
	Source string `yaml:"source"`
}

// JAXExtra is one CUDA extra of jax's setup.py and the releases that
// declare it: Since up to, not including, Until. An open row (no Until) was
// still declared at Through, the newest release read; past it nothing is
// known.
type JAXExtra struct {
	Extra   string `yaml:"extra"` // as setup.py spells it: "cuda12_pip"
	Since   string `yaml:"since"` // first jax release that declares it
	Until   string `yaml:"until,omitempty"`
	Through string `yaml:"through,omitempty"`
	Note    string `yaml:"note,omitempty"`
	Source  string `yaml:"source"`
}

// JAXExtraCUDA is the CUDA major of the builds a jax extra pins over a
// span of releases: from Since up to, not including, Until (or through
// Through, the newest release read).
type JAXExtraCUDA struct {
	Extra   string `yaml:"extra"`
	Since   string `yaml:"since"`
	Until   string `yaml:"until,omitempty"`
	Through string `yaml:"through,omitempty"`
	Major   int    `yaml:"major"`
	Note    string `yaml:"note,omitempty"`
	Source  string `yaml:"source"`
}

// TFPipCUDA is the pip extra that installs NVIDIA's CUDA wheels with
// TensorFlow (tensorflow[and-cuda]) and the first release that has it.
// TFPipCPUOnly is a span of TensorFlow releases whose package-index
// `tensorflow` wheel has no GPU support: before 1.15 and in 2.0 the GPU
// build was the separate tensorflow-gpu, and 1.15.2 went back to that.
type TFPipCPUOnly struct {
	Releases string `yaml:"releases"` // a specifier: "<1.15.0", ">=2.0.0,<2.1.0"
	Note     string `yaml:"note,omitempty"`
	Source   string `yaml:"source"`
}

// TFPTXEveryListed is a span of one distribution's TensorFlow releases
// whose GPU builds carry PTX for every architecture they list: their
// TF_CUDA_COMPUTE_CAPABILITIES could only be old-style "X.Y" entries, each
// SASS and PTX, and never empty. So on a GPU newer than anything the
// build's CUDA compiler targets the build runs through PTX whatever its
// list was, where the knowledge base does not know that list.
type TFPTXEveryListed struct {
	Dist     Distribution `yaml:"dist"`
	Releases string       `yaml:"releases"` // a specifier: "<2.3.0"
	Note     string       `yaml:"note,omitempty"`
	Source   string       `yaml:"source"`
}

type TFPipCUDA struct {
	Extra  string `yaml:"extra"` // "and-cuda"
	From   string `yaml:"from"`  // "2.14.0"
	Note   string `yaml:"note,omitempty"`
	Source string `yaml:"source"`
}

// CompanionTorchBuild is a channel's companion (conda-forge's torchvision)
// whose builds from release From on require a pytorch whose build string
// starts with one of Prefixes ("cuda", "cpu"), so that a pytorch of a
// distribution in Excludes (the pytorch channel's py3.10_cuda11.8_…,
// py3.10_cpu_0) cannot sit beside it.
type CompanionTorchBuild struct {
	Dist     Distribution   `yaml:"dist"`
	Name     string         `yaml:"name"`
	From     string         `yaml:"from"`
	Prefixes []string       `yaml:"prefixes"`
	Excludes []Distribution `yaml:"excludes"`
	Note     string         `yaml:"note,omitempty"`
	Source   string         `yaml:"source"`
}

// CondaForgeCUDAFloat is a rule of conda-forge's CUDA packaging: a package
// built with nvcc of release From (or a later minor of its major) requires
// the toolkit's libraries only as Requirement says, from its own release
// to the end of the major, so which of them an environment gets is the
// solver's choice unless the environment pins one.
type CondaForgeCUDAFloat struct {
	From        string `yaml:"from"`        // "12.0"
	Requirement string `yaml:"requirement"` // "cuda-version >=X.Y,<X+1 …"
	Note        string `yaml:"note,omitempty"`
	Source      string `yaml:"source"`
}

// MPSVariable is one environment variable PyTorch's MPS backend reads.
// PythonFloor says that Dist's builds of the packages Names, from release
// From on (until the next row of the same names and distribution), install
// on Python PythonMin or newer only: the package index's python_requires,
// or the oldest Python of conda-forge's linux_64 build matrix.
type PythonFloor struct {
	Names     []string     `yaml:"names"`
	Dist      Distribution `yaml:"dist"`
	From      string       `yaml:"from"`
	PythonMin string       `yaml:"python_min"`
	Source    string       `yaml:"source"`
	Note      string       `yaml:"note,omitempty"`
}

// CondaForgeTorchMKL says that conda-forge's linux-64 pytorch builds of
// releases From … Through run with mkl of one of the majors MKL (the
// CUDA builds always; the CPU builds too, except the blas_impl generic
// ones from 2.0.0, GenericCPU).
type CondaForgeTorchMKL struct {
	From       string   `yaml:"from"`
	Through    string   `yaml:"through"`
	MKL        []string `yaml:"mkl"`
	GenericCPU bool     `yaml:"generic_cpu,omitempty"`
	Source     string   `yaml:"source"`
	Note       string   `yaml:"note,omitempty"`
}

// LibBreak says that Dist's Platform builds of Framework's releases From
// through Through load the conda package Lib in any release (an open run
// requirement) and fail at import from release BreaksFrom of it on, with
// Symptom; Channels are those whose Lib offers such a release.
type LibBreak struct {
	Framework  string       `yaml:"framework"`
	Dist       Distribution `yaml:"dist"`
	Platform   string       `yaml:"platform"`
	From       string       `yaml:"from"`
	Through    string       `yaml:"through"`
	Lib        string       `yaml:"lib"`
	Run        string       `yaml:"run"`         // the builds' run requirement on Lib ("mkl >=2018")
	BreaksFrom string       `yaml:"breaks_from"` // the first release of Lib that fails ("2024.1")
	LastGood   string       `yaml:"last_good"`   // the newest release of Lib that loads ("2024.0")
	Channels   []string     `yaml:"channels"`    // channels publishing Lib releases from BreaksFrom on
	Symptom    string       `yaml:"symptom"`
	Source     string       `yaml:"source"`
	Note       string       `yaml:"note,omitempty"`
}

type MPSVariable struct {
	Name   string `yaml:"name"`
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}

// ChannelBuildCode says that every build Channel published of extension
// Name for a CUDA release from CUDAFrom up to (not including) CUDABelow
// carries this code: one workflow built them all, with one architecture
// list per CUDA, so a file that leaves the release open is judged over
// the lists its CUDA admits.
type ChannelBuildCode struct {
	Name      string   `yaml:"name"`       // the extension's pip name, "torch-cluster"
	Channel   string   `yaml:"channel"`    // "pyg"
	CUDAFrom  string   `yaml:"cuda_from"`  // "11.0"
	CUDABelow string   `yaml:"cuda_below"` // "12.0"; "" for no end
	SASS      []string `yaml:"sass"`
	PTX       []string `yaml:"ptx"`
	// Built says which builds the row covers: the workflow's first and
	// last state, for messages.
	Built  string `yaml:"built"`
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}

// CondaForgeTorchCuDNN is the cuDNN major that conda-forge's pytorch CUDA
// builds of one series require for the CUDA variants listed: the host
// cudnn its .ci_support pins, whose run_exports hold the build to that
// major. The package is conda's cudnn, not a copy inside pytorch, so the
// release within the major is the solver's.
type CondaForgeTorchCuDNN struct {
	Series string   `yaml:"series"`
	CUDA   []string `yaml:"cuda"`
	Major  string   `yaml:"cudnn_major"`
	Source string   `yaml:"source"`
	Note   string   `yaml:"note,omitempty"`
}

// DefaultsTorchCuDNN is the cuDNN the defaults channel's pytorch CUDA
// builds of releases From … Through require for the CUDA variants listed:
// the recipe's host cudnn is one release (HostCuDNN) and its run
// requirement pin_compatible('cudnn'), which conda-build writes as that
// release up to the next major (>=8.9.2.26,<9). The package is conda's
// cudnn, so the release within that range is the solver's.
type DefaultsTorchCuDNN struct {
	From      string   `yaml:"from"`
	Through   string   `yaml:"through"`
	CUDA      []string `yaml:"cuda"`
	HostCuDNN string   `yaml:"host_cudnn"`
	Source    string   `yaml:"source"`
	Note      string   `yaml:"note,omitempty"`
}

// CondaAbsentName is a PyPI project name that the conda channels listed
// publish under another name only (torch, whose conda package is
// pytorch), so a conda dependency that names it finds no package.
type CondaAbsentName struct {
	Name     string   `yaml:"name"`
	Channels []string `yaml:"channels"`
	Conda    string   `yaml:"conda"`
	Source   string   `yaml:"source"`
	Note     string   `yaml:"note,omitempty"`
}

// DefaultsOnlyPackage is a conda package only the defaults channel
// publishes; What says what it is.
type DefaultsOnlyPackage struct {
	Name   string `yaml:"name"`
	What   string `yaml:"what"`
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}

// PyPICompanionCUDA says that the package index's wheels of a torch
// companion (torchvision, torchaudio) are built for the same CUDA as the
// package index's torch release they pair with: PyTorch's release matrix
// builds the three for the package index with one CUDA.
type PyPICompanionCUDA struct {
	Name   string `yaml:"name"`
	Source string `yaml:"source"`
	Note   string `yaml:"note,omitempty"`
}
