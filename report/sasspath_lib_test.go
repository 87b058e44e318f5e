package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// On the framework's SASS path a CUDA library known to have dropped the
// GPU leaves the target unknown where the release loaded may lie after the
// last release known to carry its code: pytorch 2.1.1 (pytorch channel,
// CUDA 11.8, sm_37 SASS) with cudnn=8 on a K80, where the matrices place
// Kepler in cuDNN 8.7.0 and not from 8.8.0 on, and cudnn=8 admits any 8.x.
// cudnn=8.7 admits only 8.7.0, NVIDIA's one 8.7 release, and is ok, as is a
// pinned 8.7.0 and a cuDNN before it (pytorch 1.12.1 CUDA 11.3 loads
// 8.3.2); cudnn=8.8 admits only releases without Kepler: fail.
// A build with no code for the GPU at all (PyPI's torch 2.1.0, CUDA 12.1,
// from sm_50) fails on EG403, and its libraries are not called into
// question (review 8 saw an EG409 there claim SASS for sm_37).
func TestSASSPathLibraryInGap(t *testing.T) {
	ts := StandardFleet()
	hosts, err := (&Machines{Targets: ts}).Resolve([]string{"k80"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, src string
		want      gpucheck.Verdict
		words     string
	}{
		{"cudnn 8.x may follow 8.7.0", "channels: [pytorch, nvidia, conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.1.1\n  - pytorch::pytorch-cuda=11.8\n  - mkl=2024.0\n  - cudnn=8\n",
			gpucheck.VerdictUnknown, "the framework has SASS for sm_37, but which cudnn 8.x release it loads is not known"},
		{"cudnn 8.7 is 8.7.0", "channels: [pytorch, nvidia, conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.1.1\n  - pytorch::pytorch-cuda=11.8\n  - mkl=2024.0\n  - cudnn=8.7\n",
			gpucheck.VerdictOK, ""},
		{"cudnn 8.7.0 carries Kepler", "channels: [pytorch, nvidia, conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.1.1\n  - pytorch::pytorch-cuda=11.8\n  - mkl=2024.0\n  - cudnn=8.7.0\n",
			gpucheck.VerdictOK, ""},
		{"cudnn 8.8 lacks Kepler", "channels: [pytorch, nvidia, conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.1.1\n  - pytorch::pytorch-cuda=11.8\n  - mkl=2024.0\n  - cudnn=8.8\n",
			gpucheck.VerdictFail, "cudnn=8.8 admits only cuDNN 8.8.x; cudnn has no code for sm_37 from 8.8.0 on (it dropped sm_37 after 8.7.0)"},
		{"cudnn before the gap", "channels: [pytorch]\ndependencies:\n  - python=3.9\n  - pytorch=1.12.1\n  - cudatoolkit=11.3\n",
			gpucheck.VerdictOK, ""},
		{"no code for the GPU at all", "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - torch==2.1.0\n",
			gpucheck.VerdictFail, ""},
	} {
		r := Validate("environment.yml", []byte(tc.src), Options{Platform: "linux-64", Hosts: hosts})
		if len(r.Targets) != 1 {
			t.Fatalf("%s: %d targets", tc.name, len(r.Targets))
		}
		got := r.Targets[0]
		var msgs []string
		for _, d := range r.Diagnostics() {
			msgs = append(msgs, d.Code+" "+d.Message)
		}
		if got.Verdict != tc.want {
			t.Errorf("%s: verdict %s, want %s\n%s", tc.name, got.Verdict, tc.want, strings.Join(msgs, "\n"))
		}
		if tc.want == gpucheck.VerdictFail && strings.Contains(strings.Join(msgs, "\n"), "has SASS for") {
			t.Errorf("%s: a finding claims SASS the build lacks:\n%s", tc.name, strings.Join(msgs, "\n"))
		}
		if tc.words != "" && !strings.Contains(strings.Join(msgs, "\n"), tc.words) {
			t.Errorf("%s: no finding says %q:\n%s", tc.name, tc.words, strings.Join(msgs, "\n"))
		}
	}
}
