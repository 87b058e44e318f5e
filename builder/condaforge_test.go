package builder

import (
	"errors"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver/kb"
)

// --via conda-forge writes what conda-forge's pytorch-cpu-feedstock built
// (resolver/kb/data/torch-conda-forge.yaml) and checks it against the
// architecture lists of its build scripts (arch-conda-forge.yaml).
func TestBuildViaCondaForge(t *testing.T) {
	tests := []struct {
		name       string
		req        Request
		release    string
		cuda       string
		has, lacks []string
		why        []string
		warn       []string
	}{
		{
			name:    "a series means its newest release conda-forge built: 2.0.0, not 2.0.1",
			req:     Request{Framework: "pytorch", Version: "2.0", Via: "conda-forge"},
			release: "2.0.0", cuda: "12.0",
			has:   []string{"  - conda-forge\n", "  - pytorch=2.0.0=cuda120*", "  - cuda-version=12.0", "  - torchvision=0.15\n", "name: pt20_cu120"},
			lacks: []string{"torchaudio", "pip", "pytorch::", "pytorch-cuda"},
			why:   []string{"from conda-forge", "sm_50", "compute_90"},
		},
		{
			name:    "1.12: CUDA 11.2, the one conda-forge kept",
			req:     Request{Framework: "pytorch", Version: "1.12", Via: "conda-forge"},
			release: "1.12.1", cuda: "11.2",
			has:   []string{"  - pytorch=1.12.1=cuda112*", "  - torchvision=0.13\n"},
			lacks: []string{"torchaudio"},
			why:   []string{"sm_35", "compute_86"},
		},
		{
			name:    "2.10 on an RTX 5090 with a CUDA 13.0 driver takes the cuda130 build",
			req:     Request{Framework: "pytorch", Version: "2.10", Via: "conda-forge", Hosts: []*gpucheck.Host{machine("rtx", "580.65.06", rtx5090)}},
			release: "2.10.0", cuda: "13.0",
			has: []string{"  - pytorch=2.10.0=cuda130*", "  - cuda-version=13.0"},
			why: []string{"sm_120", "validates clean"},
		},
		{
			name:    "--cuda cpu",
			req:     Request{Framework: "pytorch", Version: "2.6", Via: "conda-forge", CUDA: "cpu"},
			release: "2.6.0",
			has:     []string{"  - pytorch=2.6.0=cpu*", "name: pt26_cpu"},
			lacks:   []string{"cuda-version"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustBuild(t, tt.req)
			y := string(res.YAML)
			if res.Dist != kb.DistCondaForge || res.Release != tt.release || res.CUDA != tt.cuda {
				t.Errorf("built %s %s %q, want conda-forge %s %q\n%s", res.Dist, res.Release, res.CUDA, tt.release, tt.cuda, y)
			}
			for _, s := range tt.has {
				if !strings.Contains(y, s) {
					t.Errorf("file lacks %q:\n%s", s, y)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(y, s) {
					t.Errorf("file has %q:\n%s", s, y)
				}
			}
			why := strings.Join(res.Why, "\n")
			for _, s := range tt.why {
				if !strings.Contains(why, s) {
					t.Errorf("header lacks %q:\n%s", s, why)
				}
			}
			if res.Report.Summary.Errors > 0 {
				t.Errorf("the file does not validate:\n%s", y)
			}
			for _, code := range tt.warn {
				found := false
				for _, f := range res.Report.Findings {
					found = found || f.Code == code
				}
				if !found {
					t.Errorf("no %s in the report of\n%s", code, y)
				}
			}
		})
	}
}

func TestBuildViaCondaForgeRefuses(t *testing.T) {
	tests := []struct {
		name  string
		req   Request
		noFit bool
		msg   []string
	}{
		{"a release conda-forge never built", Request{Framework: "pytorch", Version: "2.0.1", Via: "conda-forge"}, false,
			[]string{"conda-forge did not build torch 2.0.1", "2.0.0"}},
		{"a series conda-forge skipped", Request{Framework: "pytorch", Version: "2.2", Via: "conda-forge"}, false,
			[]string{"conda-forge never built torch 2.2"}},
		{"a CUDA variant conda-forge did not build", Request{Framework: "pytorch", Version: "2.6", Via: "conda-forge", CUDA: "11.8"}, false,
			[]string{`no "11.8" variant`, "12.6, cpu"}},
		{"no conda-forge build of 2.10 carries sm_37", Request{Framework: "pytorch", Version: "2.10", Via: "conda-forge", Hosts: []*gpucheck.Host{machine("k80", "470.57.02", k80)}}, true,
			[]string{"no variant of torch 2.10.0 runs on k80", "(conda-forge)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Build(tt.req)
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("got %v, %v; want a build error", res, err)
			}
			if be.NoFit != tt.noFit {
				t.Errorf("NoFit = %v, want %v: %v", be.NoFit, tt.noFit, err)
			}
			for _, s := range tt.msg {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error lacks %q: %v", s, err)
				}
			}
		})
	}
}
