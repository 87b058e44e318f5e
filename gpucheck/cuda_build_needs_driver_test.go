package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestCUDABuildOfUnknownCodeNeedsItsDriver: a pip extension whose row
// gives the CUDA its wheel was built with but not its architectures (vllm
// 0.26.0, CUDA 13.0) still links that CUDA's runtime, so a driver of an
// older major cannot run it whatever the architectures are: EG401, not
// only "not known".
func TestCUDABuildOfUnknownCodeNeedsItsDriver(t *testing.T) {
	for _, target := range []string{"a100", "h100"} {
		v, m := verdictAndMessages(validateOn(t, target, "requirements.txt", "vllm==0.26.0\n"))
		if v != gpucheck.VerdictFail || !strings.Contains(m, "EG401") || !strings.Contains(m, "CUDA 13 runtime") {
			t.Errorf("%s: %s\n%s", target, v, m)
		}
	}
	// a row with neither the CUDA nor the code leaves the driver open
	if v, m := verdictAndMessages(validateOn(t, "a100", "requirements.txt", "vllm==0.29.0\n")); v != gpucheck.VerdictUnknown || strings.Contains(m, "EG401") {
		t.Errorf("0.29.0: %s\n%s", v, m)
	}
}
