package cli

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// tfPrefix is a venv as `envguard build tensorflow --create` leaves one:
// tensorflow 2.16.1 from pip with the NVIDIA CUDA wheels its [and-cuda]
// extra installs, which the prefix records only as installed packages.
func tfPrefix(t *testing.T, cudnn bool) *fakePrefix {
	p := newVenv(t, "3.11.8")
	p.dist("pip", "24.0", "pip")
	p.dist("tensorflow", "2.16.1", "pip")
	p.dist("nvidia-cuda-runtime-cu12", "12.3.101", "pip")
	p.dist("nvidia-cublas-cu12", "12.3.4.1", "pip")
	if cudnn {
		p.dist("nvidia-cudnn-cu12", "8.9.7.29", "pip")
	}
	return p
}

// An installed TensorFlow 2.16 with nvidia-*-cu12 wheels loads their CUDA
// libraries (its RPATH points into site-packages/nvidia), so check reads
// the runtime wheel's CUDA 12.3 and decides the target instead of EG409's
// "the file provides no CUDA libraries". Without the cuDNN wheel
// TensorFlow does not use the GPU, and the variant stays undecided.
func TestCheckTensorFlowNVIDIAWheels(t *testing.T) {
	p := tfPrefix(t, true)
	_, r := checkJSON(t, fakeH100, map[string]string{}, p.dir)
	if r.Stack.Framework == nil || r.Stack.Framework.Variant != "cuda" || r.Stack.CUDA == nil || r.Stack.CUDA.Version != "12.3" {
		t.Fatalf("stack %+v %+v, want tensorflow's CUDA 12.3 from the runtime wheel", r.Stack.Framework, r.Stack.CUDA)
	}
	for _, f := range findingsOf(r, "EG409") {
		if strings.Contains(f.Message, "CUDA and cuDNN libraries") {
			t.Errorf("EG409 though the wheels are installed: %s", f.Message)
		}
	}
	if len(r.Targets) != 1 || r.Targets[0].Verdict != gpucheck.VerdictOK {
		t.Errorf("targets %+v, want ok on the H100 (driver 550, CUDA 12.4): %v", r.Targets, findingCodes(r))
	}

	p = tfPrefix(t, false)
	_, r = checkJSON(t, fakeH100, map[string]string{}, p.dir)
	if r.Stack.Framework != nil && r.Stack.Framework.Variant == "cuda" {
		t.Errorf("no cuDNN wheel, yet the variant is CUDA: %+v", r.Stack.CUDA)
	}
	if len(r.Targets) != 1 || r.Targets[0].Verdict == gpucheck.VerdictOK {
		t.Errorf("no cuDNN wheel: targets %+v, want not ok", r.Targets)
	}
}
