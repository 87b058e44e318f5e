package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
)

// diagWith is the first finding of r with the code whose message holds
// msg, nil where there is none.
func diagWith(r *report.Report, code, msg string) *finding.Diagnostic {
	for _, d := range r.Diagnostics() {
		if d.Code == code && strings.Contains(d.Message, msg) {
			return &d
		}
	}
	return nil
}

// verdictAndMessages is one target's verdict and its findings' codes and
// messages, one per line.
func verdictAndMessages(r *report.Report) (gpucheck.Verdict, string) {
	var b strings.Builder
	for _, d := range r.Diagnostics() {
		b.WriteString(d.Code + " " + d.Message + "\n")
	}
	return r.Targets[0].Verdict, b.String()
}

// TestCupyRangeFromIndexReleases: review fourteen #93. Every package-index
// release cupy-cuda12x>=13.0.0 admits has a row, each with sm_90 SASS, so
// an H100 is decided; on a B200 the releases before 13.4.0 reach it only
// through PTX and ask an NVRTC of the CUDA 12.x they find, whose release
// the file does not fix, for compute_100, so it stays open there.
func TestCupyRangeFromIndexReleases(t *testing.T) {
	// conda's CUDA 12 toolkit beside it gives the libraries it links
	env := func(spec string) string {
		return "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - cuda-toolkit=12\n  - pip\n  - pip:\n    - " + spec + "\n"
	}
	if v, m := verdictAndMessages(validateOn(t, "h100", "environment.yml", env("cupy-cuda12x>=13.0.0"))); v != gpucheck.VerdictOK || strings.Contains(m, "EG409") {
		t.Errorf("h100: %s\n%s; want ok", v, m)
	}
	v, m := verdictAndMessages(validateOn(t, "b200", "environment.yml", env("cupy-cuda12x>=13.0.0")))
	if v != gpucheck.VerdictUnknown || !strings.Contains(m, "cupy-cuda12x 13.0.0 to 13.3.0") || !strings.Contains(m, "asks NVRTC for compute_100") {
		t.Errorf("b200: %s\n%s; want unknown over 13.0.0 … 13.3.0's NVRTC", v, m)
	}
	// sm_100 SASS in every release it admits, but its run-time kernels
	// come from the NVRTC of whichever CUDA 12.x it finds: one before
	// 12.8 makes sm_90 code (review eighteen F23's class)
	if v, m := verdictAndMessages(validateOn(t, "b200", "environment.yml", env("cupy-cuda12x>=13.4.0"))); v != gpucheck.VerdictUnknown || !strings.Contains(m, "in its precompiled kernels, but it compiles most of its kernels at run time") {
		t.Errorf("b200, >=13.4.0: %s\n%s; want unknown over the NVRTC it finds", v, m)
	}
	// cupy-cuda12x's first release is 11.5.0: a bound below it admits
	// nothing the rows do not describe.
	if v, m := verdictAndMessages(validateOn(t, "h100", "environment.yml", env("cupy-cuda12x>=10.0"))); v != gpucheck.VerdictOK {
		t.Errorf("h100, >=10.0: %s\n%s; want ok", v, m)
	}
	if v, m := verdictAndMessages(validateOn(t, "k80", "requirements.txt", "cupy-cuda12x>=13.0.0\n")); v != gpucheck.VerdictFail || !strings.Contains(m, "as every release of cupy-cuda12x does") {
		t.Errorf("k80: %s\n%s; want the floor every release keeps", v, m)
	}
	// With no CUDA 12 in the file it loads the machine's libraries.
	if v, m := verdictAndMessages(validateOn(t, "h100", "requirements.txt", "cupy-cuda12x>=13.0.0\n")); v != gpucheck.VerdictUnknown || !strings.Contains(m, "it loads the cuBLAS, cuFFT, NVRTC and the rest it finds on the machine") {
		t.Errorf("h100, no CUDA in the file: %s\n%s; want unknown, the machine's libraries", v, m)
	}
}

