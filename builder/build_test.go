package builder

import (
	"errors"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// gpu is one GPU model with its compute capability (resolver/kb/data/gpus.yaml).
type gpu struct{ name, cc string }

var (
	k80     = gpu{"Tesla K80", "3.7"}
	v100    = gpu{"Tesla V100-SXM2-32GB", "7.0"}
	t4      = gpu{"Tesla T4", "7.5"}
	a100    = gpu{"NVIDIA A100-SXM4-80GB", "8.0"}
	a10     = gpu{"NVIDIA A10", "8.6"}
	l4      = gpu{"NVIDIA L4", "8.9"}
	h100gpu = gpu{"NVIDIA H100 80GB HBM3", "9.0"}
	b200    = gpu{"NVIDIA B200", "10.0"}
	rtx5090 = gpu{"NVIDIA GeForce RTX 5090", "12.0"}
)

// driverCUDA is the CUDA version NVML reports for each driver used here:
// the newest CUDA whose minimum Linux driver (resolver/kb/data/cuda.yaml,
// from NVIDIA's CUDA release notes) the driver meets.
var driverCUDA = map[string]string{
	"418.40.04":  "10.1",
	"450.80.02":  "11.0",
	"470.57.02":  "11.4",
	"525.60.13":  "12.0",
	"535.104.05": "12.2",
	"550.54.15":  "12.4",
	"570.124.06": "12.8",
	"580.65.06":  "13.0",
}

// machine is a target as a targets file would describe it, built as the
// Host the checks read.
func machine(name, driver string, gs ...gpu) *gpucheck.Host {
	h := &gpucheck.Host{Name: name, Available: true, Driver: driver, CUDADriver: driverCUDA[driver],
		Source: gpucheck.SourceTarget, GPUs: []gpucheck.GPU{}}
	if h.CUDADriver == "" {
		panic("driverCUDA lacks " + driver)
	}
	for i, g := range gs {
		h.GPUs = append(h.GPUs, gpucheck.GPU{Index: i, Name: g.name, CC: g.cc})
	}
	return h
}

func mustBuild(t *testing.T, req Request) *Result {
	t.Helper()
	res, err := Build(req)
	if err != nil {
		t.Fatalf("Build(%+v): %v", req, err)
	}
	return res
}

// revalidate holds what Build wrote against the hosts again, from the
// bytes alone: the file must pass envguard's own checks.
func revalidate(t *testing.T, res *Result, hosts []*gpucheck.Host) *report.Report {
	t.Helper()
	r := report.Validate("environment.yml", res.YAML, report.Options{Platform: "linux-64", KB: kb.Default(), Hosts: hosts})
	if r.Summary.Errors > 0 {
		t.Errorf("emitted file does not validate:\n%s", res.YAML)
		for _, f := range r.Findings {
			t.Logf("  %d:%d %s %s %s", f.Line, f.Column, f.Severity, f.Code, f.Message)
		}
	}
	return r
}

func TestBuildSeeds(t *testing.T) {
	tests := []struct {
		name  string
		req   Request
		env   string // canonical name
		dist  kb.Distribution
		has   []string // lines the file must contain
		lacks []string // and must not
		why   []string // phrases the header must contain
		nowhy []string // and must not
		warn  []string // warning codes of the emitted file, in order
	}{
		{
			name: "2.1 on an H100 with driver 550",
			req:  Request{Framework: "pytorch", Version: "2.1", Hosts: []*gpucheck.Host{machine("h100", "550.54.15", h100gpu)}},
			env:  "pt21_cu121", dist: kb.DistPytorchConda,
			has: []string{"name: pt21_cu121", "  - pytorch\n  - nvidia\n", "  - pytorch::pytorch=2.1.2", "  - pytorch::torchvision=0.16.2",
				"  - pytorch::torchaudio=2.1.2", "  - pytorch::pytorch-cuda=12.1", "  - python=3.11"},
			lacks: []string{"pip", "cpuonly", "conda-forge"},
			why:   []string{"Chosen: torch 2.1.2, CUDA 12.1, Python 3.11, from the pytorch conda channel", "Target h100 (driver 550.54.15, CUDA 12.4)", "validates clean"},
			// The older 11.8 variant lost to a newer one: not worth a line.
			nowhy: []string{"not chosen", "11.8"},
		},
		{
			name: "2.1 on a V100 with driver 470 takes CUDA 11.8 through minor-version compatibility",
			req:  Request{Framework: "pytorch", Version: "2.1", Python: "3.10", Hosts: []*gpucheck.Host{machine("v100", "470.57.02", v100)}},
			env:  "pt21_cu118", dist: kb.DistPytorchConda,
			has:  []string{"  - pytorch::pytorch-cuda=11.8", "  - python=3.10"},
			why:  []string{"not chosen: torch 2.1.2 CUDA 12.1", "[EG401]", "warning EG402"},
			warn: []string{"EG402"},
		},
		{
			name: "2.6 comes from the wheel index: the pytorch channel stopped after 2.5",
			req:  Request{Framework: "pytorch", Version: "2.6", Python: "3.12", Hosts: []*gpucheck.Host{machine("h100", "550.54.15", h100gpu)}},
			env:  "pt26_cu124", dist: kb.DistWheel,
			has: []string{"  - pip\n", "      - --index-url https://download.pytorch.org/whl/cu124", "      - torch==2.6.0+cu124",
				"      - torchvision==0.21.0+cu124", "      - torchaudio==2.6.0+cu124", "  - conda-forge\n"},
			lacks: []string{"pytorch::", "pytorch-cuda"},
			// cu126 runs on driver 550 only through minor-version
			// compatibility; the clean cu124 wins.
			why: []string{"stopped publishing after 2.5", "not chosen: torch 2.6.0 CUDA 12.6", "[EG402]"},
		},
		{
			// conda-forge built 2.7.1 for CUDA 12.6 and 12.9; driver 570
			// (CUDA 12.8) runs 12.9 only through minor-version compatibility
			name: "--via conda for a release the channel lacks comes from conda-forge",
			req:  Request{Framework: "pytorch", Version: "2.7.1", Via: "conda", Hosts: []*gpucheck.Host{machine("l4", "570.124.06", l4)}},
			env:  "pt27_cu126", dist: kb.DistCondaForge,
			has:   []string{"  - pytorch=2.7.1=cuda126*", "  - cuda-version=12.6", "  - torchvision=0.22", "  - torchaudio=2.7"},
			lacks: []string{"pip", "pytorch::", "pytorch-cuda"},
			why:   []string{"from conda-forge", "not chosen: torch 2.7.1 CUDA 12.9 (conda-forge)", "[EG402]", "sm_89"},
		},
		{
			name: "--cuda cpu",
			req:  Request{Framework: "pytorch", Version: "2.1", CUDA: "cpu"},
			env:  "pt21_cpu", dist: kb.DistPytorchConda,
			has:   []string{"  - pytorch::cpuonly", "name: pt21_cpu"},
			lacks: []string{"pytorch-cuda", "nvidia"},
		},
		{
			name: "--cuda cpu --via pip",
			req:  Request{Framework: "pytorch", Version: "2.6", CUDA: "cpu", Via: "pip"},
			env:  "pt26_cpu", dist: kb.DistWheel,
			has: []string{"--index-url https://download.pytorch.org/whl/cpu", "torch==2.6.0+cpu"},
		},
		{
			name: "an exact --cuda is honoured when it runs",
			req:  Request{Framework: "pytorch", Version: "2.1", CUDA: "cu118", Hosts: []*gpucheck.Host{machine("h100", "550.54.15", h100gpu)}},
			env:  "pt21_cu118", dist: kb.DistPytorchConda,
			why: []string{"CUDA 11.8 as asked"},
		},
		{
			name: "1.12 takes cudatoolkit, and 11.6 from conda-forge",
			req:  Request{Framework: "pytorch", Version: "1.12", CUDA: "11.6"},
			env:  "pt112_cu116", dist: kb.DistPytorchConda,
			has: []string{"  - conda-forge::cudatoolkit=11.6", "  - conda-forge\n"},
		},
		{
			// With no version asked, a B200 gets a release with sm_100
			// machine code, not one it runs only through JIT.
			name: "a B200 with no version asked gets native code",
			req:  Request{Framework: "pytorch", Hosts: []*gpucheck.Host{machine("b200", "570.124.06", b200)}},
			// The newest releases (2.12 on) have no CUDA 12 variant with
			// sm_100 (cu128 was dropped), and a 570 driver runs no CUDA 13:
			// the builder falls back to 2.11.0 and says why.
			env: "pt211_cu128", dist: kb.DistWheel,
			why: []string{"machine code for sm_75, sm_80, sm_86, sm_90, sm_100",
				"No version asked: torch 2.11.0 is the newest release",
				"skipped: no variant of torch 2.14.0 runs on b200:",
				"torch 2.14.0 CUDA 13.0 (wheel): driver 570.124.06 supports CUDA 12.8",
				"skipped: no variant of torch 2.13.0 runs on b200\n",
				"skipped: no variant of torch 2.12.1 runs on b200\n"},
			nowhy: []string{"PTX JIT", "EG408", "skipped: no variant of torch 2.11.0"},
		},
		{
			// A fleet of a V100 (sm_70: CUDA 12 builds only) and a B200
			// (sm_100) on a 570 driver: 2.11's cu128 dropped sm_70, 2.10's
			// kept it, so the fallback goes one series further.
			name: "a fleet no recent release serves falls back to the newest that serves it",
			req:  Request{Framework: "pytorch", Hosts: []*gpucheck.Host{machine("b200", "570.124.06", b200), machine("v100", "570.124.06", v100)}},
			env:  "pt210_cu128", dist: kb.DistWheel,
			why: []string{"No version asked: torch 2.10.0 is the newest release",
				"skipped: no variant of torch 2.11.0 runs on b200, v100\n",
				"Target b200", "Target v100"},
		},
		{
			// A request that can be had from the newest release takes it,
			// and the header names no skipped release.
			name: "no version asked and the newest release fits",
			req:  Request{Framework: "pytorch", Hosts: []*gpucheck.Host{machine("h100", "580.65.06", h100gpu)}},
			env:  "pt214_cu130", dist: kb.DistWheel,
			nowhy: []string{"skipped:", "No version asked"},
		},
		{
			// --cuda 12.8 with no version: the newest release that has a
			// cu128 variant, not a refusal from one that has none.
			name: "no version asked with a --cuda the newest release lacks",
			req:  Request{Framework: "pytorch", CUDA: "12.8"},
			env:  "pt211_cu128", dist: kb.DistWheel,
			why: []string{"skipped: torch 2.14.0 from wheel has no \"12.8\" variant"},
		},
		{
			name: "a fleet takes the variant every machine runs",
			req: Request{Framework: "pytorch", Version: "2.5", Hosts: []*gpucheck.Host{
				machine("h100", "550.54.15", h100gpu), machine("t4", "525.60.13", t4)}},
			// 12.4 runs on 525 only through minor-version compatibility;
			// 12.1 too; 11.8 runs natively on both.
			env: "pt25_cu118", dist: kb.DistPytorchConda,
			why: []string{"Target h100", "Target t4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustBuild(t, tt.req)
			y := string(res.YAML)
			if res.Name != tt.env || res.Dist != tt.dist {
				t.Errorf("built %s from %s, want %s from %s\n%s", res.Name, res.Dist, tt.env, tt.dist, y)
			}
			for _, s := range tt.has {
				if !strings.Contains(y, s) {
					t.Errorf("file lacks %q:\n%s", s, y)
				}
			}
			body := y[strings.Index(y, "\nname:"):]
			for _, s := range tt.lacks {
				if strings.Contains(body, s) {
					t.Errorf("file has %q:\n%s", s, y)
				}
			}
			header := y[:strings.Index(y, "\nname:")]
			for _, s := range tt.why {
				if !strings.Contains(header, s) {
					t.Errorf("header lacks %q:\n%s", s, header)
				}
			}
			for _, s := range tt.nowhy {
				if strings.Contains(header, s) {
					t.Errorf("header has %q:\n%s", s, header)
				}
			}
			r := revalidate(t, res, tt.req.Hosts)
			var warns []string
			for _, f := range r.Findings {
				if f.Severity == "warning" {
					warns = append(warns, f.Code)
				}
			}
			if strings.Join(warns, " ") != strings.Join(tt.warn, " ") {
				t.Errorf("warnings %v, want %v", warns, tt.warn)
			}
			if r.Name.Canonical != res.Name {
				t.Errorf("the file's canonical name is %q, the builder named it %q", r.Name.Canonical, res.Name)
			}
			// The returned report is the file's: same findings, and line
			// numbers that point into the emitted file.
			if len(res.Report.Findings) != len(r.Findings) {
				t.Errorf("Result.Report has %d findings, the file %d", len(res.Report.Findings), len(r.Findings))
			}
			lines := strings.Split(y, "\n")
			for _, f := range res.Report.Findings {
				if f.Line > 0 && (f.Line > len(lines) || strings.HasPrefix(lines[f.Line-1], "#")) {
					t.Errorf("finding %s at line %d points at a header comment", f.Code, f.Line)
				}
			}
		})
	}
}

func TestBuildRefuses(t *testing.T) {
	tests := []struct {
		name  string
		req   Request
		noFit bool
		msg   []string // phrases the error must contain
	}{
		{
			name: "unknown release names the newest known",
			req:  Request{Framework: "pytorch", Version: "9.9"},
			msg:  []string{"pytorch 9.9 is not in the knowledge base", "newest known: " + kb.Default().LatestTorch()},
		},
		{
			name: "unsupported Python lists the supported ones",
			req:  Request{Framework: "pytorch", Version: "2.1", Python: "3.13"},
			msg:  []string{"torch 2.1.2 supports Python 3.8, 3.9, 3.10, 3.11, not 3.13"},
		},
		{
			// A release asked for is not traded for an older one: the
			// fallback serves only requests that name no version.
			name:  "a release asked for does not fall back",
			req:   Request{Framework: "pytorch", Version: "2.14", Hosts: []*gpucheck.Host{machine("b200", "570.124.06", b200)}},
			noFit: true,
			msg:   []string{"no variant of torch 2.14.0 runs on b200", "closest that would:"},
		},
		{
			// Where no series fits, the error is the newest release's, with
			// its closest suggestion, as before the fallback existed.
			name:  "no version asked and no series fits",
			req:   Request{Framework: "pytorch", Hosts: []*gpucheck.Host{machine("old", "418.40.04", rtx5090)}},
			noFit: true,
			msg:   []string{"no variant of torch 2.14.0 runs on old", "closest that would: a CPU build"},
		},
		{
			name: "other frameworks",
			req:  Request{Framework: "mxnet", Version: "1.9"},
			msg:  []string{"the builder knows pytorch, tensorflow, jax", "mxnet"},
		},
		{
			name: "no framework",
			req:  Request{},
			msg:  []string{"no framework"},
		},
		{
			name: "--via conda-forge for a series conda-forge never built",
			req:  Request{Framework: "pytorch", Version: "2.2", Via: "conda-forge"},
			msg:  []string{"--via conda-forge", "conda-forge never built torch 2.2", "--via pip"},
		},
		{
			name: "bad --via",
			req:  Request{Framework: "pytorch", Version: "2.1", Via: "brew"},
			msg:  []string{`--via "brew"`, "conda, pip or conda-forge"},
		},
		{
			name: "a CUDA variant the release lacks lists those it has",
			req:  Request{Framework: "pytorch", Version: "2.1", CUDA: "12.4"},
			msg:  []string{`no "12.4" variant`, "12.1, 11.8, cpu"},
		},
		{
			// The closest build that runs is the newest with sm_37 SASS and
			// a cuDNN that carries Kepler: the pytorch channel's 2.0 … 2.3
			// CUDA 11.8 builds copy in cuDNN 8.7.0, whose matrix still lists
			// Kepler (8.8.0 is the first without it); 2.4 and 2.5 load 9.1.0.
			name:  "a K80 with driver 470 has no torch 2.8",
			req:   Request{Framework: "pytorch", Version: "2.8", Hosts: []*gpucheck.Host{machine("k80", "470.57.02", k80)}},
			noFit: true,
			msg: []string{"no variant of torch 2.8.0 runs on k80", "CUDA 12.6 (wheel)", "sm_37", "[EG403]",
				"closest that would: torch 2.3.1 CUDA 11.8 (pytorch-channel)", "envguard build pytorch=2.3.1 --cuda 11.8 --via conda"},
		},
		{
			// The 2.6 builds stop at sm_90; a Blackwell GPU needs a newer
			// torch, not an older one.
			name:  "an RTX 5090 has no torch 2.6: closest is the newer 2.7 with CUDA 12.8",
			req:   Request{Framework: "pytorch", Version: "2.6", Hosts: []*gpucheck.Host{machine("rtx5090", "570.124.06", rtx5090)}},
			noFit: true,
			msg: []string{"no variant of torch 2.6.0 runs on rtx5090", "sm_120", "no PTX at or below compute_120 (\"no kernel image is available for execution on the device\") [EG403]",
				"closest that would: torch 2.7.1 CUDA 12.8 (wheel) — envguard build pytorch=2.7.1 --cuda 12.8 --via pip"},
		},
		{
			name:  "driver 418 runs no CUDA 11 or 12: closest is an older release",
			req:   Request{Framework: "pytorch", Version: "2.1", Hosts: []*gpucheck.Host{machine("old", "418.40.04", v100)}},
			noFit: true,
			// CUDA 10.2 needs 440.33: before CUDA 11 there is no minor-version
			// compatibility, so torch 1.12.1's CUDA 10.2 build does not run on
			// a CUDA 10.1 driver either.
			msg: []string{"no variant of torch 2.1.2 runs on old", "CUDA 12.1", "CUDA 11.8", "[EG401]",
				"closest that would: torch 1.8.1 CUDA 10.1 (pytorch-channel) — envguard build pytorch=1.8.1 --cuda 10.1 --via conda"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Build(tt.req)
			if err == nil {
				t.Fatalf("built %s, want an error:\n%s", res.Name, res.YAML)
			}
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("error %T %v, want *build.Error", err, err)
			}
			if be.NoFit != tt.noFit {
				t.Errorf("NoFit = %v, want %v", be.NoFit, tt.noFit)
			}
			wantStatus := 400
			if tt.noFit {
				wantStatus = 422
			}
			if be.StatusCode() != wantStatus {
				t.Errorf("StatusCode = %d, want %d", be.StatusCode(), wantStatus)
			}
			for _, s := range tt.msg {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error lacks %q:\n%s", s, err)
				}
			}
		})
	}
}

