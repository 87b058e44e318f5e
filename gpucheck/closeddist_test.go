package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestClosedChannelDriverDecided: review thirty-six F35 and fifty-seven
// F14 (corpus 048). An open pytorch and a bare pytorch-cuda from the
// pytorch channel, which published no release after 2.5: pytorch-cuda
// selects the CUDA builds of 1.13 … 2.5 (CUDA 11.6 … 12.4), and each is
// judged. None runs on an RTX 5090 (no sm_120 SASS or PTX, or a cuDNN
// older than it), so that target fails; on a K80 the 1.13 builds run and
// the CUDA 12 ones cannot, so it stays open, on the builds. (numpy is there
// so that the release itself stays open: another package could rule the
// newest out, TestClosedChannelNewestRelease.)
func TestClosedChannelDriverDecided(t *testing.T) {
	src := "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - numpy\n  - pytorch\n  - pytorch-cuda\n"
	v, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", src))
	if v != gpucheck.VerdictFail || !strings.Contains(m, "of the 36 builds the file admits") || strings.Contains(m, "the driver was not checked") {
		t.Errorf("rtx5090: %s\n%s", v, m)
	}
	if v, m := verdictAndMessages(validateOn(t, "k80", "environment.yml", src)); v != gpucheck.VerdictUnknown || !strings.Contains(m, "the file leaves the build to the solver, and it runs with pytorch 1.13.0 CUDA 11.6") {
		t.Errorf("k80: %s\n%s", v, m)
	}
	// conda-forge still publishes: a release newer than the tables may
	// need a newer CUDA, so nothing is decided from its rows
	cf := "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pytorch-gpu\n"
	if _, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", cf)); strings.Contains(m, "the driver runs every CUDA runtime the") {
		t.Errorf("conda-forge decided from its rows:\n%s", m)
	}
}

// TestClosedChannelNewestRelease: with nothing else in the file that could
// rule it out, conda takes the newest release the pytorch channel
// published (2.5.1), so an open release and CUDA are decided over that
// release's builds: none has code for an RTX 5090 (CUDA 12.1 and 12.4: no
// sm_120 SASS, no PTX; CUDA 11.8: cuDNN 9.1 has none), and every one runs
// on an A100. A Python no release of the channel was built for leaves it
// open.
func TestClosedChannelNewestRelease(t *testing.T) {
	src := "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch\n  - torchvision\n  - pytorch-cuda\n"
	v, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", src))
	if v != gpucheck.VerdictFail || !strings.Contains(m, "pytorch 2.5.1 CUDA 12.4") || !strings.Contains(m, "EG410 cudnn 9.1.0") {
		t.Errorf("rtx5090: %s\n%s", v, m)
	}
	if v, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", src)); v != gpucheck.VerdictOK {
		t.Errorf("a100: %s\n%s", v, m)
	}
	py313 := strings.Replace(src, "python=3.10", "python=3.13", 1)
	if v, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", py313)); v != gpucheck.VerdictUnknown {
		t.Errorf("python 3.13: %s\n%s", v, m)
	}
	pinnedVision := strings.Replace(src, "  - torchvision\n", "  - torchvision=0.11\n", 1)
	if v, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", pinnedVision)); strings.Contains(m, "2.5.1") {
		t.Errorf("a pinned companion still took 2.5.1: %s\n%s", v, m)
	}
}
