package gpucheck_test

import (
	"strings"
	"testing"
)

// TestOptionalOpsTorchao: torchao 0.11.0 catches a failed load of its
// compiled ops at import (built against torch 2.7.0, SASS sm_80 and sm_86
// only, corpus 092). Beside torch 2.6.0 whether they load is the
// machine's; beside torch 2.7.0 they run on an A100, and on an H100 only
// calls to them fail: never EG211 or EG410, which would say the import
// or the package fails.
func TestOptionalOpsTorchao(t *testing.T) {
	env := func(torch string) string {
		return "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - torch==" + torch + "\n    - torchao==0.11.0\n"
	}
	tests := []struct {
		torch, target, want string // want: words of torchao's EG409, or "" for none
	}{
		{"2.6.0", "a100", "its compiled ops were built against torch 2.7.0, and whether they load beside torch 2.6.0 is decided on the machine"},
		{"2.7.0", "a100", ""},
		{"2.7.0", "h100", "its compiled ops carry SASS sm_80 sm_86, PTX none, no code for sm_90"},
	}
	for _, tt := range tests {
		r := validateOn(t, tt.target, "environment.yml", env(tt.torch))
		var got []string
		for _, d := range r.Diagnostics() {
			if !strings.Contains(d.Message, "torchao 0.11.0") {
				continue
			}
			switch d.Code {
			case "EG211", "EG410":
				t.Errorf("torch %s on %s: %s %s", tt.torch, tt.target, d.Code, d.Message)
			case "EG409":
				got = append(got, d.Message)
			}
		}
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("torch %s on %s: %q, want no open check", tt.torch, tt.target, got)
		case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
			t.Errorf("torch %s on %s: %q, want one with %q", tt.torch, tt.target, got, tt.want)
		}
		if tt.want != "" && len(r.Targets) > 0 && len(r.Targets[0].Undecided) > 0 {
			for _, u := range r.Targets[0].Undecided {
				if strings.HasPrefix(u.Reason, "optional-ops") && u.Cause != "machine" {
					t.Errorf("%s cause %q, want machine", u.Reason, u.Cause)
				}
			}
		}
	}
}

// TestCupyOpenReleaseStringCompare: review thirty-seven F29 (corpus 003).
// An open conda-forge cupy beside cudatoolkit 10.1: every release
// conda-forge built for CUDA 10.1 predates 13.4.0, whose integer compare
// caps a three-digit compute capability, so each asks NVRTC 10.1 for
// compute_120 on an RTX 5090 and fails. Beside CUDA 11.8, 13.4.0 and later
// have builds, so that is not said.
func TestCupyOpenReleaseStringCompare(t *testing.T) {
	env := func(cuda string) string {
		return "channels: [conda-forge]\ndependencies:\n  - python=3.8\n  - cudatoolkit=" + cuda + "\n  - cupy\n"
	}
	const says = "every release of cupy conda-forge built for CUDA 10.1 predates 13.4.0"
	r := validateOn(t, "rtx5090", "environment.yml", env("10.1"))
	if d := diagWith(r, "EG410", says); d == nil || !strings.Contains(d.Message, "asks NVRTC for compute_120, which that NVRTC cannot compile") || !strings.Contains(d.Hint, "13.4.0 or later together with a CUDA whose NVRTC targets sm_120") {
		_, m := verdictAndMessages(r)
		t.Errorf("10.1: no EG410 %q:\n%s", says, m)
	}
	if _, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", env("11.8"))); strings.Contains(m, "predates 13.4.0, and before") {
		t.Errorf("11.8: said every release predates the integer compare:\n%s", m)
	}
	// from the defaults channel conda-forge's rows say nothing
	defaults := strings.Replace(env("10.1"), "[conda-forge]", "[anaconda, conda-forge]", 1)
	if _, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", defaults)); strings.Contains(m, "conda-forge built for CUDA") {
		t.Errorf("defaults' cupy judged by conda-forge's rows:\n%s", m)
	}
}