// The closest suggestion is itself buildable and runs on the targets.
func TestClosestBuilds(t *testing.T) {
	hosts := []*gpucheck.Host{machine("k80", "470.57.02", k80)}
	_, err := Build(Request{Framework: "pytorch", Version: "2.8", Hosts: hosts})
	var be *Error
	if !errors.As(err, &be) || !be.NoFit {
		t.Fatalf("want a no-fit error, got %v", err)
	}
	// "... — envguard build pytorch=2.7.1 --cuda 11.8 --via pip"
	_, cmd, ok := strings.Cut(be.Closest, "envguard build ")
	if !ok {
		t.Fatalf("closest names no command: %q", be.Closest)
	}
	f := strings.Fields(cmd)
	if len(f) < 5 || f[1] != "--cuda" || f[3] != "--via" {
		t.Fatalf("unexpected command %q", cmd)
	}
	fw, ver, _ := strings.Cut(f[0], "=")
	res := mustBuild(t, Request{Framework: fw, Version: ver, CUDA: f[2], Via: f[4], Hosts: hosts})
	revalidate(t, res, hosts)
}

func TestBuildDeterministic(t *testing.T) {
	req := Request{Framework: "pytorch", Version: "2.4", Hosts: []*gpucheck.Host{machine("a10", "535.104.05", a10)}, Command: "envguard build pytorch=2.4 --target a10"}
	a, b := mustBuild(t, req), mustBuild(t, req)
	if string(a.YAML) != string(b.YAML) {
		t.Errorf("two builds differ:\n%s\n---\n%s", a.YAML, b.YAML)
	}
	if !strings.HasPrefix(string(a.YAML), "# Written by: envguard build pytorch=2.4 --target a10\n") {
		t.Errorf("header does not start with the command:\n%s", a.YAML)
	}
}

