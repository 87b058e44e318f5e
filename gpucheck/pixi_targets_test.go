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
		{"[system-requirements]\nlibc = \"2.28\"\n", "pixi.toml:1:1: no environment of this pixi manifest has [system-requirements] cuda"},
		{"[system-requirements]\ncuda = \"twelve\"\n", "pixi.toml:2:9: system-requirements cuda \"twelve\" is not a CUDA version"},
		{"[system-requirements\n", "pixi.toml:1:"},
	} {
		_, err := ParseTargets("pixi.toml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.src, err, tc.want)
		}
	}
}
