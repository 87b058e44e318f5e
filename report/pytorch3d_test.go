package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestPytorch3DChannelBuild: the pytorch3d channel's 0.7.1 build for
// CUDA 11.3 and torch 1.11.0 (build string py37_cu113_pyt1110) carries
// the -gencode list of packaging/pkg_helpers.bash at v0.7.1 (SASS 3.5 …
// 8.6, PTX 5.0; extensions-17.yaml): it runs on an A100 and reaches an
// H100 through PTX only (EG408), beside the pytorch channel's 1.11.0
// CUDA 11.3 build (corpus 087).
func TestPytorch3DChannelBuild(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100", "h100"})
	if err != nil {
		t.Fatal(err)
	}
	src := "channels: [pytorch3d, pytorch, conda-forge]\ndependencies:\n  - python=3.7\n  - pytorch=1.11.0=py3.7_cuda11.3_cudnn8.2.0_0\n  - pytorch-mutex=1.0=cuda\n  - cudatoolkit=11.3.1\n  - pytorch3d=0.7.1=py37_cu113_pyt1110\n"
	r := Validate("environment.yml", []byte(src), Options{Platform: "linux-64", Hosts: hosts})
	for _, tr := range r.Targets {
		if tr.Name == "a100" && tr.Verdict != gpucheck.VerdictOK {
			t.Errorf("a100 is %s, want ok: %+v", tr.Verdict, tr.Undecided)
		}
		for _, u := range tr.Undecided {
			if strings.HasPrefix(u.What, "pytorch3d") {
				t.Errorf("%s: pytorch3d left undecided: %+v", tr.Name, u)
			}
		}
	}
	found := false
	for _, d := range r.Diagnostics() {
		if d.Code == "EG408" && strings.Contains(d.Message, "pytorch3d 0.7.1") && strings.Contains(d.Message, "sm_90") {
			found = true
		}
	}
	if !found {
		t.Errorf("no EG408 for pytorch3d's PTX on the H100")
	}
}