func TestNormCUDA(t *testing.T) {
	for in, want := range map[string]string{
		"12.1": "12.1", " 12.1.1 ": "12.1", "cu118": "11.8", "CU121": "12.1", "cu130": "13.0",
		"cpu": "cpu", "auto": "auto", "": "", "cuda": "cuda", "cu1": "cu1",
	} {
		if got := normCUDA(in); got != want {
			t.Errorf("normCUDA(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBuildOldReleaseSelectsWithCudatoolkit: before 1.13 the pytorch channel
// selects the CUDA variant with cudatoolkit, never pytorch-cuda, and the
// result validates with its own checks.
func TestBuildOldReleaseSelectsWithCudatoolkit(t *testing.T) {
	res, err := Build(Request{Framework: "pytorch", Version: "1.10.2", CUDA: "11.3", Via: "conda"})
	if err != nil {
		t.Fatal(err)
	}
	y := string(res.YAML)
	if !strings.Contains(y, "cudatoolkit=11.3") || strings.Contains(y, "pytorch-cuda") || res.Report.Summary.Errors != 0 {
		t.Errorf("1.10.2 CUDA 11.3 via conda:\n%s\n%+v", y, res.Report.Findings)
	}
}

// A build that runs only through PTX JIT on a target's GPU loses to one
// with machine code for it, whatever other warnings the native one has.
func TestFlawsPreferNativeCode(t *testing.T) {
	withWarn := func(codes ...string) *Result {
		r := &report.Report{}
		for _, c := range codes {
			r.Findings = append(r.Findings, report.Finding{Code: c, Severity: "warning"})
			r.Summary.Warnings++
		}
		return &Result{Report: r}
	}
	k, req := kb.Default(), Request{}
	jit := withWarn("EG408")
	native := withWarn("EG402", "EG505", "EG107")
	if flaws(k, native, req) >= flaws(k, jit, req) {
		t.Errorf("flaws: native with 3 warnings %d, JIT-only %d: the native build must win", flaws(k, native, req), flaws(k, jit, req))
	}
}

// TestBuildRefusesUndecidedPTXPath: a B200 on tensorflow 2.18 (CUDA 12.5:
// it reaches sm_100 only through PTX, beside CUDA 12.5 libraries and a
// cuDNN 9 of open release) or on conda-forge's torch 2.6 cuda126 build is
// not built: the CUDA libraries those builds load are not known to carry
// code for sm_100, so their verdict is unknown, and the builder names the
// first torch build that is decided instead. (torch 1.7 was this case until
// its builds' cuDNN were known: TestBuildRefusesCuDNN7And8OnBlackwell.)
func TestBuildRefusesUndecidedPTXPath(t *testing.T) {
	for _, req := range []Request{
		{Framework: "tensorflow", Version: "2.18", Hosts: []*gpucheck.Host{machine("b200", "570.124.06", b200)}},
		{Framework: "pytorch", Version: "2.6", Via: "conda-forge", Hosts: []*gpucheck.Host{machine("b200", "580.65.06", b200)}},
	} {
		_, err := Build(req)
		if err == nil {
			t.Fatalf("Build(%s %s via %q) on a B200 succeeded; the PTX path's CUDA libraries are not decided", req.Framework, req.Version, req.Via)
		}
		wants := []string{"EG409", "only through PTX"}
		if req.Framework == "pytorch" {
			// a later torch runs there; no tensorflow release is known to
			wants = append(wants, "closest that would")
		}
		for _, want := range wants {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Build(%s %s): error lacks %q:\n%v", req.Framework, req.Version, want, err)
			}
		}
	}
}

// TestBuildRefusesCuDNN8OnBlackwell: torch 2.1's pytorch-channel CUDA 11.8
// build reaches a B200 through PTX, but the cuDNN 8.7.0 it carries has no
// code for sm_100 and is not hardware forward compatible: no variant of
// torch 2.1 runs there, which the builder says (EG410), not "unknown".
func TestBuildRefusesCuDNN8OnBlackwell(t *testing.T) {
	_, err := Build(Request{Framework: "pytorch", Version: "2.1", Hosts: []*gpucheck.Host{machine("b200", "570.124.06", b200)}})
	if err == nil {
		t.Fatal("Build(pytorch 2.1) on a B200 succeeded; its CUDA 11.8 build's cuDNN 8.7.0 cannot run there")
	}
	for _, want := range []string{"no variant of torch 2.1", "cudnn 8.7.0", "EG410", "closest that would"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestBuildRefusesCuDNN7And8OnBlackwell: every pytorch-channel build of
// torch 1.7 reaches a B200 only through PTX and links a cuDNN 7 or 8 (their
// build strings: 7.6.3 for CUDA 9.2 and 10.1, 7.6.5 for 10.2, 8.0.5 for
// 1.7.1's CUDA 11.0), none of which has Blackwell code or runs on a newer
// GPU: the builder refuses with EG410, no longer with "not known".
func TestBuildRefusesCuDNN7And8OnBlackwell(t *testing.T) {
	_, err := Build(Request{Framework: "pytorch", Version: "1.7", Hosts: []*gpucheck.Host{machine("b200", "570.124.06", b200)}})
	if err == nil {
		t.Fatal("Build(pytorch 1.7) on a B200 succeeded; no cuDNN its builds link runs there")
	}
	for _, want := range []string{"no variant of torch 1.7.1", "cudnn 7.6.5 (loaded by torch 1.7.1)", "cudnn 8.0.5 (loaded by torch 1.7.1)", "EG410", "closest that would"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// Frameworks is what Build builds: every name it lists gets past the
// framework check, and every other name Build is asked for is refused as
// one it does not build (issue 27, point 6: the web page's form offers
// this list, so a framework Build learns must join it).
func TestFrameworksIsWhatBuildBuilds(t *testing.T) {
	listed := map[string]bool{}
	for _, f := range Frameworks() {
		listed[f] = true
	}
	if !listed["pytorch"] {
		t.Fatalf("Frameworks() = %v: pytorch is built", Frameworks())
	}
	for _, f := range []string{"pytorch", "tensorflow", "jax", "mxnet"} {
		_, err := Build(Request{Framework: f})
		refused := err != nil && strings.HasPrefix(err.Error(), "the builder knows ")
		if refused == listed[f] {
			t.Errorf("%s: listed %v, but Build answered %v", f, listed[f], err)
		}
	}
}
