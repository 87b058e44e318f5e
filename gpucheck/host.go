// Package gpucheck is envguard's view of the machine a job runs on: a Host
// (driver, the CUDA version the driver supports, GPUs with their compute
// capability, memory, processes and MIG mode) read through NVML or described
// as a target, and the EG4xx rules that hold a resolved Stack against it.
//
// With no NVIDIA driver the Host says so in plain words (Available false and
// a Reason) and everything else keeps working: a CI runner without a GPU
// checks environments against described targets.
package gpucheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// Where a Host's facts come from.
const (
	SourceNVML     = "nvml"     // read from the local driver
	SourceTarget   = "target"   // described in a targets file
	SourceOverride = "override" // CONDA_OVERRIDE_CUDA / CONDA_OVERRIDE_CUDA_ARCH
	// SourceCollectEnv is the machine a collect_env output describes.
	SourceCollectEnv = "collect_env"
)

// Host is one machine as far as a CUDA job cares.
type Host struct {
	Name      string `json:"name"` // "local" or the target's name
	Available bool   `json:"available"`
	// Reason says, in words a person acts on, why there is no usable driver
	// (or why no GPU is visible); "" when all is well.
	Reason     string `json:"reason,omitempty"`
	Driver     string `json:"driver,omitempty"`
	CUDADriver string `json:"cuda_driver,omitempty"` // newest CUDA the driver supports, "13.0"
	// DriverAssumed is set when Driver is not a real driver but the minimum
	// driver of CUDADriver (a target given by cuda_driver alone).
	DriverAssumed bool `json:"driver_assumed,omitempty"`
	// DriverRange is the range a target gave for a mixed fleet
	// (">=535.54, <560"); Driver is then its oldest member, the worst case.
	DriverRange string `json:"driver_range,omitempty"`
	// Nodes is how many identical machines a target stands for (a
	// Kubernetes node pool); 0 when not said.
	Nodes int `json:"nodes,omitempty"`
	// DriverBelowKB is set when Driver is older than the first driver of
	// every CUDA release the knowledge base lists: the oldest of them
	// ("8.0"), with its first driver in DriverBelowFloor. Such a driver
	// runs no CUDA runtime envguard knows, which is a verdict, not an error.
	DriverBelowKB    string `json:"-"`
	DriverBelowFloor string `json:"-"`
	NVML             string `json:"nvml,omitempty"`
	GPUs             []GPU  `json:"gpus"`
	Source           string `json:"source"`
	// Notes are things the reader should know that are not findings: an
	// override that was ignored, a GPU whose details could not be read.
	Notes []string `json:"notes,omitempty"`
	// NoDriver is set for a target described with no NVIDIA driver
	// (driver: none): conda's __cuda virtual package is absent there.
	NoDriver bool `json:"-"`
}

// GPU is one physical GPU.
type GPU struct {
	Index       int         `json:"index"`
	Name        string      `json:"name"`
	UUID        string      `json:"uuid,omitempty"`
	CC          string      `json:"compute_capability"` // "9.0"
	MemoryTotal uint64      `json:"memory_total,omitempty"`
	MemoryFree  uint64      `json:"memory_free,omitempty"`
	MemoryUsed  uint64      `json:"memory_used,omitempty"`
	Processes   []Process   `json:"processes,omitempty"`
	MIG         bool        `json:"mig"`
	MIGDevices  []MIGDevice `json:"mig_devices,omitempty"`
}

// Process is a compute process holding memory on a GPU.
type Process struct {
	PID        uint32 `json:"pid"`
	Name       string `json:"name,omitempty"`
	UsedMemory uint64 `json:"used_memory"`
}

// MIGDevice is one MIG instance of a GPU in MIG mode.
type MIGDevice struct {
	Index       int    `json:"index"`
	UUID        string `json:"uuid"`
	MemoryTotal uint64 `json:"memory_total,omitempty"`
}

// Clone returns a deep copy, so that a Probe's cached Host is never shared
// with a caller that edits it (SelectVisible, overrides).
func (h *Host) Clone() *Host {
	if h == nil {
		return nil
	}
	c := *h
	c.Notes = append([]string(nil), h.Notes...)
	c.GPUs = make([]GPU, len(h.GPUs))
	for i, g := range h.GPUs {
		g.Processes = append([]Process(nil), g.Processes...)
		g.MIGDevices = append([]MIGDevice(nil), g.MIGDevices...)
		c.GPUs[i] = g
	}
	return &c
}

