package gpucheck

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// LookupEnv reads one environment variable and says whether it is set
// (os.LookupEnv in production, a map in tests). Set-but-empty differs from
// unset for every variable read here.
type LookupEnv func(key string) (string, bool)

// Local is the local host as a job started from this process will see it:
// the probe's reading, narrowed by CUDA_VISIBLE_DEVICES, with conda's
// CONDA_OVERRIDE_CUDA and CONDA_OVERRIDE_CUDA_ARCH applied on top.
func Local(p *Probe, env LookupEnv) *Host {
	h := p.Refresh()
	if env == nil {
		env = func(string) (string, bool) { return "", false }
	}
	if v, ok := env("CUDA_VISIBLE_DEVICES"); ok {
		h = SelectVisible(h, v, true)
	}
	return ApplyOverrides(h, env)
}

// SelectVisible returns the GPUs CUDA enumerates under
// CUDA_VISIBLE_DEVICES=value, in the order given. It follows CUDA's
// documented rules (CUDA C++ Programming Guide, "CUDA Environment
// Variables") as PyTorch re-implements them (torch/cuda/__init__.py,
// _parse_visible_devices and _transform_uuid_to_ordinals):
//   - entries are device indices, GPU UUIDs (GPU-8932f937-...) or MIG
//     UUIDs (MIG-..., MIG-GPU-<uuid>/<gi>/<ci>);
//   - a UUID may be abbreviated to any prefix that names one GPU;
//   - an index is read like strtoul ("1gpu" is 1);
//   - the first invalid entry (negative, out of range, unknown or ambiguous
//     UUID) ends the list: only the devices before it are visible;
//   - a device named twice makes the whole list empty;
//   - an empty value hides every GPU.
//
// Indices are taken as NVML indices. CUDA numbers devices fastest first
// unless CUDA_DEVICE_ORDER=PCI_BUS_ID, NVML by PCI bus; the two agree on
// machines whose GPUs are all alike, which is nearly every training node.
func SelectVisible(h *Host, value string, set bool) *Host {
	if h == nil || !set {
		return h
	}
	out := h.Clone()
	out.GPUs = []GPU{}
	var picked []int // positions in h.GPUs
	for _, raw := range strings.Split(value, ",") {
		e := strings.TrimSpace(raw)
		pos := -1
		switch {
		case strings.HasPrefix(e, "GPU-"):
			pos = matchUUID(h.GPUs, e, func(g GPU) []string { return []string{g.UUID} })
		case strings.HasPrefix(e, "MIG-"):
			pos = matchUUID(h.GPUs, e, migNames)
		default:
			if n := strtoul(e); n >= 0 {
				for i, g := range h.GPUs {
					if g.Index == n {
						pos = i
					}
				}
			}
		}
		if pos < 0 {
			break
		}
		for _, p := range picked {
			if p == pos {
				picked = nil
				goto done
			}
		}
		picked = append(picked, pos)
	}
done:
	for _, p := range picked {
		out.GPUs = append(out.GPUs, h.GPUs[p])
	}
	if h.Available && len(out.GPUs) == 0 {
		if strings.TrimSpace(value) == "" {
			out.Reason = "CUDA_VISIBLE_DEVICES is set to an empty value: no GPU is visible"
		} else {
			out.Reason = fmt.Sprintf("CUDA_VISIBLE_DEVICES=%q selects none of the %d GPUs", clipValue(value), len(h.GPUs))
		}
	}
	return out
}

// migNames lists the names a MIG entry may use for a GPU: its MIG devices'
// UUIDs (MIG-<uuid>, R470 and later) and the older MIG-GPU-<uuid>/gi/ci
// form, which names the parent GPU.
func migNames(g GPU) []string {
	var names []string
	for _, m := range g.MIGDevices {
		names = append(names, m.UUID)
	}
	if g.UUID != "" {
		names = append(names, "MIG-"+g.UUID+"/")
	}
	return names
}

// matchUUID finds the one GPU having a name that starts with entry; -1 when
// none or more than one does (CUDA treats an ambiguous prefix as invalid).
func matchUUID(gpus []GPU, entry string, names func(GPU) []string) int {
	found := -1
	for i, g := range gpus {
		for _, n := range names(g) {
			if n == "" {
				continue
			}
			// The old MIG form carries /gi/ci after the GPU UUID; a
			// prefix of the UUID part is matched either way.
			if strings.HasPrefix(n, entry) || (strings.HasSuffix(n, "/") && strings.HasPrefix(entry, n)) {
				if found >= 0 && found != i {
					return -1
				}
				found = i
				break
			}
		}
	}
	return found
}

// strtoul reads the leading decimal digits of s; -1 when there are none or
// the number is signed negative.
func strtoul(s string) int {
	s = strings.TrimPrefix(s, "+")
	n, digits := 0, 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		digits++
		if n > 1<<20 {
			return -1
		}
	}
	if digits == 0 {
		return -1
	}
	return n
}

