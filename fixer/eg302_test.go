package fixer

import (
	"context"
	"strings"
	"testing"
)

// TestEG302KeepsConstraints moves pip cupy lines beside conda's CUDA to
// conda with --unsafe: the version constraint comes along in conda's
// syntax, the package goes on conda-forge (the channel the knowledge base
// says publishes cupy) unless the file lists it, and a line that says what
// a conda spec cannot (extras, a marker, a local label, ===, a URL) is not
// moved.
func TestEG302KeepsConstraints(t *testing.T) {
	cases := []struct {
		channels, pip string
		want          string // the new conda line; "" when not moved
	}{
		{"[pytorch, nvidia]", "cupy-cuda12x", "  - conda-forge::cupy"},
		{"[pytorch, nvidia]", "cupy-cuda12x>=13.0.0", "  - conda-forge::cupy>=13.0.0"},
		{"[pytorch, nvidia]", "cupy-cuda12x >= 13.0, != 13.1.0, < 14", "  - conda-forge::cupy>=13.0,!=13.1.0,<14"},
		{"[pytorch, nvidia]", "cupy-cuda12x==13.3.*", "  - conda-forge::cupy=13.3"},
		{"[pytorch, nvidia]", "cupy-cuda12x>=13.3.1,==13.3.*", "  - conda-forge::cupy>=13.3.1,13.3.*"},
		{"[pytorch, nvidia]", "cupy-cuda12x~=13.3", "  - conda-forge::cupy~=13.3"},
		{"[conda-forge]", "cupy-cuda12x==13.3.0", "  - cupy==13.3.0"},
		{"[https://conda.anaconda.org/conda-forge/]", "cupy-cuda12x<14", "  - cupy<14"},
		{"[pytorch, nvidia]", `cupy-cuda12x; sys_platform == "linux"`, ""},
		{"[pytorch, nvidia]", "cupy-cuda12x[all]>=13", ""},
		{"[pytorch, nvidia]", "cupy-cuda12x===13.3.0", ""},
		{"[pytorch, nvidia]", "cupy-cuda12x @ https://example.invalid/cupy.whl", ""},
	}
	for _, c := range cases {
		src := "name: pt113_cu116\nchannels: " + c.channels + "\ndependencies:\n  - python=3.9\n" +
			"  - pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0\n  - nvidia::cudatoolkit=11.6\n  - pip\n  - pip:\n    - " + c.pip + "\n"
		res, err := Fix(context.Background(), "environment.yml", []byte(src), Options{Report: testOptions(true).Report, Unsafe: true, Select: []string{"EG302"}})
		if err != nil {
			t.Fatal(err)
		}
		fixed := string(res.Fixed)
		if c.want == "" {
			if fixed != src {
				t.Errorf("%s: moved, want it left alone:\n%s", c.pip, Diff("environment.yml", []byte(src), res.Fixed))
			}
			continue
		}
		want := strings.Replace(src, "  - pip\n  - pip:\n    - "+c.pip+"\n", c.want+"\n", 1)
		if fixed != want {
			t.Errorf("%s (channels %s):\n%s\nwant\n%s", c.pip, c.channels, fixed, want)
		}
	}
}
