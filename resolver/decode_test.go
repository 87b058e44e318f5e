package resolver

import "testing"

func TestDecodeBuild(t *testing.T) {
	tests := []struct {
		build string
		want  Accel
	}{
		{"py3.9_cuda11.6_cudnn8_0", Accel{Variant: "cuda", CUDA: "11.6", Major: 11, CuDNN: "8", Python: "3.9"}},
		{"py3.7_cuda10.2.89_cudnn7.6.5_0", Accel{Variant: "cuda", CUDA: "10.2", Major: 10, CuDNN: "7.6.5", Python: "3.7"}},
		{"py3.10_cpu_0", Accel{Variant: "cpu", Python: "3.10"}},
		{"cpu", Accel{Variant: "cpu"}},
		{"cuda", Accel{Variant: "cuda"}},
		{"cuda118_py310h2a8d2b4_300", Accel{Variant: "cuda", CUDA: "11.8", Major: 11, AtLeast: true, Python: "3.10"}},
		{"cuda120_py311h1234567_301", Accel{Variant: "cuda", CUDA: "12.0", Major: 12, AtLeast: true, Python: "3.11"}},
		{"cuda126_generic_py312h0123456_200", Accel{Variant: "cuda", CUDA: "12.6", Major: 12, AtLeast: true, Python: "3.12"}},
		{"cpu_mkl_py311h7e55b4b_100", Accel{Variant: "cpu", Python: "3.11"}},
		{"cpu_generic_py312h1234567_0", Accel{Variant: "cpu", Python: "3.12"}},
		{"gpu_cuda118py310h7d1e2b3_0", Accel{Variant: "cuda", CUDA: "11.8", Major: 11, AtLeast: true, Python: "3.10"}},
		{"cpu_py310h6e2a0e4_0", Accel{Variant: "cpu", Python: "3.10"}},
		{"cuda112py39h1a2b3c4_0", Accel{Variant: "cuda", CUDA: "11.2", Major: 11, AtLeast: true, Python: "3.9"}},
		{"cuda120py311h5d6e7f8_0", Accel{Variant: "cuda", CUDA: "12.0", Major: 12, AtLeast: true, Python: "3.11"}},
		{"gpu_py39h0123456_0", Accel{Variant: "cuda", Python: "3.9"}},
		{"*cuda*", Accel{Variant: "cuda"}},
		{"*cuda11.8*", Accel{Variant: "cuda", CUDA: "11.8", Major: 11}},
		{"cuda12*", Accel{Variant: "cuda", Major: 12}},
		{"*cuda118*", Accel{Variant: "cuda", CUDA: "11.8", Major: 11, AtLeast: true}},
		{"cuda92_0", Accel{Variant: "cuda", CUDA: "9.2", Major: 9}},
		{"*cpu*", Accel{Variant: "cpu"}},
		{"py310_rocm5.6_0", Accel{Variant: "rocm", ROCm: "5.6", Python: "3.10"}},
		{"h1234567_0", Accel{}},
		{"pyhd8ed1ab_0", Accel{}},
		{"", Accel{}},
	}
	for _, tt := range tests {
		if got := DecodeBuild(tt.build); got != tt.want {
			t.Errorf("DecodeBuild(%q) = %+v, want %+v", tt.build, got, tt.want)
		}
	}
}

func TestDecodeLocalVersion(t *testing.T) {
	tests := []struct {
		v    string
		want Accel
	}{
		{"2.0.1+cu118", Accel{Variant: "cuda", CUDA: "11.8", Major: 11}},
		{"1.13.1+cu117", Accel{Variant: "cuda", CUDA: "11.7", Major: 11}},
		{"1.7.1+cu92", Accel{Variant: "cuda", CUDA: "9.2", Major: 9}},
		{"2.9.0+cu130", Accel{Variant: "cuda", CUDA: "13.0", Major: 13}},
		{"2.0.1+cpu", Accel{Variant: "cpu"}},
		{"2.1.0+rocm5.6", Accel{Variant: "rocm", ROCm: "5.6"}},
		{"2.0.1", Accel{}},
		{"2.0.1+local", Accel{}},
		{"+cu", Accel{}},
	}
	for _, tt := range tests {
		if got := DecodeLocalVersion(tt.v); got != tt.want {
			t.Errorf("DecodeLocalVersion(%q) = %+v, want %+v", tt.v, got, tt.want)
		}
	}
}

