package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// A GPU of a retired architecture runs no driver after its last branch
// (the K80: R470, CUDA 11.4; NVIDIA's architecture matrix), so the driver
// hint never proposes one above it: it names that branch and a build, which
// the knowledge base lists, whose CUDA runtime the branch runs, of a release
// that supports the file's Python (corpus 020, 088, 153; review 3 #143,
// #497, #931). Supported architectures keep the upgrade hint.
func TestDriverHintRetiredGPU(t *testing.T) {
	k := kb.Default()
	target := func(driver string, gpus ...string) *Host {
		t.Helper()
		h, err := Target{Name: "t", Driver: driver, GPUs: gpus}.Host(k)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	tests := []struct {
		name    string
		version string
		cuda    string
		dist    kb.Distribution
		python  string
		h       *Host
		code    string
		want    []string
		wantNot []string
	}{
		{"pip torch 2.0.0 cu117 on a K80 (020)", "2.0.0", "11.7", kb.DistPyPI, "3.8", target("470.82.01", "K80"), "EG402",
			// EG402: the 11.7 runtime already runs on R470 through
			// minor-version compatibility, so the hint says so and offers
			// a native build only for what that cannot do (review ten
			// #1248: "R470 runs CUDA 11.4 at most" read as a downgrade)
			[]string{"runs no driver after R470", "runs on it through minor-version compatibility", "for PTX JIT or newer CUDA APIs install a build whose CUDA runtime is 11.4 or older: torch==1.12.1+cu113 from the PyTorch wheel index"},
			[]string{"515.43.04 or newer", "update the driver within", "at most"}},
		{"wheel torch 2.0.1 cu118 on a K80 (153)", "2.0.1", "11.8", kb.DistWheel, "3.10", target("470.82.01", "K80"), "EG402",
			[]string{"R470", "torch==1.12.1+cu113"}, []string{"520.61.05 or newer"}},
		{"pytorch channel cu117 on a K80 (088)", "2.0.0", "11.7", kb.DistPytorchConda, "", target("470.82.01", "K80"), "EG402",
			[]string{"R470", "pytorch=1.12.1 with cudatoolkit=11.3 from the pytorch channel"}, []string{"515.43.04 or newer"}},
		{"no release with a CUDA <= 11.4 build for Python 3.11", "2.0.0", "11.7", kb.DistPyPI, "3.11", target("470.82.01", "K80"), "EG402",
			[]string{"R470", "runs on it through minor-version compatibility", "supports no Python 3.11 the knowledge base lists, so the Python pin would go down too (e.g. torch==1.12.1+cu113"}, []string{"install a build whose"}},
		// review r8 #136 (corpus 018): CUDA 12.4 cannot run on R470, and
		// no CUDA <= 11.4 build supports Python 3.11, but a cu118 build
		// does and its 11.8 runtime runs on R470 through minor-version
		// compatibility (CUDA 11's floor 450.80.02) with sm_37 SASS
		// The cu118 wheels of 2.4 … 2.7 pin nvidia-cudnn-cu11 9.1.0.70,
		// and cuDNN lists no Kepler from 8.8.0 on: those builds fail on
		// the K80 (EG410), so the hint goes to 2.3.1+cu118 (its cuDNN
		// 8.7.0.84 still carries Kepler).
		{"CUDA 12 on a K80, Python 3.11: a cu118 build keeps the Python", "2.6.0", "12.4", kb.DistPyPI, "3.11", target("470.82.01", "K80"), "EG401",
			[]string{"R470", "install a build whose CUDA runtime is 11.8 or older: torch==2.3.1+cu118", "it keeps Python 3.11", "only through minor-version compatibility (EG402"}, []string{"Python pin must go down", "2.7.1+cu118"}},
		// The pytorch channel's 2.4/2.5 CUDA 11.8 builds copy cuDNN 9.1.0.
		{"pytorch channel CUDA 12.1 on a K80, Python 3.11: not a cuDNN 9 build", "2.5.1", "12.1", kb.DistPytorchConda, "3.11", target("470.82.01", "K80"), "EG401",
			[]string{"R470", "pytorch=2.3.1 with pytorch-cuda=11.8 from the pytorch channel"}, []string{"pytorch=2.5.1", "pytorch=2.4"}},
		{"an older R470-era driver: update within the branch", "2.0.0", "11.7", kb.DistWheel, "3.8", target("460.32.03", "K80"), "EG402",
			[]string{"update the driver within R470; for PTX JIT or newer CUDA APIs install a build whose CUDA runtime is 11.4 or older: torch==1.12.1+cu113"}, []string{"515.43.04 or newer"}},
		{"CUDA 12 on a K80 is EG401, same hint", "2.1.0", "12.1", kb.DistWheel, "3.10", target("470.82.01", "K80"), "EG401",
			// review ten #1171: the newest build with sm_37 SASS whose
			// runtime R470 runs (2.3.1+cu118) comes first, the native one after
			[]string{"runs no driver after R470", "install a build whose CUDA runtime is 11.8 or older: torch==2.3.1+cu118", "a build whose runtime R470 supports natively: torch==1.12.1+cu113"}, []string{"530.30.02 or newer", "at most"}},
		{"a K80 beside an A100: the K80 limits the machine", "2.0.0", "11.7", kb.DistPyPI, "3.8", target("470.82.01", "A100", "K80"), "EG402",
			[]string{"R470"}, []string{"515.43.04 or newer"}},
		{"an A100 on the same driver may upgrade", "2.0.0", "11.7", kb.DistPyPI, "3.8", target("470.82.01", "A100"), "EG402",
			[]string{"upgrade the driver to 515.43.04 or newer"}, []string{"R470"}},
		{"a V100 runs R580, which supports CUDA 13.0", "2.9.0", "13.0", kb.DistWheel, "3.10", target("535.104.05", "V100"), "EG401",
			[]string{"upgrade the driver to 580.65.06 or newer"}, []string{"R580"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := stack(tt.version, tt.cuda, tt.dist)
			st.Python = tt.python
			if tt.dist == kb.DistPyPI || tt.dist == kb.DistWheel {
				st.Framework.From = envspec.ProviderPip
			}
			ds := Check(st, tt.h, k, CheckOptions{})
			hint := ""
			for _, d := range ds {
				if d.Code == tt.code {
					hint = d.Hint
				}
			}
			if hint == "" {
				t.Fatalf("no %s in %v", tt.code, ds)
			}
			for _, w := range tt.want {
				if !strings.Contains(hint, w) {
					t.Errorf("hint %q lacks %q", hint, w)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(hint, w) {
					t.Errorf("hint %q has %q", hint, w)
				}
			}
		})
	}
}

// A PyG extension pip builds from the package index's source leaves the
// target unknown, and the hint names PyG's find-links page for the file's
// torch series and CUDA variant, or its pattern where either is open.
func TestSourceBuildHint(t *testing.T) {
	tests := []struct {
		version, variant, rt, want string
	}{
		{"1.11.0", "cuda", "10.2", "-f https://data.pyg.org/whl/torch-1.11.0+cu102.html"},
		{"2.5.1", "cuda", "12.4", "-f https://data.pyg.org/whl/torch-2.5.0+cu124.html"},
		{"2.5.1", "cpu", "", "-f https://data.pyg.org/whl/torch-2.5.0+cpu.html"},
		{"2.5.1", "cuda", "", "torch-X.Y.0+${CUDA}.html"},
		{"", "cuda", "12.4", "torch-X.Y.0+${CUDA}.html"},
	}
	for _, tt := range tests {
		fw := &resolver.Framework{Name: "pytorch", Version: tt.version, Variant: tt.variant}
		if got := sourceBuildHint(fw, tt.rt); !strings.Contains(got, tt.want) {
			t.Errorf("sourceBuildHint(%s %s %s) = %q, want %q", tt.version, tt.variant, tt.rt, got, tt.want)
		}
	}
	st := stack("1.11.0", "10.2", kb.DistPyPI)
	st.GPUPackages = []resolver.GPUPackage{{Name: "torch-spline-conv", Role: resolver.RoleExtension, Version: "1.2.1", SourceBuild: true,
		Unknown: "torch-spline-conv 1.2.1 comes from the package index, which has only its source"}}
	c := check(st, host("550.54.15", "12.4", "8.0"), kbOrDefault(kb.Default()), CheckOptions{})
	if hint := eg409Hint(c, "torch-spline-conv"); !strings.Contains(hint, "torch-1.11.0+cu102.html") || strings.Contains(hint, "pin a release envguard knows") {
		t.Errorf("EG409 hint = %q; findings %v", hint, c.ds)
	}
}

// Beside conda-forge's torch, PyG's find-links wheels fail to import
// (another torch build: review nine #603): the hint names conda-forge's
// own build of the extension where the knowledge base has one, and never
// PyG's page.
func TestSourceBuildHintCondaForgeTorch(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"torch-scatter", "take conda-forge's pytorch_scatter instead"},
		{"pyg-lib", "take conda-forge's pyg-lib instead"},
		{"torch-spline-conv", "no conda-forge build of torch-spline-conv"},
	} {
		st := stack("2.1.2", "12.0", kb.DistCondaForge)
		st.GPUPackages = []resolver.GPUPackage{{Name: tt.name, Role: resolver.RoleExtension, SourceBuild: true,
			Unknown: tt.name + " comes from the package index, which has only its source"}}
		c := check(st, host("550.54.15", "12.4", "9.0"), kbOrDefault(kb.Default()), CheckOptions{})
		if hint := eg409Hint(c, tt.name); !strings.Contains(hint, tt.want) || !strings.Contains(hint, "fail to import beside conda-forge's pytorch") ||
			strings.Contains(hint, "add -f ") {
			t.Errorf("%s beside conda-forge's torch: EG409 hint = %q; findings %v", tt.name, hint, c.ds)
		}
	}
}

// eg409Hint is the hint of c's EG409 about the package name; "" if none.
func eg409Hint(c *checker, name string) string {
	for _, d := range c.ds {
		if d.Code == "EG409" && strings.Contains(d.Message, name) {
			return d.Hint
		}
	}
	return ""
}
