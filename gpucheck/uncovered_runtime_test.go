package gpucheck_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
)

// TestUncoveredReleaseRuntime: review thirteen #111. tensorflow-gpu 0.11.0
// needs CUDA 7.5 (its install guide), which the tables, starting at
// 0.12.1, do not say: the driver check stays open, and EG409 says it is
// the knowledge base that does not reach the release, not that the
// release's CUDA is unknowable, and asks for no cudatoolkit pin the
// wheel would ignore.
func TestUncoveredReleaseRuntime(t *testing.T) {
	r := validateOn(t, "a100", "requirements.txt", "tensorflow-gpu==0.11.0\n")
	found := false
	for _, d := range r.Diagnostics() {
		if d.Code != "EG409" || !strings.Contains(d.Message, "tensorflow 0.11.0") {
			continue
		}
		found = true
		if !strings.Contains(d.Message, "older than the releases the knowledge base covers (from 0.12.1), so the CUDA version its build needs is not known to envguard") {
			t.Errorf("EG409 does not say the tables stop short: %s", d.Message)
		}
		if strings.Contains(d.Hint, "cudatoolkit=X.Y") {
			t.Errorf("the hint asks for a runtime pin the wheel ignores: %s", d.Hint)
		}
	}
	if !found {
		t.Fatal("no EG409 for tensorflow 0.11.0")
	}
}

// TestTFPipCPUOnlyHint: the package index's tensorflow 1.3.0 is the CPU
// build (review thirteen #1096): the GPUs sit idle (EG407), the target is
// not left unknown, and the hint names the release's GPU build,
// tensorflow-gpu, not PyTorch's wheels.
func TestTFPipCPUOnlyHint(t *testing.T) {
	r := validateOn(t, "a100", "requirements.txt", "tensorflow==1.3.0\n")
	found := false
	for _, d := range r.Diagnostics() {
		if d.Code == "EG409" {
			t.Errorf("left undecided: %s", d.Message)
		}
		if d.Code == "EG407" {
			found = true
			if !strings.Contains(d.Hint, "tensorflow-gpu==1.3.0") || strings.Contains(d.Hint, "PyTorch") {
				t.Errorf("EG407 hint: %s", d.Hint)
			}
		}
	}
	if !found {
		t.Error("no EG407 for the CPU-only tensorflow 1.3.0")
	}
}

// TestNoReleaseCanServeHint: review thirteen #724. sgl-kernel 0.1.0 has
// no code for a K80, and every release the knowledge base knows is built
// with CUDA 12, whose compiler targets nothing below sm_50: the hint says
// no release can serve it instead of asking for one built for sm_37.
func TestNoReleaseCanServeHint(t *testing.T) {
	r := validateOn(t, "k80", "requirements.txt", "torch==2.5.1\nsgl-kernel==0.1.0\n")
	found := false
	for _, d := range r.Diagnostics() {
		if d.Code == "EG410" && strings.Contains(d.Message, "sgl-kernel 0.1.0") {
			found = true
			if strings.Contains(d.Hint, "built for sm_37") || !strings.Contains(d.Hint, "no release of sgl-kernel can carry code for sm_37") {
				t.Errorf("hint: %s", d.Hint)
			}
		}
	}
	if !found {
		t.Error("no EG410 for sgl-kernel on the K80")
	}
}

