package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

var pickFleet = filepath.Join("testdata", "pick-fleet.yml")

// pick decides by architecture as well as driver: on a GTX 1080 Ti with a
// CUDA 12.8 driver, torch 2.7's cu128 wheels (sm_75 and up) cannot run, so
// the index is cu126; on an RTX 5090 only cu128 runs. Where uv's
// --torch-backend=auto looks at the driver alone, both would get cu128.
func TestPick(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pytorch=2.7", "--target", "pascal"}, "https://download.pytorch.org/whl/cu126\n"},
		{[]string{"pytorch=2.7", "--target", "blackwell"}, "https://download.pytorch.org/whl/cu128\n"},
		{[]string{"pytorch=2.7", "--as", "conda", "--target", "pascal"}, "pytorch=2.7.1=cuda126* cuda-version=12.6\n"},
		{[]string{"pytorch=2.5", "--as", "conda", "--target", "pascal"}, "pytorch::pytorch=2.5.1 pytorch::pytorch-cuda=12.4\n"},
		{[]string{"pytorch=2.7", "--as", "pixi", "--target", "blackwell"}, "pytorch = { version = \"==2.7.1\", build = \"cuda129*\" }; cuda-version = \"12.9.*\"\n"},
	} {
		args := append([]string{"pick", "--targets", pickFleet}, tc.args...)
		code, out, errs := runCLI(t, nil, nil, args...)
		if code != ExitOK || out != tc.want {
			t.Errorf("%v: exit %d, stdout %q, want %q\n%s", tc.args, code, out, tc.want, errs)
		}
	}
	// No wheel variant of 2.7 runs on both: exit 1, each variant's reason,
	// and nothing on stdout for a script to take.
	code, out, errs := runCLI(t, nil, nil, "pick", "--targets", pickFleet, "pytorch=2.7", "--target", "pascal", "--target", "blackwell")
	if code != ExitFindings || out != "" || !strings.Contains(errs, "no variant of torch 2.7.1 runs on pascal, blackwell") || !strings.Contains(errs, "EG403") {
		t.Errorf("no fit: exit %d, stdout %q\n%s", code, out, errs)
	}
	for _, args := range [][]string{
		{"pick", "pytorch=2.7"},
		{"pick", "--targets", pickFleet, "pytorch=2.7", "--as", "wheel", "--target", "pascal"},
		{"pick", "--targets", pickFleet, "tensorflow=2.15", "--target", "pascal"},
		{"pick", "--targets", pickFleet, "pytorch=2.7", "--target", "nope"},
	} {
		if code, out, errs := runCLI(t, nil, nil, args...); code != ExitUsage || out != "" || errs == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", args, code, out, errs)
		}
	}
}
