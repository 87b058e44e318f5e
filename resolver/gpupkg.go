package resolver

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// Roles of a GPU-code package.
const (
	RoleFramework   = "framework"
	RoleCompanion   = "companion"
	RoleExtension   = "extension"
	RoleCUDALibrary = "cuda-library"
)

// Kinds of evidence for what a GPU-code package was built for, beside the
// Evidence* kinds of the framework.
const (
	EvidenceKBRow        = "kb-row"        // a knowledge-base row, with its source
	EvidenceWheelTag     = "wheel-tag"     // a wheel's local version (+cu12torch2.6cxx11abiFALSE)
	EvidenceRequiresDist = "requires-dist" // a framework wheel's exact pin of the library
	EvidenceName         = "name"          // the distribution's name (cupy-cuda12x)
	EvidenceBinary       = "binary"        // the shared library itself (native/)
)

// GPUPackage is one package of the environment with GPU code of its own:
// the framework, an extension, or a CUDA library the build loads (written
// in the file, or bundled: pinned by the framework's wheel).
type GPUPackage struct {
	Name    string `json:"name"`
	Role    string `json:"role"`
	Lib     string `json:"lib,omitempty"` // cublas, cudnn, ... for CUDA libraries
	Version string `json:"version,omitempty"`
	// Series is the major.minor series the file pins where it leaves the
	// release within it open (cudf==23.8.*, cudf=22.08: "23.8", "22.08"),
	// and the knowledge base has rows that hold for every release of it.
	Series string `json:"series,omitempty"`
	// ChannelBuilt names the channel whose channel_build_code rows gave the
	// package's builds (pyg), "" otherwise.
	ChannelBuilt string `json:"-"`
	// Releases lists, where the file leaves the release open and every
	// release it admits has rows (condaForgeRange), those releases.
	Releases []string         `json:"releases,omitempty"`
	From     envspec.Provider `json:"from,omitempty"`
	Item     string           `json:"item,omitempty"` // as written; "" when bundled
	Line     int              `json:"line,omitempty"`
	Pos      finding.Pos      `json:"-"`
	// BundledWith names the package whose metadata brings it ("torch
	// 2.6.0+cu126") when the file does not name it.
	BundledWith string   `json:"bundled_with,omitempty"`
	BuiltFor    BuiltFor `json:"built_for"`
	Code        GPUCode  `json:"gpu_code"`
	// Known is false for a GPU package the knowledge base has no facts on
	// (an unknown extension or a release newer than its rows): no target
	// holding it is ok.
	Known   bool   `json:"known"`
	Unknown string `json:"unknown,omitempty"` // why Known is false
	// CUDAOpen says Known is false only because the environment's CUDA,
	// which picks the conda-forge build, is not known (the release is).
	CUDAOpen bool `json:"-"`
	// Within, for a CUDA library whose release is open, is what every
	// release it can be starts with: "8.7" of a conda cudnn=8.7, "7" of
	// the cuDNN a TensorFlow built with cuDNN 7.6 opens (libcudnn.so.7).
	// WithinWhy says where that comes from.
	Within    string `json:"within,omitempty"`
	WithinWhy string `json:"within_why,omitempty"`
	// FloatFrom, for a toolkit library a conda-forge build loads where
	// the environment pins no CUDA release, is the build's own release:
	// the library is any release of that major from it on, whichever the
	// solver installs (conda_forge_cuda_float); FloatWhy is the run
	// requirement that allows it. Version is then FloatFrom.
	FloatFrom string `json:"float_from,omitempty"`
	FloatWhy  string `json:"float_why,omitempty"`
	// CodeUnknown says why the knowledge base's GPU code of the release is
	// not taken as the file's build (a PyTorch wheel index of another CUDA
	// major than the release's package-index wheel); "" otherwise.
	CodeUnknown string `json:"code_unknown,omitempty"`
	// BuiltOnMachine says how the release gets its GPU code on the
	// machine (the knowledge base's built_on_machine of its build row),
	// "" where it ships it.
	BuiltOnMachine string `json:"built_on_machine,omitempty"`
	// SourceBuild is set where pip compiles the package on the install
	// machine (PyG's torch-scatter from the package index, which carries
	// only its source): its GPU code is that machine's toolkit's, never
	// known from the file.
	SourceBuild bool `json:"-"`
	// NotInstallable is set where the installer cannot get the release
	// the file names at all (EG205): there is no build to judge until
	// the file is fixed.
	NotInstallable bool `json:"-"`
	// LocalBuild is set for a pip item whose local version names a source
	// commit (transformer-engine 2.2.0+c55e425): a build made from a
	// checkout, whose GPU code is whatever that machine compiled.
	LocalBuild bool `json:"-"`
	// LocalProject is set for a local or version-control project installed
	// with a GPU extra (-e .[gpu]): what it brings is in its own metadata.
	LocalProject bool `json:"-"`
	// FromMachine, for a CUDA library the framework loads that the file
	// does not install, says where it comes from instead: the machine
	// (a pip TensorFlow opens the libcudnn.so it finds there, and runs on
	// the CPU without one).
	FromMachine string `json:"from_machine,omitempty"`
	// Spec is the version spec the file writes for an open release
	// (conda syntax: ">=0.41.0"), so that hints name only releases it
	// admits; "" where the release is pinned or the spec is empty.
	Spec     string     `json:"-"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Binaries lists, for `envguard check`, each shared library of the
	// package that carries GPU code or that the loader could not satisfy,
	// as inspect reads it: the report's proof of Code.
	Binaries []BinarySummary `json:"binaries,omitempty"`
	// Builds, where there are two or more, are the builds the file may get
	// (a conda-forge release the spec leaves open, or one release built
	// with two nvcc releases for the same CUDA), each with its code: a GPU
	// is decided only where they all agree. Code is then their union, for
	// summaries.
	Builds []BuildCode `json:"builds,omitempty"`
	// CUDAFromMachine, where set, says why which build loads is not known
	// from the file: the release loads the library of the CUDA runtime its
	// setup finds on the machine (bitsandbytes before 0.41.0), so Builds
	// (or Code, where they all agree) is every library it may load, and a
	// GPU is decided only where none of them carries code for it.
	CUDAFromMachine string `json:"cuda_from_machine,omitempty"`

	ext *kb.Extension
}

// BuiltFor is what a GPU-code package was built against.
type BuiltFor struct {
	// Torch lists torch releases ("2.5.1") or series ("2.6"); TorchPin
	// marks an exact Requires-Dist pin.
	Torch    []string `json:"torch,omitempty"`
	TorchPin bool     `json:"torch_pin,omitempty"`
	CUDA     []string `json:"cuda,omitempty"` // "12.4", or a major "12"
	ABI      []string `json:"abi,omitempty"`  // cxx11, pre-cxx11
	Python   []string `json:"python,omitempty"`
}

// Summary is BuiltFor in a few words, for one-line summaries:
// "torch==2.5.1, CUDA 12.1", "torch 2.6, CUDA 12, pre-cxx11".
func (b BuiltFor) Summary() string {
	var parts []string
	if len(b.Torch) > 0 {
		t := "torch " + strings.Join(b.Torch, "/")
		if b.TorchPin {
			t = "torch==" + strings.Join(b.Torch, "/")
		}
		parts = append(parts, t)
	}
	if len(b.CUDA) > 0 {
		parts = append(parts, "CUDA "+strings.Join(b.CUDA, "/"))
	}
	parts = append(parts, b.ABI...)
	return strings.Join(parts, ", ")
}

// GPUCode is the GPU code a package holds.
type GPUCode struct {
	SASS  []string `json:"sass,omitempty"`
	PTX   []string `json:"ptx,omitempty"`
	MinCC string   `json:"min_cc,omitempty"`
	// Known is true when SASS and PTX were read (from a KB row or the
	// binary).
	Known bool `json:"known"`
	// JIT is true for a compiler that makes its code on the machine
	// (triton): only MinCC decides.
	JIT  bool `json:"jit,omitempty"`
	Zstd bool `json:"zstd,omitempty"`
	// NoDeviceCode, with Known, says the build has no GPU code of its own
	// (a header-only or host-only library that calls the CUDA runtime):
	// no GPU lacks a kernel image of it.
	NoDeviceCode bool `json:"no_device_code,omitempty"`
	// SupportedCC, where the knowledge base describes the release by the
	// GPUs its vendor says it supports (TensorRT), lists their compute
	// capabilities: a GPU of one of them runs it, one below MinCC does
	// not, and any other is undecided for the reason UnlistedCC gives.
	SupportedCC []string `json:"supported_cc,omitempty"`
	UnlistedCC  string   `json:"unlisted_cc,omitempty"`
}

// BuildCode is one build a GPU-code package may be, and its code.
type BuildCode struct {
	Label string  `json:"label"` // "cupy 12.2.0 (conda-forge, CUDA 11.8 build)"
	Code  GPUCode `json:"gpu_code"`
	// From and Through are the first and last release with this code,
	// where the build stands for a span of releases.
	From    string `json:"from,omitempty"`
	Through string `json:"through,omitempty"`
}

// Ext is the knowledge-base row of an extension, nil for other roles or
// an unknown extension.
func (p *GPUPackage) Ext() *kb.Extension { return p.ext }

// gpuPackages lists every GPU-code package of the environment: the
// framework, its companions, each extension and the CUDA libraries.
func (r *resolution) gpuPackages() {
	fw := r.st.Framework
	if fw != nil && fw.Variant != "cpu" && fw.Variant != "rocm" {
		p := GPUPackage{Name: fw.Name, Role: RoleFramework, Version: fw.Version, From: fw.From, Item: fw.Item, Pos: fw.Pos, Line: fw.Pos.Line, Known: true}
		if c := r.st.CUDA; c != nil && c.Version != "" {
			p.BuiltFor.CUDA = []string{c.Version}
			p.Evidence = append(p.Evidence, c.Evidence...)
		}
		if fw.BuildCUDA != "" {
			p.BuiltFor.CUDA = []string{fw.BuildCUDA}
		}
		if l, ok := r.frameworkArch(); ok {
			p.Code = GPUCode{SASS: l.SASS, PTX: l.PTX, Known: !l.PTXUnknown}
			p.Evidence = append(p.Evidence, Evidence{Item: fw.Name + " " + fw.Series() + " (" + string(fw.Dist) + ")", Kind: EvidenceKBRow, Says: l.Source, Package: fw.Name})
		}
		if fw.Name == "pytorch" {
			if abi, e, ok := r.torchABI(); ok {
				p.BuiltFor.ABI = []string{abi}
				p.Evidence = append(p.Evidence, e)
				r.st.TorchABI = abi
			}
		}
		r.st.GPUPackages = append(r.st.GPUPackages, p)
	}
	seen := map[string]bool{}
	for _, it := range r.items {
		if it == r.fw || seen[it.name] {
			continue
		}
		if lib, ok := r.cudaLibOf(it); ok {
			seen[it.name] = true
			r.st.GPUPackages = append(r.st.GPUPackages, r.cudaLibPackage(it, lib))
			continue
		}
		if p, ok := r.extensionPackage(it); ok {
			seen[it.name] = true
			r.st.GPUPackages = append(r.st.GPUPackages, p)
		}
	}
	r.localGPUExtras()
	r.frameworkLibs(seen)
	r.jaxHostCuDNN()
	r.extensionToolkitLibs()
}

// jaxHostCuDNN adds the machine's cuDNN that a pip jax before the
// cudaNN_pip extras loads, where the file fixes only the CUDA major (jax[cuda]
// ==0.3.10) and frameworkLibs, which needs the runtime's minor, added none:
// its release is the machine's, but its major is the one the jaxlib opens
// (review thirty-two C20: a cuDNN 8 on an RTX 5090).
func (r *resolution) jaxHostCuDNN() {
	fw := r.st.Framework
	if fw == nil || fw.Variant != "cuda" || r.st.CuDNN != "" || !r.jaxUsesHostCUDA() {
		return
	}
	for _, p := range r.st.GPUPackages {
		if p.Role == RoleCUDALibrary && p.Lib == "cudnn" {
			return
		}
	}
	major, why := r.jaxlibCuDNNMajor()
	if major == "" {
		return
	}
	with := loadedBy(fw)
	r.st.GPUPackages = append(r.st.GPUPackages, GPUPackage{Name: "cudnn", Role: RoleCUDALibrary, Lib: "cudnn", BundledWith: with,
		Within: major, WithinWhy: why,
		FromMachine: "the file installs no cuDNN: " + with + "'s CUDA jaxlib loads the libcudnn installed on the machine, whose release is not known",
		Unknown:     "which cudnn release the machine provides is not known"})
}

// extensionToolkitLibs adds the CUDA toolkit libraries a conda extension
// links (its row's toolkit_libs: CuPy's cuBLAS, cuFFT, cuRAND, cuSOLVER,
// cuSPARSE) where it is a build for the CUDA the file's conda cudatoolkit
// fixes: they are that toolkit's release, judged as a framework's are.
// Without this an environment with no framework (corpus 106: conda-forge
// cupy 12.0.0 for cudatoolkit 10.2) would read as running on GPUs that
// CUDA 10.2's libraries have no code for. A library the framework's build
// already brings is not added twice.
func (r *resolution) extensionToolkitLibs() {
	rt := r.condaToolkitCUDA()
	if rt == "" {
		return
	}
	have := map[string]bool{}
	for _, p := range r.st.GPUPackages {
		if p.Role == RoleCUDALibrary {
			have[p.Lib] = true
		}
	}
	var add []GPUPackage
	for _, p := range r.st.GPUPackages {
		ext := p.Ext()
		if p.Role != RoleExtension || ext == nil || p.From != envspec.ProviderConda || !slices.Equal(p.BuiltFor.CUDA, []string{rt}) {
			continue
		}
		for _, lib := range ext.ToolkitLibs {
			if have[lib] {
				continue
			}
			have[lib] = true
			add = append(add, ToolkitLib(lib, rt))
		}
	}
	r.st.GPUPackages = append(r.st.GPUPackages, add...)
}

// wheelLibsFromMachine marks a pip wheel of a package that links the CUDA
// toolkit's libraries (toolkit_libs: CuPy) but brings none of them (no
// [ctk] extra) where the file's conda packages give no CUDA of the
// wheel's major: it loads the libraries it finds on the machine, which
// decides whether it imports and runs there (the README's demo:
// cupy-cuda12x beside cudatoolkit 11.3).
func (r *resolution) wheelLibsFromMachine(p *GPUPackage, it *item, ext *kb.Extension) {
	if len(ext.ToolkitLibs) == 0 || it.from() != envspec.ProviderPip || len(p.BuiltFor.CUDA) != 1 {
		return
	}
	for _, e := range it.extras() {
		// pip ignores an extra the release does not declare
		// (cupy-cuda12x[ctk]==13.4.1: the extra came in 14.0.0)
		if kb.NormalizeName(e) == "ctk" && (ext.CTKExtraFrom == "" || p.Version == "" || compareVersions(p.Version, ext.CTKExtraFrom) >= 0) {
			return
		}
	}
	major, _, _ := strings.Cut(p.BuiltFor.CUDA[0], ".")
	if r.st.CUDA != nil {
		for _, ev := range r.st.CUDA.Evidence {
			switch ev.Kind {
			case EvidenceCudatoolkit, EvidenceCUDAVersion, EvidenceCUDAPackage:
				if m, _, _ := strings.Cut(ev.Says, "."); m == major {
					return // conda's toolkit of its major is in the environment
				}
			}
		}
	}
	p.FromMachine = fmt.Sprintf("%s brings no CUDA libraries (%s) and the file's conda packages give none of CUDA %s: it loads the cuBLAS, cuFFT, NVRTC and the rest it finds on the machine, so whether it imports and runs there is the machine's to decide", it.name, CTKExtraWords(ext, p.Version), major)
}

// CTKExtraWords says whether the release of an extension declares the
// [ctk] extra that would bring its CUDA libraries (CuPy's from 14.0.0:
// review twenty-two F29, where cupy-cuda12x 13.4.1 was told of an extra
// it does not have).
func CTKExtraWords(ext *kb.Extension, version string) string {
	switch {
	case ext.CTKExtraFrom == "":
		return "it declares no extra that would"
	case version != "" && compareVersions(version, ext.CTKExtraFrom) >= 0:
		return "its [ctk] extra would"
	case version != "":
		return "it declares no extra that would: [ctk] came in " + ext.CTKExtraFrom
	}
	return "the [ctk] extra of its releases from " + ext.CTKExtraFrom + " would"
}

// condaToolkitCUDA is the CUDA major.minor the file's conda cudatoolkit
// fixes, "" where no cudatoolkit line fixes one.
// CondaCUDAPin is the CUDA release (major.minor, or a major) a conda item
// of the file fixes for the conda packages (cudatoolkit=11.8,
// cuda-version=12.4, cuda-toolkit=12.6), and that item; "" where none
// does. A pip wheel's CUDA does not constrain conda's, so where the stack's
// CUDA comes from a pip torch this is what a conda extension is built for.
func CondaCUDAPin(st *Stack) (string, string) {
	if e, ok := CondaCUDAPinEvidence(st); ok {
		return e.Says, e.Item
	}
	return "", ""
}

// CondaCUDAPinEvidence is the item behind CondaCUDAPin, so that a hint can
// name the line to change rather than add a second, conflicting pin.
func CondaCUDAPinEvidence(st *Stack) (Evidence, bool) {
	if st == nil || st.CUDA == nil {
		return Evidence{}, false
	}
	for _, e := range st.CUDA.Evidence {
		switch e.Kind {
		case EvidenceCudatoolkit, EvidenceCUDAVersion, EvidenceCUDAPackage:
			if e.Says != "" && !e.AtLeast {
				return e, true
			}
		}
	}
	return Evidence{}, false
}

func (r *resolution) condaToolkitCUDA() string {
	if r.st.CUDA == nil || r.st.CUDA.NotPublished != "" {
		return ""
	}
	for _, ev := range r.st.CUDA.Evidence {
		if ev.Kind == EvidenceCudatoolkit && ev.Says == r.st.CUDA.Version && strings.Count(ev.Says, ".") == 1 {
			return ev.Says
		}
	}
	return ""
}

// gpuExtra matches the names projects give the extra that brings their GPU
// dependencies (.[gpu], [cuda12], [cu11], [and-cuda]), PEP 685 normalised.
var gpuExtra = regexp.MustCompile(`^(gpu|cuda|cuda-?\d+x?|cu\d+x?|and-cuda|with-cuda|cuda-pip)$`)

// localGPUExtras adds, for a pip line that installs a local project or a
// version-control checkout with a GPU extra (`-e .[gpu]`), a GPU package
// whose code is not known: what the extra brings is in the project's own
// metadata, which the file does not show, so no target is ok beside it
// (review fifteen, corpus 181: `-e .[gpu]` read as nothing to check).
func (r *resolution) localGPUExtras() {
	for _, d := range r.env.Pip {
		if d.Line == nil || d.Line.Req == nil {
			continue
		}
		q := d.Line.Req
		if !(q.Path || q.VCS != "" || (q.Bare && q.Editable)) {
			continue
		}
		var extras []string
		for _, e := range q.Extras {
			if gpuExtra.MatchString(pep503(e)) {
				extras = append(extras, e)
			}
		}
		if len(extras) == 0 {
			continue
		}
		what := strings.TrimSpace(d.Raw.Value)
		from := "the checkout " + q.URL
		if q.Path {
			from = "the local path " + q.URL
		}
		r.st.GPUPackages = append(r.st.GPUPackages, GPUPackage{
			Name: what, Role: RoleExtension, From: envspec.ProviderPip, Item: what, Pos: d.Raw.Pos, Line: d.Raw.Pos.Line, LocalProject: true,
			Unknown: fmt.Sprintf("%s installs the project at %s with its %s extra, whose dependencies are in that project's own metadata, not in this file", what, from, strings.Join(extras, ", ")),
		})
	}
}

// frameworkArch is the knowledge base's architecture list of a torch
// build, where it is known.
func (r *resolution) frameworkArch() (*kb.ArchList, bool) {
	fw := r.st.Framework
	if r.kb == nil || fw.Name != "pytorch" || fw.Series() == "" || r.st.CUDA == nil || r.st.CUDA.Version == "" {
		return nil, false
	}
	l, ok := r.kb.Arch(fw.ArchRelease(), r.st.CUDA.Version, fw.Dist)
	if !ok || l == nil || !l.Known || !fw.ArchFor(l) {
		return nil, false
	}
	return l, true
}

// torchABI is the C++ ABI of the environment's torch, from the knowledge
// base's row for its distribution, release and CUDA variant.
func (r *resolution) torchABI() (string, Evidence, bool) {
	fw := r.st.Framework
	if r.kb == nil || fw == nil || fw.Version == "" {
		return "", Evidence{}, false
	}
	cuda := ""
	if r.st.CUDA != nil {
		cuda = r.st.CUDA.Version
	}
	dist := string(fw.Dist)
	if isNGCTorch(fw.Version) {
		dist = "ngc"
	}
	row, ok := r.kb.TorchABIOf(dist, fw.Version, cuda)
	if !ok && fw.Dist == kb.DistPyPI {
		// PyPI's torch is one of PyTorch's own wheel builds: a row for
		// every wheel build of the release speaks for it too.
		if w, ok2 := r.kb.TorchABIOf(string(kb.DistWheel), fw.Version, cuda); ok2 && len(w.CUDA) == 0 {
			row, ok = w, true
		}
	}
	if !ok {
		return "", Evidence{}, false
	}
	return row.ABI, Evidence{Item: "torch " + fw.Version + " (" + dist + ")", Kind: EvidenceKBRow, Says: row.ABI, Package: "torch", Version: fw.Version, Pos: fw.Pos, Line: fw.Pos.Line}, true
}

// isNGCTorch reports an NVIDIA NGC container's torch (2.3.0a0+40ec155e58.nv24.3):
// a pre-release commit of PyTorch built by NVIDIA.
func isNGCTorch(v string) bool {
	return strings.Contains(v, "a0+") || strings.Contains(v, ".nv2")
}

// cudaLibOf names the CUDA library a package ships (cublas of
// nvidia-cublas-cu12 and libcublas), false for other packages.
func (r *resolution) cudaLibOf(it *item) (string, bool) {
	l, ok := names(r.kb).CUDALibOf(it.name, it.from() == envspec.ProviderPip)
	if !ok {
		return "", false
	}
	return l.Lib, true
}

func (r *resolution) cudaLibPackage(it *item, lib string) GPUPackage {
	p := GPUPackage{Name: it.name, Role: RoleCUDALibrary, Lib: lib, Version: it.exact, From: it.from(), Item: it.raw(), Pos: it.verPos(), Line: it.pos().Line, Known: it.exact != ""}
	if m := kb.CUDAMajorFromPipName(it.name); m > 0 {
		p.BuiltFor.CUDA = []string{strconv.Itoa(m)}
	}
	if cu := r.condaForgeCuDNNCUDA(it, lib); cu != "" && len(p.BuiltFor.CUDA) == 0 {
		p.BuiltFor.CUDA = []string{cu}
	}
	if !p.Known {
		p.Unknown = "the version of " + it.name + " is left to the solver"
		if lib == "cudnn" {
			if w := cudnnSpecPrefix(it.verText); w != "" {
				p.Within, p.WithinWhy = w, it.raw()+" admits only cuDNN "+w+".x"
			}
		}
	}
	return p
}

// condaForgeCuDNNCUDA is the CUDA a conda-forge cudnn package is built for
// where the file fixes the conda cudatoolkit to one major.minor: every
// conda-forge cudnn build for CUDA X.Y requires cudatoolkit X.Y (the
// feedstock's run requirement `cudatoolkit {{ cuda_compiler_version }}`,
// CF_CUDNN_CUDATOOLKIT), so the one the solver takes beside cudatoolkit
// 10.1 is a CUDA 10.1 build. "" otherwise.
func (r *resolution) condaForgeCuDNNCUDA(it *item, lib string) string {
	cuda := r.condaToolkitCUDA()
	if lib != "cudnn" || it.from() != envspec.ProviderConda || it.channel != "conda-forge" || cuda == "" || r.kb == nil {
		return ""
	}
	// conda-forge's cudnn for CUDA 11.x and 12.x follow other rules
	// (cudatoolkit 11.*, cuda-version), which this fact does not cover.
	if c, ok := kb.CompareDotted(cuda, "11.0"); !ok || c >= 0 {
		return ""
	}
	// The line must admit a release conda-forge built: cudnn=7.3 comes
	// from another channel, whose builds this fact does not speak for.
	rels, ok := r.kb.CondaReleasesOf("cudnn", kb.DistCondaForge)
	if !ok || !slices.ContainsFunc(rels.Releases, func(v string) bool { return it.verText == "" || admits(it.verText, v) }) {
		return ""
	}
	return cuda
}

// FrameworkCUDALibs are the CUDA libraries a framework's CUDA build loads
// whose architectures decide whether its PTX path runs: the toolkit's math
// libraries and cuDNN. gpucheck gives each build it decides over these
// libraries at that build's CUDA.
var FrameworkCUDALibs = []string{"cublas", "cufft", "curand", "cusolver", "cusparse", "cudnn"}

// FrameworkCUDALibsOf are FrameworkCUDALibs as the framework's CUDA build
// loads them: PyTorch and TensorFlow load all of them (TensorFlow's
// [and-cuda] extra pins nvidia-cublas, -cufft, -curand, -cusolver,
// -cusparse and -cudnn, TF_SETUP; before that extra its pip guide had them
// come from the CUDA toolkit), JAX all but cuRAND (its cuda12_pip and
// with_cuda extras list no nvidia-curand, JAX_SETUP_EXTRAS).
func FrameworkCUDALibsOf(framework string) []string {
	if framework != "jax" {
		return FrameworkCUDALibs
	}
	var out []string
	for _, l := range FrameworkCUDALibs {
		if l != "curand" {
			out = append(out, l)
		}
	}
	return out
}

// FrameworkPackage is the package name a message gives the framework by
// (torch, tensorflow, jax), for "loaded by torch 2.6.0".
func FrameworkPackage(framework string) string {
	if framework == "pytorch" || framework == "" {
		return "torch"
	}
	return framework
}

// RuntimeBundled is the BundledWith of a toolkit library the framework
// loads at the runtime's release rt.
func RuntimeBundled(rt string) string { return "the CUDA " + rt + " runtime" }

// ToolkitLib is the toolkit library lib as a framework's CUDA build loads
// it at the runtime's release rt: the one description frameworkLibs gives
// the build the file pins, and gpucheck each build it decides over.
func ToolkitLib(lib, rt string) GPUPackage {
	return GPUPackage{Name: lib, Role: RoleCUDALibrary, Lib: lib, Version: rt, BundledWith: RuntimeBundled(rt), Known: true,
		Evidence: []Evidence{{Item: "CUDA " + rt, Kind: EvidenceKBRow, Says: rt, Package: lib}}}
}

// ToolkitRelease is which CUDA toolkit libraries a framework build loads:
// those of Release, or, where Float is set, any release of its major from
// Release on (conda_forge_cuda_float), Float being the run requirement
// that allows it.
type ToolkitRelease struct{ Release, Float string }

// Lib is toolkit library lib as the build loads it.
func (t ToolkitRelease) Lib(lib string) GPUPackage {
	p := ToolkitLib(lib, t.Release)
	if t.Float != "" {
		p.FloatFrom, p.FloatWhy = t.Release, t.Float
	}
	return p
}

// CondaForgeToolkitLibs is the toolkit libraries a build for CUDA rt
// loads. A conda-forge build's run requirement admits any release of rt's
// major from rt on (conda_forge_cuda_float): where the environment pins a
// later one of them (cudatoolkit=11.7 beside a CUDA 11.2 build), that
// one's; where it pins no CUDA release (a cudatoolkit, cuda-version or CUDA
// package item, an installed prefix, a lock file), the whole range;
// elsewhere, and for any other build, rt's own.
func CondaForgeToolkitLibs(k interface {
	CondaForgeCUDAFloatOf(string) (*kb.CondaForgeCUDAFloat, bool)
}, fw *Framework, cuda *CUDAInfo, rt string) ToolkitRelease {
	t := ToolkitRelease{Release: rt}
	if fw == nil || fw.From != envspec.ProviderConda || fw.Dist != kb.DistCondaForge || !strings.Contains(rt, ".") {
		return t
	}
	row, ok := k.CondaForgeCUDAFloatOf(rt)
	if !ok {
		return t
	}
	if cuda != nil {
		if pin := cuda.Version; strings.Count(pin, ".") == 1 && pin != rt && majorMinor(pin) == pin && majorOf(pin) == majorOf(rt) && compareVersions(pin, rt) > 0 {
			t.Release = pin
			return t
		}
		for _, e := range cuda.Evidence {
			switch e.Kind {
			case EvidenceBuild, EvidencePackage, EvidenceDefault, EvidenceMutex:
			default:
				return t
			}
		}
	}
	t.Float = row.Requirement
	return t
}

// frameworkLibs adds the CUDA libraries the framework's build loads that
// the file does not name: those a torch wheel pins (torch_cuda_libs), the
// toolkit's own at the runtime's release, the cuDNN a pytorch channel
// build string names; what none says stays unknown. TensorFlow and JAX
// load the toolkit's libraries as torch does (FrameworkCUDALibsOf), so
// their PTX path is judged over them too.
func (r *resolution) frameworkLibs(seen map[string]bool) {
	fw := r.st.Framework
	if fw == nil || (fw.Name != "pytorch" && fw.Name != "tensorflow" && fw.Name != "jax") ||
		fw.Variant == "cpu" || fw.Variant == "rocm" {
		return
	}
	if r.st.CUDA == nil || r.st.CUDA.Version == "" {
		r.defaultsTFCuDNN()
		return
	}
	have := map[string]bool{}
	for _, p := range r.st.GPUPackages {
		if p.Role == RoleCUDALibrary {
			have[p.Lib] = true
		}
	}
	rt := r.st.CUDA.Version
	with := loadedBy(fw)
	add := func(p GPUPackage) {
		if !have[p.Lib] {
			have[p.Lib] = true
			r.st.GPUPackages = append(r.st.GPUPackages, p)
		}
	}
	if r.kb != nil && fw.Name == "pytorch" && fw.From == envspec.ProviderPip && fw.Version != "" {
		if row, ok := r.kb.TorchCUDALibsOf(fw.Version, rt); ok && pinsServe(r.kb, fw, row, rt) {
			for _, l := range row.Libs {
				n := kb.NormalizeName(l.Name)
				r.torchPins = append(r.torchPins, pipDemand{name: n, text: l.Name + "==" + l.Version, by: torchBuildText(fw, rt) + ", which pins", pos: fw.Pos})
				if seen[n] {
					continue
				}
				ev := Evidence{Item: l.Name + "==" + l.Version, Kind: EvidenceRequiresDist, Says: l.Version, Package: l.Name, Version: l.Version}
				if cl, ok := r.kb.CUDALibOf(n, true); ok {
					// The wheel pins the libraries of its own CUDA variant:
					// that is the CUDA the library build is for.
					p := GPUPackage{Name: n, Role: RoleCUDALibrary, Lib: cl.Lib, Version: l.Version, From: envspec.ProviderPip, BundledWith: with, BuiltFor: BuiltFor{CUDA: []string{rt}}, Known: true, Evidence: []Evidence{ev}}
					if cl.Toolkit {
						// A toolkit library's wheel has a version of its own
						// (cuFFT 11.3.0.4 beside CUDA 12.6), which the
						// architecture rows, keyed by toolkit release, cannot
						// place: a wheel built for CUDA rt pins rt's release, so
						// it is the runtime's library, with the pin as evidence
						// (and a candidate build of another CUDA loads its own).
						p = ToolkitLib(cl.Lib, rt)
						p.Evidence = append(p.Evidence, ev)
					}
					add(p)
					continue
				}
				// cuda-toolkit[cublas,...]==13.0.2 brings the toolkit's own
				// libraries of that release.
				if n == "cuda-toolkit" {
					for _, lib := range extrasOf(l.Name) {
						if cl, ok := r.kb.CUDALibByName(lib); ok && cl.Toolkit {
							add(GPUPackage{Name: "cuda-toolkit[" + lib + "]", Role: RoleCUDALibrary, Lib: lib, Version: majorMinor(l.Version), From: envspec.ProviderPip, BundledWith: with, BuiltFor: BuiltFor{CUDA: []string{rt}}, Known: true, Evidence: []Evidence{ev}})
						}
					}
				}
			}
		}
	}
	for _, lib := range FrameworkCUDALibsOf(fw.Name) {
		if have[lib] {
			continue
		}
		cl, ok := names(r.kb).CUDALibByName(lib)
		var channel GPUPackage
		fromChannel := false
		if lib == "cudnn" && r.kb != nil {
			channel, fromChannel = PytorchChannelCuDNN(r.kb, fw, rt, r.st.CuDNN)
		}
		switch {
		case ok && cl.Toolkit:
			if r.kb == nil {
				add(ToolkitLib(lib, rt))
				break
			}
			add(CondaForgeToolkitLibs(r.kb, fw, r.st.CUDA, rt).Lib(lib))
		case lib == "cudnn" && r.st.CuDNN != "" && strings.Contains(r.st.CuDNN, "."):
			add(GPUPackage{Name: "cudnn", Role: RoleCUDALibrary, Lib: lib, Version: r.st.CuDNN, BundledWith: with, Known: true, Pos: r.st.CuDNNPos, Line: r.st.CuDNNPos.Line,
				Evidence: []Evidence{{Item: fw.Build, Kind: EvidenceBuild, Says: r.st.CuDNN, Package: "cudnn"}}})
		case fromChannel:
			add(channel)
		default:
			p := GPUPackage{Name: lib, Role: RoleCUDALibrary, Lib: lib, BundledWith: with, Unknown: "which " + lib + " release " + with + " loads is not known"}
			if lib == "cudnn" && fw.Name == "tensorflow" && fw.From == envspec.ProviderPip {
				// a pip TensorFlow brings no cuDNN (but with [and-cuda],
				// whose nvidia-cudnn wheel the file then names) and
				// dlopens libcudnn where the loader finds one (review
				// seventeen F34: 006)
				p.FromMachine = "the file installs no cuDNN: " + with + " opens a libcudnn it finds on the machine, whose release is not known, and without one skips the GPU and runs on the CPU"
			}
			if lib == "cudnn" && r.jaxUsesHostCUDA() && r.st.CuDNN == "" {
				// jaxlib's CUDA wheels before the cudaNN_pip extras load
				// the cuDNN installed on the machine (corpus 103)
				p.FromMachine = "the file installs no cuDNN: " + with + "'s CUDA jaxlib loads the libcudnn installed on the machine, whose release is not known"
				// but only one of the major it was built with: XLA's
				// dso_loader opens libcudnn.so.<major> (review
				// thirty-two C20: jaxlib 0.3.10's cuDNN 8 on an RTX 5090)
				if major, why := r.jaxlibCuDNNMajor(); major != "" {
					p.Within, p.WithinWhy = major, why
				}
			}
			add(p)
		}
	}
	r.tensorflowCuDNNMajor()
}

// defaultsTFCuDNN adds the cuDNN a defaults tensorflow-gpu opens where
// its toolkit is one of several (a release built with more than one, or an
// open release): the toolkit libraries depend on which, but every build
// opens a cuDNN of one major, which tensorflowCuDNNMajor gives it (1.13.1,
// built for CUDA 9.0, 9.2 and 10.0 with cuDNN 7, read ok on an A100).
func (r *resolution) defaultsTFCuDNN() {
	fw := r.st.Framework
	if r.kb == nil || fw.Name != "tensorflow" || fw.Dist != kb.DistDefaults || fw.Variant != "cuda" || len(fw.RuntimeCandidates) == 0 {
		return
	}
	for _, p := range r.st.GPUPackages {
		if p.Role == RoleCUDALibrary && p.Lib == "cudnn" {
			r.tensorflowCuDNNMajor()
			return
		}
	}
	with := loadedBy(fw)
	r.st.GPUPackages = append(r.st.GPUPackages, GPUPackage{Name: "cudnn", Role: RoleCUDALibrary, Lib: "cudnn", BundledWith: with, Unknown: "which cudnn release " + with + " loads is not known"})
	r.tensorflowCuDNNMajor()
}

// jaxUsesHostCUDA reports whether the framework is a pip jax of a release
// before the knowledge base's first cudaNN_pip extra, whose CUDA jaxlib
// loads the CUDA and cuDNN installed on the machine.
func (r *resolution) jaxUsesHostCUDA() bool {
	fw := r.st.Framework
	if r.kb == nil || fw == nil || fw.Name != "jax" || fw.From != envspec.ProviderPip || fw.Version == "" {
		return false
	}
	since, ok := r.kb.JAXPipCUDASince()
	if !ok {
		return false
	}
	c, ok := kb.CompareDotted(fw.Version, since)
	return ok && c < 0
}

// jaxlibCuDNNMajor is the cuDNN major a pip jax's CUDA jaxlib opens
// (libcudnn.so.<major>, TF_DSO_LOADER), from the jaxlib table's cudnn_min
// of its release, and why; "" where the table gives none.
func (r *resolution) jaxlibCuDNNMajor() (string, string) {
	fw := r.st.Framework
	v := fw.JAXLib
	if v == "" {
		v = fw.Version
	}
	st, ok := r.kb.JAXLibAt(v)
	if !ok || st.CuDNNMin == "" {
		return "", ""
	}
	major, _, _ := strings.Cut(st.CuDNNMin, ".")
	return major, fmt.Sprintf("jaxlib %s's CUDA wheels need cuDNN %s or newer and open libcudnn.so.%s (a cuDNN %s.x)", v, st.CuDNNMin, major, major)
}

// tensorflowCuDNNMajor narrows the cuDNN a pip TensorFlow loads, where the
// file leaves its release open, to the major TensorFlow was built with:
// TensorFlow opens libcudnn.so.<major> (its dso_loader asks for the
// cuDNN version its build configuration recorded, the header's major,
// TF_DSO_LOADER), so TensorFlow 2.1.0, built with cuDNN 7.6, loads a cuDNN
// 7 or none. A file whose cudnn admits only another major is left as it
// is (TensorFlow cannot load it: EG208 says so).
func (r *resolution) tensorflowCuDNNMajor() {
	fw := r.st.Framework
	if r.kb == nil || fw == nil || fw.Name != "tensorflow" {
		return
	}
	built, what := "", ""
	switch {
	case fw.Version == "" && fw.CandidateCuDNNMajor != "":
		// every build an open defaults tensorflow-gpu admits opens one
		// major (defaultsTFCandidates)
		built, what = fw.CandidateCuDNNMajor, "every defaults tensorflow-gpu build the file admits ("+RangeOf(fw.Candidates)+")"
	case fw.Version == "":
		return
	case fw.From == envspec.ProviderPip:
		if cfg, ok := r.kb.TensorFlow(fw.Version); ok {
			built, what = cfg.CuDNN, "tensorflow "+fw.Version
		}
	case fw.Dist == kb.DistDefaults:
		// the defaults channel's tensorflow-gpu built with one toolkit
		// links the cuDNN of that build's major (review twelve #409, #411:
		// 2.4.1's cuDNN 7.6 read as not known on an H100); one built with
		// several, the major all of them share (1.13.1's cuDNN 7 had let
		// an A100 read ok)
		if b, ok := r.kb.TensorFlowDefaultsBuildOf(fw.Version); ok {
			built, what = b.CuDNN, "defaults' tensorflow-gpu "+fw.Version
		} else if c, ok := r.kb.TensorFlowDefaultsCUDAChoicesOf(fw.Version); ok {
			built, what = c.CuDNNMajor, "every build of defaults' tensorflow-gpu "+fw.Version+" (CUDA "+orList(c.CUDA)+")"
		}
	}
	if built == "" {
		return
	}
	major, _, _ := strings.Cut(built, ".")
	for i := range r.st.GPUPackages {
		p := &r.st.GPUPackages[i]
		if p.Role != RoleCUDALibrary || p.Lib != "cudnn" || p.Version != "" || p.FromBinary() {
			continue
		}
		if p.Within != "" {
			if m, _, _ := strings.Cut(p.Within, "."); m != major {
				continue
			}
			p.WithinWhy += ", and "
		}
		if p.Within == "" {
			p.Within = major
		}
		p.WithinWhy += what + " was built with cuDNN " + built + " and opens libcudnn.so." + major + " (a cuDNN " + major + ".x)"
		p.Evidence = append(p.Evidence, Evidence{Item: what, Kind: EvidenceKBRow, Says: major, Package: "cudnn"})
	}
}

// pinsServe reports whether the nvidia-* pins of a torch_cuda_libs row
// are those of fw's build. A row read from the package index's wheel
// (dist pypi) does not describe the wheel index's build of the same
// release and CUDA where that build carries its own cuDNN instead
// (torch_wheel_cudnn names it for the wheel index only: 2.0.0+cu117
// bundles cuDNN 8.5.0 where the package index's 2.0.0 pins
// nvidia-cudnn-cu11).
func pinsServe(k ChannelCuDNNKB, fw *Framework, row *kb.TorchCUDALibs, rt string) bool {
	if kb.Distribution(row.Dist) != kb.DistPyPI || fw.Dist != kb.DistWheel {
		return true
	}
	w, ok := k.TorchCuDNNOf(kb.DistWheel, fw.Series(), stripLocal(fw.Version), rt)
	return !ok || slices.Contains(w.Dist, kb.DistPyPI)
}

// ChannelCuDNNKB is what PytorchChannelCuDNN reads from the knowledge base.
type ChannelCuDNNKB interface {
	TorchCuDNNOf(dist kb.Distribution, series, release, cuda string) (*kb.PytorchChannelCuDNN, bool)
	CondaForgeTorchCuDNNOf(series, cuda string) (*kb.CondaForgeTorchCuDNN, bool)
	DefaultsTorchCuDNNOf(release, cuda string) (*kb.DefaultsTorchCuDNN, bool)
	LastCuDNNOfMajor(major string) (*kb.CuDNNLastOfMajor, bool)
	CondaVariantPick(pkg string, dist kb.Distribution, release string) (*kb.CondaVariantPick, bool)
	CondaPublished(pkg string, dist kb.Distribution, release string) (published, known bool)
}

// PytorchChannelCuDNN is the cuDNN that fw's build for CUDA rt carries
// in itself: the cuDNN the pytorch channel's build copies into its
// package (pytorch_channel_cudnn), or the one a pip build of the wheel
// index (and the package index's plain torch where it is that build)
// links in or copies into the wheel (torch_wheel_cudnn), by its series
// and CUDA variant; false where the row is missing or fw is no such
// build. buildCuDNN is what the file's build string says of the cuDNN
// ("8", "8.2.0" or ""): a build string that names the full release is
// read before this and wins. A wheel that pins nvidia-cudnn is read
// from its pins (torch_cuda_libs) before this. One description for the
// build the file pins (frameworkLibs) and each build gpucheck decides
// over for a file that leaves the release open.
func PytorchChannelCuDNN(k ChannelCuDNNKB, fw *Framework, rt, buildCuDNN string) (GPUPackage, bool) {
	if k == nil || fw == nil {
		return GPUPackage{}, false
	}
	switch fw.Dist {
	case kb.DistPytorchConda:
	case kb.DistWheel, kb.DistPyPI:
		if fw.Name != "pytorch" {
			return GPUPackage{}, false
		}
	case kb.DistCondaForge:
		return condaForgeCuDNN(k, fw, rt)
	case kb.DistDefaults:
		return defaultsCuDNN(k, fw, rt)
	default:
		return GPUPackage{}, false
	}
	series := fw.Series()
	if series == "" {
		return GPUPackage{}, false
	}
	row, ok := k.TorchCuDNNOf(fw.Dist, series, stripLocal(fw.Version), rt)
	if !ok {
		return GPUPackage{}, false
	}
	rowOf := series
	if row.Release != "" {
		rowOf = row.Release
	}
	if buildCuDNN != "" && row.CuDNN != buildCuDNN && !strings.HasPrefix(row.CuDNN, buildCuDNN+".") {
		// The build string names another cuDNN major (cudnn8_0 beside a
		// row for 7.x): this is not the build the row describes.
		return GPUPackage{}, false
	}
	item := "pytorch " + rowOf + " (" + string(fw.Dist) + ", CUDA " + rt + ")"
	if strings.Count(row.CuDNN, ".") == 1 {
		// Only the series is known (1.7's CUDA 11.0 wheels: the build
		// image had 8.0.0 … 8.0.5 over the release's life).
		return GPUPackage{Name: "cudnn", Role: RoleCUDALibrary, Lib: "cudnn", BundledWith: loadedBy(fw), BuiltFor: BuiltFor{CUDA: []string{rt}},
			Within: row.CuDNN, WithinWhy: fmt.Sprintf("%s carries a cuDNN %s.x", item, row.CuDNN),
			Unknown:  "which cudnn " + row.CuDNN + ".x release it carries is not known",
			Evidence: []Evidence{{Item: item, Kind: EvidenceKBRow, Says: row.CuDNN, Package: "cudnn"}}}, true
	}
	return GPUPackage{Name: "cudnn", Role: RoleCUDALibrary, Lib: "cudnn", Version: row.CuDNN, BundledWith: loadedBy(fw), BuiltFor: BuiltFor{CUDA: []string{rt}}, Known: true,
		Evidence: []Evidence{{Item: item, Kind: EvidenceKBRow, Says: row.CuDNN, Package: "cudnn"}}}, true
}

// condaForgeCuDNN is the cuDNN conda-forge's pytorch build for CUDA rt
// requires: a release of one major (conda_forge_torch_cudnn), which the
// solver picks within it, so the package names the major only.
func condaForgeCuDNN(k ChannelCuDNNKB, fw *Framework, rt string) (GPUPackage, bool) {
	if fw.Name != "pytorch" || fw.Series() == "" || rt == "" {
		return GPUPackage{}, false
	}
	row, ok := k.CondaForgeTorchCuDNNOf(fw.Series(), rt)
	if !ok {
		return GPUPackage{}, false
	}
	return GPUPackage{Name: "cudnn", Role: RoleCUDALibrary, Lib: "cudnn", BundledWith: loadedBy(fw), BuiltFor: BuiltFor{CUDA: []string{rt}},
		Within: row.Major, WithinWhy: fmt.Sprintf("conda-forge's pytorch %s build for CUDA %s requires cudnn %s.x (its host cudnn's run_exports)", fw.Series(), rt, row.Major),
		Unknown:  "which cudnn " + row.Major + ".x release the solver installs is not known",
		Evidence: []Evidence{{Item: "pytorch " + fw.Series() + " (conda-forge, CUDA " + rt + ")", Kind: EvidenceKBRow, Says: row.Major, Package: "cudnn"}}}, true
}

// defaultsCuDNN is the cuDNN the defaults channel's pytorch build of a
// release for CUDA rt requires (defaults_torch_cudnn): its host release up
// to the next major, so every release it admits starts with what the host
// release shares with the last release of its major (8.9 of 8.9.2.26 …
// 8.9.7), and none is below the host release.
func defaultsCuDNN(k ChannelCuDNNKB, fw *Framework, rt string) (GPUPackage, bool) {
	if fw.Name != "pytorch" || rt == "" || fw.Variant != "cuda" {
		// with the variant open the build may be a CPU one, which
		// loads no cudnn: gpucheck judges each admitted build apart
		return GPUPackage{}, false
	}
	row, label, ok := defaultsCuDNNRow(k, fw, rt)
	if !ok {
		return GPUPackage{}, false
	}
	major, _, _ := strings.Cut(row.HostCuDNN, ".")
	next, err := strconv.Atoi(major)
	if err != nil {
		return GPUPackage{}, false
	}
	within := major
	why := fmt.Sprintf("the defaults channel's pytorch %s build for CUDA %s requires cudnn >=%s,<%d (pin_compatible of its host cudnn %s)", label, rt, row.HostCuDNN, next+1, row.HostCuDNN)
	if last, ok := k.LastCuDNNOfMajor(major); ok {
		if shared := sharedPrefix(row.HostCuDNN, last.Last); strings.Count(shared, ".") > 0 {
			within = shared
			why += ", and the last cuDNN " + major + " is " + last.Last
		}
	}
	return GPUPackage{Name: "cudnn", Role: RoleCUDALibrary, Lib: "cudnn", BundledWith: loadedBy(fw), BuiltFor: BuiltFor{CUDA: []string{rt}},
		Within: within, WithinWhy: why,
		Unknown:  "which cudnn release from " + row.HostCuDNN + " up to the next major the solver installs is not known",
		Evidence: []Evidence{{Item: "pytorch " + label + " (defaults, CUDA " + rt + ")", Kind: EvidenceKBRow, Says: ">=" + row.HostCuDNN + ",<" + strconv.Itoa(next+1), Package: "cudnn"}}}, true
}

// defaultsCuDNNRow is the defaults_torch_cudnn row of fw's release for CUDA
// rt and the release's label; for an open release, the one row every
// release it admits with a CUDA rt build shares (pytorch=2.0 admits 2.0.1
// only), where each candidate either has a row or, by its
// conda_variant_pick row, no CUDA rt build at all.
func defaultsCuDNNRow(k ChannelCuDNNKB, fw *Framework, rt string) (*kb.DefaultsTorchCuDNN, string, bool) {
	if fw.Version != "" {
		row, ok := k.DefaultsTorchCuDNNOf(fw.Version, rt)
		return row, fw.Version, ok
	}
	var found *kb.DefaultsTorchCuDNN
	var with []string
	for _, v := range fw.Candidates {
		if pub, known := k.CondaPublished("pytorch", kb.DistDefaults, v); known && !pub {
			continue // never on the channel (2.0.0)
		}
		if row, ok := k.DefaultsTorchCuDNNOf(v, rt); ok {
			if found != nil && found.HostCuDNN != row.HostCuDNN {
				return nil, "", false
			}
			found, with = row, append(with, v)
			continue
		}
		if pick, ok := k.CondaVariantPick("pytorch", kb.DistDefaults, v); !ok || slices.Contains(pick.CUDA, rt) {
			return nil, "", false // a CUDA rt build, or builds not known
		}
	}
	if found == nil {
		return nil, "", false
	}
	return found, strings.Join(with, ", "), true
}

// sharedPrefix is the leading dot-separated parts a and b share ("8.9" of
// 8.9.2.26 and 8.9.7).
func sharedPrefix(a, b string) string {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	n := 0
	for n < len(pa) && n < len(pb) && pa[n] == pb[n] {
		n++
	}
	return strings.Join(pa[:n], ".")
}

// loadedBy names the framework build that loads a library, for "loaded by
// torch 2.6.0": its package name and, where pinned, its release.
func loadedBy(fw *Framework) string {
	with := FrameworkPackage(fw.Name)
	if fw.Version != "" {
		with += " " + fw.Version
	}
	return with
}

// extrasOf returns the extras of a requirement name (cuda-toolkit[cublas,cufft]).
func extrasOf(name string) []string {
	_, rest, ok := strings.Cut(name, "[")
	if !ok {
		return nil
	}
	rest, _, _ = strings.Cut(rest, "]")
	var out []string
	for e := range strings.SplitSeq(rest, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// extensionPackage reads an item as a GPU extension: one the knowledge
// base names, a GPU library it lists beside the frameworks, or a package
// whose version or build says it was built for CUDA.
func (r *resolution) extensionPackage(it *item) (GPUPackage, bool) {
	var ext *kb.Extension
	if r.kb != nil {
		ext, _ = r.kb.ExtensionByName(it.name)
	}
	local := it.local
	if local == "" {
		local = wheelURLLocal(it)
	}
	cudaBuild := false
	switch {
	case ext != nil:
	case frameworkOf(it) != "" || r.isCompanion(it) || frameworkPart(it.name) || selectorBuild(it):
		return GPUPackage{}, false
	case it.from() == envspec.ProviderConda && DecodeBuild(it.build).Variant == "cpu":
		return GPUPackage{}, false
	case r.condaForgeCPUOnly(it):
		return GPUPackage{}, false
	case r.gpuLibName(it):
	case it.from() == envspec.ProviderPip && decodeExtLocal(local).Major > 0:
		cudaBuild = true
	case it.from() == envspec.ProviderConda && DecodeBuild(it.build).Variant == "cuda":
		cudaBuild = true
	default:
		return GPUPackage{}, false
	}
	p := GPUPackage{Name: it.name, Role: RoleExtension, Version: it.exact, From: it.from(), Item: it.raw(), Pos: it.verPos(), Line: it.pos().Line, ext: ext}
	if it.exact == "" {
		p.Spec = strings.TrimSpace(it.verText)
	}
	if ext == nil {
		p.Unknown = "the knowledge base has no facts on " + it.name
		if cudaBuild {
			p.Unknown = it.name + " carries CUDA code (" + orText(local, it.build) + ") and the knowledge base has no facts on it"
		}
		if m := kb.CUDAMajorFromPipName(it.name); m > 0 {
			p.BuiltFor.CUDA = []string{strconv.Itoa(m)}
			p.Evidence = append(p.Evidence, Evidence{Item: it.raw(), Kind: EvidenceName, Says: strconv.Itoa(m), Package: it.name})
		}
		return p, true
	}
	if ext.MinCC != "" {
		p.Code.MinCC = ext.MinCC
	}
	p.Code.JIT = ext.JIT
	r.builtForFromLocal(&p, it, local)
	r.builtForFromIndex(&p, it)
	r.builtForFromKB(&p, it)
	p.finishBuilds()
	if m := kb.CUDAMajorFromPipName(it.name); m > 0 && len(p.BuiltFor.CUDA) == 0 {
		p.BuiltFor.CUDA = []string{strconv.Itoa(m)}
		p.Evidence = append(p.Evidence, Evidence{Item: it.raw(), Kind: EvidenceName, Says: strconv.Itoa(m), Package: it.name})
	}
	if p.Version == "" && it.from() == envspec.ProviderConda && !r.channelRange(&p, it, ext) {
		r.condaForgeRange(&p, it, ext)
	}
	if p.Version != "" && !p.Known && it.from() == envspec.ProviderConda {
		// a release with no row of its own, from a channel whose every
		// build one workflow made (gpucorpus 36: the pyg channel's
		// pytorch-cluster 1.6.0, built for CUDA 11.6)
		r.channelRange(&p, it, ext)
	}
	if p.Version == "" && it.from() == envspec.ProviderPip && len(p.BuiltFor.Torch) == 0 {
		r.indexRange(&p, it, ext)
	}
	r.wheelLibsFromMachine(&p, it, ext)
	switch {
	case p.Known && p.Version == "":
		// every build of every release the spec admits is described
	case p.Version == "" && p.Unknown != "":
		// condaForgeRange said why the admitted builds are not decided
	case ext.JIT && ext.MinCC != "" && !ext.TorchABI:
		// A compiler whose every release keeps one floor: the release
		// decides nothing a target is judged by.
		p.Known = true
	case p.Version == "" && p.Series != "" && p.Known:
		// Every release of the pinned series has the rows' build.
	case p.Version == "" && p.Series != "" && p.Unknown != "":
		// installerRows said why no row of the series fits.
	case p.Version == "" && it.verText != "":
		p.Unknown = "the release of " + it.name + " is left to the solver (" + it.verText + ")"
	case p.Version == "":
		p.Unknown = "the release of " + it.name + " is left to the solver"
	case !p.Known && p.Unknown != "":
		// builtForFromKB said why no row describes this build.
	case !p.Known:
		if latest := r.kb.LatestExtension(it.name); latest != "" {
			if c, ok := kb.CompareDotted(p.Version, latest); ok && c > 0 {
				p.Unknown = it.name + " " + p.Version + " is newer than every release the knowledge base knows (" + latest + ")"
				break
			}
		}
		p.Unknown = "the knowledge base has no row for " + it.name + " " + p.Version
		if it.from() == envspec.ProviderPip && commitLocal.MatchString(local) {
			// review twelve #759: "2.2.0+c55e425" is no release 2.2.0
			p.LocalBuild = true
			p.Unknown = it.name + " " + p.Version + "+" + local + " is a local build: its local version names a source commit (" + local + "), not a build any index publishes, so it was compiled from source on the machine that made it, with that machine's CUDA toolkit and architecture list"
		}
	}
	if !p.Known && ext.ArchUnknown != "" {
		p.Unknown += ", and " + ext.ArchUnknown
	}
	label := it.name
	if rel := p.Release(); rel != "" {
		label += " " + rel
	}
	if o, ok := r.kb.IndexOtherProjectOf(it.name); ok && it.from() == envspec.ProviderPip && local == "" && p.Version != "" && !o.HasRelease(p.Version) && indexNamed(r.env) && packageIndexOnly(r.env, r.kb) {
		// EG205: pip finds no such release; nothing gets built to check.
		p.Known, p.NotInstallable, p.Code = false, true, GPUCode{}
		p.Unknown = label + " cannot be installed from the package index (EG205: the index's " + it.name + " is another project, with no release " + p.Version + ")"
		if o.NoProject {
			p.Unknown = label + " cannot be installed from the package index (EG205: it has no " + it.name + " project)"
		}
		return p, true
	}
	if ext.SourceOnly && it.from() == envspec.ProviderPip && local == "" {
		// No binary anywhere: whatever the release, pip compiles it.
		p.Known, p.SourceBuild, p.Code = false, true, GPUCode{}
		p.Unknown = label + " has no binary package: pip builds it from source on the install machine, against the installed torch and with that machine's CUDA toolkit (nvcc, CUDA_HOME)"
		return p, true
	}
	if ext.IndexSdistOnly && it.from() == envspec.ProviderPip && local == "" && !hasEvidence(p.Evidence, EvidenceIndex) && r.packageIndexOnly() {
		// No wheel tag and no find-links page: pip takes the package
		// index's source and builds it with the install machine's nvcc
		// (CUDA_HOME), so no row of prebuilt wheels describes it.
		p.Known, p.SourceBuild, p.Code = false, true, GPUCode{}
		p.Unknown = label + " comes from the package index, which has only its source: pip compiles it on the install machine with that machine's CUDA toolkit (nvcc, CUDA_HOME)"
		if why := r.sourceBuild(&p, it); why != "" {
			p.Unknown += "; " + why
		}
		if fw := r.st.Framework; fw != nil && fw.Name == "pytorch" && fw.From == envspec.ProviderPip && r.sdistRow(it.name, p.Version) != nil {
			// The releases with an index-sdist row have no pyproject.toml
			// and a setup.py that imports torch (torch.utils.cpp_extension;
			// PYG_SRC_PYG_2021), and pip builds every package of a run
			// before installing any, so with torch in the same run the
			// build stops at "No module named 'torch'" (review ten #927;
			// rusty1s/pytorch_scatter#145)
			p.Unknown += "; and where pip installs torch in the same run, as this file does, the build stops before compiling anything: its setup.py imports torch, which pip installs only after building every package of the run (install torch first, or take PyG's prebuilt wheel)"
			// pip stops the whole run there: the file cannot be
			// installed as written (EG205; review fifty F29, corpus 123)
			r.st.PinConflicts = append(r.st.PinConflicts, PinConflict{
				Pos:  it.pos(),
				Why:  fmt.Sprintf("pip cannot install %s beside the torch it installs in the same run: the package index has only its source, whose setup.py imports torch, and pip builds every package of a run before it installs any (\"No module named 'torch'\")", it.raw()),
				Hint: fmt.Sprintf("install torch first (a conda pytorch, or a separate pip run before this one), or take %s's prebuilt wheel from PyG's page for the file's torch and CUDA (-f …/whl/torch-X.Y.Z+cuXYZ.html)", it.name),
			})
		}
	}
	return p, true
}

// sdistRow is the knowledge base's index-sdist row of the release: what
// pip's compile of the package index's source gives; nil where it has none.
func (r *resolution) sdistRow(name, version string) *kb.ExtensionBuild {
	if r.kb == nil || version == "" {
		return nil
	}
	for _, b := range r.kb.ExtensionBuildsOf(name, version) {
		if b.Dist == kb.DistIndexSdist {
			return &b
		}
	}
	return nil
}

// sourceBuild decides what pip's compile of a package-index source gives
// where the release's index-sdist row makes it the same on every install
// machine: the architectures its setup.py fixes, compiled against the
// environment's torch (and its C++ ABI, which torch's cpp_extension
// passes) with torch's own CUDA, since the package's import check refuses
// a build of any other CUDA major.minor, a CPU build included. That holds
// only for a conda CUDA torch (installed before pip runs, so setup.py's
// "import torch" finds it) whose runtime's nvcc can emit the row's
// architectures. It returns why the build stays unknown where a row
// exists but does not decide it, else "".
func (r *resolution) sourceBuild(p *GPUPackage, it *item) string {
	row := r.sdistRow(it.name, p.Version)
	if row == nil {
		return ""
	}
	if !row.ArchKnown {
		return "its setup.py leaves the GPU architectures to torch's cpp_extension: TORCH_CUDA_ARCH_LIST, else those of the GPUs the install machine has"
	}
	fw := r.st.Framework
	switch {
	case fw == nil || fw.Name != "pytorch" || fw.Version == "":
		return "which torch release it is compiled against is not known"
	case fw.From != envspec.ProviderConda:
		return "which torch it is compiled against is not known from the file, since torch comes from pip too and not from a conda package installed before pip runs"
	case fw.Variant != "cuda" || r.st.CUDA == nil || r.st.CUDA.Version == "":
		return "whether it is compiled with CUDA is not known, since torch is not a CUDA build of a known runtime"
	case row.ImportCUDACheck == kb.ImportCUDAMajor:
		return "the CUDA it is compiled with is not pinned to torch's, since its import check compares the CUDA major alone"
	case row.ImportCUDACheck != kb.ImportCUDAMajorMinor:
		return "the CUDA it is compiled with is not pinned to torch's, since it checks no CUDA version at import"
	}
	cuda := majorMinor(r.st.CUDA.Version)
	ta, ok := r.kb.ToolkitArch(cuda)
	if !ok {
		return "which architectures the nvcc of CUDA " + cuda + " can target is not known"
	}
	for _, c := range append(append([]string(nil), row.SASS...), row.PTX...) {
		lo, _ := kb.CompareDotted(c, ta.MinSASS)
		hi, _ := kb.CompareDotted(c, ta.MaxSASS)
		if lo < 0 || hi > 0 {
			return "its setup.py asks nvcc for compute capability " + c + ", which the nvcc of CUDA " + cuda + " cannot target: the build fails"
		}
	}
	p.Known, p.Unknown = true, ""
	p.BuiltFor.Torch, p.BuiltFor.TorchPin = []string{fw.Version}, false
	p.BuiltFor.CUDA = []string{cuda}
	p.BuiltFor.ABI = nil
	if r.st.TorchABI != "" {
		p.BuiltFor.ABI = []string{r.st.TorchABI}
	}
	p.Code = GPUCode{SASS: row.SASS, PTX: row.PTX, Known: true}
	p.Evidence = append(p.Evidence, Evidence{Item: row.Name + " " + row.Version + " (" + row.Dist + ")", Kind: EvidenceKBRow, Says: row.Source, Package: row.Name, Version: row.Version})
	return ""
}

// packageIndexOnly reports whether pip looks for packages on the package
// index alone: the pip section names no find-links page and no index but
// PyTorch's wheel index as an extra one (which serves no PyG package). Any
// other page may serve prebuilt wheels (PyG's older
// pytorch-geometric.com/whl pages), and --index-url replaces the index.
func (r *resolution) packageIndexOnly() bool { return packageIndexOnly(r.env, r.kb) }

// packageIndexOnly is resolution.packageIndexOnly for any env.
func packageIndexOnly(env *envspec.Env, k *kb.KB) bool {
	return indexOnlyBeside(env, k, func(string) bool { return false })
}

// indexOnlyBeside is packageIndexOnly where the pages other says serve
// other projects' wheels alone do not count (JAX's find-links page of
// jaxlib wheels, for any package but jax's).
func indexOnlyBeside(env *envspec.Env, k *kb.KB, other func(url string) bool) bool {
	root := ""
	if k != nil {
		root = k.TorchWheelIndexURL()
	}
	for _, d := range env.Pip {
		o := pipOpt(d)
		if o == nil || !isIndexOption(o.Name) {
			continue
		}
		if o.Name == "--extra-index-url" && root != "" && strings.HasPrefix(o.Value, root) {
			continue
		}
		if (o.Name == "--find-links" || o.Name == "-f") && other(o.Value) {
			continue
		}
		return false
	}
	return true
}

// hasEvidence reports whether some evidence is of the kind.
func hasEvidence(es []Evidence, kind string) bool {
	for _, e := range es {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// frameworkPart reports a package a framework's conda build is split
// into (libtorch, tensorflow-base, libtensorflow_cc, tensorflow-estimator):
// it is the framework, judged as such.
func frameworkPart(name string) bool {
	for _, f := range []string{"pytorch", "torch", "tensorflow", "jax"} {
		if strings.HasPrefix(name, f+"-") || strings.HasPrefix(name, "lib"+f) {
			return true
		}
	}
	return false
}

// selectorBuild reports a conda selector package (pytorch-mutex=*=cuda,
// _pytorch_select=*=gpu_0, _tflow_select=*=gpu): its build string is a
// variant word alone, and it holds no code.
func selectorBuild(it *item) bool {
	if it.from() != envspec.ProviderConda {
		return false
	}
	b := strings.ToLower(it.build)
	b = strings.TrimRight(b, "0123456789")
	b = strings.TrimSuffix(b, "_")
	return b == "cuda" || b == "cpu" || b == "gpu" || strings.HasPrefix(it.name, "_")
}

func orText(a, b string) string {
	if a != "" {
		return "+" + a
	}
	return b
}

// isCompanion reports a framework's lockstep companion (torchvision).
func (r *resolution) isCompanion(it *item) bool {
	for _, c := range names(r.kb).CompanionsOf("pytorch") {
		if c == it.name {
			return true
		}
	}
	return false
}

// gpuLibName reports a package the knowledge base lists as a GPU library
// that is neither a framework, a companion nor a CUDA wheel.
func (r *resolution) gpuLibName(it *item) bool {
	var lib string
	if it.from() == envspec.ProviderConda {
		lib = r.libByConda(it.name)
	} else {
		lib = r.libByPip(it.name)
	}
	switch lib {
	case "", "torch", "torchvision", "torchaudio", "tensorflow", "jax", "nvidia-cuda-wheels":
		return false
	}
	return true
}

// condaForgeCPUOnly reports whether a conda item is a release that
// conda-forge built only for the CPU (gpu_libs' conda_forge_cuda_since:
// onnxruntime before 1.15.1): it comes from conda-forge, names a release
// older than the first CUDA build, and its build string does not say CUDA.
//
// A series pin (py-xgboost=0.90, conda's fuzzy match for 0.90.*) is
// CPU-only where the whole series is older: its major.minor is below that
// of the first CUDA build.
func (r *resolution) condaForgeCPUOnly(it *item) bool {
	if r.kb == nil || it.from() != envspec.ProviderConda || it.channel != "conda-forge" || DecodeBuild(it.build).Variant == "cuda" {
		return false
	}
	l, ok := r.kb.LibByConda(it.name)
	if !ok || l.CondaForgeCUDASince == "" {
		return false
	}
	if it.exact == "" {
		series := condaSeriesPin(it.verText)
		if series == "" {
			return false
		}
		parts := strings.SplitN(l.CondaForgeCUDASince, ".", 3)
		if len(parts) < 2 {
			return false
		}
		c, ok := kb.CompareDotted(series, parts[0]+"."+parts[1])
		return ok && c < 0
	}
	c, ok := kb.CompareDotted(it.exact, l.CondaForgeCUDASince)
	return ok && c < 0
}

// condaSeriesPin returns the major.minor series a conda version text pins
// with conda's fuzzy match (=0.90, 0.90.*, =0.90.*), or "" for any other
// text.
func condaSeriesPin(text string) string {
	t := strings.TrimSpace(text)
	if s := specSeries(t); s != "" {
		return s
	}
	// a bare X.Y.* is conda's fuzzy match too
	if strings.HasSuffix(t, ".*") && !strings.ContainsAny(t, "=<>!~,|") {
		return specSeries("=" + t)
	}
	return ""
}

// builtForFromLocal decodes the local version of the wheel the item names
// with the extension's pattern (+cu12torch2.6cxx11abiFALSE, +pt21cu121).
func (r *resolution) builtForFromLocal(p *GPUPackage, it *item, local string) {
	if local == "" || p.ext.LocalVersion == "" {
		return
	}
	g, ok := matchGroups(p.ext.LocalVersion, local)
	if !ok {
		return
	}
	p.Known = true
	p.applyGroups(g)
	shown := "+" + local
	if raw := it.raw(); raw != "" {
		if i := strings.Index(strings.ToLower(raw), "+"+local); i >= 0 {
			shown = raw[i : i+1+len(local)]
		}
	}
	p.Evidence = append(p.Evidence, Evidence{Item: shown, Kind: EvidenceWheelTag, Says: local, Package: it.name, Pos: it.verPos(), Line: it.pos().Line})
}

// builtForFromIndex decodes an index or find-links URL of the file with
// the extension's pattern (torch-2.1.0+cu121.html, /whl/cu121/torch2.4).
func (r *resolution) builtForFromIndex(p *GPUPackage, it *item) {
	if p.ext.IndexURL == "" || len(p.BuiltFor.Torch) > 0 || it.from() != envspec.ProviderPip {
		return
	}
	// The first index that names torch wins over one that names only CUDA.
	var best *envspec.PipDep
	var bestG map[string]string
	for _, d := range r.env.Pip {
		o := pipOpt(d)
		if o == nil || !isIndexOption(o.Name) {
			continue
		}
		g, ok := matchGroups(p.ext.IndexURL, o.Value)
		if !ok {
			continue
		}
		if best == nil || (bestG["torch"] == "" && g["torch"] != "") {
			best, bestG = d, g
		}
	}
	if best == nil {
		return
	}
	p.Known = true
	p.applyGroups(bestG)
	// An index page serves a torch series: the wheels PyG's
	// torch-2.5.0+cu124.html and torch-2.5.1+cu124.html list carry the
	// series alone in their tag (+pt25cu124), built once per series.
	for i, t := range p.BuiltFor.Torch {
		p.BuiltFor.Torch[i] = seriesOf(t)
	}
	p.Evidence = append(p.Evidence, Evidence{Item: best.Raw.Value, Kind: EvidenceIndex, Says: pipOpt(best).Value, Package: it.name, Pos: best.Raw.Pos, Line: best.Raw.Pos.Line})
}

// builtForFromKB reads the knowledge base's rows for the item's release:
// an exact torch pin from its metadata, and the GPU code of its builds.
func (r *resolution) builtForFromKB(p *GPUPackage, it *item) {
	var rows []kb.ExtensionBuild
	switch {
	case p.Version != "":
		rows = r.kb.ExtensionBuildsOf(it.name, p.Version)
	default:
		// A spec that pins a series and leaves its release open
		// (cudf==23.8.*) is decided by rows that hold for the series.
		s := specSeries(it.verText)
		if s == "" {
			return
		}
		if rows = r.kb.ExtensionSeriesBuilds(it.name, s); len(rows) == 0 {
			return
		}
		p.Series = s
	}
	if p.ext.TorchCUDALib {
		rows = r.torchCUDARows(p, it, rows)
	}
	rows = r.installerRows(p, it, rows)
	for _, b := range rows {
		switch b.Dist {
		case kb.DistIndexSdist:
			// What pip compiles from the index's source: sourceBuild
			// reads it, and only for an item that gets the source.
			continue
		case "release-asset", "pyg-index", "flashinfer-index":
			// These rows describe a matrix of wheels; which one the file
			// gets is what its wheel tag or index says.
			if len(p.BuiltFor.Torch) == 0 && len(p.BuiltFor.CUDA) == 0 {
				p.Known = p.Known || b.ArchKnown || b.MinCC != ""
			}
		default:
			p.Known = true
			if b.TorchPin && len(p.BuiltFor.Torch) == 0 {
				p.BuiltFor.Torch, p.BuiltFor.TorchPin = append([]string(nil), b.Torch...), true
			}
			if len(p.BuiltFor.CUDA) == 0 && len(b.CUDA) > 0 && it.from() == envspec.ProviderPip && b.Dist == "pypi" && !b.CUDAFromMachine {
				p.BuiltFor.CUDA = r.pipVariantCUDA(it.name, p.Version, b.CUDA)
			}
			if len(p.BuiltFor.ABI) == 0 && len(b.ABI) == 1 {
				p.BuiltFor.ABI = append([]string(nil), b.ABI...)
			}
		}
		if b.BuiltOnMachine != "" && p.BuiltOnMachine == "" && p.rowMatches(b) {
			p.BuiltOnMachine = b.BuiltOnMachine
		}
		if b.ArchKnown && p.rowMatches(b) {
			if why := r.indexOfOtherMajor(p, it, b); why != "" {
				if p.CodeUnknown == "" {
					p.CodeUnknown = why
				}
				continue
			}
			code := GPUCode{SASS: b.SASS, PTX: b.PTX, Known: true, NoDeviceCode: b.NoDeviceCode}
			if !p.Code.Known {
				p.Code.SASS, p.Code.PTX, p.Code.Known, p.Code.NoDeviceCode = b.SASS, b.PTX, true, b.NoDeviceCode
			}
			if b.CUDAFromMachine && p.CUDAFromMachine != "" {
				// Each library the wheel carries may be the one that
				// loads: judgeExtension decides only where none runs.
				p.Builds = addBuild(p.Builds, BuildCode{Label: "CUDA " + strings.Join(b.CUDA, "/"), Code: code})
			}
			if _, conda := kb.CondaBuildChannel[b.Dist]; conda {
				// installerRows kept only the builds for the item's CUDA:
				// two of them (one release built with two nvcc releases)
				// are both what the file may get
				p.Builds = addBuild(p.Builds, BuildCode{Label: b.Name + " " + b.Version + " (" + b.Dist + ", " + buildNote(b) + ")", Code: code})
			}
		}
		if b.MinCC != "" {
			p.Code.MinCC = b.MinCC
		}
		if len(b.SupportedCC) > 0 && p.rowMatches(b) && len(p.Code.SupportedCC) == 0 && !p.Code.Known {
			p.Code.SupportedCC, p.Code.UnlistedCC = append([]string(nil), b.SupportedCC...), b.UnlistedCC
		}
		p.Evidence = append(p.Evidence, Evidence{Item: b.Name + " " + b.Version + " (" + b.Dist + ")", Kind: EvidenceKBRow, Says: b.Source, Package: b.Name, Version: b.Version})
	}
}

// specSeries returns the major.minor series a version spec pins while
// leaving the release within it open: conda's "=22.08" (fuzzy: 22.08.*)
// or "=22.08.*", and "==23.8.*" in conda or pip syntax. "" for any other
// spec (a range, an exact release, several clauses).
func specSeries(spec string) string {
	s := strings.TrimSpace(spec)
	switch {
	case strings.HasPrefix(s, "=="):
		s = strings.TrimPrefix(s, "==")
		if !strings.HasSuffix(s, ".*") {
			return ""
		}
		s = strings.TrimSuffix(s, ".*")
	case strings.HasPrefix(s, "="):
		s = strings.TrimSuffix(strings.TrimPrefix(s, "="), ".*")
	default:
		return ""
	}
	parts := strings.Split(s, ".")
	if len(parts) != 2 {
		return ""
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return ""
		}
	}
	return s
}

// addBuild adds a build to bs unless one with the same code is there.
func addBuild(bs []BuildCode, b BuildCode) []BuildCode {
	for _, o := range bs {
		if slices.Equal(o.Code.SASS, b.Code.SASS) && slices.Equal(o.Code.PTX, b.Code.PTX) {
			return bs
		}
	}
	return append(bs, b)
}

// buildNote names a row's build for a label: the nvcc its note names, else
// its CUDA.
func buildNote(b kb.ExtensionBuild) string {
	if _, rest, ok := strings.Cut(b.Note, "cuda_compiler_version "); ok {
		if v, _, _ := strings.Cut(rest, " "); v != "" {
			return "the CUDA " + v + " build"
		}
	}
	return "CUDA " + strings.Join(b.CUDA, "/")
}

// finishBuilds keeps Builds only where they differ, and makes Code their
// union for summaries.
func (p *GPUPackage) finishBuilds() {
	if len(p.Builds) < 2 {
		p.Builds = nil
		return
	}
	var sass, ptx []string
	for _, b := range p.Builds {
		sass = unionSorted(sass, b.Code.SASS)
		ptx = unionSorted(ptx, b.Code.PTX)
	}
	p.Code.SASS, p.Code.PTX, p.Code.Known = sass, ptx, true
}

func unionSorted(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(x, y string) int { c, _ := kb.CompareDotted(x, y); return c })
	return out
}

// channelRange decides a conda item whose release the spec leaves open
// where the knowledge base describes every build its channel published
// (channel_build_code: one workflow built the pyg channel's extensions,
// with one architecture list per CUDA): the builds are those for the
// environment's CUDA, or, where that is not known, for every CUDA the
// channel built, each judged (review forty-three F41, corpus 048). It
// reports whether it handled the item.
func (r *resolution) channelRange(p *GPUPackage, it *item, ext *kb.Extension) bool {
	if r.kb == nil || it.channel == "" {
		return false
	}
	rows := r.kb.ChannelBuildCodeOf(ext.Name, it.channel)
	if len(rows) == 0 {
		return false
	}
	p.ChannelBuilt = it.channel
	label := "the release of " + it.name + " is left to the solver"
	if it.verText != "" {
		label += " (" + it.verText + ")"
	}
	if p.Version != "" {
		label = it.name + " " + p.Version + " has no row of its own"
	}
	cuda := ""
	switch {
	case len(p.BuiltFor.CUDA) == 1 && hasMinor(p.BuiltFor.CUDA[0]):
		cuda = majorMinor(p.BuiltFor.CUDA[0]) // the build string's (cu116)
	case r.st.CUDA != nil && r.st.CUDA.Version != "":
		cuda = majorMinor(r.st.CUDA.Version)
	}
	var builds []BuildCode
	for _, row := range rows {
		if cuda != "" && !row.Admits(cuda) {
			continue
		}
		builds = append(builds, BuildCode{Label: it.name + " (" + row.Built + ")", Code: GPUCode{SASS: row.SASS, PTX: row.PTX, Known: true}})
		p.Evidence = append(p.Evidence, Evidence{Item: it.raw(), Kind: EvidenceKBRow, Says: row.Source, Package: it.name})
	}
	if len(builds) == 0 {
		p.Unknown = label + ", and the " + it.channel + " channel built " + it.name + " for no CUDA " + cuda
		return true
	}
	p.Known, p.Unknown = true, ""
	if cuda != "" {
		p.BuiltFor.CUDA = []string{cuda}
	}
	p.Builds, p.Code = builds, builds[0].Code
	p.finishBuilds()
	return true
}

// condaForgeRange decides a conda-forge item whose release the spec
// leaves open (cupy>=12.0.0) where the knowledge base lists every release
// conda-forge published and has a row for every linux_64 build from
// CondaForgeCompleteFrom on: each admitted release contributes the builds
// for the environment's CUDA, and one whose builds are all for another
// CUDA major cannot install beside it. The package is then known, with
// Builds listing each distinct build. Otherwise it sets Unknown to why.
func (r *resolution) condaForgeRange(p *GPUPackage, it *item, ext *kb.Extension) {
	if r.kb == nil || len(ext.CondaForgeReleases) == 0 || (ext.CondaForgeCompleteFrom == "" && len(ext.CondaForgeComplete) == 0) {
		return
	}
	label := "the release of " + it.name + " is left to the solver"
	if it.verText != "" {
		label += " (" + it.verText + ")"
	}
	if one := onlyRelease(ext.CondaForgeReleases, it.verText); one != "" && it.channel == "conda-forge" {
		// the spec admits one release of conda-forge's (openmm=7.7:
		// 7.7.0, review forty-eight F7): the release is fixed, its build
		// for the environment's CUDA is what is open
		label = it.name + " " + it.verText + " is conda-forge's " + one + ", its only release the spec admits"
	}
	if it.channel != "conda-forge" {
		p.Unknown = label + ", and it comes from " + orUnknownChannel(it.channel) + ", whose builds of " + it.name + " the knowledge base does not describe (it describes conda-forge's)"
		return
	}
	var vs *envspec.VersionSpec
	if it.verText != "" {
		var err error
		if vs, err = envspec.ParseVersionSpec(it.verText); err != nil || vs == nil {
			return
		}
	}
	cuda := ""
	if r.st.CUDA != nil && r.st.CUDA.Version != "" {
		cuda = majorMinor(r.st.CUDA.Version)
	}
	if cuda == "" {
		p.Unknown = label + ", and conda-forge builds each release once per CUDA toolkit while which CUDA this environment has is not known"
		p.CUDAOpen = true
		return
	}
	if !condaPinsCUDA(r.st.CUDA, cuda) {
		// Only a conda cudatoolkit or cuda-version package holds conda's
		// CUDA to the environment's (cuda-version refuses another major);
		// a CUDA known from a pip wheel leaves conda free to install a
		// build for any CUDA beside it.
		p.Unknown = label + ", and no conda cudatoolkit or cuda-version package holds conda-forge's builds to CUDA " + cuda
		return
	}
	var older, admitted []string
	var builds []BuildCode
	spans := map[int]*[3]string{} // index in builds → first and last release with that code, and which build
	for _, v := range ext.CondaForgeReleases {
		if (vs == nil || vs.MatchString(v)) && !ext.CondaForgeCompleteRelease(v) {
			older = append(older, v)
		}
	}
	if len(older) > 0 {
		p.Unknown = label + ", and it admits releases (" + spanText(older) + ") whose conda-forge builds the knowledge base does not describe in full"
		return
	}
	for _, v := range ext.CondaForgeReleases {
		if vs != nil && !vs.MatchString(v) {
			continue
		}
		var rows, other []kb.ExtensionBuild
		for _, b := range r.kb.ExtensionBuildsOf(it.name, v) {
			if b.Dist != "conda-forge" {
				continue
			}
			if contains(b.CUDA, cuda) {
				rows = append(rows, b)
			} else {
				other = append(other, b)
			}
		}
		if len(rows) == 0 {
			if openForCUDA(other, cuda) || len(other) == 0 {
				p.Unknown = label + ", and the knowledge base has no conda-forge build of " + it.name + " " + v + " for CUDA " + cuda
				return
			}
			// every build is for another CUDA major, which cuda-version
			// refuses beside this one, or pins other CUDA releases exactly
			continue
		}
		admitted = append(admitted, v)
		for _, b := range rows {
			if !b.ArchKnown {
				p.Unknown = label + ", and which architectures conda-forge's " + it.name + " " + v + " build for CUDA " + cuda + " carries is not known"
				return
			}
			builds = addSpan(builds, spans, it.name, v, "conda-forge, "+buildNote(b), GPUCode{SASS: b.SASS, PTX: b.PTX, Known: true, NoDeviceCode: b.NoDeviceCode})
		}
		p.Evidence = append(p.Evidence, Evidence{Item: it.name + " " + v + " (conda-forge)", Kind: EvidenceKBRow, Says: rows[0].Source, Package: it.name, Version: v})
	}
	switch {
	case len(admitted) == 0:
		p.Unknown = label + ", and no conda-forge release it admits has a build for CUDA " + cuda
	default:
		p.Known = true
		p.BuiltFor.CUDA = []string{cuda}
		p.Releases = admitted
		p.Builds, p.Code, p.Unknown = builds, builds[0].Code, ""
		p.finishBuilds()
		p.Evidence = append(p.Evidence, Evidence{Item: it.raw(), Kind: EvidenceKBRow, Says: "releases " + spanText(admitted) + " on conda-forge for CUDA " + cuda, Package: it.name})
	}
}

// indexRange judges a pip extension whose release the file leaves open
// over the pypi rows of every release its spec admits, where the
// extension row lists the package index's releases (index_releases) and
// every one from index_complete_from on has rows: cupy-cuda12x>=13.0.0
// is a CUDA 12 wheel with sm_90 SASS in every release it admits (review
// fourteen #93). The list must reach the newest release an index_releases
// row names, or a release it does not know may be the one pip takes.
func (r *resolution) indexRange(p *GPUPackage, it *item, ext *kb.Extension) {
	if r.kb == nil || len(ext.IndexReleases) == 0 || !indexOnlyBeside(r.env, r.kb, isJaxFindLinks) {
		return
	}
	label := "the release of " + it.name + " is left to the solver"
	if it.verText != "" {
		label += " (" + it.verText + ")"
	}
	newest, ok := r.kb.NewestIndexRelease(it.name)
	if !ok {
		return
	}
	last := ext.IndexReleases[len(ext.IndexReleases)-1]
	if c, ok := kb.CompareDotted(newest.Version, last); !ok || c > 0 {
		p.Unknown = label + ", and the package index has " + it.name + " " + newest.Version + ", newer than every release the knowledge base describes (" + last + ")"
		return
	}
	var older, admitted []string
	for _, v := range ext.IndexReleases {
		if it.verText != "" && !admits(it.verText, v) {
			continue
		}
		if c, ok := kb.CompareDotted(v, ext.IndexCompleteFrom); !ok || c < 0 {
			older = append(older, v)
			continue
		}
		admitted = append(admitted, v)
	}
	if len(older) > 0 {
		p.Unknown = label + ", and it admits releases older than " + ext.IndexCompleteFrom + " (" + spanText(older) + "), whose wheels the knowledge base does not describe"
		return
	}
	if len(admitted) == 0 {
		return
	}
	var builds []BuildCode
	var sources []string
	spans := map[int]*[3]string{}
	for _, v := range admitted {
		var rows []kb.ExtensionBuild
		for _, b := range r.kb.ExtensionBuildsOf(it.name, v) {
			if b.Dist == "pypi" {
				rows = append(rows, b)
			}
		}
		if len(rows) != 1 || !rows[0].ArchKnown {
			// none, or one wheel per CUDA the line does not choose between
			p.Unknown = label + ", and the knowledge base does not describe one package-index wheel of " + it.name + " " + v
			return
		}
		b := rows[0]
		builds = addSpan(builds, spans, it.name, v, "package index wheel", GPUCode{SASS: b.SASS, PTX: b.PTX, Known: true, NoDeviceCode: b.NoDeviceCode})
		for _, k := range strings.Split(b.Source, ";") {
			if k = strings.TrimSpace(k); k != "" && !slices.Contains(sources, k) {
				sources = append(sources, k)
			}
		}
	}
	p.Known = true
	minCC := p.Code.MinCC
	p.Builds, p.Code, p.Unknown = builds, builds[0].Code, ""
	p.Code.MinCC = minCC
	p.finishBuilds()
	p.Evidence = append(p.Evidence, Evidence{Item: it.name + " " + spanText(admitted) + " (package index wheels; its newest is " + newest.Version + ", listing of " + newest.Read + ")", Kind: EvidenceKBRow, Says: strings.Join(sources, "; "), Package: it.name})
}

// condaPinsCUDA reports whether a conda cudatoolkit or cuda-version item
// of the file says the environment's CUDA cuda.
func condaPinsCUDA(c *CUDAInfo, cuda string) bool {
	if c == nil {
		return false
	}
	for _, e := range c.Evidence {
		if (e.Kind == EvidenceCudatoolkit || e.Kind == EvidenceCUDAVersion) && hasMinor(e.Says) && majorMinor(e.Says) == cuda {
			return true
		}
	}
	return false
}

// addSpan adds the build of release v with code to bs, or widens the span
// of releases of the build already there with that code; each label says
// the span ("cupy 12.2.0 to 13.6.0 (conda-forge, the CUDA 11.8 build)").
func addSpan(bs []BuildCode, spans map[int]*[3]string, name, v, what string, code GPUCode) []BuildCode {
	for i, o := range bs {
		if slices.Equal(o.Code.SASS, code.SASS) && slices.Equal(o.Code.PTX, code.PTX) {
			sp := spans[i]
			sp[1] = v
			bs[i].Through = v
			if sp[2] != what {
				// builds made with different nvcc releases carry this code
				sp[2] = "conda-forge, builds with this list"
			}
			bs[i].Label = name + " " + sp[0] + " to " + sp[1] + " (" + sp[2] + ")"
			return bs
		}
	}
	spans[len(bs)] = &[3]string{v, v, what}
	return append(bs, BuildCode{Label: name + " " + v + " (" + what + ")", Code: code, From: v, Through: v})
}

// openForCUDA reports whether some row, none of whose releases is cuda,
// may still install beside it: one of cuda's major whose run requirement
// is a range (not cuda_exact), which may admit a minor its list leaves out.
func openForCUDA(rows []kb.ExtensionBuild, cuda string) bool {
	for _, b := range rows {
		if b.CUDAExact {
			continue
		}
		for _, c := range b.CUDA {
			// a range's lowest release is the build's own nvcc (nvcc's
			// run_exports, cuda-version >=X.Y): nothing below it installs
			if cmp, ok := kb.CompareDotted(c, cuda); ok && majorOf(c) == majorOf(cuda) && cmp <= 0 {
				return true
			}
		}
	}
	return false
}

// spanText writes a list of releases as "A" or "A to B".
func spanText(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return vs[0] + " to " + vs[len(vs)-1]
}

// CondaBuildDist says whether an extension-build distribution is one conda
// installs from (its channel in kb.CondaBuildChannel).
func CondaBuildDist(d string) bool { _, ok := kb.CondaBuildChannel[d]; return ok }

// installerRows keeps the rows that describe what the item's installer
// gets. A conda row describes only a conda item from its channel, and of
// the channel's builds of the release only the one for the item's CUDA:
// the CUDA its build string names (faiss-gpu …_cuda11.3), else the
// environment's, which the build's nvcc pinned through its run_exports;
// where a row names the torch releases its build requires, the
// environment's torch must be one. Every other distribution is a pip one
// and never describes a conda item. Where the release has conda rows and
// none fits, the package is left unknown with the reason.
func (r *resolution) installerRows(p *GPUPackage, it *item, rows []kb.ExtensionBuild) []kb.ExtensionBuild {
	conda := it.from() == envspec.ProviderConda
	cuda := DecodeBuild(it.build).CUDA
	if pin, _ := CondaCUDAPin(r.st); cuda == "" && conda && strings.Count(pin, ".") == 1 {
		// conda's own CUDA pin, not a pip torch's runtime beside it
		cuda = pin
	}
	if cuda == "" && r.st.CUDA != nil && r.st.CUDA.Version != "" {
		cuda = majorMinor(r.st.CUDA.Version)
	}
	torch := ""
	if fw := r.st.Framework; fw != nil && fw.Name == "pytorch" {
		torch = fw.Version
	}
	var out, anyCUDA []kb.ExtensionBuild
	var chans []string
	for _, b := range rows {
		ch, isConda := kb.CondaBuildChannel[b.Dist]
		if isConda != conda {
			continue
		}
		if !isConda {
			out = append(out, b)
			continue
		}
		if !contains(chans, ch) {
			chans = append(chans, ch)
		}
		if it.channel == ch && cuda == "" && len(b.Torch) == 0 {
			anyCUDA = append(anyCUDA, b)
		}
		if it.channel != ch || cuda == "" || !contains(b.CUDA, cuda) {
			continue
		}
		if len(b.Torch) > 0 && (torch == "" || !torchMatches(b.Torch, torch)) {
			continue
		}
		p.BuiltFor.CUDA = []string{cuda}
		out = append(out, b)
	}
	if conda && len(out) == 0 && len(anyCUDA) > 0 && (completeCUDADist[anyCUDA[0].Dist] || p.condaForgeComplete(anyCUDA[0])) {
		// The environment's CUDA is not known, but the channel's rows list
		// every CUDA it built the release for: whichever build the solver
		// takes is one of them. Where they all carry the same code, that
		// code is what runs; where they differ, each is a build the file
		// may get, and the GPU check decides where they all agree (review
		// twenty-four F45: conda-forge's cupy 12.3.0, CUDA 11.8 and 12.0
		// builds, both with sm_80 SASS, on an A100).
		for _, b := range anyCUDA {
			for _, cu := range b.CUDA {
				if !contains(p.BuiltFor.CUDA, cu) {
					p.BuiltFor.CUDA = append(p.BuiltFor.CUDA, cu)
				}
			}
		}
		if sameCode(anyCUDA) {
			return anyCUDA[:1]
		}
		return anyCUDA
	}
	if conda && len(chans) > 0 && len(out) == 0 {
		switch {
		case !contains(chans, it.channel):
			p.Unknown = "the knowledge base knows only the builds of " + it.name + " " + p.Release() + " on " + strings.Join(chans, ", ") + ", and this one comes from " + orUnknownChannel(it.channel)
		case cuda == "":
			p.Unknown = it.channel + " builds " + it.name + " " + p.Release() + " once per CUDA toolkit, and which CUDA this environment has is not known"
		default:
			p.Unknown = "the knowledge base has no build of " + it.name + " " + p.Release() + " on " + it.channel + " for CUDA " + cuda
			if torch != "" {
				p.Unknown += " and torch " + torch
			}
		}
	}
	return out
}

// condaForgeComplete says whether conda-forge's rows of b's release list
// every linux_64 build it made: the release is one conda_forge_releases
// lists, at or after conda_forge_complete_from.
func (p *GPUPackage) condaForgeComplete(b kb.ExtensionBuild) bool {
	e := p.ext
	return e != nil && b.Dist == string(kb.DistCondaForge) && e.CondaForgeCompleteRelease(b.Version)
}

// completeCUDADist are the conda distributions whose extension_builds rows
// of a release list every CUDA toolkit the channel built it for (the
// rapidsai rows give the whole range each build's cudatoolkit or
// cuda-version constraint admits), so that rows agreeing on their code
// decide a build whose CUDA the environment leaves open.
var completeCUDADist = map[string]bool{"rapidsai-channel": true}

// sameCode reports whether there are rows and all describe the same GPU
// code: each with its architectures known, the same SASS, PTX and whether
// it has none.
func sameCode(rows []kb.ExtensionBuild) bool {
	if len(rows) == 0 {
		return false
	}
	a := rows[0]
	for _, b := range rows {
		if !b.ArchKnown || b.NoDeviceCode != a.NoDeviceCode || !slices.Equal(b.SASS, a.SASS) || !slices.Equal(b.PTX, a.PTX) {
			return false
		}
	}
	return true
}

// Release is the package's release as the file pins it: the exact one,
// else the series it leaves open ("23.8.*").
func (p *GPUPackage) Release() string {
	if p.Version == "" && p.Series != "" {
		return p.Series + ".*"
	}
	return p.Version
}

func orUnknownChannel(ch string) string {
	if ch == "" {
		return "a channel not known"
	}
	return ch
}

// torchCUDARows keeps, of an extension's pypi rows that each describe the
// library its wheel loads for one set of CUDA releases, the row of the
// library torch's CUDA names (bitsandbytes loads
// libbitsandbytes_cuda{torch.version.cuda}), and records that CUDA as what
// the package was built for. Where torch's CUDA is not known, or no row
// carries a library for it, no pypi row describes the file's build and the
// package is left unknown with the reason.
func (r *resolution) torchCUDARows(p *GPUPackage, it *item, rows []kb.ExtensionBuild) []kb.ExtensionBuild {
	var out, pypi []kb.ExtensionBuild
	for _, b := range rows {
		if b.Dist == "pypi" && it.from() == envspec.ProviderPip {
			pypi = append(pypi, b)
			continue
		}
		out = append(out, b)
	}
	if len(pypi) == 0 {
		return rows
	}
	if slices.ContainsFunc(pypi, func(b kb.ExtensionBuild) bool { return b.CUDAFromMachine }) {
		// The release loads the library of the CUDA runtime its setup
		// finds on the machine: every library the wheel carries may be
		// the one, whatever torch's CUDA is.
		p.CUDAFromMachine = it.name + " " + p.Version + " loads the library built for the CUDA runtime (libcudart.so) its setup finds on the machine (CONDA_PREFIX/lib, LD_LIBRARY_PATH, /usr/local/cuda/lib64), not the one torch's CUDA names"
		return append(out, pypi...)
	}
	fw := r.st.Framework
	if fw == nil || fw.Name != "pytorch" || r.st.CUDA == nil || r.st.CUDA.Version == "" {
		p.Unknown = it.name + " " + p.Version + " loads the library built for torch's CUDA, and which CUDA this environment's torch has is not known"
		return out
	}
	want := majorMinor(r.st.CUDA.Version)
	for _, b := range pypi {
		if contains(b.CUDA, want) {
			p.BuiltFor.CUDA = []string{want}
			return append(out, b)
		}
	}
	p.Unknown = it.name + " " + p.Version + " loads the library built for torch's CUDA " + want + ", and the knowledge base's rows for it name none for that CUDA"
	return out
}

// rowMatches reports whether a build row describes the build the file
// gets: for a matrix of wheels (release assets, an index), the row whose
// torch and CUDA are those its wheel tag or index says; any other row
// describes the one build of its distribution.
func (p *GPUPackage) rowMatches(b kb.ExtensionBuild) bool {
	switch b.Dist {
	case "release-asset", "pyg-index", "flashinfer-index":
	default:
		return true
	}
	if len(p.BuiltFor.Torch) == 0 && len(p.BuiltFor.CUDA) == 0 {
		return false
	}
	if len(p.BuiltFor.Torch) > 0 && !torchMatches(b.Torch, p.BuiltFor.Torch[0]) {
		return false
	}
	for _, want := range p.BuiltFor.CUDA {
		ok := false
		for _, c := range b.CUDA {
			if c == want || (!strings.Contains(want, ".") && strconv.Itoa(majorOf(c)) == want) || (!strings.Contains(c, ".") && strconv.Itoa(majorOf(want)) == c) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// pipVariantCUDA is the CUDA of the build pip installs for a release
// whose PyPI wheel is built for pypiCUDA. With a PyTorch wheel index in
// the file that serves the release too, pip takes the index's build: it
// takes the highest version across every index, and a local version
// (0.0.34+cu130) is higher than the release without one. nil where that
// index's build is not known.
func (r *resolution) pipVariantCUDA(name, version string, pypiCUDA []string) []string {
	cu := r.indexCUDA()
	if cu == "" {
		return append([]string(nil), pypiCUDA...)
	}
	for _, b := range r.kb.ExtensionBuildsOf(name, version) {
		if b.Dist == "pytorch-index" && contains(b.CUDA, cu) {
			return []string{cu}
		}
	}
	return nil
}

// indexCUDA is the CUDA of the first PyTorch wheel index the file's pip
// options name (…/whl/cu118: "11.8"), "" where none names one.
func (r *resolution) indexCUDA() string {
	for _, d := range r.env.Pip {
		if o := pipOpt(d); o != nil && isIndexOption(o.Name) {
			if a := DecodeIndexURL(o.Value); a.CUDA != "" {
				return a.CUDA
			}
		}
	}
	return ""
}

// indexOfOtherMajor reports whether a pypi row's GPU code may not be what
// the file gets: the item is a pip requirement with no build of its own
// named (no wheel tag), and the file names a PyTorch wheel index of a
// CUDA major none of the row's builds has, for which the knowledge base
// has no build of the release. pip then takes that index's build, whose
// code is not known, or the package index's, built for another CUDA
// major than the file's torch (vLLM 0.8.4's CUDA 12.4 wheel beside
// torch==2.6.0+cu118 links a CUDA 12 runtime torch does not bring):
// either way the row does not say the package runs.
// It returns why, or "" where the row holds.
func (r *resolution) indexOfOtherMajor(p *GPUPackage, it *item, b kb.ExtensionBuild) string {
	if b.Dist != "pypi" || len(b.CUDA) == 0 || b.CUDAFromMachine || it.from() != envspec.ProviderPip || len(p.BuiltFor.CUDA) > 0 {
		return ""
	}
	cu := r.indexCUDA()
	if cu == "" {
		return ""
	}
	for _, c := range b.CUDA {
		if majorOf(c) == majorOf(cu) {
			return ""
		}
	}
	return fmt.Sprintf("the file names the PyTorch wheel index for CUDA %s, and %s %s's package-index wheel is its CUDA %s build: pip installs that index's build, whose GPU code is not known, if the index has one, else the CUDA %s build, which needs a CUDA %d runtime the file's torch does not bring",
		cu, b.Name, b.Version, strings.Join(b.CUDA, "/"), strings.Join(b.CUDA, "/"), majorOf(b.CUDA[0]))
}

// applyGroups records what a decoded wheel tag or URL says.
func (p *GPUPackage) applyGroups(g map[string]string) {
	if t := g["torch"]; t != "" {
		p.BuiltFor.Torch = []string{torchFromTag(t)}
	}
	if c := g["cuda"]; c != "" {
		if cu := cudaFromTag(c); cu != "" {
			p.BuiltFor.CUDA = []string{cu}
		}
	}
	switch strings.ToUpper(g["abi"]) {
	case "TRUE":
		p.BuiltFor.ABI = []string{kb.ABICXX11}
	case "FALSE":
		p.BuiltFor.ABI = []string{kb.ABIPreCXX11}
	}
}

// torchFromTag reads a torch release or series as tags write it: "2.6",
// "2.1.0", or PyG's "21" (2.1) and "113" (1.13).
func torchFromTag(t string) string {
	if strings.Contains(t, ".") {
		return t
	}
	if len(t) >= 2 {
		return t[:1] + "." + t[1:]
	}
	return t
}

// cudaFromTag reads a CUDA variant as tags write it: "12" (a major),
// "118", "cu121" (11.8, 12.1), "12.4"; "" for cpu.
func cudaFromTag(c string) string {
	c = strings.TrimPrefix(strings.ToLower(c), "cu")
	switch {
	case c == "" || c == "pu": // cpu
		return ""
	case strings.Contains(c, "."):
		return majorMinor(c)
	case len(c) <= 2:
		return c
	}
	return cuDigits(c)
}

// decodeExtLocal reads a local version that says a build was made for
// CUDA: +cu121, +pt21cu121, +cu12torch2.6cxx11abiFALSE.
func decodeExtLocal(local string) Accel {
	s := strings.ToLower(local)
	if strings.HasPrefix(s, "pt") {
		if i := strings.Index(s, "cu"); i > 0 {
			s = s[i:]
		}
	}
	return decodeWheelTag(s)
}

// commitLocal matches a local version that is a source commit ("c55e425",
// "g1a2b3c4"), which a build from a git checkout gets.
var commitLocal = regexp.MustCompile(`^g?[0-9a-f]{7,40}$`)

// wheelURLLocal is the local version of a wheel a requirement names by URL
// (name @ https://…/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp311-…whl).
func wheelURLLocal(it *item) string {
	_, local := wheelURLVersion(it)
	return local
}

// patterns caches the knowledge base's compiled patterns; they are
// validated when it loads.
var patterns sync.Map // string → *regexp.Regexp

func matchGroups(expr, s string) (map[string]string, bool) {
	v, ok := patterns.Load(expr)
	if !ok {
		// Local versions are compared case-insensitively (PEP 440) and
		// items hold them lower-cased.
		re, err := regexp.Compile("(?i)" + expr)
		if err != nil {
			return nil, false
		}
		v, _ = patterns.LoadOrStore(expr, re)
	}
	re := v.(*regexp.Regexp)
	m := re.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	out := map[string]string{}
	for i, n := range re.SubexpNames() {
		if n != "" && i < len(m) {
			out[n] = m[i]
		}
	}
	return out, true
}

// SpecAdmits reports whether a GPU package's open version spec admits a
// release: true where it has none, false where it does not parse.
func (p *GPUPackage) SpecAdmits(release string) bool {
	return p.Spec == "" || admits(p.Spec, release)
}

// onlyRelease is the one release of rels that the version spec admits, ""
// where it admits none, several, or does not parse.
func onlyRelease(rels []string, spec string) string {
	if spec == "" {
		return ""
	}
	vs, err := envspec.ParseVersionSpec(spec)
	if err != nil || vs == nil {
		return ""
	}
	one := ""
	for _, v := range rels {
		if vs.MatchString(v) {
			if one != "" {
				return ""
			}
			one = v
		}
	}
	return one
}
