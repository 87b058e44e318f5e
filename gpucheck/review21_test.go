package gpucheck_test

import (
	"strings"
	"testing"
)

// TestTorchCUDALibHint: review twenty-one F27. bitsandbytes 0.45.5 loads
// the library of torch's CUDA; beside a cu124 torch that is the CUDA 12.4
// one (compute_90 PTX, no sm_120), but the same wheel's CUDA 12.8 library
// has sm_120 SASS, so the hint names a torch for CUDA 12.8 before another
// bitsandbytes release.
func TestTorchCUDALibHint(t *testing.T) {
	env := "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu124\n    - torch==2.6.0+cu124\n    - bitsandbytes==0.45.5\n"
	d := diagWith(validateOn(t, "rtx5090", "environment.yml", env), "EG408", "bitsandbytes 0.45.5")
	if d == nil {
		t.Fatal("rtx5090: no EG408 at bitsandbytes 0.45.5")
	}
	if !strings.Contains(d.Hint, "its library for CUDA 12.8 has SASS for sm_120: use a torch build for that CUDA") {
		t.Errorf("rtx5090 hint = %q, want a torch build for CUDA 12.8 first", d.Hint)
	}
	if !strings.Contains(d.Hint, "or a release of bitsandbytes with SASS for sm_120") || strings.Contains(d.Hint, "12.4") {
		t.Errorf("rtx5090 hint = %q, want the release hint after it and not torch's own CUDA 12.4", d.Hint)
	}
}

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

// TestOpenReleaseOlderBuildHint: review twenty-one F14. An unpinned
// pytorch-channel pytorch resolves to 2.5.1, none of whose builds runs on
// a K80; the file admits every release, and 1.12.1's CUDA 11.3 build has
// sm_37 and needs no more than the K80's driver 470 runs, so the hint
// names it instead of saying no admitted build runs. On an RTX 5090 no
// pytorch-channel build has code, and the hint names none.
func TestOpenReleaseOlderBuildHint(t *testing.T) {
	env := "channels: [conda-forge, pytorch]\ndependencies:\n  - pytorch::pytorch\n  - conda-forge::cudatoolkit=11.3\n"
	d := diagWith(validateOn(t, "k80", "environment.yml", env), "EG409", "could not check pytorch")
	if d == nil {
		t.Fatal("k80: no EG409 at pytorch")
	}
	if !strings.Contains(d.Hint, "no build of pytorch 2.5.1, the release the solver takes") || !strings.Contains(d.Hint, "pytorch=1.12.1 with cudatoolkit=11.3") {
		t.Errorf("k80 hint = %q, want 2.5.1 named and pytorch 1.12.1 for CUDA 11.3 proposed", d.Hint)
	}
	d = diagWith(validateOn(t, "rtx5090", "environment.yml", env), "EG409", "could not check pytorch")
	if d == nil || strings.Contains(d.Hint, "such as") {
		t.Errorf("rtx5090: %+v, want an EG409 whose hint names no build", d)
	}
}
