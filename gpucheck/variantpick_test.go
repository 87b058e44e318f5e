package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestCondaVariantPickRows: the spans conda_variant_pick covers, as read
// from the recipes (variant-pick.yaml): conda-forge from 1.12.0 (1.11.0's
// builds 0 and 1 predate the build-number offset), defaults 2.0.1 with
// nothing ranking its builds, 2.3.x with the +100 offset, the pytorch
// channel's mutex from 1.10, and no row for a release the recipes were not
// read for.
func TestCondaVariantPickRows(t *testing.T) {
	k := kb.Default()
	tests := []struct {
		dist    kb.Distribution
		release string
		ok      bool
		rank    string
		needs   string
	}{
		{kb.DistCondaForge, "1.11.0", false, "", ""},
		{kb.DistCondaForge, "1.12.0", true, "build_number", "driver"},
		{kb.DistCondaForge, "2.4.1", true, "build_number", "driver"},
		{kb.DistCondaForge, "2.13.0", true, "build_number", "driver"},
		{kb.DistCondaForge, "2.14.0", false, "", ""},
		{kb.DistDefaults, "2.0.1", true, "none", "build_cuda"},
		{kb.DistDefaults, "2.1.0", false, "", ""},
		{kb.DistDefaults, "2.3.0", true, "build_number", "build_cuda"},
		{kb.DistDefaults, "2.3.1", true, "build_number", "build_cuda"},
		// the pytorch channel's pytorch-mutex (release/1.10 … 2.5): the
		// CPU mutex carries track_features, and no build needs __cuda
		{kb.DistPytorchConda, "1.9.0", false, "", ""},
		{kb.DistPytorchConda, "1.10.0", true, "track_features", "none"},
		{kb.DistPytorchConda, "2.3.0", true, "track_features", "none"},
		{kb.DistPytorchConda, "2.5.1", true, "track_features", "none"},
	}
	for _, tt := range tests {
		r, ok := k.CondaVariantPick("pytorch", tt.dist, tt.release)
		if ok != tt.ok {
			t.Errorf("%s %s: row %v, want %v", tt.dist, tt.release, ok, tt.ok)
			continue
		}
		if ok && (r.CPURank != tt.rank || r.CUDANeeds != tt.needs) {
			t.Errorf("%s %s: cpu_rank %s cuda_needs %s, want %s %s", tt.dist, tt.release, r.CPURank, r.CUDANeeds, tt.rank, tt.needs)
		}
	}
}