// TestNoTensorFlowSASSHint: review fourteen #320. TensorFlow 2.11 reaches
// an RTX 5090 through PTX only, and no package-index wheel envguard knows
// has SASS for sm_120 (the newest whose list it knows stops at sm_90):
// the hint says so instead of asking for a newer release; conda-forge's
// CUDA 12.8 and 12.9 builds of 2.18 and 2.19, whose rows list only the
// SASS common to their recipe states, may carry it, and the hint names
// them rather than saying no release has it (review twenty-one F44).
// bitsandbytes (review fourteen #359): every release known has a CUDA
// 11.8 build without Kepler code, and the hint says so.
func TestNoTensorFlowSASSHint(t *testing.T) {
	for _, tc := range []struct{ target, src, code, subject, want string }{
		{"rtx5090", "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.2\n  - cudnn=8.1\n  - tensorflow-gpu=2.11\n", "EG408", "tensorflow =2.11", "SASS sm_60 sm_70 sm_80 sm_89 sm_90, PTX compute_90; conda-forge's tensorflow 2.18 (CUDA 12.8), 2.19 (CUDA 12.8), 2.19 (CUDA 12.9) builds may carry SASS for sm_120"},
		{"k80", "--extra-index-url https://download.pytorch.org/whl/cu118\ntorch==2.0.1+cu118\nbitsandbytes==0.43.1\n", "EG410", "bitsandbytes 0.43.1", "no release of bitsandbytes envguard knows has a CUDA 11.8 build with code for sm_37"},
	} {
		name := "requirements.txt"
		if strings.HasPrefix(tc.src, "channels:") {
			name = "environment.yml"
		}
		r := validateOn(t, tc.target, name, tc.src)
		found := false
		for _, d := range r.Diagnostics() {
			if d.Code == tc.code && strings.Contains(d.Message, tc.subject) {
				found = true
				if !strings.Contains(d.Hint, tc.want) {
					t.Errorf("%s: hint %q lacks %q", tc.subject, d.Hint, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("no %s for %s on %s", tc.code, tc.subject, tc.target)
		}
	}
}

// TestKnownReleasesHonourSpec: review fourteen #786. An open
// bitsandbytes>=0.41.0 is offered only releases its spec admits: never
// 0.39.1.
func TestKnownReleasesHonourSpec(t *testing.T) {
	r := validateOn(t, "a100", "requirements.txt", "torch==2.1.0\nbitsandbytes>=0.41.0\n")
	found := false
	for _, d := range r.Diagnostics() {
		if d.Code == "EG409" && strings.Contains(d.Message, "bitsandbytes") && strings.Contains(d.Hint, "pin a release envguard knows") {
			found = true
			if strings.Contains(d.Hint, "0.39.1") || !strings.Contains(d.Hint, "0.43.1") {
				t.Errorf("hint: %s", d.Hint)
			}
		}
	}
	if !found {
		t.Error("no EG409 with a release hint for bitsandbytes>=0.41.0")
	}
}

// TestNVRTCBelowGPU: review fourteen #23 and sixteen #858. conda-forge's
// cupy for CUDA 10.1 ships compute_70 PTX but compiles most kernels at run
// time with NVRTC 10.1, which targets nothing above compute_75. From 5.0.0
// cupy caps the architecture it asks for at that (its _get_arch), so on an
// H100 NVRTC makes compute_75 PTX the driver JIT-compiles (EG408); before
// 13.4.0 it compares capabilities as strings, so for 12.0 ("120" < "75")
// it asks NVRTC for compute_120, which NVRTC 10.1 cannot compile: EG410
// on an RTX 5090. On a V100 its SASS decides.
func TestNVRTCBelowGPU(t *testing.T) {
	for _, tc := range []struct {
		cupy, target, code, want string
	}{
		{"8.3.0", "rtx5090", "EG410", "it asks NVRTC for compute_120, which that NVRTC cannot compile"},
		{"8.3.0", "h100", "EG408", "compute_70 PTX"},
		{"8.3.0", "v100", "", ""},
	} {
		src := "channels: [conda-forge]\ndependencies:\n  - python=3.7\n  - cudatoolkit=10.1\n  - cupy=" + tc.cupy + "\n"
		r := validateOn(t, tc.target, "environment.yml", src)
		var got []string
		for _, d := range r.Diagnostics() {
			if strings.Contains(d.Message, "cupy") && (d.Code == "EG408" || d.Code == "EG409" || d.Code == "EG410") {
				got = append(got, d.Code)
				if d.Code == tc.code && !strings.Contains(d.Message, tc.want) {
					t.Errorf("cupy %s on %s: %s %s", tc.cupy, tc.target, d.Code, d.Message)
				}
			}
		}
		if (tc.code == "" && len(got) > 0) || (tc.code != "" && !slices.Contains(got, tc.code)) {
			t.Errorf("cupy %s on %s: codes %v, want %q", tc.cupy, tc.target, got, tc.code)
		}
	}
}

// TestTFLibsFromMachine: review fourteen #388. A pip TensorFlow 2.6 with
// no CUDA libraries in the file is unknown on a K80, the machine's to
// decide (cause machine), but the message says what is decided: the
// driver runs its CUDA 11.2 and its SASS covers sm_37. On an RTX 5090 no
// cuDNN 8, which it opens, runs: EG410 (review thirty-nine F18).
func TestTFLibsFromMachine(t *testing.T) {
	r := validateOn(t, "rtx5090", "requirements.txt", "tensorflow==2.6.0\n")
	if len(r.Targets) != 1 || r.Targets[0].Verdict != "fail" {
		t.Errorf("rtx5090: %+v", r.Targets)
	}
	for _, tc := range []struct{ target, want string }{
		{"k80", "where it finds CUDA 11.2 libraries, the driver (CUDA 11.4) runs them"},
	} {
		r := validateOn(t, tc.target, "requirements.txt", "tensorflow==2.6.0\n")
		if len(r.Targets) != 1 || len(r.Targets[0].Undecided) == 0 {
			t.Fatalf("%s: %+v", tc.target, r.Targets)
		}
		u := r.Targets[0].Undecided[0]
		if u.Reason != "cuda-libraries-not-in-file" || u.Cause != gpucheck.CauseMachine || !strings.Contains(u.Why, tc.want) {
			t.Errorf("%s: %+v", tc.target, u)
		}
	}
}

// TestExtensionsMajorDecidesDriver: review fifteen #74. RAPIDS 22.10's
// cudf was built for CUDA 11.0 … 11.8 only, so an environment with no
// framework and no CUDA item still runs a CUDA 11 runtime: a 550 driver
// runs any of them (the A100 is decided, not unknown), and a 470 driver
// runs the newer ones only through minor-version compatibility (EG402).
func TestExtensionsMajorDecidesDriver(t *testing.T) {
	src := "channels: [rapidsai, conda-forge]\ndependencies:\n  - python=3.9\n  - cudf==22.10.*\n"
	for _, tc := range []struct {
		target string
		want   gpucheck.Verdict
		eg402  bool
	}{{"a100", gpucheck.VerdictOK, false}, {"k80", gpucheck.VerdictFail, true}} {
		r := validateOn(t, tc.target, "environment.yml", src)
		if len(r.Targets) != 1 || r.Targets[0].Verdict != tc.want {
			t.Errorf("%s: %+v, want %s", tc.target, r.Targets, tc.want)
		}
		got := false
		for _, d := range r.Diagnostics() {
			got = got || (d.Code == "EG402" && strings.Contains(d.Message, "CUDA 11 runtime"))
			if d.Code == "EG409" && strings.Contains(d.Message, "its CUDA runtime version is not known") {
				t.Errorf("%s: the driver left unchecked: %s", tc.target, d.Message)
			}
		}
		if got != tc.eg402 {
			t.Errorf("%s: EG402 %v, want %v", tc.target, got, tc.eg402)
		}
	}
}

// TestSelectorRouteFails: review fifteen #347. pytorch=2.0 from defaults
// beside pytorch-cuda=11.8: the hint's way to use the selector, the
// pytorch channel's 2.0.1 CUDA 11.8 build, fails on an RTX 5090 (its
// cuDNN 8.7), and the hint says so; on an A100 it runs and nothing is
// added.
func TestSelectorRouteFails(t *testing.T) {
	src := "channels: [defaults, pytorch, nvidia, conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch=2.0\n  - pytorch-cuda=11.8\n"
	for _, tc := range []struct {
		target string
		fails  bool
	}{{"rtx5090", true}, {"a100", false}} {
		r := validateOn(t, tc.target, "environment.yml", src)
		found, says := false, false
		for _, d := range r.Diagnostics() {
			if d.Code == "EG409" && strings.Contains(d.Hint, "to use pytorch-cuda=11.8") {
				found = true
				says = strings.Contains(d.Hint, "the pytorch channel's pytorch 2.0.1 CUDA 11.8 build would fail too (EG410")
			}
		}
		if !found || says != tc.fails {
			t.Errorf("%s: EG409 with the selector hint %v, says it fails %v (want %v)", tc.target, found, says, tc.fails)
		}
	}
}

// TestCudatoolkitSelectsOlder: review fifteen #0, corpus 001. An open
// pytorch::pytorch beside cudatoolkit=11.3 resolves to 2.5.1, whose CUDA
// builds ignore cudatoolkit: the CPU candidate's EG407 hint says the pin
// selects the CUDA 11.3 build of pytorch 1.12.1 and older, on an A100,
// where that build has SASS; not on an H100, where it has none.
func TestCudatoolkitSelectsOlder(t *testing.T) {
	src := "channels: [conda-forge, pytorch]\ndependencies:\n  - pytorch::pytorch\n  - pytorch::torchvision\n  - conda-forge::cudatoolkit=11.3\n"
	for _, tc := range []struct {
		target string
		says   bool
	}{{"a100", true}, {"h100", false}} {
		r := validateOn(t, tc.target, "environment.yml", src)
		found, says := false, false
		for _, d := range r.Diagnostics() {
			if d.Code == "EG407" {
				found = true
				says = strings.Contains(d.Hint, "the file's cudatoolkit=11.3 selects nothing for pytorch 2.5") && strings.Contains(d.Hint, "pin pytorch=1.12.1 with it")
			}
		}
		if !found || says != tc.says {
			t.Errorf("%s: EG407 %v, names 1.12.1 %v (want %v)", tc.target, found, says, tc.says)
		}
	}
}

// TestCupyCuda12xFloor: review sixteen #91. Every cupy-cuda12x release is
// a CUDA 12 build, whose compiler targets nothing below sm_50: an open
// cupy-cuda12x>=13.0.0 cannot run on a K80 whichever release pip takes.
func TestCupyCuda12xFloor(t *testing.T) {
	r := validateOn(t, "k80", "requirements.txt", "cupy-cuda12x>=13.0.0\n")
	found := false
	for _, d := range r.Diagnostics() {
		if d.Code == "EG410" && strings.Contains(d.Message, "cupy-cuda12x needs compute capability 5.0 or newer, as every release of cupy-cuda12x does") {
			found = true
		}
	}
	if !found || r.Targets[0].Verdict != gpucheck.VerdictFail {
		t.Errorf("verdict %s, EG410 floor %v", r.Targets[0].Verdict, found)
	}
}

// validateOn validates src as the file name against one target of the
// standard fleet.
func validateOn(t *testing.T, target, name, src string) *report.Report {
	t.Helper()
	hosts, err := (&report.Machines{Targets: report.StandardFleet()}).Resolve([]string{target})
	if err != nil {
		t.Fatal(err)
	}
	return report.Validate(name, []byte(src), report.Options{Platform: "linux-64", Hosts: hosts})
}
