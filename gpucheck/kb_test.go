package gpucheck

import (
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"strings"

	"github.com/envguard/envguard/resolver/kb"
)

// testFacts are rows copied from the shared fact tables, each with its
// source, so the checks are tested on real numbers.
var testFacts = kb.Facts{
	// NVIDIA CUDA Toolkit Release Notes, Table 3 (GA rows, Linux x86_64).
	CUDADrivers: []kb.CUDADriver{
		{CUDA: "11.0", LinuxMin: "450.51.05", Source: "CUDA release notes, Table 3"},
		{CUDA: "11.4", LinuxMin: "470.42.01", Source: "CUDA release notes, Table 3"},
		{CUDA: "11.6", LinuxMin: "510.39.01", Source: "CUDA release notes, Table 3"},
		{CUDA: "11.7", LinuxMin: "515.43.04", Source: "CUDA release notes, Table 3"},
		{CUDA: "11.8", LinuxMin: "520.61.05", Source: "CUDA release notes, Table 3"},
		{CUDA: "12.0", LinuxMin: "525.60.13", Source: "CUDA release notes, Table 3"},
		{CUDA: "12.1", LinuxMin: "530.30.02", Source: "CUDA release notes, Table 3"},
		{CUDA: "12.2", LinuxMin: "535.54.03", Source: "CUDA release notes, Table 3"},
		{CUDA: "12.4", LinuxMin: "550.54.14", Source: "CUDA release notes, Table 3"},
		{CUDA: "12.8", LinuxMin: "570.26", Source: "CUDA release notes, Table 3"},
		{CUDA: "13.0", LinuxMin: "580.65.06", Source: "CUDA release notes, Table 3"},
	},
	// NVIDIA CUDA Compatibility guide, Minor Version Compatibility, Table 1.
	MinorCompat: []kb.MinorCompat{
		{Major: 11, LinuxFloor: "450.80.02", Source: "CUDA compatibility guide, Table 1"},
		{Major: 12, LinuxFloor: "525.60.13", Source: "CUDA compatibility guide, Table 1"},
	},
	// NVIDIA CUDA GPUs page (gpu-cc.yaml).
	GPUs: []kb.GPU{
		{Name: "H100", Aliases: []string{"NVIDIA H100 80GB HBM3"}, CC: "9.0", Arch: "Hopper", Source: "developer.nvidia.com/cuda-gpus"},
		{Name: "A100", Aliases: []string{"NVIDIA A100-SXM4-40GB"}, CC: "8.0", Arch: "Ampere", Source: "developer.nvidia.com/cuda-gpus"},
		{Name: "L4", CC: "8.9", Arch: "Ada", Source: "developer.nvidia.com/cuda-gpus"},
	},
	// cuda.yaml cuda_arch: CMake's CMakeCUDAArchitecturesAll and clang's
	// CUDA version table.
	// torch-defaults.yaml (AR_FEEDSTOCK recipe/meta.yaml string: lines).
	CondaBuildForms: []kb.CondaBuildForm{
		{Package: "pytorch", Dist: kb.DistDefaults, Since: "1.2.0", CUDAGlob: "cuda*", CPUGlob: "cpu_*", Source: "AR_FEEDSTOCK"},
		{Package: "pytorch", Dist: kb.DistDefaults, Since: "1.12.1", CUDAGlob: "gpu_cuda*", CPUGlob: "cpu_*", Source: "AR_FEEDSTOCK"},
		{Package: "pytorch", Dist: kb.DistDefaults, Since: "2.5.1", CUDAGlob: "gpu_cuda*", CPUGlob: "cpu_*", GPUPackage: "pytorch-gpu", CPUPackage: "pytorch-cpu", Source: "AR_FEEDSTOCK"},
	},
	ToolkitArch: []kb.ToolkitArch{
		{CUDA: "10.0", MinSASS: "3.0", MaxSASS: "7.5", MaxPTX: "7.5", Source: "CMAKE_CUDA_ARCHS; CLANG_CUDA"},
		{CUDA: "11.7", MinSASS: "3.5", MaxSASS: "8.7", MaxPTX: "8.7", Source: "CMAKE_CUDA_ARCHS; CLANG_CUDA"},
		{CUDA: "11.8", MinSASS: "3.5", MaxSASS: "9.0", MaxPTX: "9.0", Source: "CMAKE_CUDA_ARCHS; CLANG_CUDA"},
		{CUDA: "12.1", MinSASS: "5.0", MaxSASS: "9.0", MaxPTX: "9.0", Source: "CMAKE_CUDA_ARCHS; CLANG_CUDA"},
		{CUDA: "12.4", MinSASS: "5.0", MaxSASS: "9.0", MaxPTX: "9.0", Source: "CMAKE_CUDA_ARCHS; CLANG_CUDA"},
		{CUDA: "12.8", MinSASS: "5.0", MaxSASS: "12.0", MaxPTX: "12.0", Source: "CMAKE_CUDA_ARCHS; CLANG_CUDA"},
	},
	// pytorch-arch.yaml: BUILDER_WHL release/2.0 and release/2.1.
	Arch: []kb.ArchList{
		{Series: "2.0", CUDA: "11.7", Dist: kb.DistWheel, SASS: strings.Split("3.7;5.0;6.0;7.0;7.5;8.0;8.6", ";"), Known: true, Source: "BUILDER_WHL release/2.0"},
		{Series: "2.1", CUDA: "12.1", Dist: kb.DistWheel, SASS: strings.Split("5.0;6.0;7.0;7.5;8.0;8.6;9.0", ";"), Known: true, Source: "BUILDER_WHL release/2.1"},
		{Series: "2.5", CUDA: "12.4", Dist: kb.DistWheel, Known: false, Source: "unknown (exact upstream file not seen)"},
	},
}

