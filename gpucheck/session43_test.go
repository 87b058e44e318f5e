package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestCudatoolkit12IsNoBuild: corpus 104. cudatoolkit=12.2 names a package
// no channel published (cudatoolkit ends at 11.8, EG205): conda cannot
// create the environment, so no target is ok and no finding judges "its
// CUDA 12.2 toolkit" libraries as if it could: every target fails on the
// file (review forty-seven F25). cudatoolkit=11.8 still fixes a build.
func TestCudatoolkit12IsNoBuild(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n  - python=3.12\n  - cudatoolkit=12.2\n  - cudnn=9.1\n  - pip\n  - pip:\n    - onnxruntime-gpu==1.20.0\n"
	for _, target := range []string{"a100", "h100"} {
		v, m := verdictAndMessages(validateOn(t, target, "environment.yml", src))
		r := validateOn(t, target, "environment.yml", src)
		if v != gpucheck.VerdictFail || !strings.Contains(r.Targets[0].Uninstallable, "cudatoolkit=12.2 asks for a cudatoolkit no channel published") || strings.Contains(m, "CUDA 12.2 toolkit") {
			t.Errorf("%s: %s (%q)\n%s; want fail: no such build", target, v, r.Targets[0].Uninstallable, m)
		}
	}
	// with a framework whose variant the file leaves open, the builds it
	// admits are not judged either: none can be installed
	fw := "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - cudatoolkit=12.1.0\n  - pytorch=2.1.0\n"
	if r := validateOn(t, "a100", "environment.yml", fw); r.Targets[0].Verdict != gpucheck.VerdictFail || !strings.Contains(r.Targets[0].Uninstallable, "no channel published") {
		t.Errorf("pytorch=2.1.0 beside cudatoolkit=12.1.0 on an A100: %s (%q); want fail: no such build", r.Targets[0].Verdict, r.Targets[0].Uninstallable)
	}
	ok := strings.Replace(src, "cudatoolkit=12.2", "cudatoolkit=11.8", 1)
	if _, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", ok)); strings.Contains(m, "no channel published") {
		t.Errorf("cudatoolkit=11.8 read as unpublished:\n%s", m)
	}
}

// TestHostCUDAJax: corpus 103 and 179. jaxlib 0.1.68+cuda111 ships no
// ptxas and no cuDNN. Its cuDNN is the machine's (the K80's open check says
// so, and is the machine's to decide), but the cuDNN major its jaxlib opens
// is not: jax[cuda]==0.3.10's CUDA 11 jaxlib opens libcudnn.so.8, and no
// cuDNN 8 runs on an RTX 5090 (review thirty-two C20). XLA's target on an
// RTX 4090 stays open, and not as the machine's alone: where the machine's
// ptxas does not know sm_89 these releases leave the PTX to the driver's
// JIT compiler (review thirty-two C17).
func TestHostCUDAJax(t *testing.T) {
	// without JAX's find-links page pip finds no +cuda111 jaxlib (EG205):
	// nothing installs, so every target fails whatever its GPUs
	bare := "channels: [defaults]\ndependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - jax==0.2.16\n    - jaxlib==0.1.68+cuda111\n"
	if r := validateOn(t, "rtx4090", "environment.yml", bare); r.Targets[0].Verdict != gpucheck.VerdictFail || !strings.Contains(r.Targets[0].Uninstallable, "jaxlib") {
		t.Errorf("jaxlib +cuda111 without its find-links page: %s (%q), want fail: it cannot be installed", r.Targets[0].Verdict, r.Targets[0].Uninstallable)
	}
	src := "channels: [defaults]\ndependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - -f https://storage.googleapis.com/jax-releases/jax_releases.html\n    - jax==0.2.16\n    - jaxlib==0.1.68+cuda111\n"
	r := validateOn(t, "rtx4090", "environment.yml", src)
	if v, m := verdictAndMessages(r); v != gpucheck.VerdictUnknown || diagWith(r, "EG409", "leaves the PTX to the driver's JIT compiler") == nil {
		t.Errorf("rtx4090: %s\n%s; want the XLA target open, saying the driver's JIT takes over", v, m)
	}
	for _, u := range r.Targets[0].Undecided {
		if u.Reason == "xla-target-unknown" && u.Cause == gpucheck.CauseMachine {
			t.Errorf("rtx4090: the XLA target is not the machine's alone: %s", u.Why)
		}
	}
	r = validateOn(t, "k80", "environment.yml", src)
	if v, m := verdictAndMessages(r); v != gpucheck.VerdictUnknown || diagWith(r, "EG409", "the file installs no cuDNN: jax 0.2.16's CUDA jaxlib loads the libcudnn installed on the machine") == nil {
		t.Errorf("k80: %s\n%s; want the machine's cuDNN left open", v, m)
	}
	for _, u := range r.Targets[0].Undecided {
		if u.Cause != gpucheck.CauseMachine {
			t.Errorf("k80: undecided %s (%s) has cause %q, want the machine's", u.Reason, u.Why, u.Cause)
		}
	}
	cu11 := "dependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - --find-links https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n    - jax[cuda]==0.3.10\n"
	r = validateOn(t, "rtx5090", "environment.yml", cu11)
	if v, m := verdictAndMessages(r); v != gpucheck.VerdictFail || diagWith(r, "EG410", "open libcudnn.so.8 (a cuDNN 8.x)") == nil {
		t.Errorf("jax[cuda]==0.3.10 on an RTX 5090: %s\n%s; want EG410 for its cuDNN 8", v, m)
	}
	src = "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - jax[cuda12]==0.4.34\n"
	r = validateOn(t, "rtx5090", "environment.yml", src)
	seen := false
	for _, u := range r.Targets[0].Undecided {
		if u.Reason != "xla-target-unknown" {
			continue
		}
		seen = true
		if u.Cause == gpucheck.CauseMachine {
			t.Errorf("jax 0.4.34 brings its own ptxas, but its XLA target is left to the machine: %s", u.Why)
		}
	}
	if !seen {
		_, m := verdictAndMessages(r)
		t.Errorf("jax 0.4.34 on an RTX 5090: no open XLA target:\n%s", m)
	}
}

