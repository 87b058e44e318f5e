package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
)

// fleetFile writes a targets file and returns its path.
func fleetFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fleet.yml")
	src := `targets:
  - name: h100
    driver: "550.54.15"
    gpus: ["H100"]
  - name: v100
    driver: "470.57.02"
    gpus: ["V100"]
  - name: k80
    driver: "470.57.02"
    gpus: ["K80"]
  - name: old
    driver: "418.40.04"
    gpus: ["V100"]
`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuildCommand(t *testing.T) {
	fleet := fleetFile(t)
	tests := []struct {
		name string
		host func() *gpucheck.Host
		args []string
		// for exit 0: the canonical name and lines of the file
		env string
		has []string
		// for other exits: what stderr says
		exit int
		err  []string
	}{
		{
			name: "pytorch=2.1 on an H100 target",
			args: []string{"pytorch=2.1", "--targets", fleet, "--target", "h100"},
			env:  "pt21_cu121", has: []string{"pytorch::pytorch-cuda=12.1", "# Written by: envguard build pytorch=2.1 --target h100 --targets "},
		},
		{
			name: "a fleet of an H100 and a V100 on driver 470",
			args: []string{"pytorch=2.1", "--python", "3.10", "--targets", fleet, "--target", "h100", "--target", "v100"},
			env:  "pt21_cu118", has: []string{"python=3.10", "pytorch::pytorch-cuda=11.8", "warning EG402"},
		},
		{
			name: "local is this machine (an H100)",
			host: fakeH100, args: []string{"pytorch=2.1", "--target", "local"},
			env: "pt21_cu121", has: []string{"Target local (driver 550.54.15, CUDA 12.4) [NVIDIA H100 80GB HBM3 sm_90]: validates clean"},
		},
		{
			name: "pytorch=2.6 from the wheel index",
			args: []string{"pytorch=2.6", "--python", "3.12", "--targets", fleet, "--target", "h100"},
			env:  "pt26_cu124", has: []string{"--index-url https://download.pytorch.org/whl/cu124", "torch==2.6.0+cu124"},
		},
		{
			name: "--cuda cpu",
			args: []string{"pytorch=2.1", "--cuda", "cpu"},
			env:  "pt21_cpu", has: []string{"pytorch::cpuonly", "# Written by: envguard build pytorch=2.1 --cuda cpu\n"},
		},
		{
			name: "nothing fits: driver 418",
			args: []string{"pytorch=2.1", "--targets", fleet, "--target", "old"},
			exit: ExitFindings,
			err:  []string{"no variant of torch 2.1.2 runs on old", "[EG401]", "closest that would: torch 1.8.1 CUDA 10.1"},
		},
		{
			name: "nothing fits: no driver here, a CPU build would",
			host: fakeNoDriver, args: []string{"pytorch=2.1", "--target", "local"},
			exit: ExitFindings,
			err:  []string{"no variant of torch 2.1.2 runs on local", "[EG404]", "envguard build pytorch=2.1.2 --cuda cpu"},
		},
		{
			name: "nothing fits: a K80 on torch 2.8",
			args: []string{"pytorch=2.8", "--targets", fleet, "--target", "k80"},
			exit: ExitFindings,
			// torch 2.7.1+cu118 pins nvidia-cudnn-cu11 9.1.0.70, and cuDNN
			// lists no Kepler from 8.8.0 on: not a build for the K80. The
			// pytorch channel's 2.3.1 CUDA 11.8 build has sm_37 SASS and
			// copies in cuDNN 8.7.0, the last cuDNN that lists Kepler.
			err: []string{"no variant of torch 2.8.0 runs on k80", "sm_37", "closest that would: torch 2.3.1 CUDA 11.8 (pytorch-channel)"},
		},
		{name: "unknown release", args: []string{"pytorch=9.9"}, exit: ExitUsage, err: []string{"pytorch 9.9 is not in the knowledge base", "newest known"}},
		{name: "bad python", args: []string{"pytorch=2.1", "--python", "3.13"}, exit: ExitUsage, err: []string{"supports Python 3.8, 3.9, 3.10, 3.11, not 3.13"}},
		{name: "bad via", args: []string{"pytorch=2.1", "--via", "brew"}, exit: ExitUsage, err: []string{`--via "brew"`}},
		{name: "conda-forge never built 2.2", args: []string{"pytorch=2.2", "--via", "conda-forge"}, exit: ExitUsage, err: []string{"conda-forge never built torch 2.2"}},
		{name: "unknown cuda variant", args: []string{"pytorch=2.1", "--cuda", "12.4"}, exit: ExitUsage, err: []string{`no "12.4" variant`, "12.1, 11.8, cpu"}},
		{name: "unknown target", args: []string{"pytorch=2.1", "--target", "nosuch"}, exit: ExitUsage, err: []string{`unknown target "nosuch"`}},
		{name: "other framework", args: []string{"mxnet=1.9"}, exit: ExitUsage, err: []string{"the builder knows pytorch, tensorflow, jax", `not "mxnet"`}},
		{name: "tensorflow before and-cuda", args: []string{"tensorflow=2.13"}, exit: ExitUsage, err: []string{"tensorflow 2.13 predates the and-cuda extra", "from 2.14.0"}},
		{name: "no argument", args: nil, exit: ExitUsage, err: []string{"accepts 1 arg"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := tt.host
			if host == nil {
				host = fakeH100
			}
			code, out, errs := runCLI(t, host, nil, append([]string{"build"}, tt.args...)...)
			if code != tt.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.exit, out, errs)
			}
			if tt.exit != ExitOK {
				if out != "" {
					t.Errorf("stdout must stay empty when nothing is built, got:\n%s", out)
				}
				for _, s := range tt.err {
					if !strings.Contains(errs, s) {
						t.Errorf("stderr lacks %q:\n%s", s, errs)
					}
				}
				return
			}
			if errs != "" {
				t.Errorf("stderr should be empty: %q", errs)
			}
			// stdout is the environment file and nothing else.
			var doc struct {
				Name         string `yaml:"name"`
				Channels     []string
				Dependencies []any
			}
			if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("stdout is not YAML: %v\n%s", err, out)
			}
			if doc.Name != tt.env || len(doc.Channels) == 0 || len(doc.Dependencies) == 0 {
				t.Errorf("file %+v, want name %s with channels and dependencies", doc, tt.env)
			}
			for _, s := range tt.has {
				if !strings.Contains(out, s) {
					t.Errorf("file lacks %q:\n%s", s, out)
				}
			}
			r := report.Validate("environment.yml", []byte(out), report.Options{Platform: "linux-64"})
			if r.Summary.Errors > 0 || r.Name.Canonical != tt.env {
				t.Errorf("the file does not validate as %s: %+v", tt.env, r.Findings)
			}
		})
	}
}

// `envguard build ... > environment.yml && envguard validate environment.yml
// --target T` passes: the two commands agree.
func TestBuildThenValidate(t *testing.T) {
	fleet := fleetFile(t)
	for _, target := range []string{"h100", "v100", "k80"} {
		// The pytorch channel's 2.4/2.5 CUDA 11.8 builds load cuDNN 9.1.0,
		// which lists no Kepler; 2.0 … 2.3 CUDA 11.8 load cuDNN 8.7.0, the
		// last that lists it: the K80 gets 2.3.
		spec := "pytorch=2.5"
		if target == "k80" {
			spec = "pytorch=2.3"
		}
		code, out, errs := runCLI(t, fakeH100, nil, "build", spec, "--targets", fleet, "--target", target)
		if code != ExitOK {
			t.Fatalf("%s: build exit %d: %s", target, code, errs)
		}
		f := filepath.Join(t.TempDir(), "environment.yml")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		code, vout, verrs := runCLI(t, fakeH100, nil, "validate", "--targets", fleet, "--target", target, f)
		if code != ExitOK {
			t.Errorf("%s: validate of the built file exits %d\n%s%s\n%s", target, code, vout, verrs, out)
		}
	}
}