// maxOverride is the longest override value taken for a version: real
// ones are a few bytes ("12.4"), and what is taken is printed in check's
// verdict and every target's summary.
const maxOverride = 32

// clipValue cuts a variable's value quoted in a note or reason to 64
// bytes, so that a value of a megabyte does not make one of a megabyte.
func clipValue(v string) string {
	const max = 64
	if len(v) <= max {
		return v
	}
	i := max
	for i > 0 && !utf8.RuneStart(v[i]) {
		i--
	}
	return v[:i] + "…"
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var (
	reCUDAOverride = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`) })
	// CEP 46 (the __cuda_arch virtual package) accepts major.minor only.
	reArchOverride = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+$`) })
)

// ApplyOverrides honours conda's overrides the way conda and pixi do:
//
//   - CONDA_OVERRIDE_CUDA set to a version replaces the __cuda virtual
//     package, the newest CUDA the driver supports; set but empty (after
//     trimming) removes it: "no driver" (conda, conda/plugins/virtual_packages/cuda.py;
//     rattler's detect_cuda_version likewise).
//   - CONDA_OVERRIDE_CUDA_ARCH set to major.minor replaces __cuda_arch, the
//     lowest compute capability of the machine's GPUs; set but empty removes
//     it; __cuda_arch exists only while __cuda does; an override is honoured
//     without a driver only when CONDA_OVERRIDE_CUDA asserts one; a value
//     that is not major.minor is ignored with a warning (CEP 46 as
//     implemented by conda-incubator/nvidia-virtual-packages, cuda/arch.py).
//
// A host changed by an override has Source "override". The overridden CUDA
// version stands for a driver; the real driver version, if any, no longer
// describes it and is dropped.
func ApplyOverrides(h *Host, env LookupEnv) *Host {
	if h == nil || env == nil {
		return h
	}
	cudaVal, cudaSet := env("CONDA_OVERRIDE_CUDA")
	archVal, archSet := env("CONDA_OVERRIDE_CUDA_ARCH")
	if !cudaSet && !archSet {
		return h
	}
	out := h.Clone()
	cudaVal, archVal = strings.TrimSpace(cudaVal), strings.TrimSpace(archVal)
	if cudaSet {
		out.Source = SourceOverride
		if cudaVal == "" {
			out.Available = false
			out.Driver, out.CUDADriver, out.DriverAssumed = "", "", false
			out.Reason = "CONDA_OVERRIDE_CUDA is set to an empty value: no driver"
			// __cuda_arch is absent with __cuda, and a job sees no GPU.
			out.GPUs = []GPU{}
			if archSet && archVal != "" {
				out.Notes = append(out.Notes, "CONDA_OVERRIDE_CUDA_ARCH ignored: CONDA_OVERRIDE_CUDA says there is no driver")
			}
			return out
		}
		if len(cudaVal) > maxOverride || !reCUDAOverride().MatchString(cudaVal) {
			out.Notes = append(out.Notes, fmt.Sprintf("CONDA_OVERRIDE_CUDA=%q is not a version: ignored", clipValue(cudaVal)))
			out.Source = h.Source
		} else {
			out.Available = true
			out.Reason = ""
			out.Driver, out.DriverAssumed = "", false
			out.CUDADriver = cudaVal
		}
	}
	if !archSet {
		return out
	}
	switch {
	case archVal == "":
		// __cuda_arch absent: nothing says what the GPUs are.
		out.Source = SourceOverride
		out.GPUs = []GPU{}
		out.Notes = append(out.Notes, "CONDA_OVERRIDE_CUDA_ARCH is set to an empty value: GPU architecture not checked")
	case len(archVal) > maxOverride || !reArchOverride().MatchString(archVal):
		out.Notes = append(out.Notes, fmt.Sprintf("CONDA_OVERRIDE_CUDA_ARCH=%q is not major.minor: ignored", clipValue(archVal)))
	case !out.Available && !(cudaSet && cudaVal != ""):
		out.Notes = append(out.Notes, "CONDA_OVERRIDE_CUDA_ARCH ignored: no driver, and CONDA_OVERRIDE_CUDA does not assert one")
	default:
		out.Source = SourceOverride
		c, _ := parseCC(archVal)
		if len(out.GPUs) == 0 {
			out.GPUs = []GPU{{Index: 0, Name: "GPU (CONDA_OVERRIDE_CUDA_ARCH)", CC: c.String()}}
		}
		// __cuda_arch is the lowest capability of all GPUs: overriding it
		// says every GPU a job may land on is to be judged as that one.
		for i := range out.GPUs {
			out.GPUs[i].CC = c.String()
		}
	}
	return out
}
