package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestCondaExtensionBesidePipTorch: a conda cupy beside cudatoolkit=10.2
// and a pip torch of CUDA 12.6 is conda-forge's CUDA 10.2 build (conda's
// pin, not the pip wheel's runtime, picks it), and it links CUDA 10.2's
// cuBLAS and the rest, which the torch wheel's libraries say nothing of.
// On an A100 cupy reaches sm_80 only through PTX, and CUDA 10.2's
// libraries are not known to serve it: unknown, not ok as it read before.
// A V100 is within CUDA 10.2's compiler: ok.
func TestCondaExtensionBesidePipTorch(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - cudatoolkit=10.2\n  - cupy=12.0.0\n  - pip\n  - pip:\n    - torch==2.7.0\n"
	r := validateOn(t, "a100", "environment.yml", src)
	v, m := verdictAndMessages(r)
	if v != gpucheck.VerdictUnknown || !strings.Contains(m, "could not check the CUDA libraries cupy 12.0.0 links (cublas, cufft, curand, cusolver, cusparse)") || !strings.Contains(m, "of the CUDA toolkit it runs with (10.2)") {
		t.Errorf("a100: %s\n%s", v, m)
	}
	if !strings.Contains(m, "cupy 12.0.0 (SASS sm_60 sm_61 sm_70 sm_75") {
		t.Errorf("a100: cupy not judged as its CUDA 10.2 build:\n%s", m)
	}
	if v, m := verdictAndMessages(validateOn(t, "v100", "environment.yml", src)); v != gpucheck.VerdictOK {
		t.Errorf("v100: %s\n%s", v, m)
	}
}
