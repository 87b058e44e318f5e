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

// TestPygChannelPinnedRelease: a pinned pyg-channel release the knowledge
// base has no row of its own for is one of the channel's builds, whose
// code channel_build_code gives by the CUDA in its build string (cu116:
// SASS sm_35 … sm_86, compute_50 PTX); gpucorpus 36 and 57 read it as not
// known.
func TestPygChannelPinnedRelease(t *testing.T) {
	src := "channels: [pytorch, pyg, nvidia]\ndependencies:\n  - python=3.9\n  - pytorch=1.13.1=py3.9_cuda11.6_cudnn8.3.2_0\n  - pytorch-cuda=11.6\n  - pytorch-cluster=1.6.0=py39_torch_1.13.0_cu116\n"
	if _, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", src)); strings.Contains(m, "pytorch-cluster") {
		t.Errorf("a100: a finding on pytorch-cluster, whose CUDA 11 builds carry sm_80 SASS:\n%s", m)
	}
	if _, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", src)); !strings.Contains(m, "EG408 pytorch-cluster 1.6.0 (SASS sm_35 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86, PTX compute_50)") {
		t.Errorf("rtx5090:\n%s", m)
	}
}