// TestCupyPinNVRTCMajorOnly: a pinned cupy-cuda12x before 13.4.0 on a
// Blackwell GPU reaches it only through PTX, and asks the NVRTC of the
// CUDA 12.x it finds for compute_100: an NVRTC older than 12.8 cannot
// compile that, a newer one can, so the target is unknown, never ok.
func TestCupyPinNVRTCMajorOnly(t *testing.T) {
	v, m := verdictAndMessages(validateOn(t, "b200", "requirements.txt", "cupy-cuda12x==13.1.0\n"))
	if v != gpucheck.VerdictUnknown || !strings.Contains(m, "the NVRTC of the CUDA 12.x it finds") {
		t.Errorf("b200: %s\n%s; want unknown", v, m)
	}
}

// TestCupyToolkitLibsWithoutFramework: corpus 106, conda-forge's cupy
// 12.0.0 for cudatoolkit 10.2 with no framework. CuPy links cuBLAS, cuFFT,
// cuRAND, cuSOLVER and cuSPARSE from that toolkit, whose CUDA 10.2
// releases have no code of their own for sm_80; cupy's own kernels reach
// an A100 only through PTX, so those libraries decide it: not ok.
func TestCupyToolkitLibsWithoutFramework(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=10.2.89=h713d32c_10\n  - cupy=12.0.0=py310h5a5d52f_0\n"
	v, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", src))
	if v != gpucheck.VerdictUnknown || !strings.Contains(m, "(cublas, cufft, curand, cusolver, cusparse)") || !strings.Contains(m, "cublas 10.2 has no code of its own for sm_80") {
		t.Errorf("a100: %s\n%s; want the toolkit's libraries judged", v, m)
	}
	// On a V100 cupy has SASS: its toolkit's libraries are taken to carry
	// what that toolkit compiled it for, as a framework's are.
	if v, m := verdictAndMessages(validateOn(t, "v100", "environment.yml", src)); v != gpucheck.VerdictOK {
		t.Errorf("v100: %s\n%s; want ok", v, m)
	}
}

// TestNoLibrariesOfAPhantomBuild: review seventeen F23. pytorch-cuda=5.7
// names no build the pytorch channel published (EG205): there is no build
// whose CUDA libraries could be judged, so no finding speaks of "the
// framework has SASS" beside a cuDNN it would load.
func TestNoLibrariesOfAPhantomBuild(t *testing.T) {
	src := "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch=2.1.0\n  - pytorch-cuda=5.7\n"
	r := validateOn(t, "k80", "environment.yml", src)
	v, m := verdictAndMessages(r)
	if v != gpucheck.VerdictFail || strings.Contains(m, "CUDA libraries") || !strings.Contains(r.Targets[0].Uninstallable, "never published") {
		t.Errorf("k80: %s (%q)\n%s; want fail on the unpublished build alone", v, r.Targets[0].Uninstallable, m)
	}
}

// TestPipTensorFlowCuDNNFromMachine: review seventeen F34 (006). A pip
// tensorflow beside a conda cudatoolkit and no cuDNN in the file opens a
// libcudnn it finds on the machine, or runs on the CPU: the finding says
// that, not that some cuDNN 8.x release of the file's is not known, and
// its hint asks for the cuDNN in the file.
func TestPipTensorFlowCuDNNFromMachine(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.8.0\n  - pip\n  - pip:\n    - tensorflow==2.14.0\n"
	r := validateOn(t, "k80", "environment.yml", src)
	if d := diagWith(r, "EG409", "the file installs no cuDNN"); d == nil || !strings.Contains(d.Hint, "install the cuDNN it was built with in the file") {
		_, m := verdictAndMessages(r)
		t.Errorf("want EG409 saying the file installs no cuDNN, with its hint:\n%s", m)
	}
}

