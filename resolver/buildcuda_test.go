package resolver

import (
	"strings"
	"testing"
)

// TestBuildCUDA: the CUDA a framework build was compiled with, where it is
// not the runtime's (issue 26, review 3 #390). A pip TensorFlow wheel is
// its release's CUDA build whatever cudatoolkit the file pins; a conda-forge
// cuda126 build string beside cuda-version=12.8 was compiled with 12.6.
func TestBuildCUDA(t *testing.T) {
	tests := []struct {
		name, src      string
		runtime, build string
		unloadable     bool
		unloadableHas  []string
	}{
		{
			name: "pip tensorflow 2.1.0 beside cudatoolkit 10.0 (corpus 065)",
			src: "name: x\nchannels:\n  - defaults\ndependencies:\n  - python=3.6\n  - cudatoolkit=10.0.130=0\n  - cudnn=7.6.4=cuda10.0_0\n" +
				"  - pip\n  - pip:\n    - tensorflow==2.1.0\n",
			runtime: "10.0", build: "10.1", unloadable: true,
			unloadableHas: []string{"loads CUDA 10.1", "CUDA 10.0 that cudatoolkit=10.0.130=0 (line 6)"},
		},
		{
			name: "pip tensorflow 2.12.0 beside cudatoolkit 11.2: loadable (same major from CUDA 11)",
			src: "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.2\n  - cudnn=8.1\n" +
				"  - pip\n  - pip:\n    - tensorflow==2.12.0\n",
			runtime: "11.2", build: "11.8",
		},
		{
			name: "pip tensorflow 2.13 with its own recipe (cudatoolkit 11.8)",
			src: "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.8\n  - cudnn=8.6\n" +
				"  - pip\n  - pip:\n    - tensorflow==2.13.0\n",
			runtime: "11.8", build: "11.8",
		},
		{
			name:    "conda-forge cuda126 build beside cuda-version 12.8",
			src:     "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.12\n  - pytorch=2.6.0=cuda126_generic_py312_h1234567_200\n  - cuda-version=12.8\n",
			runtime: "12.8", build: "12.6",
		},
		{
			name:    "pytorch channel: the runtime is the build's",
			src:     "name: x\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - pytorch=2.1.0\n  - pytorch-cuda=12.1\n",
			runtime: "12.1", build: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, st, _ := lintFile(t, "env.yml", []byte(tt.src))
			if st.Framework == nil || st.CUDA == nil {
				t.Fatalf("framework %+v, CUDA %+v", st.Framework, st.CUDA)
			}
			if st.CUDA.Version != tt.runtime {
				t.Errorf("runtime %q, want %q (the file's CUDA stays the runtime)", st.CUDA.Version, tt.runtime)
			}
			if st.Framework.BuildCUDA != tt.build {
				t.Errorf("BuildCUDA %q, want %q", st.Framework.BuildCUDA, tt.build)
			}
			if got := st.Framework.CUDAUnloadable != ""; got != tt.unloadable {
				t.Errorf("CUDAUnloadable %q, want set: %v", st.Framework.CUDAUnloadable, tt.unloadable)
			}
			for _, s := range tt.unloadableHas {
				if !strings.Contains(st.Framework.CUDAUnloadable, s) {
					t.Errorf("CUDAUnloadable %q lacks %q", st.Framework.CUDAUnloadable, s)
				}
			}
			for _, p := range st.GPUPackages {
				if p.Role == RoleFramework && tt.build != "" && (len(p.BuiltFor.CUDA) != 1 || p.BuiltFor.CUDA[0] != tt.build) {
					t.Errorf("framework package built for %v, want [%s]", p.BuiltFor.CUDA, tt.build)
				}
			}
		})
	}
}
