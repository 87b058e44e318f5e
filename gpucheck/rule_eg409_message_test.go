package gpucheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestEG409Messages pins the EG409 wording the second corpus review
// (docs/corpus-review.md, 2026-11-30) found misleading: pip torch with no
// release is no CPU/CUDA choice on Linux, and pip JAX's runtime is not fixed
// with pytorch-cuda or a +cuXYZ wheel.
func TestEG409Messages(t *testing.T) {
	tests := []struct {
		name         string
		st           *resolver.Stack
		has, hintHas []string
		not          []string
	}{
		{
			name:    "pip torch without a release",
			st:      &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", From: envspec.ProviderPip, Dist: kb.DistPyPI, Pos: fwPosT}},
			has:     []string{"pip installs whatever torch release the index serves", "one CUDA build on Linux x86_64"},
			hintHas: []string{"torch==X.Y.Z"},
			not:     []string{"whether the CPU or the CUDA build is installed"},
		},
		{
			name:    "conda pytorch with an open variant keeps the solver wording",
			st:      &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", From: envspec.ProviderConda, Dist: kb.DistCondaForge, Pos: fwPosT}},
			has:     []string{"whether the CPU or the CUDA build is installed is left to the solver"},
			hintHas: []string{"pytorch=*=cuda*", "pytorch=*=cpu*"},
			not:     []string{"(or pip)", "pytorch-cuda=X.Y"},
		},
		{
			// review #46: the defaults channel's builds of 1.3.1 answer to
			// cuda*/cpu_* build strings (gpu_cuda* only from the 1.12.1
			// rebuild); pytorch-cuda came with 1.13
			name: "defaults pytorch 1.3.1 gets the defaults build strings",
			st:   &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", Version: "1.3.1", From: envspec.ProviderConda, Dist: kb.DistDefaults, Pos: fwPosT}},
			has:  []string{"left to the solver"},
			// the test facts list no defaults releases, so whether defaults
			// has 1.3.1 is not known: the globs match every channel's names
			hintHas: []string{"pytorch=*=*cuda* for a CUDA build", "the defaults recipe's cuda…/cpu_… builds"},
			not:     []string{"pytorch-cuda=X.Y", "cpuonly", "gpu_cuda"},
		},
		{
			name:    "pip jax with a CUDA major only",
			st:      &resolver.Stack{Framework: &resolver.Framework{Name: "jax", Version: "0.4.29", Variant: "cuda", From: envspec.ProviderPip, Pos: fwPosT}},
			has:     []string{"its CUDA runtime version is not known"},
			hintHas: []string{"nvidia-cuda-runtime-cu12", "cuda-version=12.X"},
			not:     []string{"pytorch-cuda=X.Y"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := evaluate(tt.st, host("570.124.06", "12.8", "9.0"), testKB, CheckOptions{})
			var msgs, hints []string
			for _, d := range r.Findings {
				if d.Code == "EG409" {
					msgs, hints = append(msgs, d.Message), append(hints, d.Hint)
				}
			}
			m, h := strings.Join(msgs, "\n"), strings.Join(hints, "\n")
			if len(msgs) == 0 {
				t.Fatalf("no EG409: %v", r.Findings)
			}
			for _, s := range tt.has {
				if !strings.Contains(m, s) {
					t.Errorf("EG409 %q lacks %q", m, s)
				}
			}
			for _, s := range tt.hintHas {
				if !strings.Contains(h, s) {
					t.Errorf("hint %q lacks %q", h, s)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(m+h, s) {
					t.Errorf("EG409 %q / %q still says %q", m, h, s)
				}
			}
		})
	}
}

// The hint for a pip TensorFlow without CUDA libraries names the pip extra
// and its first release from the knowledge base (tensorflow_pip_cuda), not
// a copy of them.
func TestTFCUDAHintReadsKB(t *testing.T) {
	k := kb.Default()
	if h := tfCUDAHint(k, ""); !strings.Contains(h, "tensorflow[and-cuda] (2.14 and later)") {
		t.Errorf("open release: %q", h)
	}
	if h := tfCUDAHint(k, "2.15.0"); !strings.Contains(h, "tensorflow[and-cuda]") {
		t.Errorf("2.15.0: %q", h)
	}
	if h := tfCUDAHint(k, "2.10.0"); strings.Contains(h, "and-cuda") {
		t.Errorf("2.10.0 predates the extra: %q", h)
	}
	other := &kb.KB{Facts: kb.Facts{TFPipCUDA: []kb.TFPipCUDA{{Extra: "with-cuda", From: "3.1.0"}, {Extra: "late", From: "3.4.0"}}}}
	if h := tfCUDAHint(other, ""); !strings.Contains(h, "tensorflow[with-cuda] (3.1 and later)") {
		t.Errorf("another knowledge base: %q", h)
	}
	if h := tfCUDAHint(&kb.KB{}, ""); strings.Contains(h, "[") {
		t.Errorf("no tensorflow_pip_cuda rows: %q", h)
	}
}

// A pip TensorFlow whose wheels carry no SASS for a target's GPU: the
// [and-cuda] hint says that even then the GPU runs it only through the
// driver's JIT of its PTX (review nine #1145), and says nothing of the kind
// where the wheels have the GPU's SASS. 2.14.0 on an H100: compute_80 PTX,
// and cuDNN 8.9 runs there. (2.17.0 on an RTX 5090, the case of #1145, is
// EG410 now: no cuDNN 8, which it opens, runs on sm_120.)
func TestTFHintPTXOnlyGPU(t *testing.T) {
	st := &resolver.Stack{Framework: &resolver.Framework{Name: "tensorflow", Version: "2.14.0", From: envspec.ProviderPip, Pos: fwPosT}}
	for _, tt := range []struct {
		cc   string
		want bool
	}{{"9.0", true}, {"8.0", false}} {
		r := evaluate(st, host("570.124.06", "12.8", tt.cc), kbOrDefault(kb.Default()), CheckOptions{})
		hint := ""
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Hint, "tensorflow[and-cuda]") {
				hint = d.Hint
			}
		}
		if hint == "" {
			t.Fatalf("cc %s: no EG409 with the [and-cuda] hint: %v", tt.cc, r.Findings)
		}
		got := strings.Contains(hint, "carry no machine code for target t's GPU 0") && strings.Contains(hint, "JIT compilation of its compute_80 PTX")
		if got != tt.want {
			t.Errorf("cc %s: hint %q; want the PTX-only clause: %v", tt.cc, hint, tt.want)
		}
	}
}

