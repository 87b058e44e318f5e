package gpucheck

import (
	"strings"
	"testing"
)

// The exported architecture is the lowest of the GPUs (CEP 46's
// __cuda_arch), the one every build must run on; a machine without a
// driver exports an empty CONDA_OVERRIDE_CUDA, which removes __cuda.
func TestExport(t *testing.T) {
	mixed := &Host{Name: "mixed", Available: true, Driver: "570.124.06", CUDADriver: "12.8",
		GPUs: []GPU{{CC: "12.0"}, {CC: "8.9"}, {CC: "10.0"}, {CC: "8.6"}}}
	if got := mixed.LowestCC(); got != "8.6" {
		t.Errorf("LowestCC = %s, want 8.6", got)
	}
	lines, notes, err := Export(mixed, ExportCondaOverrides, "linux-64")
	if err != nil || strings.Join(lines, ";") != "CONDA_OVERRIDE_CUDA=12.8;CONDA_OVERRIDE_CUDA_ARCH=8.6" || len(notes) != 0 {
		t.Errorf("conda-overrides: %q %q %v", lines, notes, err)
	}
	lines, _, err = Export(mixed, ExportPixi, "linux-aarch64")
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), `platforms = [{ platform = "linux-aarch64", cuda = "12.8" }]`) {
		t.Errorf("pixi: %q %v", lines, err)
	}
	none := &Host{Name: "cpu", Reason: "it has no NVIDIA driver (driver: none)"}
	lines, _, err = Export(none, ExportCondaOverrides, "linux-64")
	if err != nil || strings.Join(lines, ";") != "CONDA_OVERRIDE_CUDA=" {
		t.Errorf("no driver, conda: %q %v", lines, err)
	}
	if _, _, err := Export(none, ExportNVVariant, "linux-64"); err == nil {
		t.Error("no driver, nv-variant: no error")
	}
	unknown := &Host{Name: "u", Reason: "driver unknown"}
	if _, _, err := Export(unknown, ExportCondaOverrides, "linux-64"); err == nil || !strings.Contains(err.Error(), "driver unknown") {
		t.Errorf("unknown driver: %v", err)
	}
	if _, _, err := Export(mixed, "docker", "linux-64"); err == nil || !strings.Contains(err.Error(), "conda-overrides, pixi, nv-variant") {
		t.Errorf("bad format: %v", err)
	}
}
