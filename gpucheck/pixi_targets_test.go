package gpucheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// A pixi manifest's system requirements (cf. prefix-dev/pixi
// examples/pytorch/pixi.toml, whose features say cuda = "12.1" and "11").
const pixiManifest = `[workspace]
channels = ["conda-forge"]
platforms = ["linux-64"]

[dependencies]
python = "3.11.*"

[system-requirements]
cuda = "12"

[feature.cu121.system-requirements]
cuda = "12.1"

[feature.cpu.dependencies]
pytorch-cpu = "*"

[environments]
cu121 = ["cu121"]
cpu = { features = ["cpu"], no-default-feature = true }
`

func TestPixiTargets(t *testing.T) {
	ts, err := ParseTargets("pixi.toml", []byte(pixiManifest))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range ts {
		got = append(got, fmt.Sprintf("%s cuda_driver=%s %d:%d", tg.Name, tg.CUDADriver, tg.Pos.Line, tg.Pos.Col))
	}
	// cpu has no default feature and no requirement: no target.
	want := []string{"pixi/default cuda_driver=12.0 9:9", "pixi/cu121 cuda_driver=12.1 12:9"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("targets %q, want %q", got, want)
	}
	h, err := ts[0].Host(kb.Default())
	if err != nil {
		t.Fatal(err)
	}
	if h.CUDADriver != "12.0" || h.Driver == "" {
		t.Errorf("host driver %q cuda %q: want the oldest driver for CUDA 12.0", h.Driver, h.CUDADriver)
	}

	one, err := ParseTargets("pyproject.toml", []byte("[tool.pixi.system-requirements]\ncuda = \"11.8.0\"\n"))
	if err != nil || len(one) != 1 || one[0].Name != "pyproject" || one[0].CUDADriver != "11.8" {
		t.Errorf("pyproject: %+v, %v", one, err)
	}
	for _, tc := range []struct{ src, want string }{
		{"[system-requirements]\nlibc = \"2.28\"\n", "pixi.toml:1:1: no platform of this pixi manifest declares cuda"},
		{"[system-requirements]\ncuda = \"twelve\"\n", "pixi.toml:2:9: system-requirements cuda \"twelve\" is not a CUDA version"},
		{"[system-requirements\n", "pixi.toml:1:"},
	} {
		_, err := ParseTargets("pixi.toml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.src, err, tc.want)
		}
	}
}

// pixi 0.71's rich platforms (prefix-dev/pixi#6178; `pixi workspace
// platform add --cuda-arch` writes cuda = { driver, arch }): each platform
// that declares a CUDA driver is a target, its arch the GPUs' lowest
// compute capability (CEP 46). Bare strings and entries without cuda
// describe no GPU machine.
func TestPixiRichPlatforms(t *testing.T) {
	src := `[workspace]
channels = ["conda-forge"]
platforms = [
  { platform = "linux-64", cuda = "12.0", libc = "2.28" },
  { name = "jetson-nano", platform = "linux-aarch64", cuda = "12.8", archspec = "armv8-a" },
  { name = "h100", platform = "linux-64", cuda = { driver = "12.4", arch = "9.0" } },
  "osx-arm64",
  { name = "win-64" },
]
`
	ts, err := ParseTargets("pixi.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range ts {
		got = append(got, fmt.Sprintf("%s cuda_driver=%s ccs=%v %d:%d", tg.Name, tg.CUDADriver, tg.CCs, tg.Pos.Line, tg.Pos.Col))
	}
	want := []string{"pixi/linux-64 cuda_driver=12.0 ccs=[] 4:36", "pixi/jetson-nano cuda_driver=12.8 ccs=[] 5:63",
		"pixi/h100 cuda_driver=12.4 ccs=[9.0] 6:62"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("targets\n%q\nwant\n%q", got, want)
	}
	for _, tc := range []struct{ src, want string }{
		{"[workspace]\nplatforms = [{ platform = \"linux-64\", cuda = { arch = \"9.0\" } }]\n", "needs driver"},
		{"[workspace]\nplatforms = [{ platform = \"linux-64\", cuda = 12 }]\n", "cuda must be a string"},
		{"[workspace]\nplatforms = [{ platform = \"linux-64\", cuda = { driver = \"12.4\", arch = \"sm_90\" } }]\n", "arch \"sm_90\" is not a compute capability"},
	} {
		_, err := ParseTargets("pixi.toml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.src, err, tc.want)
		}
	}
}
