package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestXLAForcesHopperTarget: review forty-six F2 (corpus 111). The XLA of
// jaxlib 0.4.20 to 0.4.31 compiles a program's kernels for a GPU newer
// than it knows as a Hopper, with the sm_90a target, whose PTX compiles
// for compute capability 9.0 only: on an RTX 5090 no jitted computation
// runs (BindCraft#269, jaxlib 0.4.29). From 0.4.32 XLA keeps sm_90a to
// Hopper and takes plain sm_90 there, whose PTX ptxas may compile for
// sm_120: that stays open, as does a release before 0.4.20. An H100 is
// Hopper itself and runs the wheel's sm_90 SASS.
func TestXLAForcesHopperTarget(t *testing.T) {
	env := func(jax string) string {
		return "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - jax[cuda12]==" + jax + "\n"
	}
	r := validateOn(t, "rtx5090", "environment.yml", env("0.4.29"))
	if v, m := verdictAndMessages(r); v != gpucheck.VerdictFail || diagWith(r, "EG403", "with the sm_90a target, whose PTX compiles for compute capability 9.0 only") == nil {
		t.Errorf("jax 0.4.29 on an RTX 5090: %s\n%s; want EG403 for XLA's sm_90a", v, m)
	} else if d := diagWith(r, "EG403", "sm_90a"); !strings.Contains(d.Hint, "0.4.32 or newer") {
		t.Errorf("hint %q names no release that keeps sm_90a to Hopper", d.Hint)
	}
	for _, jax := range []string{"0.4.34", "0.4.18"} {
		r := validateOn(t, "rtx5090", "environment.yml", env(jax))
		if diagWith(r, "EG403", "sm_90a") != nil {
			t.Errorf("jax %s on an RTX 5090: sm_90a blamed, but its XLA takes plain sm_90 there", jax)
		}
	}
	r = validateOn(t, "h100", "environment.yml", env("0.4.29"))
	if diagWith(r, "EG403", "") != nil {
		t.Errorf("jax 0.4.29 on an H100: EG403, but the wheel carries sm_90 SASS\n%s", r.Targets[0].Verdict)
	}
}

// TestJAXCudaExtraBringsItsOwnCUDA: review forty-eight F28 (corpus 110).
// Without JAX's find-links page, jax[cuda]>=0.4.13 installs only a release
// of the plugin era (0.4.30 on), whose cuda extra brings the CUDA 12
// plugin and its NVIDIA wheels: conda's cudatoolkit=11.8 is not its
// runtime, and every such release carries sm_90 SASS. With the page named,
// older releases (a CUDA 11 jaxlib) may come, and the CUDA stays open.
func TestJAXCudaExtraBringsItsOwnCUDA(t *testing.T) {
	env := func(pip string) string {
		return "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - cudatoolkit=11.8.*\n  - pip\n  - pip:\n" + pip + "    - jax[cuda]>=0.4.13\n"
	}
	r := validateOn(t, "h100", "environment.yml", env(""))
	if v, m := verdictAndMessages(r); v != gpucheck.VerdictOK || strings.Contains(m, "CUDA 11.8") {
		t.Errorf("jax[cuda]>=0.4.13 beside cudatoolkit 11.8 on an H100: %s\n%s; want ok on its CUDA 12 wheels", v, m)
	}
	r = validateOn(t, "h100", "environment.yml", env("    - -f https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\n"))
	if v, m := verdictAndMessages(r); v == gpucheck.VerdictOK {
		t.Errorf("with JAX's find-links page: %s\n%s; want the release, and so the CUDA, left open", v, m)
	}
}