// A pip TensorFlow opens the cuDNN major it was built with
// (libcudnn.so.7 for 2.1.0): where no release of that major runs on a GPU,
// whatever the machine gives it fails there, and without a cuDNN it runs on
// the CPU, so the GPU path is decided, EG410 (review thirty-nine F18: 2.1.0
// on an H100); on a GPU cuDNN 7 serves it stays the machine's (EG409).
func TestTFCuDNNMajorFails(t *testing.T) {
	st := &resolver.Stack{Framework: &resolver.Framework{Name: "tensorflow", Version: "2.1.0", From: envspec.ProviderPip, Pos: fwPosT}}
	for _, tt := range []struct {
		cc   string
		want string
	}{{"8.0", "EG410"}, {"9.0", "EG410"}, {"7.5", "EG409"}} {
		r := evaluate(st, host("570.124.06", "12.8", tt.cc), kbOrDefault(kb.Default()), CheckOptions{})
		var codes []string
		for _, d := range r.Findings {
			codes = append(codes, d.Code)
			if d.Code == "EG410" && !strings.Contains(d.Message, "opens libcudnn.so.7, a cuDNN 7.x (it was built with cuDNN 7.6)") {
				t.Errorf("cc %s: %s", tt.cc, d.Message)
			}
		}
		if !slices.Contains(codes, tt.want) || (tt.want == "EG409" && slices.Contains(codes, "EG410")) {
			t.Errorf("cc %s: codes %v, want %s", tt.cc, codes, tt.want)
		}
	}
}