// TestSolverPick holds files that leave a conda pytorch's variant open
// against targets, and checks that the builds are narrowed as conda would
// on each machine: defaults 2.0.1 (corpus 166) gets the CPU build where the
// driver is older than CUDA 11.8 or missing, and stays open on a newer
// driver, where nothing ranks its builds; defaults 2.3.1 and conda-forge
// 2.4.1 drop the CPU build where a CUDA build installs, unless a companion
// the file lists could pick the variant; a release no row covers keeps
// today's verdict.
func TestSolverPick(t *testing.T) {
	k := kb.Default()
	noDriver := &Host{Name: "cpu", Source: SourceTarget, GPUs: []GPU{}, NoDriver: true, Reason: "it has no NVIDIA driver (driver: none)"}
	k80 := host("470.82.01", "11.4", "3.7")
	a100 := host("550.54.15", "12.4", "8.0")
	rtx5090 := host("570.124.06", "12.8", "12.0")
	ranged := host("470.82.01", "11.4", "8.0")
	ranged.DriverRange = ">=470.82, <560"
	tests := []struct {
		name    string
		src     string
		h       *Host
		verdict Verdict
		want    []string // substrings of the findings' messages and notes
		not     []string
	}{
		{"defaults 2.0.1 via torchvision on a K80 (R470): the CPU build", "channels: [defaults]\ndependencies:\n  - python=3.10\n  - torchvision=0.15.2\n", k80, VerdictOK,
			[]string{"EG407", "every CUDA build needs __cuda >= its own CUDA (CUDA 11.8), and the driver supports CUDA 11.4, so conda installs the CPU build here", "(EG207)"}, []string{"EG409"}},
		{"defaults 2.0.1 with no driver: the CPU build", "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n", noDriver, VerdictOK,
			[]string{"a machine without an NVIDIA driver lacks"}, []string{"EG404", "EG409"}},
		{"defaults 2.0.1 on an RTX 5090: both install, nothing ranks them", "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n", rtx5090, VerdictUnknown,
			[]string{"EG409", "on this machine both install: its driver supports CUDA 12.8", "neither a build number nor track_features"}, []string{"EG407"}},
		{"defaults 2.3.1 on an A100: the CUDA 11.8 build", "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n", a100, VerdictOK,
			[]string{"the driver supports CUDA 12.4, so a CUDA build (CUDA 11.8) installs", "build numbers are offset above the CPU builds'"}, []string{"EG407", "EG409"}},
		// the companion may pick, so the variant is not narrowed, but both
		// builds run here (the CPU one with the GPUs idle): decided
		{"defaults 2.3.1 beside torchvision on an A100: not narrowed, each build runs", "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n  - torchvision\n", a100, VerdictOK,
			[]string{"EG407", "so for 1 of the 2 builds the file admits: pytorch 2.3.1 CPU", "decided over the 2 builds the file admits (pytorch 2.3.1 CPU, pytorch 2.3.1 CUDA 11.8): each runs"}, []string{"as conda solves it", "EG409"}},
		{"defaults 2.3.1 on a range whose oldest driver is R470: not narrowed to CPU, each build judged", "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n", ranged, VerdictOK,
			[]string{"EG402", "EG407", "decided over the 2 builds the file admits"}, []string{"as conda solves it", "EG409"}},
		{"conda-forge 2.4.1 with no driver: the CPU build", "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pytorch=2.4.1\n", noDriver, VerdictOK,
			[]string{"conda's __cuda virtual package, which a machine without an NVIDIA driver lacks"}, []string{"EG404", "EG409"}},
		{"conda-forge 2.4.1 on a K80: no CUDA build surely installs, left as it was", "channels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pytorch=2.4.1\n", k80, VerdictUnknown,
			[]string{"leaves the GPUs idle with pytorch 2.4.1 CPU"}, []string{"as conda solves it"}},
		{"pixi manifest, conda-forge 2.4.1 with no driver: pixi solves with its system-requirements, not the machine's driver", "# pixi\nchannels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pytorch=2.4.1\n", noDriver, VerdictUnknown,
			[]string{"EG409"}, []string{"as conda solves it"}},
		// review thirty-one F40: the pytorch channel's CUDA builds rank
		// above its CPU builds through pytorch-mutex and need no __cuda, so
		// conda takes one everywhere; 2.2's pytorch-cuda needs the nvidia
		// channel, 1.12's cudatoolkit does not
		{"pytorch channel 2.2.0 with nvidia on an RTX 5090: every CUDA build fails", "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.11\n  - pytorch=2.2.0\n  - torchvision=0.17.0\n", rtx5090, VerdictFail,
			[]string{"need no driver to install", "track_features (or require a package that does"}, []string{"leaves the GPUs idle"}},
		{"pytorch channel 2.2.0 with no driver: still a CUDA build", "channels: [pytorch, nvidia]\ndependencies:\n  - python=3.11\n  - pytorch=2.2.0\n", noDriver, VerdictFail,
			[]string{"EG404", "need no driver to install"}, nil},
		{"pytorch channel 2.2.0 without nvidia: not narrowed", "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.11\n  - pytorch=2.2.0\n  - mkl=2024.0\n", rtx5090, VerdictUnknown,
			[]string{"leaves the GPUs idle with pytorch 2.2.0 CPU"}, []string{"as conda solves it"}},
		{"pytorch channel 1.12.1 without nvidia: cudatoolkit selects, narrowed", "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.9\n  - pytorch=1.12.1\n", rtx5090, VerdictFail,
			[]string{"need no driver to install"}, []string{"leaves the GPUs idle"}},
		{"conda-forge 1.10.2 (no row) with no driver: left as it was", "channels: [conda-forge]\ndependencies:\n  - python=3.9\n  - pytorch=1.10.2\n", noDriver, VerdictUnknown,
			[]string{"EG409"}, []string{"as conda solves it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := envspec.Parse("environment.yml", []byte(tt.src), envspec.ParseOptions{Platform: "linux-64"})
			if strings.HasPrefix(tt.src, "# pixi") {
				// the same dependencies read from a pixi manifest (lockfile
				// reads those; the kind is what counts here)
				env.Kind = envspec.KindPixiManifest
			}
			st := resolver.Resolve(env, k)
			r := evaluate(st, tt.h, k, CheckOptions{})
			var parts []string
			for _, d := range r.Findings {
				parts = append(parts, d.Code+" "+d.Message)
			}
			parts = append(parts, r.Notes...)
			all := strings.Join(parts, "\n")
			if r.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s\n%s", r.Verdict, tt.verdict, all)
			}
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("missing %q in\n%s", w, all)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(all, w) {
					t.Errorf("unexpected %q in\n%s", w, all)
				}
			}
		})
	}
}