// factsKB answers the checks' questions from testFacts by plain scans, so
// the checks can be tested apart from the knowledge base's own indexing.
type factsKB struct{ f kb.Facts }

func (k factsKB) Arch(series, cuda string, dist kb.Distribution) (*kb.ArchList, bool) {
	// series may be a release (2.0.1): its own row first, else its series'.
	s := resolver.SeriesOf(series)
	var found *kb.ArchList
	for i, a := range k.f.Arch {
		if a.Series == s && a.CUDA == cuda && a.Dist == dist {
			if a.Release == series {
				return &k.f.Arch[i], true
			}
			if a.Release == "" {
				found = &k.f.Arch[i]
			}
		}
	}
	return found, found != nil
}

func (k factsKB) FrameworkArchRows(framework string, dist kb.Distribution) []kb.ArchList {
	return (&kb.KB{Facts: k.f}).FrameworkArchRows(framework, dist)
}

func (k factsKB) FrameworkArch(framework, series, cuda string, dist kb.Distribution) (*kb.ArchList, bool) {
	if framework != "pytorch" {
		return nil, false
	}
	return k.Arch(series, cuda, dist)
}

func (k factsKB) DriverFloor(cuda string) (*kb.CUDADriver, bool) {
	for i, d := range k.f.CUDADrivers {
		if d.CUDA == cuda {
			return &k.f.CUDADrivers[i], true
		}
	}
	return nil, false
}

func (k factsKB) MinorCompatFloor(major int) (*kb.MinorCompat, bool) {
	for i, m := range k.f.MinorCompat {
		if m.Major == major {
			return &k.f.MinorCompat[i], true
		}
	}
	return nil, false
}

func (k factsKB) DriverCUDA(driver string) string {
	best := ""
	for _, d := range k.f.CUDADrivers {
		if compareVersions(driver, d.LinuxMin) >= 0 && (best == "" || compareVersions(d.CUDA, best) > 0) {
			best = d.CUDA
		}
	}
	return best
}

func (k factsKB) GPUByName(name string) (*kb.GPU, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i, g := range k.f.GPUs {
		if strings.ToLower(g.Name) == n {
			return &k.f.GPUs[i], true
		}
		for _, a := range g.Aliases {
			if strings.ToLower(a) == n {
				return &k.f.GPUs[i], true
			}
		}
	}
	return nil, false
}

func (k factsKB) ToolkitArch(cuda string) (*kb.ToolkitArch, bool) {
	for i, t := range k.f.ToolkitArch {
		if t.CUDA == cuda {
			return &k.f.ToolkitArch[i], true
		}
	}
	return nil, false
}

// CondaBuildForm asks the knowledge base's own lookup over testFacts.
func (k factsKB) TorchLinksStatically(dist kb.Distribution, release, lib string) (*kb.TorchStaticLib, bool) {
	return (&kb.KB{Facts: k.f}).TorchLinksStatically(dist, release, lib)
}

func (k factsKB) PythonBuilds(torch string, dist kb.Distribution, cuda string) (*kb.TorchPythonBuilds, bool) {
	return (&kb.KB{Facts: k.f}).PythonBuilds(torch, dist, cuda)
}

func (k factsKB) CondaPublished(pkg string, dist kb.Distribution, release string) (bool, bool) {
	return (&kb.KB{Facts: k.f}).CondaPublished(pkg, dist, release)
}
func (k factsKB) TensorFlowCondaCPUOnly(version string, dist kb.Distribution) (string, bool) {
	return (&kb.KB{Facts: k.f}).TensorFlowCondaCPUOnly(version, dist)
}

