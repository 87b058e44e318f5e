package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestTFDefaultsCommonList: the defaults channel's recipe set two lists
// for tensorflow-gpu 2.2.0's CUDA 10.1 build (with and without 3.0), and
// the row keeps what both carry (common_only: 3.5 … 7.5 as X.Y entries).
// A GPU that shared SASS serves is decided (the K80 by sm_35, the T4 by
// sm_75), where before review forty-one F2 neither was; an A100, beyond
// CUDA 10.1's compiler, runs its kernels through PTX and fails on the
// cuDNN 7 every build opens.
func TestTFDefaultsCommonList(t *testing.T) {
	src := "channels: [defaults]\ndependencies:\n  - python=3.7\n  - tensorflow-gpu=2.2.0\n"
	for target, want := range map[string]gpucheck.Verdict{"k80": gpucheck.VerdictOK, "t4": gpucheck.VerdictOK, "a100": gpucheck.VerdictFail} {
		v, m := verdictAndMessages(validateOn(t, target, "environment.yml", src))
		if v != want || strings.Contains(m, "architecture list is not known") {
			t.Errorf("%s: %s, want %s\n%s", target, v, want, m)
		}
	}
}

// TestTorch130CommonList (review forty-three F30, corpus 141): pytorch
// 1.3.0's CUDA 10.1 conda build was made with '3.5;5.0+PTX' at its
// release commit, and the 10.1 case ('6.0;6.1;7.0;7.5') came two days
// later; which the channel holds is not known. Both carry sm_35, so a K80
// runs it; a P100 runs it from SASS or from compute_50 PTX, and EG408 says
// it may lack the SASS; an A100 runs it through that PTX.
func TestTorch130CommonList(t *testing.T) {
	src := "channels: [pytorch]\ndependencies:\n  - python=3.7\n  - pytorch=1.3.0\n  - cudatoolkit=10.1\n"
	if v, m := verdictAndMessages(validateOn(t, "k80", "environment.yml", src)); v != gpucheck.VerdictOK || strings.Contains(m, "EG40") {
		t.Errorf("k80: %s\n%s", v, m)
	}
	v, m := verdictAndMessages(validateOn(t, "p100", "environment.yml", src))
	if v != gpucheck.VerdictOK || !strings.Contains(m, "EG408 pytorch 1.3.0 (SASS sm_35 sm_50, PTX compute_50 in every list its recipe set for this build) may have no SASS for sm_60") {
		t.Errorf("p100: %s\n%s", v, m)
	}
	if _, m := verdictAndMessages(validateOn(t, "a100", "environment.yml", src)); !strings.Contains(m, "EG408 pytorch 1.3.0 (SASS sm_35 sm_50, PTX compute_50) has no SASS for sm_80") {
		t.Errorf("a100:\n%s", m)
	}
}

// TestTFDefaults113CUDA9: tensorflow-gpu=1.13.1 beside cudatoolkit=9.0 is
// the defaults build for CUDA 9.0, whose list every 1.13.1 commit of the
// recipe sets ('3.0,3.5,5.2,6.0,6.1,7.0'): a K80 runs its sm_35 SASS.
// With no toolkit pin the 10.0 build, whose list is not known, keeps it
// open (review forty-four F44).
func TestTFDefaults113CUDA9(t *testing.T) {
	pinned := "channels: [defaults]\ndependencies:\n  - python=3.7\n  - tensorflow-gpu=1.13.1\n  - cudatoolkit=9.0\n"
	if v, m := verdictAndMessages(validateOn(t, "k80", "environment.yml", pinned)); v != gpucheck.VerdictOK {
		t.Errorf("cudatoolkit=9.0 on k80: %s\n%s", v, m)
	}
	open := "channels: [defaults]\ndependencies:\n  - python=3.7\n  - tensorflow-gpu=1.13.1\n"
	if v, m := verdictAndMessages(validateOn(t, "k80", "environment.yml", open)); v != gpucheck.VerdictUnknown || !strings.Contains(m, "not of the one for CUDA 10.0") {
		t.Errorf("no toolkit pin on k80: %s\n%s", v, m)
	}
}
