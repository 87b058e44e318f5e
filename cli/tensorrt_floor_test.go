package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTensorRTFloor: TensorRT removed Volta (compute capability 7.0) from
// 10.5 on, over a 10.1 floor of SM 7.0, so the 10.8.0.43 and 10.13.2.6
// releases (extensions-7.yaml) run on no GPU below Turing: a P100 or V100
// beside them fails with EG410, whether the file names the metapackage or
// the tensorrt-cu12-libs package that holds the libraries (corpus 155:
// pytorch 2.3 with pytorch-cuda=11.8 and pip tensorrt==10.8.0.43). At or
// above 7.5, 10.8.0.43 runs on the GPUs its release supports (supported_cc
// 7.5 … 9.0), so the T4 is ok, with EG402 for the CUDA 12 runtime
// tensorrt-cu12 brings beside conda's 11.8 on a CUDA 12.4 driver, and so
// with 10.13.2.6; a release without a row (10.0.1, from before Volta's
// removal) decides nothing; its hint offers the releases with rows only on
// a GPU their floor admits.
func TestTensorRTFloor(t *testing.T) {
	dir := t.TempDir()
	fleet := filepath.Join(dir, "fleet.yml")
	if err := os.WriteFile(fleet, []byte(`targets:
  - name: p100
    driver: "535.104.05"
    gpus: ["P100"]
  - name: v100
    driver: "535.104.05"
    gpus: ["V100"]
  - name: t4
    driver: "550.54.15"
    gpus: ["T4"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := `name: omdet
channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.10
  - pytorch==2.3.0
  - pytorch-cuda=11.8
  - pip
  - pip:
      - PKG
`
	for _, tt := range []struct {
		pkg     string
		fails   bool
		summary string
	}{
		{"tensorrt==10.8.0.43", true, "targets: p100 FAIL, v100 FAIL, t4 ok"},
		{"tensorrt-cu12-libs==10.8.0.43", true, "targets: p100 FAIL, v100 FAIL, t4 ok"},
		{"tensorrt==10.13.2.6", true, "targets: p100 FAIL, v100 FAIL, t4 ok"},
		{"tensorrt==10.0.1", false, "targets: p100 unknown, v100 unknown, t4 unknown"},
	} {
		t.Run(tt.pkg, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "environment.yml")
			if err := os.WriteFile(f, []byte(strings.Replace(env, "PKG", tt.pkg, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, out, errs := runCLI(t, nil, nil, "validate", "--targets", fleet, f)
			all := out + errs
			name, version, _ := strings.Cut(tt.pkg, "==")
			label := name + " " + version
			for _, target := range []string{"p100", "v100"} {
				want := "EG410 " + label + " needs compute capability 7.5 or newer and cannot run on target " + target + "'s GPU 0"
				if got := strings.Contains(all, want); got != tt.fails {
					t.Errorf("%s: %q present %v, want %v:\n%s", target, want, got, tt.fails, all)
				}
			}
			if unknown := strings.HasSuffix(tt.summary, "t4 unknown"); tt.fails && unknown != strings.Contains(all, "EG409 could not check "+label+" against target t4: which architectures its GPU code is built for is not known") {
				t.Errorf("t4: an EG409 saying the architectures at or above the floor are not known present %v, want %v:\n%s", !unknown, unknown, all)
			}
			if decided := strings.HasSuffix(tt.summary, "t4 ok"); decided != strings.Contains(all, "EG402 driver 550.54.15 supports CUDA 12.4; "+label+" is a CUDA 12 build with a CUDA 12 runtime of its own") {
				t.Errorf("t4: EG402 for the package's own CUDA 12 runtime present %v, want %v:\n%s", !decided, decided, all)
			}
			if strings.Contains(all, "no facts on tensorrt") {
				t.Errorf("the knowledge base has rows for tensorrt, yet a finding says it has no facts:\n%s", all)
			}
			if !tt.fails {
				// The releases with rows are no release to pin on a
				// P100 (their floor is above it), but are on a T4.
				for _, w := range []string{
					"the releases envguard knows (pypi: 10.8.0.43, 10.13.2.6) need compute capability 7.5 or newer, above this target's GPU, so pinning one would not help",
					"pin a release envguard knows (pypi: 10.8.0.43, 10.13.2.6)",
				} {
					if !strings.Contains(all, w) {
						t.Errorf("hints lack %q:\n%s", w, all)
					}
				}
			}
			if !strings.Contains(all, tt.summary) {
				t.Errorf("summary lacks %q:\n%s", tt.summary, all)
			}
		})
	}
}
