package gpucheck_test

import (
	"strings"
	"testing"
)

// TestCondaExtensionBelowTorchCUDA: review thirty-eight F18, F20. A pyg
// channel extension of open release beside pytorch-cuda=12.1 is one of
// the channel's CUDA 12.1 builds, whichever the solver takes, and no CUDA
// 12 compiler targets a K80: EG410, not "could not check". An A100 stays
// open on it.
func TestCondaExtensionBelowTorchCUDA(t *testing.T) {
	src := "channels: [pytorch, pyg, nvidia]\ndependencies:\n  - python=3.11\n  - pytorch=2.4.0\n  - pytorch-cuda=12.1\n  - pytorch-cluster\n"
	_, m := verdictAndMessages(validateOn(t, "k80", "environment.yml", src))
	if !strings.Contains(m, "EG410 pytorch-cluster's conda builds for this pytorch are compiled with pytorch's CUDA 12.1") || strings.Contains(m, "could not check pytorch-cluster") {
		t.Errorf("k80:\n%s", m)
	}
	_, m = verdictAndMessages(validateOn(t, "a100", "environment.yml", src))
	if strings.Contains(m, "EG410 pytorch-cluster") || !strings.Contains(m, "could not check pytorch-cluster") {
		t.Errorf("a100:\n%s", m)
	}
}
