package gpucheck_test

import "testing"

// TestCondaForgeTorchCuDNNMajor: conda-forge's pytorch CUDA builds take
// conda's cudnn, held to one major by its run_exports
// (conda_forge_torch_cudnn): 2.0's builds need cuDNN 8, none of which runs
// on a GPU newer than it supports, so an RTX 5090 fails whichever 8.x the
// solver installs; 2.5's builds need cuDNN 9, which is no such failure.
func TestCondaForgeTorchCuDNNMajor(t *testing.T) {
	env := func(torch, cuda string) string {
		return "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch=" + torch + "=cuda*\n  - cuda-version=" + cuda + "\n"
	}
	r := validateOn(t, "rtx5090", "environment.yml", env("2.0.0", "11.8"))
	if d := diagWith(r, "EG410", "requires cudnn 8.x"); d == nil {
		_, m := verdictAndMessages(r)
		t.Errorf("pytorch 2.0.0 CUDA 11.8 on rtx5090: no EG410 for its cuDNN 8\n%s", m)
	}
	r = validateOn(t, "rtx5090", "environment.yml", env("2.5.1", "12.6"))
	if d := diagWith(r, "EG410", "cudnn"); d != nil {
		t.Errorf("pytorch 2.5.1 CUDA 12.6 on rtx5090: EG410 %q, but its builds need cuDNN 9", d.Message)
	}
}
