package resolver

import (
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// A conda tensorflow-gpu release conda-forge never built (its first CUDA
// build, with its tensorflow-gpu output, is 2.6.0) is not conda-forge's
// because conda-forge comes first: it is the next channel's that publishes
// it, else defaults', which conda env create adds from .condarc unless the
// file lists nodefaults, else no known channel's (review r7 #302, #430).
func TestTensorFlowGPUPastCondaForge(t *testing.T) {
	for _, tt := range []struct {
		src, channel, why string
		dist              kb.Distribution
	}{
		{"channels: [conda-forge]\ndependencies:\n  - tensorflow-gpu=2.4.1\n", "defaults", "only defaults has it", kb.DistDefaults},
		{"channels:\n  - conda-forge\ndependencies:\n  - cudatoolkit=10.0\n  - tensorflow-gpu==1.15\n", "defaults", "conda-forge never built tensorflow-gpu 1.15.0", kb.DistDefaults},
		{"channels: [conda-forge, defaults]\ndependencies:\n  - tensorflow-gpu=2.4.1\n", "defaults", "conda-forge never built tensorflow-gpu 2.4.1", kb.DistDefaults},
		{"channels: [conda-forge, nodefaults]\ndependencies:\n  - tensorflow-gpu=2.4.1\n", "", "no other channel the file allows", ""},
		// a series every release of which conda-forge never built (review 9
		// #833: tensorflow-gpu=1.13 read as conda-forge's)
		{"channels: [conda-forge, defaults]\ndependencies:\n  - cudatoolkit=10.0\n  - tensorflow-gpu=1.13\n", "defaults", "conda-forge never built tensorflow-gpu =1.13 (1.13.1)", kb.DistDefaults},
		// a range reaching releases conda-forge built stays there
		{"channels: [conda-forge, defaults]\ndependencies:\n  - tensorflow-gpu>=2.4\n", "conda-forge", "", kb.DistCondaForge},
		// conda-forge built 2.6.0's CUDA variants: it stays there
		{"channels: [conda-forge]\ndependencies:\n  - tensorflow-gpu=2.6.0\n", "conda-forge", "", kb.DistCondaForge},
		// written as conda-forge:: is the user's choice, never moved
		{"channels: [conda-forge]\ndependencies:\n  - conda-forge::tensorflow-gpu=2.4.1\n", "conda-forge", "", kb.DistCondaForge},
	} {
		f := resolveSrc(t, tt.src).Framework
		if f == nil {
			t.Fatalf("%q: no framework", tt.src)
		}
		if f.Channel != tt.channel || f.Dist != tt.dist || !strings.Contains(f.ChannelMoved, tt.why) || (tt.why == "") != (f.ChannelMoved == "") {
			t.Errorf("%q: channel %q dist %q moved %q, want %q %q containing %q", tt.src, f.Channel, f.Dist, f.ChannelMoved, tt.channel, tt.dist, tt.why)
		}
	}
}

// TensorFlow and JAX builds load the CUDA toolkit's libraries as torch
// does: a TensorFlow build gets cuBLAS, cuFFT, cuRAND, cuSOLVER and
// cuSPARSE at its runtime's release beside the cuDNN the file names, so
// the PTX path is judged over all of them; JAX loads no cuRAND (review r7
// #829).
func TestFrameworkLibsTensorFlowJAX(t *testing.T) {
	libs := func(st *Stack) []string {
		var out []string
		for _, p := range st.GPUPackages {
			if p.Role == RoleCUDALibrary {
				out = append(out, p.Lib+" "+p.Version+" ["+p.BundledWith+"]")
			}
		}
		return out
	}
	st := resolveSrc(t, "channels: [conda-forge]\ndependencies:\n  - python=3.9\n  - cudatoolkit=11.2.2\n  - cudnn=8.1.0.77\n  - pip\n  - pip:\n    - tensorflow==2.10.0\n")
	want := []string{"cudnn 8.1.0.77 []", "cublas 11.2 [the CUDA 11.2 runtime]", "cufft 11.2 [the CUDA 11.2 runtime]", "curand 11.2 [the CUDA 11.2 runtime]", "cusolver 11.2 [the CUDA 11.2 runtime]", "cusparse 11.2 [the CUDA 11.2 runtime]"}
	if got := libs(st); !slices.Equal(got, want) {
		t.Errorf("tensorflow 2.10.0: %v, want %v", got, want)
	}
	st = resolveSrc(t, "channels: [conda-forge]\ndependencies:\n  - python=3.7\n  - cudatoolkit=10.0\n  - tensorflow-gpu=1.15.0\n")
	got := libs(st)
	if !slices.Contains(got, "cudnn  [tensorflow 1.15.0]") || !slices.Contains(got, "curand 10.0 [the CUDA 10.0 runtime]") {
		t.Errorf("tensorflow-gpu 1.15.0: %v", got)
	}
	if l := FrameworkCUDALibsOf("jax"); slices.Contains(l, "curand") || !slices.Contains(l, "cusolver") {
		t.Errorf("jax libraries: %v", l)
	}
}
