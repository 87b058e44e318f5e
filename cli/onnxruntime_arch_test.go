package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnnxruntimeGPUArch: the architectures of onnxruntime-gpu's Linux
// wheels, read from each release tag's Python packaging pipeline and
// cmake/CMakeLists.txt (extensions-10.yaml). 1.7.0's wheel job passes no
// CMAKE_CUDA_ARCHITECTURES, so the CMakeLists' own SASS-only list for nvcc
// 11.0 holds (sm_37 … sm_80, no PTX): a K80 runs it, an H100 or RTX 5090
// has no code (EG410) (corpus 147). 1.20.0's build script passes
// 52;60;61;70;75;80, SASS and PTX for each: a K80 fails (EG410), an H100
// or RTX 5090 runs it only through compute_80 PTX (EG408), and a cuDNN
// whose code for that GPU is not known then leaves the target unknown, as
// on a framework's PTX path (corpus 104).
func TestOnnxruntimeGPUArch(t *testing.T) {
	dir := t.TempDir()
	fleet := filepath.Join(dir, "fleet.yml")
	if err := os.WriteFile(fleet, []byte(`targets:
  - name: k80
    driver: "470.82.01"
    gpus: ["K80"]
  - name: t4
    driver: "550.54.15"
    gpus: ["T4"]
  - name: a10
    driver: "550.54.15"
    gpus: ["A10"]
  - name: h100
    driver: "570.124.06"
    gpus: ["H100"]
  - name: rtx5090
    driver: "570.124.06"
    gpus: ["RTX 5090"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		env     string
		summary string
		want    []string
		wantNot []string
	}{
		{
			name: "1.7.0 with CUDA 11.1 and cuDNN 8.2",
			env: `name: ort17
channels:
  - conda-forge
dependencies:
  - python=3.8
  - cudatoolkit=11.1.1
  - cudnn=8.2.1.32
  - pip
  - pip:
      - onnxruntime-gpu==1.7.0
`,
			summary: "targets: k80 ok, t4 ok, a10 ok, h100 FAIL, rtx5090 FAIL",
			want: []string{
				"EG410 onnxruntime-gpu 1.7.0 (SASS sm_37 sm_50 sm_52 sm_60 sm_70 sm_80, PTX none) can run no code on target h100's GPU 0 (NVIDIA H100, compute capability 9.0): no SASS for sm_90 or a lower 9.x, and no PTX at or below compute_90",
				"EG410 onnxruntime-gpu 1.7.0 (SASS sm_37 sm_50 sm_52 sm_60 sm_70 sm_80, PTX none) can run no code on target rtx5090's GPU 0",
			},
			wantNot: []string{"could not check onnxruntime-gpu", "EG408"},
		},
		{
			name: "1.20.0 with CUDA 12.2 and cuDNN 9.1",
			env: `name: ort120
channels:
  - conda-forge
dependencies:
  - python=3.11
  - cuda-version=12.2
  - cuda-cudart
  - cudnn=9.1
  - pip
  - pip:
      - onnxruntime-gpu==1.20.0
`,
			summary: "targets: k80 FAIL, t4 ok, a10 ok, h100 unknown, rtx5090 unknown",
			want: []string{
				"EG410 onnxruntime-gpu 1.20.0 (SASS sm_52 sm_60 sm_61 sm_70 sm_75 sm_80, PTX compute_52 compute_60 compute_61 compute_70 compute_75 compute_80) can run no code on target k80's GPU 0 (Tesla K80, compute capability 3.7): no SASS for sm_37 or a lower 3.x, and no PTX at or below compute_37",
				"EG408 onnxruntime-gpu 1.20.0 (SASS sm_52 sm_60 sm_61 sm_70 sm_75 sm_80, PTX compute_52 compute_60 compute_61 compute_70 compute_75 compute_80) has no SASS for sm_90 or a lower 9.x, but carries compute_80 PTX, which the driver JIT-compiles at first use on target h100's GPU 0",
				"carries compute_80 PTX, which the driver JIT-compiles at first use on target rtx5090's GPU 0",
				"onnxruntime-gpu 1.20.0 reaches sm_90 only through PTX, and which cudnn 9.1.x release it loads is not known",
			},
			wantNot: []string{"which architectures its GPU code is built for is not known", "EG408 onnxruntime-gpu 1.20.0 (SASS sm_52 sm_60 sm_61 sm_70 sm_75 sm_80, PTX compute_52 compute_60 compute_61 compute_70 compute_75 compute_80) has no SASS for sm_86"},
		},
		{
			name: "1.20.0 with CUDA 12.2 and no cuDNN in the file",
			env: `name: ort120
channels:
  - conda-forge
dependencies:
  - python=3.11
  - cuda-version=12.2
  - cuda-cudart
  - pip
  - pip:
      - onnxruntime-gpu==1.20.0
`,
			summary: "targets: k80 FAIL, t4 ok, a10 ok, h100 ok, rtx5090 ok",
			want:    []string{"carries compute_80 PTX, which the driver JIT-compiles at first use on target h100's GPU 0"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "environment.yml")
			if err := os.WriteFile(f, []byte(tt.env), 0o644); err != nil {
				t.Fatal(err)
			}
			_, out, errs := runCLI(t, nil, nil, "validate", "--targets", fleet, f)
			all := out + errs
			if !strings.Contains(all, tt.summary) {
				t.Errorf("summary lacks %q:\n%s", tt.summary, all)
			}
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(all, w) {
					t.Errorf("output has %q:\n%s", w, all)
				}
			}
		})
	}
}
