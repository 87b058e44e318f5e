package gpucheck_test

import (
	"strings"
	"testing"
)

// TestPipTorchRuntimeHint: review thirty-eight F8. A pip torch wheel pins
// its own CUDA runtime (torch 2.7.0: nvidia-cuda-runtime-cu12==12.6.77),
// so the driver hint names a torch build of an older CUDA, not a runtime
// pin that cannot solve beside it.
func TestPipTorchRuntimeHint(t *testing.T) {
	r := validateOn(t, "a100", "requirements.txt", "torch==2.7.0\n")
	var hint string
	for _, f := range r.Findings {
		if f.Code == "EG402" {
			hint = f.Hint
		}
	}
	if !strings.Contains(hint, "install a torch build whose CUDA runtime is 12.4 or older (torch==") || strings.Contains(hint, "pin a CUDA 12 runtime") {
		t.Errorf("EG402 hint: %q", hint)
	}
}
