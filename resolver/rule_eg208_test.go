package resolver

import (
	"os"
	"strings"
	"testing"
)

// TestEG208HintKeepsTestedCuDNNWheel: beside a pip nvidia-cudnn wheel of the
// tested cuDNN, EG208's hint drops the conda cudnn line and keeps the wheel,
// instead of re-pinning conda's copy (which would leave two copies).
func TestEG208HintKeepsTestedCuDNNWheel(t *testing.T) {
	const file = "eg208_tf212_conda_cudnn_beside_pip"
	src, err := os.ReadFile(goldenPath(file))
	if err != nil {
		t.Fatal(err)
	}
	_, _, ds := lintFile(t, file+".yml", src)
	found := false
	for _, d := range ds {
		if d.Code != "EG208" {
			continue
		}
		found = true
		if d.Pos.Line != 10 {
			t.Errorf("EG208 on line %d, want the conda cudnn line 10", d.Pos.Line)
		}
		for _, want := range []string{"drop cudnn=8.1 on line 10", "keep nvidia-cudnn-cu11==8.6.0.163 (line 14)"} {
			if !strings.Contains(d.Hint, want) {
				t.Errorf("EG208 hint %q does not say %q", d.Hint, want)
			}
		}
	}
	if !found {
		t.Fatalf("no EG208 in %v", ds)
	}
	// EG303 on the same two copies picks the same one to keep
	for _, d := range ds {
		if d.Code == "EG303" && !strings.Contains(d.Hint, "drop cudnn=8.1 (line 10) and keep nvidia-cudnn-cu11==8.6.0.163") {
			t.Errorf("EG303 hint %q keeps the wrong cuDNN", d.Hint)
		}
	}
}

// TestEG208HintMovesCUDATies: the hint for a cudatoolkit other than the
// tested one names every pin that holds the current CUDA, and defers to
// EG301 where a conda TensorFlow sits beside the pip one (review 3 #384:
// "use cudatoolkit=10.1" alone made corpus 065 unsolvable).
func TestEG208HintMovesCUDATies(t *testing.T) {
	withBase, err := os.ReadFile(goldenPath("eg208_tf21_cuda100_ties"))
	if err != nil {
		t.Fatal(err)
	}
	withoutBase := strings.Replace(string(withBase), "  - tensorflow-base=1.15.0=gpu_py36h9dcbed7_0\n", "", 1)
	tests := []struct {
		name, src string
		hintHas   []string
		hintNot   []string
	}{
		{"beside a conda tensorflow-base", string(withBase),
			[]string{"tensorflow-base=1.15.0=gpu_py36h9dcbed7_0, line 14; EG301", "settle EG301 first", "To keep tensorflow 2.1.0, use cudatoolkit=10.1",
				"cudnn=7.6.4=cuda10.0_0 (line 11, a CUDA 10.0 build)", "cupti=10.0.130=0 (line 12, the cudatoolkit's own version)"},
			[]string{"numpy-base", "pip=20.0.2"}},
		{"no second TensorFlow", withoutBase,
			[]string{"use cudatoolkit=10.1 (the tested build configuration of tensorflow 2.1.0), and move the pins made for CUDA 10.0 with it: cudnn=7.6.4=cuda10.0_0 (line 11", "cupti=10.0.130=0 (line 12"},
			[]string{"EG301"}},
		{"a cuda-version pin of the same CUDA", "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.10\n  - cuda-version=11.2\n  - pip\n  - cudnn=8.6\n" +
			"  - numpy=1.24\n  - cudatoolkit=11.2\n  - pip:\n    - tensorflow==2.12.0\n",
			[]string{"use cuda-version=11.8", "move the pins made for CUDA 11.2 with it: cudatoolkit=11.2 (line 10)"},
			[]string{"numpy", "cudnn=8.6 (line"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, ds := lintFile(t, "env.yml", []byte(tt.src))
			found := false
			for _, d := range ds {
				if d.Code != "EG208" || !strings.Contains(d.Message, "tested with CUDA") {
					continue
				}
				found = true
				for _, s := range tt.hintHas {
					if !strings.Contains(d.Hint, s) {
						t.Errorf("hint %q lacks %q", d.Hint, s)
					}
				}
				for _, s := range tt.hintNot {
					if strings.Contains(d.Hint, s) {
						t.Errorf("hint %q names %q", d.Hint, s)
					}
				}
			}
			if !found {
				t.Fatalf("no EG208 on the CUDA in %v", ds)
			}
		})
	}
}
