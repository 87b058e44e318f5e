package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
)

// ruleEG412: GPU code compressed with zstd on a driver older than the
// one that loads it. The floor is the knowledge base's fatbin_compression
// row (zstd: the drivers of CUDA 12.4 and later, NVIDIA's nvcc
// documentation) with cuda_drivers' Linux floor of that release.
var ruleEG412 = &Rule{
	Rule: finding.Rule{
		Code: "EG412", Name: "zstd-gpu-code-old-driver", Severity: finding.SeverityError,
		Title: "GPU code compressed with zstd (nvcc --compress-mode, CUDA 12.4 and later) on a driver older than the one that can load it",
		Why: "nvcc can compress the GPU code of a fatbin. The zstd-compressed entries that --compress-mode writes (and -Xfatbin=-compress-all " +
			"from CUDA 12.8 on, the default of torch's CUDA 13 builds) are, NVIDIA's nvcc documentation says, \"not compatible with drivers " +
			"released before CUDA Toolkit's 12.4 Release\": an older driver cannot load the module, though the CUDA runtime itself may " +
			"run there through minor-version compatibility. envguard check reads each entry's compression flag from the binaries.",
		Fix:    "Upgrade the driver to the CUDA 12.4 floor (550.54.14 on Linux) or newer, or use builds made without zstd compression (--no-compress, or a CUDA toolkit before 12.4).",
		Before: "# driver 535.161.08 (CUDA 12.2); site-packages/torch/lib/libtorch_cuda.so: zstd entries\n$ envguard check",
		After:  "# driver 550.54.15 (CUDA 12.4)\n$ envguard check",
		Since:  "0.3.0",
	},
	run: runEG412,
}

// runEG412 holds the zstd-compressed libraries to the driver.
func runEG412(c *checker) bool {
	b := c.st.Binaries
	if b == nil || !c.h.Available {
		return true
	}
	var libs []resolver.BinaryLibrary
	for _, l := range b.Libraries {
		if l.Lib != nil && l.Lib.HasZstd() {
			libs = append(libs, l)
		}
	}
	if len(libs) == 0 {
		return true
	}
	what := zstdText(libs)
	f, ok := c.k.CompressionFloor("zstd")
	if !ok {
		c.undecide(c.st.PosOf(libs[0].Package), "driver", "compression-floor-unknown", what,
			"which drivers load zstd-compressed GPU code is not in the knowledge base", "update the knowledge base (--kb DIR)")
		return true
	}
	floor := ""
	if d, ok := c.k.DriverFloor(f.MinCUDA); ok && !d.BranchOnly {
		floor = d.LinuxMin
	}
	drv, dcuda := c.h.Driver, c.driverCUDA
	if dcuda == "" {
		dcuda = c.h.CUDADriver
	}
	old := false
	switch {
	case drv != "" && floor != "":
		old = compareVersions(drv, floor) < 0
	case dcuda != "":
		old = compareVersions(dcuda, f.MinCUDA) < 0
	default:
		c.undecide(c.st.PosOf(libs[0].Package), "driver", "driver-unknown", what,
			"the driver's version is not known, so whether it loads zstd-compressed GPU code is not known", "give the target's driver or cuda_driver")
		return true
	}
	if !old {
		return true
	}
	need := "a driver for CUDA " + f.MinCUDA
	if floor != "" {
		need = fmt.Sprintf("%s (the first driver for CUDA %s)", floor, f.MinCUDA)
	}
	c.add("EG412", c.st.PosOf(libs[0].Package),
		fmt.Sprintf("%s carries zstd-compressed GPU code, which needs driver %s or newer; %s cannot load it", what, need, c.driverLabel()),
		fmt.Sprintf("upgrade the driver to %s or newer, or use builds made without zstd compression", orStr(floor, "a CUDA "+f.MinCUDA+" driver")))
	return true
}

// zstdText names the first libraries and counts the rest.
func zstdText(libs []resolver.BinaryLibrary) string {
	var names []string
	for i, l := range libs {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(libs)-3))
			break
		}
		names = append(names, l.Rel)
	}
	return strings.Join(names, ", ")
}

func orStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
