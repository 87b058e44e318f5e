package gpucheck

import "github.com/envguard/envguard/envspec"

// Rules documents EG401–EG409, the checks of an environment against a
// machine. Check raises them; `envguard rules` and the generated docs read
// these values.
var Rules = []*envspec.Rule{
	{
		Code: "EG401", Name: "driver-too-old", Severity: envspec.SeverityError,
		Title: "the driver cannot run the environment's CUDA runtime: another major, or below the minor-version-compatibility floor",
		Why: "A CUDA runtime needs a driver that supports its version. Within one major, minor-version compatibility lets an older driver " +
			"run a newer runtime if the driver is at least the major's floor (450.80.02 for CUDA 11.x, 525.60.13 for 12.x); across majors " +
			"nothing does. The job fails at its first CUDA call with \"CUDA driver version is insufficient for CUDA runtime version\".",
		Fix:    "Upgrade the driver to at least the version the runtime lists, or pin a CUDA runtime the driver supports.",
		Before: "# target: driver 470.57.02 (CUDA 11.4)\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		After:  "# target: driver 470.57.02 (CUDA 11.4)\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=11.8",
		Since:  "0.1.0",
	},
	{
		Code: "EG402", Name: "minor-version-compat", Severity: envspec.SeverityWarning,
		Title: "the driver runs it only through minor-version compatibility (driver's CUDA older than the runtime, same major): PTX JIT and newer APIs fail",
		Why: "A driver older than the runtime but above the major's floor runs it with limits: PTX newer than the driver cannot be " +
			"JIT-compiled, and APIs added after the driver's CUDA version return errors. Frameworks that rely on PTX for newer GPUs, or " +
			"libraries that JIT kernels at run time, break.",
		Fix:    "Upgrade the driver to the runtime's own minimum, or pin the runtime to the driver's CUDA version.",
		Before: "# target: driver 470.57.02 (CUDA 11.4)\ndependencies:\n  - pytorch=1.13\n  - pytorch-cuda=11.6",
		After:  "# target: driver 510.47.03 (CUDA 11.6)\ndependencies:\n  - pytorch=1.13\n  - pytorch-cuda=11.6",
		Since:  "0.1.0",
	},
	{
		Code: "EG403", Name: "no-kernel-image", Severity: envspec.SeverityError,
		Title: "the framework build can run no code on a GPU: no SASS for its architecture or a lower minor of the same major, and no PTX at or below it",
		Why: "A GPU runs machine code (SASS) built for its own architecture or a lower minor of the same major, or JIT-compiles PTX built " +
			"for an architecture at or below its own. A build with neither fails on that GPU with \"no kernel image is available for " +
			"execution on the device\" (an sm_80/sm_86 build on an H100, sm_90).",
		Fix:    "Use a framework release and CUDA variant whose architecture list includes the GPU (for Hopper: a CUDA 11.8 or 12.x build of torch 2.0 or later).",
		Before: "# target: H100 (9.0)\ndependencies:\n  - pytorch=1.13\n  - pytorch-cuda=11.7",
		After:  "# target: H100 (9.0)\ndependencies:\n  - pytorch=2.1\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	{
		Code: "EG404", Name: "no-driver", Severity: envspec.SeverityError,
		Title: "the environment needs CUDA but the machine has no usable NVIDIA driver or GPU",
		Why: "A CUDA build on a machine without a working driver falls back to CPU or fails at its first CUDA call. The finding says " +
			"which: no library (libnvidia-ml.so.1 not found), driver not loaded, no device, no permission, a driver/library version " +
			"mismatch, or CUDA_VISIBLE_DEVICES hiding every GPU.",
		Fix:    "Run the job where the driver works (nvidia-smi succeeds), fix CUDA_VISIBLE_DEVICES, or use a CPU-only build.",
		Before: "# CUDA_VISIBLE_DEVICES=\"\"\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		After:  "# CUDA_VISIBLE_DEVICES=0\ndependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	{
		Code: "EG405", Name: "gpu-busy", Severity: envspec.SeverityWarning,
		Title: "a GPU the job will use already has memory taken by other processes, or less free memory than asked for (--min-free)",
		Why: "Another process's allocations leave the job less memory than the GPU's size: it fails with out-of-memory part way " +
			"through, or runs slower while sharing the GPU.",
		Fix:    "Pick free GPUs with CUDA_VISIBLE_DEVICES, or wait for the other processes to finish.",
		Before: "# GPU 0: python[4121] holds 30 GiB\nCUDA_VISIBLE_DEVICES=0",
		After:  "# GPU 1: no other process\nCUDA_VISIBLE_DEVICES=1",
		Since:  "0.1.0",
	},
	{
		Code: "EG406", Name: "mig-enabled", Severity: envspec.SeverityInfo,
		Title: "MIG mode is enabled on a GPU",
		Why: "A GPU in MIG mode is split into instances; a CUDA job sees only the instance it is given, with that instance's share " +
			"of memory and compute, never the whole GPU.",
		Fix:    "Select a MIG instance with CUDA_VISIBLE_DEVICES=MIG-<uuid>, or disable MIG for whole-GPU jobs.",
		Before: "# GPU 0: MIG enabled\nCUDA_VISIBLE_DEVICES=0",
		After:  "# GPU 0: MIG enabled\nCUDA_VISIBLE_DEVICES=MIG-5c6c3a2e-8c2b-5a5c-9f3e-2b1c0d9e8f7a",
		Since:  "0.1.0",
	},
	{
		Code: "EG407", Name: "cpu-build-on-gpu", Severity: envspec.SeverityWarning,
		Title:  "a CPU-only framework build on a machine with NVIDIA GPUs: the GPUs will sit idle",
		Why:    "A CPU-only build (cpuonly, a cpu build string, a +cpu wheel) never uses the GPUs; training runs on the CPU, many times slower. A ROCm build (+rocm6.0, the rocm wheel index) drives AMD GPUs only, so on NVIDIA GPUs it is CPU-only too.",
		Fix:    "Install the CUDA build of the framework.",
		Before: "dependencies:\n  - pytorch=2.3\n  - cpuonly",
		After:  "dependencies:\n  - pytorch=2.3\n  - pytorch-cuda=12.1",
		Since:  "0.1.0",
	},
	{
		Code: "EG408", Name: "ptx-only", Severity: envspec.SeverityWarning,
		Title: "the framework build has no machine code a GPU can run but carries PTX the driver can JIT-compile: it runs, slowly at first and without the architecture's own kernels",
		Why: "With no SASS for the GPU's architecture (nor a lower minor of its major), the driver JIT-compiles the build's PTX at " +
			"first use: minutes of start-up, kernels not tuned for the GPU, and bundled libraries (cuDNN, cuBLAS extensions, custom " +
			"ops) may have no kernels at all.",
		Fix:    "Use a framework release and CUDA variant whose architecture list includes the GPU (for Blackwell sm_100/sm_120: a CUDA 12.8 or later build).",
		Before: "# target: RTX PRO 6000 (12.0)\ndependencies:\n  - pytorch=2.6\n  - pytorch-cuda=12.4",
		After:  "# target: RTX PRO 6000 (12.0)\n# pip: torch==2.7.1 --index-url .../whl/cu128",
		Since:  "0.1.0",
	},
	{
		Code: "EG409", Name: "undecided", Severity: envspec.SeverityWarning,
		Title: "a check against a target could not be decided (the build's architecture list, PTX, the driver floor or the variant is not known): the target's verdict is unknown, never ok",
		Why: "A target is ok only when its driver, its GPU architectures (SASS and PTX) and the CPU or CUDA variant were each " +
			"decided. Where the knowledge base lacks a fact (an architecture list, whether a build carries PTX, a driver's CUDA " +
			"version) envguard says so instead of guessing; where it can, it reasons from the CUDA toolkit's own limits: a GPU " +
			"older than anything the toolkit can target fails (EG403), and one newer than everything it targets runs only through " +
			"PTX. `--fail-on unknown` (or fail_on: unknown in .envguard.yml) makes an unknown verdict fail CI.",
		Fix: "Pin what decides the check (the CUDA variant, a build whose architecture list is known), describe the target fully " +
			"(driver, GPUs), or confirm on the machine: python -c 'import torch; print(torch.cuda.get_arch_list())'.",
		Before: "# target: RTX 5090 (12.0)\ndependencies:\n  - pip:\n    - torch==2.5.1+cu124",
		After:  "# target: RTX 5090 (12.0)\ndependencies:\n  - pip:\n    - torch==2.7.1+cu128",
		Since:  "0.2.0",
	},
}
