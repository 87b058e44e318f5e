package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestRuntimePTXDriver (standard fleet: the K80 on a CUDA 11.4 driver,
// the A100 on 12.4): OpenMM compiles its kernels at run time with its
// build's NVRTC, whose PTX a driver older than that CUDA refuses. A conda
// CUDA pin decides it against the target's driver; an open one whose
// builds straddle the driver leaves it to the solver on the machine.
func TestRuntimePTXDriver(t *testing.T) {
	tests := []struct {
		name, deps string
		target     string
		want       string // "EG410", "EG409" or "" (no openmm finding)
		words      string
	}{
		{"11.8 on a CUDA 11.4 driver", "  - cudatoolkit=11.8\n  - openmm=8.0.0\n", "k80", "EG410", "NVRTC of CUDA 11.8 (cudatoolkit=11.8 fixes it), and the driver (CUDA 11.4) refuses"},
		{"11.4 on a CUDA 11.4 driver", "  - cudatoolkit=11.4\n  - openmm=8.0.0\n", "k80", "", ""},
		{"cuda-version 12.4 on 12.4", "  - cuda-version=12.4\n  - openmm=8.0.0\n", "a100", "", ""},
		{"cuda-version 12.8 on 12.4", "  - cuda-version=12.8\n  - openmm=8.0.0\n", "a100", "EG410", "NVRTC of CUDA 12.8"},
		// a pip torch's CUDA 12.1 does not constrain conda's (corpus 149)
		{"open CUDA beside a pip torch", "  - openmm=8.0.0\n  - pip\n  - pip:\n    - torch==2.1.0\n", "a100", "EG409", "the builds the file admits load CUDA 10.2 … 12.9; the driver (CUDA 12.4) loads the PTX of 10.2 … 12.4 and refuses that of 12.5 … 12.9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n" + tt.deps
			r := validateOn(t, tt.target, "environment.yml", src)
			var got []string
			for _, f := range r.Diagnostics() {
				if strings.Contains(f.Message, "openmm 8.0.0") && (f.Code == "EG410" || f.Code == "EG409") {
					got = append(got, f.Code+" "+f.Message)
					if f.Code != tt.want || !strings.Contains(f.Message, tt.words) {
						t.Errorf("%s %s, want %s with %q", f.Code, f.Message, tt.want, tt.words)
					}
				}
			}
			if tt.want == "" && len(got) > 0 {
				t.Errorf("openmm findings %q, want none", got)
			}
			if tt.want != "" && len(got) == 0 {
				t.Errorf("no openmm finding, want %s", tt.want)
			}
		})
	}
}

// TestRuntimePTXLinkedLibs: OpenMM links its build's cuFFT (for PME),
// which its kernels' PTX says nothing of. Where the driver runs its NVRTC
// but the GPU is of a newer major than that CUDA's compiler targets, the
// cuFFT is held against it too: CUDA 11.8's on a B200 is a fact no public
// source holds, so the target is open, never ok; CUDA 12.8's carries
// Blackwell code, and an H100 is within 11.8's compiler.
func TestRuntimePTXLinkedLibs(t *testing.T) {
	env := func(pin string) string {
		return "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - " + pin + "\n  - openmm=8.0.0\n"
	}
	r := validateOn(t, "b200", "environment.yml", env("cudatoolkit=11.8"))
	v, m := verdictAndMessages(r)
	if v != gpucheck.VerdictUnknown || !strings.Contains(m, "could not check the CUDA libraries openmm 8.0.0 links (cufft)") || !strings.Contains(m, "CUDA 11.8's compiler targets nothing above sm_90") {
		t.Errorf("11.8 on b200: %s\n%s", v, m)
	}
	for _, u := range r.Targets[0].Undecided {
		if u.Reason == "cuda-lib-arch-unknown" && u.Cause != gpucheck.CauseNoSource {
			t.Errorf("11.8 on b200: cause %q, want %q", u.Cause, gpucheck.CauseNoSource)
		}
	}
	if v, m := verdictAndMessages(validateOn(t, "b200", "environment.yml", env("cuda-version=12.8"))); v != gpucheck.VerdictOK {
		t.Errorf("12.8 on b200: %s\n%s", v, m)
	}
	if v, m := verdictAndMessages(validateOn(t, "h100", "environment.yml", env("cudatoolkit=11.8"))); v != gpucheck.VerdictOK {
		t.Errorf("11.8 on h100: %s\n%s", v, m)
	}
}

// TestRuntimePTXHint (review forty-three F24, corpus 006): the hint
// replaces the file's own CUDA pin, naming its line, rather than adding a
// second pin that conflicts with it; and on a K80, whose last driver
// branch is R470 (CUDA 11.4), it offers no driver upgrade, which does not
// exist. Without a pin, and on a GPU with newer drivers, it adds one and
// offers the upgrade.
func TestRuntimePTXHint(t *testing.T) {
	tests := []struct {
		name, deps, target string
		want, not          string
	}{
		{"k80 with a pin", "  - cudatoolkit=11.8\n  - openmm=8.0.0\n", "k80",
			"runs no driver after R470, which supports CUDA 11.4; pin a CUDA that driver supports: replace cudatoolkit=11.8 (line 4) with cudatoolkit=11.4", "install a driver"},
		{"a100 with a pin", "  - cuda-version=12.8\n  - openmm=8.0.0\n", "a100",
			"install a driver that supports CUDA 12.8, or pin a CUDA the driver supports instead: replace cuda-version=12.8 (line 4) with cuda-version=12.4", "add cuda-version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n" + tt.deps
			found := false
			for _, f := range validateOn(t, tt.target, "environment.yml", src).Diagnostics() {
				if f.Code != "EG410" || !strings.Contains(f.Message, "openmm 8.0.0") {
					continue
				}
				found = true
				if !strings.Contains(f.Hint, tt.want) || strings.Contains(f.Hint, tt.not) {
					t.Errorf("hint %q, want %q and no %q", f.Hint, tt.want, tt.not)
				}
			}
			if !found {
				t.Error("no openmm EG410")
			}
		})
	}
}