// TestPipPTXASTooOld: corpus 148. jax points XLA's ptxas search at the
// pip nvidia-cuda-nvcc first, and from jaxlib 0.4.25 XLA fails the
// compilation when that ptxas rejects the GPU: nvcc 12.6 beside jax 0.4.34
// fails on an RTX 5090 (sm_120 came with CUDA 12.8). An nvcc 12.8 leaves the
// XLA target open, and an A100 is not touched.
func TestPipPTXASTooOld(t *testing.T) {
	src := func(nvcc string) string {
		return "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - jax==0.4.34\n    - jaxlib==0.4.34\n    - jax-cuda12-plugin==0.4.34\n    - jax-cuda12-pjrt==0.4.34\n    - nvidia-cuda-nvcc-cu12==" + nvcc + "\n"
	}
	r := validateOn(t, "rtx5090", "environment.yml", src("12.6.77"))
	if v, m := verdictAndMessages(r); v != gpucheck.VerdictFail || diagWith(r, "EG403", "CUDA 12.6's ptxas targets nothing above sm_90") == nil {
		t.Errorf("nvcc 12.6 on an RTX 5090: %s\n%s; want EG403 for the ptxas", v, m)
	}
	r = validateOn(t, "rtx5090", "environment.yml", src("12.8.93"))
	if v, m := verdictAndMessages(r); v == gpucheck.VerdictFail || strings.Contains(m, "ptxas of nvidia-cuda-nvcc") {
		t.Errorf("nvcc 12.8 on an RTX 5090: %s\n%s; want the XLA target left open", v, m)
	}
	if _, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", src("12.6.77"))); strings.Contains(m, "ptxas of nvidia-cuda-nvcc") {
		t.Errorf("nvcc 12.6 on an A100 read as too old:\n%s", m)
	}
}

// TestRetiredHintKeepsTheRelease: review thirty-one F23 (149). A K80
// beside PyPI's torch 2.1.0 (CUDA 12.1) is pointed at the same release's
// CUDA 11.8 wheel, which carries sm_37, not at a newer release: the file's
// other pins (intel-extension-for-pytorch 2.1.0, torchvision 0.16) stay
// valid. An open release still gets the newest such build.
func TestRetiredHintKeepsTheRelease(t *testing.T) {
	r := validateOn(t, "k80", "requirements.txt", "torch==2.1.0\n")
	if d := diagWith(r, "EG401", "CUDA 12"); d == nil || !strings.Contains(d.Hint, "torch==2.1.0+cu118") {
		_, m := verdictAndMessages(r)
		t.Errorf("want EG401 whose hint keeps torch 2.1.0:\n%s\n%+v", m, d)
	}
	// an open release is no release to keep: each build the file admits
	// is judged as its own release, and the hint names the newest build
	// that serves, not one of them
	r = validateOn(t, "k80", "requirements.txt", "torch>=2.1,<2.2\n")
	if d := diagWith(r, "EG401", "CUDA 12"); d == nil || !strings.Contains(d.Hint, "torch==2.3.1+cu118") {
		_, m := verdictAndMessages(r)
		t.Errorf("open release: want the newest serving build in EG401's hint:\n%s\n%+v", m, d)
	}
}

// TestCondaForgeBuildsFitTheToolkitPin: review thirty-three F23 (034). A
// conda-forge pytorch whose variant is open is judged over the builds the
// file can install: beside cudatoolkit=11.7 that is the CUDA 11.2 build
// (nvcc 11.2's run_exports: cudatoolkit >=11.2,<12), not the CUDA 11.8 one
// (>=11.8) nor the CUDA 12.0 one (cuda-version 12.0 constrains cudatoolkit
// to 12.0, which does not exist).
func TestCondaForgeBuildsFitTheToolkitPin(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch=2.0\n  - cudatoolkit=11.7\n"
	_, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", src))
	if !strings.Contains(m, "a CUDA build (CUDA 11.2) installs") || strings.Contains(m, "CUDA 11.8") || strings.Contains(m, "CUDA 12.0") {
		t.Errorf("cudatoolkit=11.7: want only the CUDA 11.2 build judged:\n%s", m)
	}
}