// TestBuiltOnMachineBelowTorchNVCC: review eighteen F42 (018). DeepSpeed
// compiles its ops on the machine with an nvcc of torch's CUDA major;
// beside torch 2.6.0 (CUDA 12.4) no such nvcc targets a K80, so that is
// EG410, not a hint to install an nvcc that cannot help; on an A100 it
// stays open.
func TestBuiltOnMachineBelowTorchNVCC(t *testing.T) {
	src := "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - torch==2.6.0\n    - deepspeed==0.16.7\n"
	if r := validateOn(t, "k80", "environment.yml", src); diagWith(r, "EG410", "no CUDA 12 compiler targets anything below sm_50") == nil {
		_, m := verdictAndMessages(r)
		t.Errorf("k80: want deepspeed's EG410:\n%s", m)
	}
	if _, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", src)); !strings.Contains(m, "deepspeed ships no prebuilt GPU code") {
		t.Errorf("a100: want deepspeed left open:\n%s", m)
	}
}

// TestCupyNVRTCCubin: review eighteen F23. From 9.6.0 a CuPy built for
// CUDA 11.1 or later has NVRTC compile machine code for the architecture
// it asks for, capped at what that NVRTC targets: conda-forge's cupy 12.0.0
// for CUDA 11.7 makes code for an architecture of major 8 on an H100,
// which does not run there (EG410), where before the PTX the driver
// JIT-compiled was read as running. On an A100 the cap is its own major.
func TestCupyNVRTCCubin(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.7\n  - cupy=12.0.0\n"
	v, m := verdictAndMessages(validateOn(t, "h100", "environment.yml", src))
	if v != gpucheck.VerdictFail || !strings.Contains(m, "machine code for an architecture of major 8, which does not run on sm_90") {
		t.Errorf("h100: %s\n%s; want EG410 for the capped machine code", v, m)
	}
	if v, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", src)); v != gpucheck.VerdictOK {
		t.Errorf("a100: %s\n%s; want ok", v, m)
	}
	// CUDA 10.2's build takes the PTX path: its capped compute_75 PTX runs
	src = "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=10.2\n  - cupy=12.0.0\n"
	if _, m := verdictAndMessages(validateOn(t, "h100", "environment.yml", src)); strings.Contains(m, "EG410 cupy") {
		t.Errorf("h100, CUDA 10.2: %s; want no EG410 for cupy's own kernels", m)
	}
}

// TestNameFixesCUDAHint: review nineteen F37 (120). dgl-cuda10.1's name
// fixes its CUDA: no release of it can carry machine code for an RTX 5090,
// so EG410's hint says so instead of asking for a release built for sm_120.
func TestNameFixesCUDAHint(t *testing.T) {
	src := "channels: [pytorch, dglteam, defaults]\ndependencies:\n  - python=3.7\n  - cudatoolkit=10.1\n  - dgl-cuda10.1=0.4.3post2=py37_0\n"
	r := validateOn(t, "rtx5090", "environment.yml", src)
	if d := diagWith(r, "EG410", "dgl-cuda10.1"); d == nil || !strings.Contains(d.Hint, "no release of dgl-cuda10.1 can carry machine code for sm_120: each is a build for CUDA 10.1") {
		_, m := verdictAndMessages(r)
		t.Errorf("want dgl-cuda10.1's EG410 with the hint that no release serves sm_120:\n%s", m)
	}
}

// TestJaxHostCUDAHint: review nineteen F6 (179). A jaxlib that loads the
// machine's CUDA (before the cudaNN_pip extras) is built per CUDA major and
// cuDNN, and may need a minor at least its build's: on a K80 the hint asks
// for the driver's own CUDA 11.4, not "11.4 or an older 11.x", and for no
// jax release "built for CUDA 11.4".
func TestJaxHostCUDAHint(t *testing.T) {
	src := "dependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - -f https://storage.googleapis.com/jax-releases/jax_releases.html\n    - jax[cuda]==0.3.10\n"
	r := validateOn(t, "k80", "environment.yml", src)
	if d := diagWith(r, "EG402", ""); d == nil || !strings.Contains(d.Hint, "install CUDA 11.4 on the machine") || strings.Contains(d.Hint, "or an older") || strings.Contains(d.Hint, "jax release built for") {
		_, m := verdictAndMessages(r)
		t.Errorf("want EG402 asking for CUDA 11.4 on the machine:\n%s", m)
	}
}
