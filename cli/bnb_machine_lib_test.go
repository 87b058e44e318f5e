package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBitsandbytesMachineLib: bitsandbytes 0.36.0 and 0.37.0 load the
// library of the CUDA runtime their setup finds on the machine (not
// torch's CUDA), and every library their wheel carries was built with
// -gencode arch=compute_XX,code=sm_XX only (deploy.sh and the Makefile
// at the tags: SASS up to sm_86, sm_90 in the CUDA 11.8/12.0 libraries,
// no PTX). So on an RTX 5090 (sm_120) no library runs whichever loads
// (EG410), on an H100 the CUDA 11.8/12.0 libraries run and the others do
// not (unknown), and on a T4 every library has sm_75 but which loads,
// and whether the wheel has one for the machine's runtime, stays with the
// machine (unknown, never ok). The hint proposes only releases whose
// torch requirement admits the file's torch 1.13.1: not 0.45.5 (torch>=2.0)
// or 0.48.0 (torch>=2.3), which would make pip replace torch. For a
// release with no row (0.40.0: its tag's deploy.sh comments out the
// cleanlibs step and the CUDA 11.x builds, so what its wheel carries is
// not known) the EG409 hint leaves out releases whose requirement
// excludes the file's torch and, on the RTX 5090, 0.36.0 … 0.39.1, whose
// libraries carry no code for sm_120.
func TestBitsandbytesMachineLib(t *testing.T) {
	dir := t.TempDir()
	fleet := filepath.Join(dir, "fleet.yml")
	if err := os.WriteFile(fleet, []byte(`targets:
  - name: rtx5090
    driver: "570.124.06"
    gpus: ["RTX 5090"]
  - name: h100
    driver: "570.124.06"
    gpus: ["H100"]
  - name: t4
    driver: "550.54.15"
    gpus: ["T4"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, req string) string {
		f := filepath.Join(t.TempDir(), "requirements.txt")
		if err := os.WriteFile(f, []byte(req), 0o644); err != nil {
			t.Fatal(err)
		}
		_, out, errs := runCLI(t, nil, nil, "validate", "--targets", fleet, f)
		return out + errs
	}
	t.Run("0.37.0 beside torch 1.13.1", func(t *testing.T) {
		all := run(t, "torch==1.13.1\nbitsandbytes==0.37.0\n")
		for _, w := range []string{
			"EG410 bitsandbytes 0.37.0 can run no code on target rtx5090's GPU 0 (GeForce RTX 5090, compute capability 12.0) whichever of its libraries loads: bitsandbytes 0.37.0 loads the library built for the CUDA runtime (libcudart.so) its setup finds on the machine",
			"CUDA 11.8/12.0 (SASS sm_50 sm_52 sm_60 sm_61 sm_70 sm_72 sm_75 sm_80 sm_86 sm_89 sm_90, PTX none)",
			"hint: use a release of bitsandbytes built for sm_120 whose requirements admit torch 1.13.1 (envguard knows pypi: 0.43.1, 0.45.0 with code for it)",
			"EG409 could not check bitsandbytes 0.37.0 against target h100: bitsandbytes 0.37.0 loads the library built for the CUDA runtime (libcudart.so) its setup finds on the machine",
			"have no code for sm_90 (target h100's GPU 0 (NVIDIA H100, compute capability 9.0)) while those for CUDA 11.8/12.0 do",
			"EG409 could not check bitsandbytes 0.37.0 against target t4: bitsandbytes 0.37.0 loads the library built for the CUDA runtime (libcudart.so) its setup finds on the machine (CONDA_PREFIX/lib, LD_LIBRARY_PATH, /usr/local/cuda/lib64), not the one torch's CUDA names; every library its wheel carries has code for sm_75",
		} {
			if !strings.Contains(all, w) {
				t.Errorf("output lacks %q:\n%s", w, all)
			}
		}
		for _, bad := range []string{"0.45.5", "0.48.0", "has no row for bitsandbytes 0.37.0", "t4 ok"} {
			if strings.Contains(all, bad) {
				t.Errorf("output holds %q:\n%s", bad, all)
			}
		}
	})
	t.Run("0.40.0 beside torch 1.13.1", func(t *testing.T) {
		all := run(t, "torch==1.13.1\nbitsandbytes==0.40.0\n")
		for _, w := range []string{
			"EG409 could not check bitsandbytes 0.40.0 against target rtx5090: the knowledge base has no row for bitsandbytes 0.40.0",
			"hint: pin a release envguard knows (pypi: 0.43.1, 0.45.0), or run envguard check",
			"hint: pin a release envguard knows (pypi: 0.37.0, 0.38.0, 0.39.1, 0.43.1, 0.45.0 and 1 older), or run envguard check",
		} {
			if !strings.Contains(all, w) {
				t.Errorf("output lacks %q:\n%s", w, all)
			}
		}
		if strings.Contains(all, "0.45.5") || strings.Contains(all, "0.48.0") {
			t.Errorf("a hint proposes a release whose torch requirement excludes torch 1.13.1:\n%s", all)
		}
	})
	t.Run("0.40.0 beside torch 2.6.0", func(t *testing.T) {
		all := run(t, "torch==2.6.0\nbitsandbytes==0.40.0\n")
		for _, w := range []string{
			"hint: pin a release envguard knows (pypi: 0.43.1, 0.45.0, 0.45.5, 0.48.0), or run envguard check",
			"hint: pin a release envguard knows (pypi: 0.39.1, 0.43.1, 0.45.0, 0.45.5, 0.48.0 and 3 older), or run envguard check",
		} {
			if !strings.Contains(all, w) {
				t.Errorf("output lacks %q:\n%s", w, all)
			}
		}
	})
	t.Run("0.38.0 and 0.39.1 beside torch 2.0.1", func(t *testing.T) {
		// Same loader; 0.39.1's libraries drop sm_72 and Kepler, and no
		// release of 0.36.0 … 0.39.1 carries sm_120 or PTX.
		for _, v := range []string{"0.38.0", "0.39.1"} {
			all := run(t, "torch==2.0.1\nbitsandbytes=="+v+"\n")
			for _, w := range []string{
				"EG410 bitsandbytes " + v + " can run no code on target rtx5090's GPU 0 (GeForce RTX 5090, compute capability 12.0) whichever of its libraries loads",
				"CUDA 11.8/12.0/12.1 (SASS sm_50 sm_52 sm_60 sm_61 sm_70",
				"EG409 could not check bitsandbytes " + v + " against target h100",
			} {
				if !strings.Contains(all, w) {
					t.Errorf("%s: output lacks %q:\n%s", v, w, all)
				}
			}
		}
	})
}
