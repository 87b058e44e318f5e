package gpucheck

import (
	"fmt"

	"github.com/envguard/envguard/finding"
)

// ruleEG411: a shared library of the environment needs another that
// nothing provides. envguard check finds each DT_NEEDED the way the
// dynamic loader does (internal/prefixscan); a file has no binaries, so
// for it the rule says nothing.
var ruleEG411 = &Rule{
	Rule: finding.Rule{
		Code: "EG411", Name: "needed-library-missing", Severity: finding.SeverityError,
		Title: "a shared library in the environment needs another (DT_NEEDED) that neither the environment nor the system provides",
		Why: "The dynamic loader opens every library a shared object names in DT_NEEDED when it is loaded, searching DT_RPATH (when " +
			"there is no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, /etc/ld.so.cache and the default directories, in ld.so(8)'s order. " +
			"One it does not find fails the import (\"libcudart.so.11.0: cannot open shared object file: No such file or directory\"): " +
			"an extension built for another CUDA major than the environment's runtime, a wheel whose vendored libraries were removed, " +
			"a conda package whose dependency was not installed. envguard check reads every library's DT_NEEDED, looks where the loader " +
			"looks (with the libraries torch preloads from site-packages/nvidia/*/lib and torch/lib, and a conda prefix's lib/), and names " +
			"each that nothing provides. The NVIDIA driver's own libraries (libcuda.so.1, libnvidia-ml.so.1) come with the machine's driver, " +
			"which EG404 judges, and are not counted.",
		Fix:    "Install the package that ships the library (for libcudart.so.12: nvidia-cuda-runtime-cu12, or conda's cuda-cudart), or the build of the extension made for the environment's CUDA major.",
		Before: "# site-packages/foo/_C.so: DT_NEEDED libcudart.so.11.0, in an environment of CUDA 12\n$ envguard check",
		After:  "# foo rebuilt for CUDA 12: DT_NEEDED libcudart.so.12\n$ envguard check",
		Since:  "0.3.0",
	},
	run: runEG411,
}

// runEG411 reports each DT_NEEDED entry nothing provides, once per library.
func runEG411(c *checker) bool {
	b := c.st.Binaries
	if b == nil {
		return true
	}
	for _, l := range b.Libraries {
		for _, n := range l.Missing {
			c.add("EG411", c.st.PosOf(l.Package),
				fmt.Sprintf("%s needed by %s: no library in the environment or the system provides it, so loading %s fails (\"cannot open shared object file\")", n, l.Rel, l.Name()),
				fmt.Sprintf("install the package that ships %s, or a build of %s made for this environment", n, orPkg(l.Package, l.Name())))
		}
	}
	return true
}

func orPkg(pkg, lib string) string {
	if pkg != "" {
		return pkg
	}
	return lib
}
