package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestPinConflictFailsTargets: a file pip refuses (an nvidia-* pin that
// excludes the release torch's wheel pins, EG205) installs nothing as
// written, so every target fails on the file; the torch build's own
// failure on a GPU it has no code for is still reported.
func TestPinConflictFailsTargets(t *testing.T) {
	src := "--extra-index-url https://download.pytorch.org/whl/cu128\ntorch==2.7.0+cu128\nnvidia-cudnn-cu12==9.1.0.70\n"
	r := validateOn(t, "h100", "requirements.txt", src)
	v, m := verdictAndMessages(r)
	if v != gpucheck.VerdictFail || !strings.Contains(r.Targets[0].Uninstallable, "which pins nvidia-cudnn-cu12==9.7.1.26") {
		t.Errorf("h100: %s (%q)\n%s", v, r.Targets[0].Uninstallable, m)
	}
	old := "torch==2.5.1\nnvidia-cudnn-cu12==9.7.1.26\n"
	if v, m := verdictAndMessages(validateOn(t, "rtx5090", "requirements.txt", old)); v != gpucheck.VerdictFail || !strings.Contains(m, "EG403") {
		t.Errorf("rtx5090: %s\n%s", v, m)
	}
	ok := strings.Replace(src, "9.1.0.70", "9.7.1.26", 1)
	if v, m := verdictAndMessages(validateOn(t, "h100", "requirements.txt", ok)); v != gpucheck.VerdictOK {
		t.Errorf("h100, torch's own pin: %s\n%s", v, m)
	}
}
