package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
)

// ruleEG411: a shared library of the environment needs another that
// nothing provides. envguard check finds each DT_NEEDED the way the
// dynamic loader does (internal/prefixscan). A file has no binaries; for
// it the rule reports what the knowledge base's lib_breaks decide from the
// file (resolver.LibBreak): a framework build that needs a release of a
// library older than the one the file gets.
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
			"which EG404 judges, and are not counted. Only the GPU stack's own libraries count (the CUDA runtime and math libraries, " +
			"cuDNN, NCCL, libtorch and libc10): a missing optional backend of another package (cupy's cuTENSOR module, mpi4py's other MPI " +
			"builds, numba's TBB pool) fails only when used. " +
			"A file is judged where the knowledge base's lib_breaks decide it: a framework's conda build that links a library " +
			"dynamically with an open run requirement needs a release of it that still exports what the build imports, and the " +
			"solver gives it a later one (the pytorch channel's linux-64 pytorch runs with mkl >=2018, and MKL 2024.1 no longer " +
			"exports iJIT_NotifyEvent: \"libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent\", pytorch/pytorch#123097).",
		Fix:    "Install the package that ships the library (for libcudart.so.12: nvidia-cuda-runtime-cu12, or conda's cuda-cudart), or the build of the extension made for the environment's CUDA major; pin a library release the build loads (mkl=2024.0 beside the pytorch channel's pytorch).",
		Before: "# site-packages/foo/_C.so: DT_NEEDED libcudart.so.11.0, in an environment of CUDA 12\n$ envguard check",
		After:  "# foo rebuilt for CUDA 12: DT_NEEDED libcudart.so.12\n$ envguard check",
		Since:  "0.3.0",
	},
	run: runEG411,
}

// runEG411 reports each DT_NEEDED entry nothing provides, once per library.
func runEG411(c *checker) bool {
	for _, lb := range c.st.LibBreaks {
		c.add("EG411", lb.Pos, lb.Message, lb.Hint)
	}
	b := c.st.Binaries
	if b == nil {
		return true
	}
	for _, l := range b.Libraries {
		for _, n := range l.Missing {
			if !gpuStackLib(n) {
				continue
			}
			c.add("EG411", c.st.PosOf(l.Package),
				fmt.Sprintf("%s needed by %s: no library in the environment or the system provides it, so loading %s fails (\"cannot open shared object file\")", n, l.Rel, l.Name()),
				fmt.Sprintf("install the package that ships %s, or a build of %s made for this environment", n, orPkg(l.Package, l.Name())))
		}
	}
	return true
}

// gpuStackSONAMEs are the libraries of the GPU stack whose absence is the
// failure EG411 names (libcudart.so.11.0 in a CUDA 12 environment).
// Other needs are often optional backends a package loads only on use: on the H200 venv, cupy's cutensor module (libcutensor.so.2),
// mpi4py's MPICH variant (libmpi.so.12) and numba's TBB pool
// (libtbb.so.12) need libraries nothing provides, and the job runs.
var gpuStackSONAMEs = []string{
	"libcudart.so", "libcublas.so", "libcublasLt.so", "libcudnn", "libcufft.so", "libcurand.so",
	"libcusolver.so", "libcusparse.so", "libnccl.so", "libnvrtc.so", "libnvJitLink.so", "libcupti.so",
	"libnvToolsExt.so", "libtorch", "libc10", "libnvshmem",
}

func gpuStackLib(soname string) bool {
	for _, p := range gpuStackSONAMEs {
		if strings.HasPrefix(soname, p) {
			return true
		}
	}
	return false
}

func orPkg(pkg, lib string) string {
	if pkg != "" {
		return pkg
	}
	return lib
}
