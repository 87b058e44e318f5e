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
