package cli

import (
	"strings"
	"testing"
)

// h100rtx5090Driver580 holds an H100 and an RTX 5090 on the CUDA 13.0 GA
// driver (580.65.06, resolver/kb/data/cuda.yaml): machines whose checks the
// knowledge base decides for torch 2.14.0.
const h100rtx5090Driver580 = `targets:
  - name: h100
    driver: "580.65.06"
    gpus: ["H100"]
  - name: rtx5090
    driver: "580.65.06"
    gpus: ["RTX 5090"]
`

const (
	archH100    = "the build's architecture list is not known, so whether it carries code for sm_90 on target h100's GPU 0 (NVIDIA H100, compute capability 9.0) is not known"
	archRTX5090 = "the build's architecture list is not known, so whether it carries code for sm_120 on target rtx5090's GPU 0 (GeForce RTX 5090, compute capability 12.0) is not known"
)

// TestTorch215StaysUnknown: torch 2.15.0 is on the package index (the listing
// of 2026-11-30, index-releases.yaml) but no public source read for the
// knowledge base gives its companions, Python list, CUDA variants, PyPI
// build or architecture lists (searched 2026-12-06, docs/knowledge-base.md).
// Every spelling of it resolves, is checked, and ends unknown with EG206
// saying why, never ok or fail; torch 2.14.0 on the same machines is decided.
func TestTorch215StaysUnknown(t *testing.T) {
	targets := egWrite(t, "t.yml", h100rtx5090Driver580)
	cases := []struct {
		name, file, body, canonical string
		eg409                       []string // why each machine's architecture check is open
	}{
		// PyPI's plain torch: which CUDA build 2.15.0 is there is not known.
		{"pypi", "requirements.txt", "torch==2.15.0\n", "no canonical name", []string{
			"could not check pytorch 2.15.0 against target h100: whether the CPU or the CUDA build is installed is left to pip",
			"could not check pytorch 2.15.0 against target rtx5090: whether the CPU or the CUDA build is installed is left to pip",
		}},
		// The wheel index's variants: the CUDA is the index's, the
		// architecture list is not known.
		{"index cu130", "requirements.txt", "--index-url https://download.pytorch.org/whl/cu130\ntorch==2.15.0\n", "pt215_cu130", []string{archH100, archRTX5090}},
		{"local cu130", "requirements.txt", "--extra-index-url https://download.pytorch.org/whl/cu130\ntorch==2.15.0+cu130\n", "pt215_cu130", []string{archH100, archRTX5090}},
		{"conda-forge pip cu132", "environment.yml", "name: x\nchannels: [conda-forge]\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n      - --index-url https://download.pytorch.org/whl/cu132\n      - torch==2.15.0+cu132\n", "pt215_cu132", []string{archH100, archRTX5090,
			// a fact that holds without the 2.15.0 rows: 13.2 on 580 is minor-version compatibility only
			"warning EG402 driver 580.65.06 supports CUDA 13.0; this environment's CUDA 13.2 runtime needs 595.45.04"}},
		// CUDA 12.6 cannot emit sm_120 SASS: the RTX 5090 then depends on PTX, which is not known.
		{"index cu126", "requirements.txt", "--index-url https://download.pytorch.org/whl/cu126\ntorch==2.15.0\n", "pt215_cu126", []string{archH100,
			"CUDA 12.6's compiler targets sm_50 … sm_90, so no build made with it has SASS for sm_120 on target rtx5090's GPU 0 (GeForce RTX 5090, compute capability 12.0): it runs only if the build carries PTX, which is not known"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := egWrite(t, c.file, c.body)
			code, out, errs := egRun(t, "", "validate", "--targets", targets, env)
			if code != 0 {
				t.Fatalf("exit %d (an unknown verdict passes by default)\n%s%s", code, out, errs)
			}
			for _, want := range []string{
				"EG206 pytorch 2.15.0",
				"is newer than the knowledge base",
				"newest pytorch 2.14.0",
				"the package index lists torch 2.15.0 (uploaded 2026-10)",
				c.canonical + ";",
				"targets: h100 unknown, rtx5090 unknown",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("missing %q in\n%s", want, out)
				}
			}
			if !strings.Contains(out, "; 0 errors,") || strings.Contains(out, " error EG") {
				t.Errorf("an error without the facts:\n%s", out)
			}
			for _, want := range c.eg409 {
				if !strings.Contains(out, want) {
					t.Errorf("missing %q in\n%s", want, out)
				}
			}
		})
	}

	// An unpinned torch: pip takes the newest release the index serves (2.15.0
	// in the listing of 2026-11-30), so nothing is taken from the 2.14.0 rows.
	env := egWrite(t, "requirements.txt", "torch\n")
	if code, out, _ := egRun(t, "", "validate", "--targets", targets, env); code != 0 ||
		!strings.Contains(out, "targets: h100 unknown, rtx5090 unknown") || !strings.Contains(out, "pip installs whatever torch release the index serves that day (the knowledge base lists releases through 2.14.0; the index may serve a newer one)") {
		t.Errorf("unpinned torch on H100/RTX 5090 with driver 580: exit %d\n%s", code, out)
	}

	// The same machines with the newest release the knowledge base holds:
	// decided, so the unknown above is the missing 2.15.0 facts, not the
	// machines.
	env = egWrite(t, "requirements.txt", "--index-url https://download.pytorch.org/whl/cu130\ntorch==2.14.0\n")
	if code, out, _ := egRun(t, "", "validate", "--targets", targets, env); code != 0 ||
		!strings.Contains(out, "pt214_cu130;") || !strings.Contains(out, "targets: h100 ok, rtx5090 ok") || strings.Contains(out, "EG206") {
		t.Errorf("torch 2.14.0 cu130 on H100/RTX 5090 with driver 580: exit %d\n%s", code, out)
	}
}
