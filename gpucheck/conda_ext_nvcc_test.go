package gpucheck_test

import (
	"strings"
	"testing"
)

// TestCondaExtensionBelowTorchCUDA: review thirty-eight F18, F20. A pyg
// channel extension of open release beside pytorch-cuda=12.1 is one of
// the channel's CUDA 12.1 builds, whichever the solver takes, and no CUDA
// 12 compiler targets a K80: EG410, not "could not check". Since review
// forty-three F41 the channel's builds are described as a whole
// (channel_build_code: SASS sm_50 … sm_90, PTX compute_50 for CUDA 12), so
// the A100 is decided too.
func TestCondaExtensionBelowTorchCUDA(t *testing.T) {
	src := "channels: [pytorch, pyg, nvidia]\ndependencies:\n  - python=3.11\n  - pytorch=2.4.0\n  - pytorch-cuda=12.1\n  - pytorch-cluster\n"
	_, m := verdictAndMessages(validateOn(t, "k80", "environment.yml", src))
	if !strings.Contains(m, "EG410 pytorch-cluster (SASS sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90, PTX compute_50) can run no code") || strings.Contains(m, "could not check pytorch-cluster") {
		t.Errorf("k80:\n%s", m)
	}
	_, m = verdictAndMessages(validateOn(t, "a100", "environment.yml", src))
	if strings.Contains(m, "pytorch-cluster") {
		t.Errorf("a100: a finding on pytorch-cluster, whose CUDA 12 builds carry sm_80 SASS:\n%s", m)
	}
}
