package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestXformersDispatchFence: review twenty-four F4. xformers picks its
// memory-efficient attention kernels from tables that end below 9.0 in
// 0.0.17 … 0.0.19 and below 10.0 in 0.0.20 … 0.0.28.post3 (cutlassF.h,
// cutlassB.h): a GPU at or above that finds no kernel, whatever PTX the
// wheel carries, so 0.0.28.post3 fails on a B200 and an RTX 5090, where
// its compute_80 PTX had read as running, and runs on an H100.
func TestXformersDispatchFence(t *testing.T) {
	src := "torch==2.5.1\nxformers==0.0.28.post3\n"
	for _, target := range []string{"b200", "rtx5090"} {
		d := diagWith(validateOn(t, target, "requirements.txt", src), "EG410", "from tables that end below 10.0")
		if d == nil {
			_, m := verdictAndMessages(validateOn(t, target, "requirements.txt", src))
			t.Errorf("%s: no EG410 for xformers' dispatch tables\n%s", target, m)
		}
	}
	if d := diagWith(validateOn(t, "h100", "requirements.txt", src), "EG410", "from tables that end below"); d != nil {
		t.Errorf("h100: %q, but 0.0.28.post3's tables reach 9.x", d.Message)
	}
	// the tables of 0.0.29 on are PyTorch's: no fence is claimed for them
	if d := diagWith(validateOn(t, "rtx5090", "requirements.txt", "torch==2.5.1\nxformers==0.0.29\n"), "EG410", "from tables that end below"); d != nil {
		t.Errorf("0.0.29: %q", d.Message)
	}
}

// TestTensorFlowBelowItsList: review twenty-four F13. TensorFlow 2.17's
// wheels dropped compute capability 5.x and added 8.9 (its release
// notes), and a GPU below the list is left out when TensorFlow starts
// rather than failing in a kernel.
func TestTensorFlowBelowItsList(t *testing.T) {
	r := validateOn(t, "k80", "requirements.txt", "tensorflow[and-cuda]==2.17.0\n")
	d := diagWith(r, "EG403", "tensorflow 2.17.0")
	if d == nil || !strings.Contains(d.Message, "SASS sm_60 sm_70 sm_80 sm_89 sm_90") || !strings.Contains(d.Message, "Ignoring visible gpu device") || strings.Contains(d.Message, "no kernel image") {
		_, m := verdictAndMessages(r)
		t.Errorf("k80: %+v\n%s", d, m)
	}
}

// TestCondaForgeBuildsWithCUDAOpen: review twenty-four F45. conda-forge
// built cupy 12.3.0 for CUDA 11.x and 12.x, and its rows list each build:
// with the environment's CUDA open, both carry sm_80 SASS, so an A100 is
// decided; on a K80 only the CUDA 11 build has sm_37, and the hint says a
// CUDA pin picks that build.
func TestCondaForgeBuildsWithCUDAOpen(t *testing.T) {
	env := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - cupy=12.3.0\n"
	if d := diagWith(validateOn(t, "a100", "environment.yml", env), "EG409", "cupy 12.3.0"); d != nil {
		t.Errorf("a100: %q, but every build has sm_80 SASS", d.Message)
	}
	d := diagWith(validateOn(t, "k80", "environment.yml", env), "EG409", "the builds the file admits differ on sm_37")
	if d == nil || !strings.Contains(d.Hint, "a CUDA pin in the file (cuda-version, cudatoolkit, or pytorch-cuda beside a pytorch-channel torch) picks the build for that CUDA") {
		t.Errorf("k80: %+v; want the builds differing and a CUDA pin as the way", d)
	}
}

// TestPipCompanionOverCondaTorch: review twenty-five (173, and 039 found
// beside it). The package index's torchvision or torchaudio over a conda
// pytorch is built for the CUDA of the index's torch it pairs with, and
// refuses to load beside a torch built for another CUDA: EG211 where the
// knowledge base gives that CUDA and it differs, open where it does not
// say, nothing where they agree or conda's own copy is there.
func TestPipCompanionOverCondaTorch(t *testing.T) {
	// the index's torchvision 0.18.1 is CUDA 12.1, as its torch 2.3.1 is
	// (pypi_companion_cuda): beside conda's CUDA 11.8 pytorch it fails
	env := "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n  - pytorch-cuda=11.8\n  - pip\n  - pip:\n    - torchvision==0.18.1\n"
	r := validateOn(t, "a100", "environment.yml", env)
	if v, m := verdictAndMessages(r); v != gpucheck.VerdictFail || diagWith(r, "EG211", "torchvision==0.18.1 is the package index's build for CUDA 12.1") == nil {
		t.Errorf("a100: %s, want fail (EG211)\n%s", v, m)
	}
	// beside conda's CUDA 12.1 pytorch it loads
	env = "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n  - pytorch-cuda=12.1\n  - pip\n  - pip:\n    - torchvision==0.18.1\n"
	if _, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", env)); strings.Contains(m, "EG211") || strings.Contains(m, "pip installs the package index's") {
		t.Errorf("CUDA 12.1 beside it: %s", m)
	}
	// a release the knowledge base does not pair leaves it open
	env = "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n  - pytorch-cuda=11.8\n  - pip\n  - pip:\n    - torchvision\n"
	if d := diagWith(validateOn(t, "a100", "environment.yml", env), "EG409", "pip installs the package index's torchvision over conda's pytorch 2.3.1"); d == nil {
		_, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", env))
		t.Errorf("unpinned torchvision: want it open\n%s", m)
	}
	env = "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n  - pytorch-cuda=11.8\n  - torchvision=0.18.1\n  - pip\n  - pip:\n    - torchvision==0.18.1\n"
	if d := diagWith(validateOn(t, "a100", "environment.yml", env), "EG409", "pip installs the package index's"); d != nil {
		t.Errorf("conda's torchvision beside it: %q", d.Message)
	}
}

// TestLibLabelNamesPulledFramework: review twenty-nine F11 read 173's
// "cudnn 8.2.0 (loaded by torch 1.11.0)" as the pip torch line's; the
// label now says which pytorch loads it: the one conda's torchaudio pulls
// in before pip runs.
func TestLibLabelNamesPulledFramework(t *testing.T) {
	env := "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.3.1\n  - pytorch-mutex=1.0=cuda\n  - torchaudio=0.11.0=py310_cu113\n  - pip\n  - pip:\n    - torch==1.11.0\n"
	d := diagWith(validateOn(t, "rtx5090", "environment.yml", env), "EG410", "cudnn 8.2.0")
	if d == nil || !strings.Contains(d.Message, "(loaded by torch 1.11.0: torchaudio=0.11.0=py310_cu113 pulls pytorch 1.11.0 before pip runs, so that torch==1.11.0 finds it installed and does nothing)") {
		t.Errorf("%+v", d)
	}
}
