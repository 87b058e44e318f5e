package cli

import (
	"strings"
	"testing"
)

// TestUnpinnedPipTorchNamesWhatPipTakes: review twelve #308. A bare pip
// torch stays unknown (pip takes the index's newest on the day, which
// may be newer than the tables), but where the newest release the tables
// list is a package-index build of a CUDA major the target's driver does
// not support, EG409 says so, and its hint names a release whose
// index build that driver runs with SASS for the target's GPU: on a
// 570 driver (CUDA 12.8) torch 2.14.0's CUDA 13.0 build cannot run. On a
// 580 driver nothing is said of it and the plain hint stays.
func TestUnpinnedPipTorchNamesWhatPipTakes(t *testing.T) {
	targets := egWrite(t, "t.yml", `targets:
  - name: rtx5090
    driver: "570.124.06"
    gpus: ["RTX 5090"]
  - name: h100new
    driver: "580.65.06"
    gpus: ["H100"]
`)
	env := egWrite(t, "requirements.txt", "torch\n")
	code, out, errs := egRun(t, "", "validate", "--targets", targets, env)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"the knowledge base lists releases through 2.14.0, whose package-index build is for CUDA 13.0, which this target's driver (CUDA 12.8) cannot run: its CUDA major is newer; the index may serve a newer one",
		"hint: pin a release whose CUDA this driver runs: torch==",
		"targets: rtx5090 unknown, h100new unknown",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "driver (CUDA 13.0) cannot run") {
		t.Errorf("the 580 driver is said not to run CUDA 13.0:\n%s", out)
	}
	if strings.Count(out, "hint: pin the release: torch==X.Y.Z") != 1 {
		t.Errorf("the 580 target should keep the plain hint once:\n%s", out)
	}
}