func (k factsKB) CondaBuildForm(pkg string, dist kb.Distribution, release string) (*kb.CondaBuildForm, bool) {
	return (&kb.KB{Facts: k.f}).CondaBuildForm(pkg, dist, release)
}

// CondaVariantPick asks the knowledge base's own lookup over testFacts.
func (k factsKB) CondaVariantPick(pkg string, dist kb.Distribution, release string) (*kb.CondaVariantPick, bool) {
	return (&kb.KB{Facts: k.f}).CondaVariantPick(pkg, dist, release)
}

func (k factsKB) Variants(series string, dist kb.Distribution) (*kb.TorchVariants, bool) {
	for i, v := range k.f.TorchVariants {
		if v.Series == series && v.Dist == dist {
			return &k.f.TorchVariants[i], true
		}
	}
	return nil, false
}

func (k factsKB) PackagePythonBuilds(pkg, torch string, dist kb.Distribution, cuda string) (*kb.TorchPythonBuilds, bool) {
	for i := range k.f.TorchPythonBuilds {
		r := &k.f.TorchPythonBuilds[i]
		if r.Package == pkg && r.Torch == torch && r.Dist == dist && len(r.Platforms) == 0 && (len(r.CUDA) == 0 || contains(r.CUDA, cuda)) {
			return r, true
		}
	}
	return nil, false
}

func (k factsKB) GPUCandidates(name string) []kb.GPU {
	var out []kb.GPU
	n := strings.ToLower(strings.TrimSpace(name))
	for _, g := range k.f.GPUs {
		if n != "" && strings.Contains(strings.ToLower(g.Name), n) && strings.ToLower(g.Name) != n {
			out = append(out, g)
		}
	}
	return out
}

func (k factsKB) NewestCUDAOfMajor(major int) string {
	best := ""
	for _, d := range k.f.CUDADrivers {
		if majorOf(d.CUDA) == major && (best == "" || compareVersions(d.CUDA, best) > 0) {
			best = d.CUDA
		}
	}
	return best
}

func (k factsKB) LastDriverBranch(cc string) (*kb.GPUArchDriver, bool) {
	return (&kb.KB{Facts: k.f}).LastDriverBranch(cc)
}

func (k factsKB) NewestCUDAOfBranch(branch int) string {
	return (&kb.KB{Facts: k.f}).NewestCUDAOfBranch(branch)
}

func (k factsKB) Release(version string) (*kb.TorchRelease, bool) {
	for i, r := range k.f.Torch {
		if r.Version == version {
			return &k.f.Torch[i], true
		}
	}
	return nil, false
}

func (k factsKB) TorchReleases() []string {
	var out []string
	for _, r := range k.f.Torch {
		out = append(out, r.Version)
	}
	return out
}

func (k factsKB) OldestDriverFloor() (*kb.CUDADriver, bool) {
	if len(k.f.CUDADrivers) == 0 {
		return nil, false
	}
	return &k.f.CUDADrivers[0], true
}

func (k factsKB) TensorFlow(version string) (*kb.TFConfig, bool) {
	for i, r := range k.f.TensorFlow {
		if r.Version == version {
			return &k.f.TensorFlow[i], true
		}
	}
	return nil, false
}

func (k factsKB) TensorFlowPipCUDA(version string) (*kb.TFPipCUDA, bool) {
	return (&kb.KB{Facts: k.f}).TensorFlowPipCUDA(version)
}

func (k factsKB) TensorFlowPTXEveryListed(dist kb.Distribution, version string) (*kb.TFPTXEveryListed, bool) {
	return (&kb.KB{Facts: k.f}).TensorFlowPTXEveryListed(dist, version)
}

func (k factsKB) TensorFlowPipCPUOnly(version string) (*kb.TFPipCPUOnly, bool) {
	return (&kb.KB{Facts: k.f}).TensorFlowPipCPUOnly(version)
}

func (k factsKB) TensorFlowConfigs() []kb.TFConfig { return k.f.TensorFlow }

func (k factsKB) FirstTensorFlowPipCUDA() (*kb.TFPipCUDA, bool) {
	return kb.FirstTFPipCUDA(k.f.TFPipCUDA)
}

func (k factsKB) ExtensionByName(name string) (*kb.Extension, bool) {
	return (&kb.KB{Facts: k.f}).ExtensionByName(name)
}

func (k factsKB) ExtensionReleases(name string) []kb.ExtensionBuild {
	return (&kb.KB{Facts: k.f}).ExtensionReleases(name)
}

func (k factsKB) OptionalOpsBuild(name, version string) (*kb.ExtensionBuild, bool) {
	return (&kb.KB{Facts: k.f}).OptionalOpsBuild(name, version)
}

