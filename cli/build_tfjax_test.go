package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildTensorFlowJAX: build tensorflow and build jax through the CLI:
// the file on stdout, no fit (exit 1) and bad requests (exit 2), and pick
// refusing what it does not know.
func TestBuildTensorFlowJAX(t *testing.T) {
	fleet := fleetFile(t)
	tests := []struct {
		args []string
		exit int
		out  []string // stdout for exit 0, stderr else
	}{
		{[]string{"build", "tensorflow", "--targets", fleet, "--target", "h100"}, 0,
			[]string{"name: tf220_cu125", "    - tensorflow[and-cuda]==2.20.0", "# Written by: envguard build tensorflow --target h100 --targets "}},
		{[]string{"build", "tensorflow=2.16", "--python", "3.10", "--targets", fleet, "--target", "h100"}, 0,
			[]string{"name: tf216_cu123", "python=3.10", "tensorflow[and-cuda]==2.16.1"}},
		// The K80 on 470: CUDA 12 does not run, and 2.14.0 (CUDA 11.8)
		// opens libcudnn.so.8, whatever cuDNN 8 is installed: 8.7.0 and
		// older carry Kepler, 8.8.0 and newer do not, so which one it
		// loads decides: no fit, and why.
		{[]string{"build", "tensorflow", "--targets", fleet, "--target", "k80"}, 1,
			[]string{"no tensorflow release in the knowledge base runs on k80", "tensorflow 2.14.0 CUDA 11.8", "[EG409]"}},
		{[]string{"build", "jax=0.6", "--targets", fleet, "--target", "h100"}, 0,
			[]string{"name: jax06_cu12", "jax[cuda12]==0.6.2"}},
		{[]string{"build", "jax", "--cuda", "cpu"}, 0, []string{"name: jax011_cpu", "    - jax==0.11.0"}},
		{[]string{"build", "jax", "--targets", fleet, "--target", "v100"}, 1,
			[]string{"no jax release in the knowledge base runs on v100", "[EG401]", "closest that would: a CPU build: envguard build jax=0.11.0 --cuda cpu"}},
		{[]string{"build", "jax=0.4.26"}, 2, []string{"jax 0.4.26 predates the CUDA plugins"}},
		{[]string{"build", "tensorflow", "--via", "conda-forge"}, 2, []string{"--via conda-forge", "--via pip"}},
		{[]string{"pick", "tensorflow=2.16", "--targets", fleet, "--target", "h100"}, 2,
			[]string{"pick knows pytorch only", "envguard build tensorflow=2.16"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, nil, nil, tt.args...)
			if code != tt.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.exit, stdout, stderr)
			}
			got := stderr
			if tt.exit == 0 {
				got = stdout
			}
			for _, w := range tt.out {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestBuildCreateTensorFlowWithUV: --create installs a TensorFlow build,
// whose file is all pip, with uv when uv is all there is: the venv for the
// build's Python, then the pip line, then the check of the new prefix.
func TestBuildCreateTensorFlowWithUV(t *testing.T) {
	fleet := fleetFile(t)
	tmpl := newVenv(t, "3.13.1")
	// What tensorflow[and-cuda] brings: NVIDIA's CUDA runtime and cuDNN wheels.
	tmpl.dist("tensorflow", "2.20.0", "uv")
	tmpl.dist("nvidia-cuda-runtime-cu12", "12.5.82", "uv")
	tmpl.dist("nvidia-cudnn-cu12", "9.3.0.75", "uv")
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
	fakeInstaller(t, bin, "uv", tmpl.dir, log, "")
	prefix := filepath.Join(t.TempDir(), "env")
	code, stdout, stderr := runCLI(t, nil, map[string]string{"PATH": bin},
		"build", "tensorflow", "--create", prefix, "--targets", fleet, "--target", "h100")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	got := readLog(t, log)
	for _, w := range []string{"uv venv --python 3.13 " + prefix + "\n", "uv pip install --python " + prefix + " tensorflow[and-cuda]==2.20.0\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("log lacks %q:\n%s", w, got)
		}
	}
	if !strings.Contains(stderr, "envguard: building tf220_cu125 into "+prefix+" with uv") {
		t.Errorf("stderr:\n%s", stderr)
	}
	// The check reads the new prefix. (Its verdict there is unknown: an
	// installed prefix does not record the [and-cuda] extra, and the check
	// does not yet read the nvidia-*-cu12 wheels as TensorFlow's CUDA.)
	if strings.Contains(stdout, "dependencies:") || !strings.Contains(stdout, "envguard check: "+prefix+" (from --create)") || !strings.Contains(stdout, "framework  tensorflow 2.20.0 from pip") {
		t.Errorf("stdout is not the check of the new prefix:\n%s", stdout)
	}
}

// TestBuildCreateJAXWithUV: a JAX build installed with uv is checked
// through its CUDA plugin: the check of the new prefix passes.
func TestBuildCreateJAXWithUV(t *testing.T) {
	fleet := fleetFile(t)
	tmpl := newVenv(t, "3.14.0")
	for _, d := range [][2]string{{"jax", "0.11.0"}, {"jaxlib", "0.11.0"}, {"jax-cuda12-plugin", "0.11.0"}, {"jax-cuda12-pjrt", "0.11.0"}, {"nvidia-cuda-runtime-cu12", "12.4.127"}} {
		tmpl.dist(d[0], d[1], "uv")
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
	fakeInstaller(t, bin, "uv", tmpl.dir, log, "")
	prefix := filepath.Join(t.TempDir(), "env")
	code, stdout, stderr := runCLI(t, nil, map[string]string{"PATH": bin},
		"build", "jax", "--create", prefix, "--targets", fleet, "--target", "h100")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if got := readLog(t, log); !strings.Contains(got, "uv pip install --python "+prefix+" jax[cuda12]==0.11.0\n") {
		t.Errorf("log:\n%s", got)
	}
	if !strings.Contains(stdout, "framework  jax 0.11.0 from pip, cuda build") || !strings.Contains(stdout, "verdict    OK") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
