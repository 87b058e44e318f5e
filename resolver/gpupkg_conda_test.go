package resolver

import (
	"slices"
	"strings"
	"testing"
)

// A conda extension row describes the build the item's build string or,
// failing that, the environment's cudatoolkit names (the build's nvcc
// pinned it), only for a conda item from the row's channel and, where the
// row names torch releases, the environment's torch; a pip item of the
// same name never takes it.
func TestCondaExtensionRowFollowsCUDA(t *testing.T) {
	tests := []struct {
		name, pkg string
		src       string
		cuda      []string
		sass, ptx []string
		unknown   string // a word of the reason, where the package stays unknown
	}{
		{"cudatoolkit 10.2 names the 10.2 build", "cupy",
			"channels: [conda-forge]\ndependencies:\n  - cudatoolkit=10.2.89\n  - cupy=12.0.0=py310h5a5d52f_0\n",
			[]string{"10.2"}, []string{"6.0", "6.1", "7.0", "7.5"}, []string{"3.0", "5.0", "7.0"}, ""},
		{"cudatoolkit 11.8 names the 11.2 build, which accepts 11.2 to 11.x", "cupy",
			"channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - cupy=12.0.0\n",
			[]string{"11.8"}, []string{"6.0", "6.1", "7.0", "7.5", "8.0", "8.6"}, []string{"3.5", "5.0", "8.6"}, ""},
		{"cuda-version 12.4 takes the CUDA 12.0 build, which accepts 12.0 to 12.x", "cupy",
			"channels: [conda-forge]\ndependencies:\n  - cuda-version=12.4\n  - cuda-cudart\n  - cupy=12.0.0\n",
			[]string{"12.4"}, []string{"5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0"}, []string{"9.0"}, ""},
		{"no row for the environment's CUDA", "cupy",
			"channels: [conda-forge]\ndependencies:\n  - cuda-version=13.0\n  - cuda-cudart\n  - cupy=12.0.0\n",
			nil, nil, nil, "no build of cupy 12.0.0 on conda-forge for CUDA 13.0"},
		{"another channel's build is not conda-forge's", "cupy",
			"channels: [defaults, conda-forge]\ndependencies:\n  - cudatoolkit=10.2.89\n  - cupy=12.0.0\n",
			nil, nil, nil, "comes from defaults"},
		// conda-forge's rows list every linux_64 build of 12.0.0 (from
		// conda_forge_complete_from): with the CUDA open, each build is one
		// the file may get, and the GPU check judges them all (review
		// twenty-four F45)
		{"the CUDA is not known: every build conda-forge made", "cupy",
			"channels: [conda-forge]\ndependencies:\n  - cupy=12.0.0\n",
			[]string{"10.2", "11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7", "11.8", "12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.8", "12.9"},
			[]string{"5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0"}, []string{"3.0", "3.5", "5.0", "7.0", "8.0", "8.6", "9.0"}, ""},
		{"a pip cupy is the sdist built on the machine", "cupy",
			"channels: [conda-forge]\ndependencies:\n  - cudatoolkit=10.2.89\n  - pip\n  - pip:\n    - cupy==12.0.0\n",
			nil, nil, nil, "cupy 12.0.0 comes from the package index, which has only its source"},
		{"a pip cupy without a release is the sdist too", "cupy",
			"channels: [conda-forge]\ndependencies:\n  - pip\n  - pip:\n    - cupy\n",
			nil, nil, nil, "cupy comes from the package index, which has only its source"},
		{"apex==0.1 is no release of the package index's apex (another project): EG205, nothing built", "apex",
			"channels: [pytorch, nvidia]\ndependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::pytorch-cuda=11.8\n  - pip\n  - pip:\n    - apex==0.1\n",
			nil, nil, nil, "apex 0.1.0 cannot be installed from the package index (EG205: the index's apex is another project, with no release 0.1.0)"},
		{"an unpinned apex is built the same way", "apex",
			"channels: [pytorch, nvidia]\ndependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::pytorch-cuda=11.8\n  - pip\n  - pip:\n    - apex\n",
			nil, nil, nil, "apex has no binary package"},
		{"the build string's CUDA names faiss's build, not the environment's", "faiss-gpu",
			"channels: [pytorch, nvidia, conda-forge]\ndependencies:\n  - pytorch=1.13.1=py3.8_cuda11.7_cudnn8.5.0_0\n  - pytorch-cuda=11.7\n  - faiss-gpu=1.7.3=py3.8_h28a55e0_0_cuda11.3\n",
			[]string{"11.3"}, []string{"6.0", "6.1", "7.0", "7.2", "7.5", "8.0", "8.6"}, []string{"6.0", "6.1", "7.0", "7.2", "7.5", "8.0", "8.6"}, ""},
		{"xformers' channel build for the environment's torch and CUDA", "xformers",
			"channels: [pytorch, nvidia, xformers]\ndependencies:\n  - pytorch::pytorch=2.0.0\n  - pytorch::pytorch-cuda=11.7.0\n  - xformers::xformers=0.0.18\n",
			[]string{"11.7"}, []string{"5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6"}, []string{"5.0"}, ""},
		{"no xformers channel build for that torch", "xformers",
			"channels: [pytorch, nvidia, xformers]\ndependencies:\n  - pytorch::pytorch=2.0.1\n  - pytorch::pytorch-cuda=11.7\n  - xformers::xformers=0.0.18\n",
			nil, nil, nil, "and torch 2.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			got := packageNamed(t, st, tt.pkg)
			if tt.unknown != "" {
				if got.Known || got.Code.Known || !strings.Contains(got.Unknown, tt.unknown) {
					t.Fatalf("want unknown (%q), got Known=%v Code=%+v Unknown=%q", tt.unknown, got.Known, got.Code, got.Unknown)
				}
				return
			}
			if !got.Known || got.Unknown != "" {
				t.Fatalf("want known, got Unknown=%q", got.Unknown)
			}
			if !slices.Equal(got.BuiltFor.CUDA, tt.cuda) {
				t.Errorf("BuiltFor.CUDA = %v, want %v", got.BuiltFor.CUDA, tt.cuda)
			}
			if !got.Code.Known || !slices.Equal(got.Code.SASS, tt.sass) || !slices.Equal(got.Code.PTX, tt.ptx) {
				t.Errorf("Code = %+v, want SASS %v PTX %v", got.Code, tt.sass, tt.ptx)
			}
		})
	}
}