func (k factsKB) ExtensionsOfStem(stem string) []string {
	return (&kb.KB{Facts: k.f}).ExtensionsOfStem(stem)
}

func (k factsKB) JAXPipCUDASince() (string, bool) {
	return (&kb.KB{Facts: k.f}).JAXPipCUDASince()
}

func (k factsKB) JAXLibAt(version string) (kb.JAXLibState, bool) {
	return (&kb.KB{Facts: k.f}).JAXLibAt(version)
}

func (k factsKB) ChannelBuildCodeOf(name, channel string) []kb.ChannelBuildCode {
	return (&kb.KB{Facts: k.f}).ChannelBuildCodeOf(name, channel)
}

func (k factsKB) PythonFloorOf(name string, dist kb.Distribution, version string) (string, bool) {
	return (&kb.KB{Facts: k.f}).PythonFloorOf(name, dist, version)
}

var testKB knowledge = factsKB{testFacts}

// kbs returns the knowledge bases a table runs against: the plain scans
// always, and the kb package over the same facts once it answers.
func kbs() map[string]knowledge {
	m := map[string]knowledge{"facts": testKB}
	if k, ok := realKB(); ok {
		m["kb"] = k
	}
	return m
}

// realKB returns the knowledge base package's own answer for testFacts,
// and false while that package still answers nothing (its methods being
// stubs), so the same cases run against it once it is written.
func realKB() (*kb.KB, bool) {
	k := &kb.KB{Facts: testFacts}
	if _, ok := k.DriverFloor("12.4"); !ok {
		return nil, false
	}
	return k, true
}

// checkT runs the checks and returns the findings and the undecided checks.
func checkT(st *resolver.Stack, h *Host, k knowledge, opt CheckOptions) ([]finding.Diagnostic, []string) {
	c := check(st, h, k, opt)
	why := make([]string, len(c.undecided))
	for i, u := range c.undecided {
		why[i] = u.Why
	}
	return c.ds, why
}

func (k factsKB) CUDALibArchOf(lib, cc string) []kb.CUDALibArch {
	var out []kb.CUDALibArch
	for _, r := range k.f.CUDALibArch {
		if r.Lib == lib && r.CC == cc {
			out = append(out, r)
		}
	}
	return out
}

func (k factsKB) CUDALibByName(lib string) (*kb.CUDALibPackage, bool) {
	for i := range k.f.CUDALibPackages {
		if k.f.CUDALibPackages[i].Lib == lib {
			return &k.f.CUDALibPackages[i], true
		}
	}
	return nil, false
}

func (k factsKB) LibToolkitOf(lib, version string) (string, bool) {
	return (&kb.KB{Facts: k.f}).LibToolkitOf(lib, version)
}

func (k factsKB) NewestCuDNNFor(cuda string) (*kb.CuDNNNewest, bool) {
	return (&kb.KB{Facts: k.f}).NewestCuDNNFor(cuda)
}

func (k factsKB) CondaForgeTorchCuDNNOf(series, cuda string) (*kb.CondaForgeTorchCuDNN, bool) {
	return (&kb.KB{Facts: k.f}).CondaForgeTorchCuDNNOf(series, cuda)
}

func (k factsKB) CondaForgeCUDAFloatOf(cuda string) (*kb.CondaForgeCUDAFloat, bool) {
	return (&kb.KB{Facts: k.f}).CondaForgeCUDAFloatOf(cuda)
}
func (k factsKB) DefaultsTorchCuDNNOf(release, cuda string) (*kb.DefaultsTorchCuDNN, bool) {
	return (&kb.KB{Facts: k.f}).DefaultsTorchCuDNNOf(release, cuda)
}

func (k factsKB) TorchCuDNNOf(dist kb.Distribution, series, release, cuda string) (*kb.PytorchChannelCuDNN, bool) {
	return (&kb.KB{Facts: k.f}).TorchCuDNNOf(dist, series, release, cuda)
}

func (k factsKB) LastCuDNNOfMajor(major string) (*kb.CuDNNLastOfMajor, bool) {
	return (&kb.KB{Facts: k.f}).LastCuDNNOfMajor(major)
}

func (k factsKB) TorchCUDALibsOf(torch, cuda string) (*kb.TorchCUDALibs, bool) {
	return (&kb.KB{Facts: k.f}).TorchCUDALibsOf(torch, cuda)
}

func (k factsKB) CompressionFloor(compression string) (*kb.FatbinCompression, bool) {
	for i := range k.f.FatbinCompression {
		if k.f.FatbinCompression[i].Compression == compression {
			return &k.f.FatbinCompression[i], true
		}
	}
	return nil, false
}

func (k factsKB) JAXArchProbes(major string) []string {
	return (&kb.KB{Facts: k.f}).JAXArchProbes(major)
}
