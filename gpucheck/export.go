package gpucheck

import (
	"fmt"
	"strings"
)

// Export formats: what one Host description drives in each installer.
const (
	// ExportCondaOverrides is conda's virtual-package overrides:
	// CONDA_OVERRIDE_CUDA (the __cuda the driver supports; empty removes
	// __cuda) and CONDA_OVERRIDE_CUDA_ARCH (CEP 46's __cuda_arch, the
	// lowest compute capability).
	ExportCondaOverrides = "conda-overrides"
	// ExportPixi is a pixi platform entry (rich platforms, pixi 0.71) and
	// the [system-requirements] table earlier pixi reads.
	ExportPixi = "pixi"
	// ExportNVVariant is the NVIDIA wheel-variant provider's overrides
	// (NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION, _SM_ARCH), which uv
	// and pip read when they resolve variant wheels.
	ExportNVVariant = "nv-variant"
)

// ExportFormats lists the formats, for usage and errors.
var ExportFormats = []string{ExportCondaOverrides, ExportPixi, ExportNVVariant}

// LowestCC is the lowest compute capability of the host's GPUs, the one
// that decides which builds run on all of them; "" with no GPU.
func (h *Host) LowestCC() string {
	var low cc
	found := false
	for _, g := range h.GPUs {
		if c, ok := parseCC(g.CC); ok && (!found || c.less(low)) {
			low, found = c, true
		}
	}
	if !found {
		return ""
	}
	return low.key()
}

// Export writes h as format for platform (a conda subdir, "linux-64").
// It returns the lines and, separately, notes for stderr: what the
// description leaves out (no GPUs described, so no architecture).
func Export(h *Host, format, platform string) (lines, notes []string, err error) {
	cuda, arch := h.CUDADriver, h.LowestCC()
	if h.Available && cuda == "" {
		return nil, nil, fmt.Errorf("target %s: the CUDA version its driver supports is unknown (%s)", h.Name, h.Reason)
	}
	if !h.Available && h.Reason != "" && !strings.Contains(h.Reason, "no NVIDIA driver") {
		return nil, nil, fmt.Errorf("target %s: %s", h.Name, h.Reason)
	}
	noDriver := !h.Available
	if arch == "" && !noDriver {
		notes = append(notes, fmt.Sprintf("target %s describes no GPU (only its driver), so no architecture is exported; give gpus: or compute_capabilities:", h.Name))
	}
	switch format {
	case ExportCondaOverrides:
		lines = append(lines, "CONDA_OVERRIDE_CUDA="+cuda)
		if arch != "" {
			lines = append(lines, "CONDA_OVERRIDE_CUDA_ARCH="+arch)
		}
	case ExportNVVariant:
		if noDriver {
			return nil, nil, fmt.Errorf("target %s has no NVIDIA driver: the NVIDIA variant provider has nothing to force; install CPU wheels there", h.Name)
		}
		lines = append(lines, "NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION="+cuda)
		if arch != "" {
			lines = append(lines, "NV_VARIANT_PROVIDER_FORCE_SM_ARCH="+arch)
		}
	case ExportPixi:
		if noDriver {
			lines = append(lines, fmt.Sprintf("platforms = [{ platform = %q }]", platform))
			notes = append(notes, fmt.Sprintf("target %s has no NVIDIA driver: no cuda key, so pixi solves CPU builds", h.Name))
			break
		}
		lines = append(lines,
			"# pixi 0.71 and later, [workspace]:",
			fmt.Sprintf("platforms = [{ platform = %q, cuda = %q }]", platform, cuda),
			"# earlier pixi:",
			"[system-requirements]",
			fmt.Sprintf("cuda = %q", cuda))
	default:
		return nil, nil, fmt.Errorf("unknown export format %q: one of %s", format, strings.Join(ExportFormats, ", "))
	}
	return lines, notes, nil
}
