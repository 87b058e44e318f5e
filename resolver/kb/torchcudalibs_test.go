package kb

import (
	"strconv"
	"strings"
	"testing"
)

// A torch_cuda_libs row that names a build PyTorch never published, a
// release the KB does not list, or a malformed pin is refused at load with
// the file, the line and what is wrong.
func TestTorchCUDALibsRejects(t *testing.T) {
	const row = "  - torch: \"2.7.0\"\n    cuda: \"12.6\"\n    dist: wheel\n"
	const cudnn = `{name: nvidia-cudnn-cu12, version: "9.5.1.17"}`
	tests := []struct{ name, old, new, want string }{
		{"unknown CUDA variant", row, strings.Replace(row, `"12.6"`, `"12.4"`, 1),
			`cudalibs\.yaml:\d+: torch_cuda_libs\[\d+\]: cuda "12\.4" is not a CUDA variant of torch 2\.7 on wheel \(torch_variants lists 11\.8, 12\.6, 12\.8\)`},
		{"CUDA that is no version", row, strings.Replace(row, `"12.6"`, `"cu126"`, 1),
			`torch_cuda_libs\[\d+\]: cuda "cu126" is not a CUDA variant of torch 2\.7`},
		{"unknown release", row, strings.Replace(row, `"2.7.0"`, `"2.7.5"`, 1),
			`torch_cuda_libs\[\d+\]: torch "2\.7\.5" is not a release`},
		{"local version", row, strings.Replace(row, `"2.7.0"`, `"2.7.0+cu126"`, 1),
			`torch_cuda_libs\[\d+\]: torch "2\.7\.0\+cu126" is not a release`},
		{"unknown dist", row, strings.Replace(row, "dist: wheel", "dist: conda-forge", 1),
			`torch_cuda_libs\[\d+\]: dist "conda-forge" is not wheel or pypi`},
		{"bad pin", row + "    libs:\n      - {name: nvidia-cublas-cu12, version: \"12.6.4.1\"}",
			row + "    libs:\n      - {name: nvidia-cublas-cu12, version: \">=12.6\"}",
			`torch_cuda_libs\[\d+\]: version of nvidia-cublas-cu12 ">=12\.6" is not a version`},
		{"pin twice", cudnn, cudnn + "\n      - " + cudnn,
			`torch_cuda_libs\[\d+\]: lib "nvidia-cudnn-cu12" is empty or listed twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertLoadRejects(t, "cudalibs.yaml", tt.old, tt.new, tt.want) })
	}
}

// Each pinned nvidia-*-cuXY wheel is built for the CUDA major of the torch
// variant that pins it: a cu11 library on a CUDA 12 row is a transcription
// slip (two variants' lines mixed up).
func TestTorchCUDALibsMatchTheirCUDA(t *testing.T) {
	k := Default()
	if len(k.TorchCUDALibs) == 0 {
		t.Fatal("no torch_cuda_libs rows")
	}
	for _, r := range k.TorchCUDALibs {
		major, _, _ := strings.Cut(r.CUDA, ".")
		for _, l := range r.Libs {
			if m := CUDAMajorFromPipName(l.Name); m != 0 && strconv.Itoa(m) != major {
				t.Errorf("torch %s cu%s pins %s, built for CUDA %d", r.Torch, r.CUDA, l.Name, m)
			}
		}
	}
}

// The lookup strips a local version, tells variants apart, and finds
// nothing for a release or variant no row covers.
func TestTorchCUDALibsOf(t *testing.T) {
	k := Default()
	cudnnOf := func(torch, cuda string) string {
		row, ok := k.TorchCUDALibsOf(torch, cuda)
		if !ok {
			return "none"
		}
		for _, l := range row.Libs {
			if strings.HasPrefix(l.Name, "nvidia-cudnn-") {
				return l.Version
			}
		}
		return "no cudnn"
	}
	tests := []struct{ torch, cuda, want string }{
		{"2.7.0", "12.6", "9.5.1.17"},
		{"2.7.0+cu128", "12.8", "9.7.1.26"},
		{"2.7.1", "11.8", "9.1.0.70"},
		{"2.3.1", "12.1", "8.9.2.26"},
		{"2.2.0", "11.8", "8.7.0.84"},
		{"2.5.1", "12.4", "9.1.0.70"},
		{"2.9.1", "13.0", "9.13.0.50"},
		{"2.11.0", "13.0", "9.19.0.56"},
		{"2.1.2", "12.1", "none"},     // the index wheels of 2.1 bundle their libraries
		{"2.8.0", "12.8", "no cudnn"}, // only NCCL and a few more were read
		{"2.8.0", "12.6", "none"},     // not read
		{"2.7.0", "12.4", "none"},     // no such build
	}
	for _, tt := range tests {
		if got := cudnnOf(tt.torch, tt.cuda); got != tt.want {
			t.Errorf("cuDNN pinned by torch %s cu%s = %s, want %s", tt.torch, tt.cuda, got, tt.want)
		}
	}
}
