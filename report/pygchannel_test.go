package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestPygChannelBuilds: the pyg channel's conda builds of PyG's extensions
// (extensions-14.yaml: TORCH_CUDA_ARCH_LIST "3.5;5.0+PTX;6.0;7.0;7.5;8.0;8.6"
// from each project's conda workflow at the release tag) decide an
// environment that takes them from that channel beside the pytorch
// channel's 2.0.1 CUDA 11.8 build: sm_80 runs their SASS, sm_90 only their
// compute_50 PTX (EG408). The conda names (pytorch-scatter) reach the rows,
// named for the extension (torch-scatter), and an unprefixed name resolves
// to the pyg channel listed before defaults (corpus 011). The same
// packages from conda-forge, whose builds the rows do not describe, stay
// unknown.
func TestPygChannelBuilds(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100", "h100"})
	if err != nil {
		t.Fatal(err)
	}
	body := "dependencies:\n  - python=3.10\n  - pytorch::pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0\n  - pytorch-cuda=11.8\n" +
		"  - pytorch-scatter=2.1.1\n  - pytorch-sparse=0.6.17\n  - pytorch-cluster=1.6.1\n  - pytorch-spline-conv=1.2.2\n" +
		"  - mkl=2024.0\n" // conda-forge's newer mkl would fail the import (EG411)
	for _, tc := range []struct {
		channels string
		want     gpucheck.Verdict
	}{
		{"channels: [pytorch, pyg, nvidia, defaults]\n", gpucheck.VerdictOK},
		{"channels: [pytorch, nvidia, conda-forge]\n", gpucheck.VerdictUnknown},
	} {
		r := Validate("environment.yml", []byte(tc.channels+body), Options{Platform: "linux-64", Hosts: hosts})
		for _, tr := range r.Targets {
			if tr.Verdict != tc.want {
				t.Errorf("%s: target %s is %s, want %s: %+v", strings.TrimSpace(tc.channels), tr.Name, tr.Verdict, tc.want, tr.Undecided)
			}
		}
		if tc.want != gpucheck.VerdictOK {
			continue
		}
		ptx := 0
		for _, d := range r.Diagnostics() {
			if d.Code == "EG408" && strings.Contains(d.Message, "pytorch-scatter 2.1.1") && strings.Contains(d.Message, "sm_90") {
				ptx++
			}
		}
		if ptx != 1 {
			t.Errorf("want one EG408 for pytorch-scatter on the H100 (compute_50 PTX only), got %d", ptx)
		}
	}
}
