// Package resolver turns a parsed Env into what it really means: which
// framework, which build, which CUDA runtime and Python, where each GPU
// library comes from — the Stack — and judges it with the EG2xx, EG3xx and
// EG5xx rules against the knowledge base (package kb).
package resolver

import (
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// Evidence is one item of the file that says something about the stack.
type Evidence struct {
	Item string      `json:"item"` // the item as written, e.g. "pytorch-cuda=11.8"
	Pos  finding.Pos `json:"-"`
	Line int         `json:"line,omitempty"`
	// Says is what the item implies, e.g. "11.8" for a CUDA version.
	Says string `json:"says,omitempty"`
	// Kind names the source (see the Evidence* constants).
	Kind string `json:"kind,omitempty"`
	// EndCol is the column just past the part of the item that says it.
	EndCol int `json:"-"`
	// AtLeast marks a build made for any CUDA of the same major at or
	// above Says (conda-forge's cuda118, cuda120 builds).
	AtLeast bool `json:"at_least,omitempty"`
	// Package and Version name the package the item installs, for messages.
	Package string `json:"package,omitempty"`
	Version string `json:"-"`
}

// Framework is the primary framework the environment gets.
type Framework struct {
	Name string `json:"name"` // pytorch, tensorflow, jax
	// Version is the exact release when the file pins one ("2.0.1"); for an
	// open spec it is empty and Candidates lists the releases it admits.
	Version    string   `json:"version,omitempty"`
	Candidates []string `json:"candidates,omitempty"`
	// Installed is an installed framework's pre-release version
	// (1.13.0a0+gitunknown) where it is read as its release series:
	// Version is then empty, Spec the series (1.13.*) and Candidates its
	// releases.
	Installed string `json:"installed,omitempty"`
	// JAXLib is the jaxlib release the file pins beside jax, where jax's
	// GPU code ships in jaxlib (before the plugins): the architecture
	// rows are jaxlib's, so jax 0.2.16 with jaxlib 0.1.68+cuda111 is read
	// by 0.1.68's row, not by jax's version (review eighteen F34).
	JAXLib string `json:"jaxlib,omitempty"`
	// JAXLibUnfindable says why pip cannot install that jaxlib as the
	// file writes it (a +cudaXXX build without JAX's find-links page,
	// EG205), or "": what the file would run is then open until it is
	// fixed, not a fact the knowledge base lacks.
	JAXLibUnfindable string `json:"-"`
	// JAXFirstInstallable is the oldest release an open jax spec's CUDA
	// extra can install without JAX's find-links page (0.4.30, the first
	// of the package index's plugin era; jaxOpenExtraMajor), "" where no
	// such floor applies.
	JAXFirstInstallable string `json:"-"`
	// PipPTXAS is the release of the pip nvidia-cuda-nvcc a pip jax's
	// file pins: jax points XLA at its ptxas first (JAX_CUDA_PATH).
	PipPTXAS string `json:"pip_ptxas,omitempty"`
	Spec     string `json:"spec,omitempty"` // the version spec as written
	// Variant is "cuda", "cpu", or "" when the file leaves it open.
	Variant string `json:"variant,omitempty"`
	// VariantWhy says why Variant is "" where the file names the variant
	// but cannot give one (two pip distributions writing one package);
	// "" otherwise.
	VariantWhy string `json:"-"`
	// VariantFrom says why Variant is set where no item of the file pins
	// it but the knowledge base settles it (every conda pytorch before
	// 0.4.0 is a CUDA build on Linux); "" otherwise.
	VariantFrom string `json:"-"`
	// Uncovered says why the CUDA its build needs is not known where the
	// release is older than every one the knowledge base lists ("tensorflow
	// 0.12.1 is older than the releases the knowledge base covers (from
	// 1.13.1), …"); "" otherwise.
	Uncovered string `json:"-"`
	// IgnoredSelector names the pytorch channel's variant selector
	// ("pytorch-cuda=11.8 (line 18)") beside a pytorch that comes from
	// defaults, which it does not constrain; "" otherwise.
	IgnoredSelector string `json:"-"`
	// ForeignSelector is the pytorch channel's selector item as written
	// (pytorch-cuda=12.1) beside a pytorch from conda-forge or defaults,
	// which it does not select a build of; "" otherwise.
	ForeignSelector string `json:"-"`
	// CPUOnlyBeside is a conda cpuonly item ("cpuonly (line 12)") beside a
	// pip torch, which it does not make a CPU build: it says what the
	// file meant.
	CPUOnlyBeside string `json:"-"`
	// IgnoredSelectorCUDA is the CUDA major.minor that selector names.
	IgnoredSelectorCUDA string `json:"-"`
	// RuntimeCandidates lists the CUDA runtimes one of which the build
	// uses, where VariantFrom settles the variant but not the runtime
	// (7.5, 8.0, 9.0, 9.1 for conda pytorch before 0.4.0); nil otherwise.
	RuntimeCandidates []string `json:"-"`
	// CommonArch is what every build the file admits carries where the
	// runtime is left open (RuntimeCandidates): the SASS and PTX all of
	// them share (conda pytorch 0.1.7 … 0.3.0: sm_35, compute_52), with
	// LowestCode the lowest architecture any of them has code for, and
	// CommonWhy the releases and builds it holds for. nil where the
	// knowledge base has no such list for every admitted build.
	CommonArch *kb.ArchList `json:"-"`
	LowestCode string       `json:"-"`
	CommonWhy  string       `json:"-"`
	// CandidateCuDNNMajor is the cuDNN major every build Candidates admits
	// opens, where they agree (the defaults channel's tensorflow-gpu: 7).
	CandidateCuDNNMajor string `json:"-"`
	// NotPublished says why no build of this release exists where the
	// file asks for it (the pytorch channel after 2.5, which EG205
	// reports); "" otherwise. The checks against targets then concern a
	// build no one can install, and say so instead of checking it.
	NotPublished string           `json:"-"`
	From         envspec.Provider `json:"from"`
	// OnlyFramework says that every conda dependency of the file is the
	// framework, a companion, a CUDA-stack package, python or pip: no
	// other package's range could rule a release of the framework out.
	OnlyFramework bool `json:"-"`
	// System names the system's package manager that installed an
	// installed framework ("debian"); "" when pip, uv or conda did.
	System  string          `json:"system_package,omitempty"`
	Dist    kb.Distribution `json:"distribution,omitempty"`
	Channel string          `json:"channel,omitempty"`
	Build   string          `json:"build,omitempty"`
	Pos     finding.Pos     `json:"-"`
	// Item is the dependency as written; VersionPos/VersionEnd locate its
	// version part for carets (VersionPos == Pos when the part is unknown).
	Item       string      `json:"-"`
	VersionPos finding.Pos `json:"-"`
	VersionEnd int         `json:"-"`
	// Pins are the items that fix Variant (empty: the solver or pip picks).
	Pins []Evidence `json:"-"`
	// ChannelWhy says how Channel was decided ("written as pytorch::").
	ChannelWhy string `json:"-"`
	// ChannelMoved says why Channel is not the first channel of the file
	// that publishes the package (it never built the release: "conda-forge
	// never built tensorflow-gpu 2.4.1"), "" where it is; the checks'
	// label of the build carries it, so the channel they name is explained.
	ChannelMoved string `json:"-"`
	// OtherChannels are the channels the file lists beside the
	// framework's own that publish pytorch too (pytorch, conda-forge):
	// a build-string hint must match their names as well, since the
	// solver may take the build from them.
	OtherChannels []string `json:"-"`
	// VariantOpen says why a variant left open could not be read from the
	// builds the knowledge base knows ("" where that is not the reason).
	VariantOpen string `json:"-"`
	// MKLExcludes says why the file's mkl pin rules out the conda-forge
	// builds the variant would be chosen among (mklExcludes); "" otherwise.
	MKLExcludes string `json:"-"`
	// NVIDIAChannel is set where the file lists the nvidia channel, which
	// serves the CUDA packages the pytorch channel's pytorch-cuda needs.
	NVIDIAChannel bool `json:"-"`
	// Package is the package the framework's item names (tensorflow-gpu,
	// pytorch-gpu, torch), "" where a companion brings the framework in:
	// a hint that pins the item keeps its name (tensorflow-gpu is the GPU
	// build on defaults; tensorflow there is the mkl one).
	Package string `json:"-"`
	// PulledBy is the companion item that brings the framework in where
	// Package is "" (torchaudio=0.11.0=py310_cu113), PulledRelease the
	// release it requires ("" for a bare companion), and PipSkipped the
	// pip line of that release that then finds it installed and does
	// nothing (torch==1.11.0), "" where there is none.
	// DefaultsToolkitPin is the file's cudatoolkit line where pytorch up
	// to 1.12 may come from defaults, listed first, which the knowledge
	// base does not know to have published the release (DefaultsRelease,
	// the newest the spec admits): on the pytorch channel that line would
	// select the CUDA build. Nil otherwise.
	DefaultsToolkitPin *envspec.CondaDep `json:"-"`
	DefaultsRelease    string            `json:"-"`
	PulledBy           string            `json:"-"`
	PulledRelease      string            `json:"-"`
	PipSkipped         string            `json:"-"`
	// Wrapper is the conda wrapper metapackage the file lists beside or
	// for the framework (pytorch-gpu), whose own uploads may lack builds
	// the framework's package has (kb.PackagePythonBuilds); "" for none.
	Wrapper string `json:"-"`
	// BuildCUDA is the CUDA the framework build was compiled with, which
	// decides its architecture list and the PTX it carries, where it is
	// not the runtime's: a pip TensorFlow wheel's own (its release's tested
	// build configuration, whatever cudatoolkit the file pins: 2.1.0 is the
	// CUDA 10.1 build beside cudatoolkit=10.0), or a conda-forge build
	// string's "this CUDA or a newer minor" (cuda126 beside
	// cuda-version=12.8). "" when it is the runtime's (CUDAInfo.Version).
	BuildCUDA string `json:"build_cuda,omitempty"`
	// CUDAUnloadable says why a pip TensorFlow cannot load the CUDA runtime
	// the file provides (tfUnloadableCUDA: before CUDA 11 the libraries'
	// sonames carry the minor, so TF 2.1, built with 10.1, cannot load
	// cudatoolkit 10.0); "" when it can or nothing says. Such a build uses
	// the GPU only with its own CUDA's libraries from outside the
	// environment, so the checks on a target cannot say it does.
	CUDAUnloadable string `json:"-"`
	// PipPick is the build pip takes for a torch requirement beside
	// --extra-index-url to a PyTorch wheel index (pippick.go); nil
	// otherwise. Where it is not the index's build, the checks judge it
	// (or PyPI's builds), never the index's.
	PipPick *PipPick `json:"pip_pick,omitempty"`
}

// Series returns "2.0" of "2.0.1"; "" when the version is unknown.
func (f *Framework) Series() string { return seriesOf(f.Version) }

// ArchRelease is what the knowledge base's architecture rows are looked up
// by: the release, where the version is one (a row for that release wins
// over its series' row), else the series.
func (f *Framework) ArchRelease() string {
	if f.DevBuild() || f.Version == seriesOf(f.Version) {
		return f.Series()
	}
	return f.Version
}

// DevBuild reports whether the version is a development build or release
// candidate (2.2.0.dev20231010, 2.5.0rc1): the knowledge base's
// architecture rows hold for such a build only where they say so
// (kb.ArchList.DevBuilds).
func (f *Framework) DevBuild() bool {
	_, ok := preReleaseSeries(f.Version)
	return ok
}

// ArchFor reports whether an architecture row of the framework's series
// holds for this build: always for a release, for a development build
// only where the row records that the series' development builds carried
// the same list.
func (f *Framework) ArchFor(l *kb.ArchList) bool {
	return l != nil && (l.DevBuilds != "" || !f.DevBuild())
}

// release is the release the framework's builds are held to: Version, or
// the series (2.1) of an installed pre-release read as its series; "" when
// it is open.
func (f *Framework) release() string {
	if f.Version == "" && f.Installed != "" {
		return strings.TrimSuffix(f.Spec, ".*")
	}
	return f.Version
}

// CUDAInfo is the CUDA runtime the environment gets, with the evidence.
type CUDAInfo struct {
	Version  string     `json:"version"` // major.minor
	Evidence []Evidence `json:"evidence"`
	// NotPublished says why Version names no CUDA variant that exists for
	// the item deciding it (pytorch-cuda=5.7); "" when it does. A canonical
	// name is never built from such a version.
	NotPublished string `json:"not_published,omitempty"`
}

// Package is a library of the environment with its provider.
type Package struct {
	Name    string           `json:"name"`
	Lib     string           `json:"lib,omitempty"` // canonical GPU library name when it is one (torch, cupy, ...)
	Version string           `json:"version,omitempty"`
	From    envspec.Provider `json:"from"`
	Channel string           `json:"channel,omitempty"`
	// CUDAMajor is the CUDA major a GPU package is built for, 0 if unknown.
	CUDAMajor int         `json:"cuda_major,omitempty"`
	Pos       finding.Pos `json:"-"`
	// Spec is the version spec as written (conda syntax; pip specifiers
	// joined with commas), "" when none.
	Spec string `json:"spec,omitempty"`
	// ChannelWhy says how Channel was decided.
	ChannelWhy string `json:"-"`
	// Item is the dependency as written.
	Item       string      `json:"-"`
	VersionPos finding.Pos `json:"-"`
	VersionEnd int         `json:"-"`
}

// Stack is the resolved environment.
type Stack struct {
	// conda holds the items Resolve read, one per Env.Deps entry in its
	// order (nil where a dependency names no package), so that rules do not
	// read each dependency again (read-only once Resolve returns); nil when
	// the Stack was made by hand.
	conda []*item
	// items are every conda then pip item Resolve read, in file order
	// (read-only once Resolve returns); nil when the Stack was made by hand.
	items []*item
	// canonical and canonicalErr are CanonicalName's answer when Resolve
	// made the Stack (named): three rules and the report ask for it.
	canonical    string
	canonicalErr error
	named        bool

	Python string `json:"python,omitempty"` // major.minor, "" when open
	// ExportedElsewhere says, for a conda env export made on another
	// operating system than the one the file is read for, which build
	// PyPI serves its plain torch pin there; "" otherwise.
	ExportedElsewhere string      `json:"-"`
	PythonPos         finding.Pos `json:"-"`
	Framework         *Framework  `json:"framework,omitempty"`
	CUDA              *CUDAInfo   `json:"cuda,omitempty"`
	CuDNN             string      `json:"cudnn,omitempty"`
	CuDNNPos          finding.Pos `json:"-"`
	Companions        []Package   `json:"companions,omitempty"` // torchvision, torchaudio, ...
	// PinConflicts are pip requirements of the file that pip cannot meet
	// together: a line, a torch wheel's exact nvidia-* pin
	// (torch_cuda_libs) or what an extra requires (extra_requirements)
	// excluding the exact release another of them asks for (EG205), so
	// what the file would run is open until it is fixed.
	PinConflicts []PinConflict `json:"-"`
	// NotFound are conda dependencies no channel the file lists publishes
	// under that name (EG205: PackagesNotFoundError): conda creates
	// nothing from the file until they are fixed.
	NotFound []PinConflict `json:"-"`
	// OtherFrameworks names the frameworks the file installs beside
	// Framework (tensorflow, jax beside pytorch): each is a GPU-code
	// package of its own, judged on a stack of its own
	// (ResolveFramework).
	OtherFrameworks []string `json:"other_frameworks,omitempty"`
	// GPULibs lists every GPU library and which side provides it.
	GPULibs []Package `json:"gpu_libs,omitempty"`
	// GPUPackages lists every package with GPU code of its own: the
	// framework, each extension and the CUDA libraries the build loads,
	// with what each was built for and its evidence.
	GPUPackages []GPUPackage `json:"gpu_packages,omitempty"`
	// CompanionsOpen are pip torchvision or torchaudio lines installed over
	// a conda pytorch from the package index, whose wheel's CUDA the
	// knowledge base does not give: each refuses to load beside a torch
	// built for another CUDA, so every target is open on it.
	CompanionsOpen []CompanionOpen `json:"companions_open,omitempty"`
	// CompanionsMismatched are such lines whose wheel's CUDA the knowledge
	// base gives and differs from conda's pytorch's: each fails at import
	// (EG211).
	CompanionsMismatched []CompanionOpen `json:"companions_mismatched,omitempty"`
	// TorchABI is the C++ ABI of the environment's torch (cxx11,
	// pre-cxx11), "" when not known.
	TorchABI string `json:"torch_abi,omitempty"`
	// NoNameReason says why there is no canonical name ("" when there is one).
	NoNameReason string `json:"-"`
	// CPU lists the items that ask for a CPU-only framework build.
	CPU []Evidence `json:"cpu_evidence,omitempty"`
	// LibBreaks are the framework build's import failures the release of a
	// library it links brings (lib_breaks: MKL 2024.1 beside the pytorch
	// channel's pytorch), which gpucheck raises on every target (EG411).
	LibBreaks []LibBreak `json:"-"`
	// PythonItem is the item Python was read from.
	PythonItem string `json:"-"`
	// PythonSpec is the version spec of the file's python dependency
	// where it leaves the minor open (python>=3.7,<3.9); "" otherwise. An
	// example release a hint offers must install with one of the minors
	// it admits.
	PythonSpec string `json:"-"`
	// Binaries is what a live prefix's shared libraries say (ApplyBinaries);
	// nil for a file.
	Binaries *Binaries `json:"-"`

	// Kind is the kind of file the stack was read from: an environment.yml
	// is solved by conda on the machine it is created on (its __cuda is
	// that machine's driver), a pixi manifest with the virtual packages
	// its system-requirements declare.
	Kind envspec.Kind `json:"-"`
}

// Kinds of Evidence.
const (
	EvidenceInstalled   = "installed"     // torch/version.py of a prefix
	EvidenceBuild       = "build"         // a framework build string or glob
	EvidenceLocal       = "local-version" // a pip +cu118 / +cpu local version
	EvidenceIndex       = "index-url"     // a PyTorch wheel index URL
	EvidencePytorchCUDA = "pytorch-cuda"
	EvidenceCUDAVersion = "cuda-version"
	EvidenceCudatoolkit = "cudatoolkit"
	EvidenceCUDAPackage = "cuda-package"        // cuda-toolkit, cuda-runtime, cuda-cudart
	EvidenceMutex       = "mutex"               // pytorch-mutex, cpuonly
	EvidencePackage     = "package"             // a package name that implies a variant (pytorch-gpu, tensorflow-cpu, jax[cuda12])
	EvidenceDefault     = "default"             // what an unpinned install gets, from the knowledge base
	EvidenceSystem      = "system-requirements" // a pixi manifest's [system-requirements] cuda (the __cuda it solves with)
)

// SeriesOf is the release series of a version: "2.0" of "2.0.1" and of
// "2.0.1+cu118".
func SeriesOf(v string) string { return seriesOf(v) }

// seriesOf returns major.minor of a version string.
func seriesOf(v string) string {
	dots := 0
	for i, c := range v {
		if c == '.' {
			dots++
			if dots == 2 {
				return v[:i]
			}
		} else if (c < '0' || c > '9') && c != '.' {
			return v[:i]
		}
	}
	return v
}

// Canonical is CanonicalName(s), worked out once when Resolve made s (s is
// read-only from then on), where Resolve also withholds a name the knowledge
// base shows the framework cannot load (tfUnloadableCUDA).
func (s *Stack) Canonical() (string, error) {
	if s != nil && s.named {
		return s.canonical, s.canonicalErr
	}
	return CanonicalName(s)
}

// condaHoldsOnlyFramework reports whether every conda dependency of the
// file is the framework, one of its companions, a package of the CUDA
// stack (cuda_stack), python or pip: nothing else the solver must fit
// beside the framework, whose Python range or own pins could rule a
// release out.
func (r *resolution) condaHoldsOnlyFramework() bool {
	s := r.st
	if s.Framework == nil || r.kb == nil {
		return false
	}
	ok := map[string]bool{"python": true, "pip": true}
	for _, c := range s.Companions {
		ok[c.Name] = true
	}
	for _, it := range s.conda {
		if it == nil {
			continue
		}
		if it.name != s.Framework.Name && !ok[it.name] && !r.kb.IsCUDAStack(it.name) {
			return false
		}
	}
	return true
}

// CompanionOpen is a pip torch companion whose CUDA build is not known
// beside the conda pytorch it loads.
type CompanionOpen struct {
	Item string      `json:"item"`
	Pos  finding.Pos `json:"-"`
	Why  string      `json:"why"`
}

// PinConflict is a pip requirement of the file that pip cannot install
// beside another one: it excludes the release the other asks for exactly.
type PinConflict struct {
	Pos  finding.Pos
	End  int    // the column the finding's item ends at, 0 where not said
	Why  string // the conflict, as pip (or conda) would refuse it
	Hint string
}
