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
