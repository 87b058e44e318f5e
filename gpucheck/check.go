package gpucheck

import (
	"fmt"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// knowledge is what the checks ask the knowledge base; *kb.KB answers it.
type knowledge interface {
	Arch(series, cuda string, dist kb.Distribution) (*kb.ArchList, bool)
	FrameworkArch(framework, series, cuda string, dist kb.Distribution) (*kb.ArchList, bool)
	FrameworkArchRows(framework string, dist kb.Distribution) []kb.ArchList
	DriverFloor(cuda string) (*kb.CUDADriver, bool)
	MinorCompatFloor(major int) (*kb.MinorCompat, bool)
	DriverCUDA(driver string) string
	GPUByName(name string) (*kb.GPU, bool)
	GPUCandidates(name string) []kb.GPU
	ToolkitArch(cuda string) (*kb.ToolkitArch, bool)
	OldestDriverFloor() (*kb.CUDADriver, bool)
	Variants(series string, dist kb.Distribution) (*kb.TorchVariants, bool)
	PackagePythonBuilds(pkg, torch string, dist kb.Distribution, cuda string) (*kb.TorchPythonBuilds, bool)
	PythonBuilds(torch string, dist kb.Distribution, cuda string) (*kb.TorchPythonBuilds, bool)
	TorchLinksStatically(dist kb.Distribution, release, lib string) (*kb.TorchStaticLib, bool)
	TorchReleases() []string
	NewestCUDAOfMajor(major int) string
	LastDriverBranch(cc string) (*kb.GPUArchDriver, bool)
	NewestCUDAOfBranch(branch int) string
	Release(version string) (*kb.TorchRelease, bool)
	CUDALibArchOf(lib, cc string) []kb.CUDALibArch
	CUDALibByName(lib string) (*kb.CUDALibPackage, bool)
	LibToolkitOf(lib, version string) (string, bool)
	TorchCuDNNOf(dist kb.Distribution, series, release, cuda string) (*kb.PytorchChannelCuDNN, bool)
	CondaForgeTorchCuDNNOf(series, cuda string) (*kb.CondaForgeTorchCuDNN, bool)
	CondaForgeCUDAFloatOf(cuda string) (*kb.CondaForgeCUDAFloat, bool)
	DefaultsTorchCuDNNOf(release, cuda string) (*kb.DefaultsTorchCuDNN, bool)
	LastCuDNNOfMajor(major string) (*kb.CuDNNLastOfMajor, bool)
	TorchCUDALibsOf(torch, cuda string) (*kb.TorchCUDALibs, bool)
	NewestCuDNNFor(cuda string) (*kb.CuDNNNewest, bool)
	CompressionFloor(compression string) (*kb.FatbinCompression, bool)
	TensorFlow(version string) (*kb.TFConfig, bool)
	TensorFlowPipCPUOnly(version string) (*kb.TFPipCPUOnly, bool)
	TensorFlowPTXEveryListed(dist kb.Distribution, version string) (*kb.TFPTXEveryListed, bool)
	TensorFlowConfigs() []kb.TFConfig
	TensorFlowPipCUDA(version string) (*kb.TFPipCUDA, bool)
	FirstTensorFlowPipCUDA() (*kb.TFPipCUDA, bool)
	ExtensionByName(name string) (*kb.Extension, bool)
	ExtensionReleases(name string) []kb.ExtensionBuild
	OptionalOpsBuild(name, version string) (*kb.ExtensionBuild, bool)
	ExtensionsOfStem(stem string) []string
	JAXPipCUDASince() (string, bool)
	JAXLibAt(version string) (kb.JAXLibState, bool)
	PythonFloorOf(name string, dist kb.Distribution, version string) (string, bool)
	ChannelBuildCodeOf(name, channel string) []kb.ChannelBuildCode
	JAXArchProbes(major string) []string
	CondaBuildForm(pkg string, dist kb.Distribution, release string) (*kb.CondaBuildForm, bool)
	CondaPublished(pkg string, dist kb.Distribution, release string) (published, known bool)
	TensorFlowCondaCPUOnly(version string, dist kb.Distribution) (why string, ok bool)
	CondaVariantPick(pkg string, dist kb.Distribution, release string) (*kb.CondaVariantPick, bool)
}

// CheckOptions tune the machine checks.
type CheckOptions struct {
	// MinFree is the free memory, in bytes, each GPU the job will use must
	// have (--min-free); 0 checks only for other processes.
	MinFree uint64
	// Unread says that the file was not read whole (invalid YAML, a key
	// of the wrong shape), so what it installs is not known: every
	// target is then unknown at best, whatever the part read passes.
	Unread *Unread
}

// Unread is where and why a file was not read whole.
type Unread struct {
	Pos finding.Pos
	Why string
	// Reason and Hint replace file-not-read and "fix the error on line N"
	// where the file was read but cannot be installed as written on the
	// platform it is read for (foreign-export).
	Reason, Hint string
	// Refused, where set, says why conda or pip refuses the file as
	// written (EG100 and EG101: conda cannot read it; EG104: pip stops at
	// the line): the targets fail on it, as on an EG205.
	Refused string
}

// GPUSummary is a GPU as a target result lists it.
type GPUSummary struct {
	Name string `json:"name"`
	CC   string `json:"compute_capability"`
}

// Verdict is what a target's check promises.
type Verdict string

const (
	// VerdictOK: the driver, the GPU architectures (SASS and PTX) and the
	// CPU or CUDA variant were each decided, and none failed.
	VerdictOK Verdict = "ok"
	// VerdictFail: an error-severity EG4xx finding applies.
	VerdictFail Verdict = "fail"
	// VerdictUnknown: no error, but some check could not be decided (each
	// is an EG409 finding saying which and why). A green that was not
	// checked would be a promise envguard cannot keep.
	VerdictUnknown Verdict = "unknown"
)

// TargetResult is the verdict of one environment on one host, the report's
// `targets` entry. Findings are also merged into the report's findings.
type TargetResult struct {
	Name       string               `json:"name"`
	Driver     string               `json:"driver,omitempty"`
	CUDADriver string               `json:"cuda_driver,omitempty"`
	GPUs       []GPUSummary         `json:"gpus"`
	Verdict    Verdict              `json:"verdict"`
	Findings   []finding.Diagnostic `json:"-"`
	// Undecided names each check that could not be decided, and why; each
	// is also an EG409 finding on the line it concerns.
	Undecided []Undecided `json:"undecided,omitempty"`
	// Uninstallable says why the file cannot be installed as written
	// (EG205): the target fails, whatever its GPUs, until the file is
	// fixed.
	Uninstallable string `json:"uninstallable,omitempty"`
	// Notes are what the reader should know that decides nothing ("driver
	// taken as 525.60.13, the first driver for CUDA 12.0").
	Notes []string `json:"notes,omitempty"`
}

// Check holds a resolved stack against a host: EG401–EG408.
func Check(st *resolver.Stack, h *Host, k *kb.KB, opt CheckOptions) []finding.Diagnostic {
	return check(st, h, kbOrDefault(k), opt).ds
}

// Evaluate is Check with the host's summary, the verdict, and what could
// not be decided.
func Evaluate(st *resolver.Stack, h *Host, k *kb.KB, opt CheckOptions) TargetResult {
	return evaluate(st, h, kbOrDefault(k), opt)
}

func kbOrDefault(k *kb.KB) knowledge {
	if k == nil {
		return kb.Default()
	}
	return k
}

func evaluate(st *resolver.Stack, h *Host, k knowledge, opt CheckOptions) TargetResult {
	r := TargetResult{GPUs: []GPUSummary{}}
	if h != nil {
		r.Name, r.Driver, r.CUDADriver = h.Name, h.Driver, h.CUDADriver
		for _, g := range h.GPUs {
			r.GPUs = append(r.GPUs, GPUSummary{Name: g.Name, CC: g.CC})
		}
		if h.DriverAssumed {
			r.Notes = append(r.Notes, fmt.Sprintf("driver taken as %s, the first driver for CUDA %s", h.Driver, h.CUDADriver))
		}
	}
	c := check(st, h, k, opt)
	r.Findings, r.Notes, r.Undecided = c.ds, append(r.Notes, c.notes...), c.undecided
	r.Uninstallable = c.uninstallable
	if c.uninstallable != "" {
		r.Notes = append(r.Notes, "fails on every machine: the file cannot be installed as written ("+c.uninstallable+"); envguard judges what it installs once it is fixed")
	}
	r.Verdict = c.verdict()
	return r
}

// TargetVerdict is VerdictOf for a target whose file cannot be installed
// as written where uninstallable says why: it fails whatever its findings.
func TargetVerdict(ds []finding.Diagnostic, undecided bool, uninstallable string) Verdict {
	if uninstallable != "" {
		return VerdictFail
	}
	return VerdictOf(ds, undecided)
}

// VerdictOf is fail when a finding is an error, else unknown when a check
// was left undecided, else ok.
func VerdictOf(ds []finding.Diagnostic, undecided bool) Verdict {
	switch {
	case finding.Diagnostics(ds).Err() != nil:
		return VerdictFail
	case undecided:
		return VerdictUnknown
	}
	return VerdictOK
}
