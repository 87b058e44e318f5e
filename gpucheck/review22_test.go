package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestMachineLibsBelowDriver: review twenty-two F29. cupy-cuda12x loads
// the CUDA 12 libraries it finds on the machine, and no CUDA 12 runtime
// runs on a K80's driver 470 (CUDA 11.4), whatever the machine has: the
// target fails (EG401) instead of being left to the machine, also beside
// a CUDA 11 torch whose own runtime runs there. Its [ctk] extra came in
// 14.0.0, so 13.4.1 is not told to use it, and 13.4.1[ctk] brings nothing.
func TestMachineLibsBelowDriver(t *testing.T) {
	src := "--extra-index-url https://download.pytorch.org/whl/cu118\ntorch==2.0.1+cu118\ncupy-cuda12x==13.4.1\n"
	r := validateOn(t, "k80", "requirements.txt", src)
	v, m := verdictAndMessages(r)
	if d := diagWith(r, "EG401", "cupy-cuda12x 13.4.1 is a CUDA 12 build that loads the CUDA 12 runtime and libraries it finds on the machine"); v != gpucheck.VerdictFail || d == nil {
		t.Errorf("k80: %s\n%s; want fail with cupy's EG401", v, m)
	}
	if strings.Contains(m, "is the machine's to decide") {
		t.Errorf("k80: still left to the machine:\n%s", m)
	}
	for _, line := range []string{"cupy-cuda12x==13.4.1\n", "cupy-cuda12x[ctk]==13.4.1\n"} {
		d := diagWith(validateOn(t, "a100", "requirements.txt", line), "EG409", "cupy-cuda12x 13.4.1")
		if d == nil || !strings.Contains(d.Message, "it declares no extra that would: [ctk] came in 14.0.0") || !strings.Contains(d.Hint, "cupy-cuda12x 14.0.0 or later with its [ctk] extra") {
			t.Errorf("a100, %s: %+v, want the machine's libraries and no [ctk] for 13.4.1", strings.TrimSpace(line), d)
		}
	}
	if d := diagWith(validateOn(t, "a100", "requirements.txt", "cupy-cuda12x[ctk]==14.0.0\n"), "EG409", "the machine's to decide"); d != nil {
		t.Errorf("a100, 14.0.0[ctk]: %q, but its extra brings the libraries", d.Message)
	}
}

// TestOpenCupyReleaseClamps: review twenty-two F22. conda-forge's oldest
// cupy is 6.4.0, after 5.0.0, from which CuPy caps the architecture it
// asks NVRTC for: beside CUDA 10.1 on an H100 every release it may take
// compiles compute_75 PTX, which the driver JIT-compiles, so the release
// left open no longer leaves NVRTC's target open (TestEveryReleaseClamps
// holds the cases where it stays open).
func TestOpenCupyReleaseClamps(t *testing.T) {
	env := "channels: [conda-forge]\ndependencies:\n  - python=3.8\n  - cudatoolkit=10.1\n  - cupy\n"
	_, m := verdictAndMessages(validateOn(t, "h100", "environment.yml", env))
	if strings.Contains(m, "whether this release asks NVRTC") || diagWith(validateOn(t, "h100", "environment.yml", env), "EG408", "cupy") == nil {
		t.Errorf("h100: want cupy's PTX path (EG408), not NVRTC's target open:\n%s", m)
	}
}

// TestJaxKeplerHint: review twenty-three F9. No jax release for CUDA 12
// can carry code for a K80 (CUDA 12's compiler starts at sm_50), so the
// hint no longer points at a newer release.
func TestJaxKeplerHint(t *testing.T) {
	d := diagWith(validateOn(t, "k80", "requirements.txt", "jax[cuda12]>=0.4.20\n"), "EG403", "jax")
	if d == nil || strings.Contains(d.Hint, "a newer release") || !strings.Contains(d.Hint, "no jax release for CUDA 12 can carry code for sm_37") {
		t.Errorf("k80: %+v; want no CUDA 12 release proposed", d)
	}
}