// hostLabel names a host in messages: "target h100-pool" or "this machine".
func (h *Host) label() string {
	if h.Source == SourceTarget {
		return "target " + h.Name
	}
	return "this machine"
}

// cc is a compute capability, major.minor, with an optional arch-specific
// suffix ("a" in 9.0a, "f" in 10.0f).
type cc struct {
	Major, Minor int
	Suffix       string
}

func (c cc) String() string { return fmt.Sprintf("%d.%d%s", c.Major, c.Minor, c.Suffix) }

// sm renders the SASS target name, sm_90a.
func (c cc) sm() string { return fmt.Sprintf("sm_%d%d%s", c.Major, c.Minor, c.Suffix) }

// compute renders the PTX target name, compute_90.
func (c cc) compute() string { return fmt.Sprintf("compute_%d%d%s", c.Major, c.Minor, c.Suffix) }

// key is the capability as the knowledge base writes it, "9.0".
func (c cc) key() string { return fmt.Sprintf("%d.%d", c.Major, c.Minor) }

func (c cc) less(d cc) bool {
	if c.Major != d.Major {
		return c.Major < d.Major
	}
	return c.Minor < d.Minor
}

// parseCC reads "9.0", "9.0a", "sm_90", "sm_90a", "compute_90" or "90".
// Architecture lists are written all of these ways by the tools that
// produce them (TORCH_CUDA_ARCH_LIST, torch.cuda.get_arch_list, nvcc).
func parseCC(s string) (cc, bool) {
	s = strings.TrimSpace(strings.ToLower(s))
	s = strings.TrimSuffix(s, "+ptx")
	for _, p := range []string{"sm_", "compute_"} {
		s = strings.TrimPrefix(s, p)
	}
	var suffix string
	if n := len(s); n > 0 && (s[n-1] == 'a' || s[n-1] == 'f') {
		suffix, s = s[n-1:], s[:n-1]
	}
	var maj, min string
	if i := strings.IndexByte(s, '.'); i >= 0 {
		maj, min = s[:i], s[i+1:]
	} else {
		// "90" is sm_90 and "120" is sm_120: the minor is the last digit.
		if len(s) < 2 {
			return cc{}, false
		}
		maj, min = s[:len(s)-1], s[len(s)-1:]
	}
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	if err1 != nil || err2 != nil || a < 0 || b < 0 || a > 99 || b > 9 || maj == "" || min == "" {
		return cc{}, false
	}
	return cc{a, b, suffix}, true
}

// cudaVersion formats NVML's integer CUDA driver version: 12040 → "12.4".
func cudaVersion(v int) string {
	if v <= 0 {
		return ""
	}
	return fmt.Sprintf("%d.%d", v/1000, (v%1000)/10)
}

// compareVersions compares driver and CUDA versions component by component
// (570.124.06 > 570.26; 12.10 > 12.9), missing components counting as 0:
// the knowledge base's CompareDotted. CompareDotted reads at most three
// parts, so a CUDA library's four-part release (cuDNN 9.8.0.87 against a
// row's 9.11.0) is compared as a package version, part by part; only what
// neither reads compares as text.
func compareVersions(a, b string) int {
	if c, ok := kb.CompareDotted(a, b); ok {
		return c
	}
	va, ea := envspec.ParseVersion(a)
	vb, eb := envspec.ParseVersion(b)
	if ea == nil && eb == nil {
		return va.Compare(vb)
	}
	return strings.Compare(a, b)
}

// majorOf returns 12 of "12.4", -1 when unreadable.
func majorOf(v string) int {
	if i := strings.IndexByte(v, '.'); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return n
}

// gib renders a byte count for people: "39.4 GiB", "512 MiB".
func gib(b uint64) string {
	const mib, gibi = 1 << 20, 1 << 30
	if b >= gibi {
		return fmt.Sprintf("%.1f GiB", float64(b)/gibi)
	}
	return fmt.Sprintf("%d MiB", b/mib)
}