func TestDecodeIndexURL(t *testing.T) {
	tests := []struct {
		url  string
		want Accel
	}{
		{"https://idx.example/whl/cu118", Accel{Variant: "cuda", CUDA: "11.8", Major: 11}},
		{"https://idx.example/whl/cu121/", Accel{Variant: "cuda", CUDA: "12.1", Major: 12}},
		{"https://idx.example/whl/cpu", Accel{Variant: "cpu"}},
		{"https://idx.example/whl/nightly/cu121", Accel{Variant: "cuda", CUDA: "12.1", Major: 12}},
		{"https://idx.example/whl/rocm5.6", Accel{Variant: "rocm", ROCm: "5.6"}},
		{"https://idx.example/whl/torch_stable.html", Accel{}},
		{"https://pypi.example/simple", Accel{}},
		{"https://idx.example/simple/cu118", Accel{}},
	}
	for _, tt := range tests {
		if got := DecodeIndexURL(tt.url); got != tt.want {
			t.Errorf("DecodeIndexURL(%q) = %+v, want %+v", tt.url, got, tt.want)
		}
	}
}

func TestDecodePipName(t *testing.T) {
	tests := []struct {
		name   string
		extras []string
		want   Accel
	}{
		{"cupy-cuda12x", nil, Accel{Variant: "cuda", Major: 12}},
		{"cupy-cuda11x", nil, Accel{Variant: "cuda", Major: 11}},
		{"cupy-cuda112", nil, Accel{Variant: "cuda", CUDA: "11.2", Major: 11}},
		{"CuPy_CUDA102", nil, Accel{Variant: "cuda", CUDA: "10.2", Major: 10}},
		{"jax", []string{"cuda12"}, Accel{Variant: "cuda", Major: 12}},
		{"jax", []string{"cuda12_pip"}, Accel{Variant: "cuda", Major: 12}},
		// PEP 685: extras compare after PEP 503 normalisation, so
		// cuda12-pip and CUDA12.PIP are jax's cuda12_pip extra.
		{"jax", []string{"cuda12-pip"}, Accel{Variant: "cuda", Major: 12}},
		{"jax", []string{"CUDA12.PIP"}, Accel{Variant: "cuda", Major: 12}},
		{"jax", []string{"CPU"}, Accel{Variant: "cpu"}},
		{"jax", []string{"cuda"}, Accel{Variant: "cuda"}},
		{"jax", []string{"cpu"}, Accel{Variant: "cpu"}},
		{"jax", nil, Accel{}},
		{"jax-cuda12-plugin", nil, Accel{Variant: "cuda", Major: 12}},
		{"jax_cuda12_pjrt", nil, Accel{Variant: "cuda", Major: 12}},
		{"nvidia-cublas-cu12", nil, Accel{Variant: "cuda", Major: 12}},
		{"nvidia-cudnn-cu11", nil, Accel{Variant: "cuda", Major: 11}},
		{"nvidia-ml-py", nil, Accel{}},
		{"tensorflow", []string{"and-cuda"}, Accel{Variant: "cuda"}},
		{"tensorflow", []string{"and_cuda"}, Accel{Variant: "cuda"}},
		{"tensorflow", nil, Accel{}},
		{"tensorflow-gpu", nil, Accel{Variant: "cuda"}},
		{"tensorflow-cpu", nil, Accel{Variant: "cpu"}},
		{"numpy", nil, Accel{}},
	}
	for _, tt := range tests {
		if got := DecodePipName(tt.name, tt.extras); got != tt.want {
			t.Errorf("DecodePipName(%q, %q) = %+v, want %+v", tt.name, tt.extras, got, tt.want)
		}
	}
}

func TestAccelSays(t *testing.T) {
	tests := []struct {
		a    Accel
		want string
	}{
		{Accel{Variant: "cuda", CUDA: "11.8", Major: 11}, "11.8"},
		{Accel{Variant: "cuda", Major: 12}, "12"},
		{Accel{Variant: "cuda"}, "cuda"},
		{Accel{Variant: "cpu"}, "cpu"},
		{Accel{Variant: "rocm", ROCm: "5.6"}, "rocm5.6"},
		{Accel{}, ""},
	}
	for _, tt := range tests {
		if got := tt.a.Says(); got != tt.want {
			t.Errorf("%+v.Says() = %q, want %q", tt.a, got, tt.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"py3.9_cuda11.6_cudnn8_0", "cuda118_py310h_300", "+cu118", "/whl/nightly/cu121", "cupy-cuda12x", "py", "cuda1", "cudnn"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range []Accel{DecodeBuild(s), DecodeLocalVersion(s), DecodeIndexURL(s), DecodePipName(s, []string{s})} {
			if a.CUDA != "" && a.Major == 0 {
				t.Fatalf("%q: CUDA %q without a major", s, a.CUDA)
			}
			if a.Variant == "" && (a.CUDA != "" || a.Major != 0) {
				t.Fatalf("%q: CUDA without a variant: %+v", s, a)
			}
		}
	})
}
