package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestVLLMWheelArch: vLLM 0.8.3 … 0.8.5.post1 from the package index are
// the CUDA 12.4 build (0.7.3 the CUDA 12.1 build), whose _C kernels are
// SASS sm_70 sm_75 sm_80 sm_86 sm_89 sm_90 and no PTX (the Dockerfile's
// TORCH_CUDA_ARCH_LIST '7.0 7.5 8.0 8.6 8.9 9.0+PTX' loosely intersected
// with CMakeLists.txt's CUDA_SUPPORTED_ARCHS; extensions-9.yaml). Beside
// the torch they pin, a V100, an A10, an L4 and an H100 run them (ok,
// nothing undecided);
// a B200 and an RTX 5090 have no kernel image of them (EG410 naming the
// SASS and the missing PTX), and a P100 is below vLLM's 7.0 floor. A
// release without a row (0.8.2) stays undecided on the H100.
func TestVLLMWheelArch(t *testing.T) {
	k := kb.Default()
	for _, rel := range []struct{ ver, torch string }{
		{"0.7.3", "2.5.1"}, {"0.8.3", "2.6.0"}, {"0.8.4", "2.6.0"}, {"0.8.5", "2.6.0"}, {"0.8.5.post1", "2.6.0"},
	} {
		ver := rel.ver
		src := "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - torch==" + rel.torch + "\n    - vllm==" + ver + "\n"
		st := resolver.Resolve(envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"}), k)
		for _, tt := range []struct {
			gpu, cc string
			eg410   string // words the EG410 on vllm must carry; "" for none
			verdict Verdict
		}{
			{"V100", "7.0", "", VerdictOK},
			{"A10", "8.6", "", VerdictOK},
			{"L4", "8.9", "", VerdictOK},
			{"H100", "9.0", "", VerdictOK},
			{"B200", "10.0", "no SASS for sm_100 or a lower 10.x, and no PTX at or below compute_100", VerdictFail},
			{"RTX 5090", "12.0", "no SASS for sm_120 or a lower 12.x, and no PTX at or below compute_120", VerdictFail},
			{"P100", "6.0", "needs compute capability 7.0 or newer", VerdictFail},
		} {
			r := Evaluate(st, host("570.124.06", "12.8", tt.cc), k, CheckOptions{})
			got410 := ""
			for _, d := range r.Findings {
				if !strings.Contains(d.Message, "vllm "+ver) {
					continue
				}
				switch d.Code {
				case "EG410":
					got410 = d.Message
				case "EG409":
					t.Errorf("vllm %s on the %s: undecided: %s", ver, tt.gpu, d.Message)
				}
			}
			switch {
			case tt.eg410 == "" && got410 != "":
				t.Errorf("vllm %s on the %s: unexpected EG410 %q", ver, tt.gpu, got410)
			case tt.eg410 != "" && !strings.Contains(got410, tt.eg410):
				t.Errorf("vllm %s on the %s: EG410 %q, want it to say %q", ver, tt.gpu, got410, tt.eg410)
			}
			if tt.eg410 != "" && tt.cc != "6.0" && !strings.Contains(got410, "SASS sm_70 sm_75 sm_80 sm_86 sm_89 sm_90, PTX none") {
				t.Errorf("vllm %s on the %s: EG410 %q does not name the wheel's code", ver, tt.gpu, got410)
			}
			if r.Verdict != tt.verdict {
				t.Errorf("vllm %s on the %s: verdict %s, want %s; %v", ver, tt.gpu, r.Verdict, tt.verdict, r.Findings)
			}
		}
	}
	src := "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - torch==2.6.0\n    - vllm==0.8.2\n"
	st := resolver.Resolve(envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"}), k)
	if r := Evaluate(st, host("570.124.06", "12.8", "9.0"), k, CheckOptions{}); r.Verdict != VerdictUnknown {
		t.Errorf("vllm 0.8.2 (no row) on an H100: verdict %s, want unknown; %v", r.Verdict, r.Findings)
	}
}

// TestVLLMIndexOfOtherMajor: beside torch==2.6.0+cu118 from the PyTorch
// wheel index, pip takes vllm 0.8.4 from that index if it has a build
// (whose code is not known) or else the package index's CUDA 12.4 build,
// which needs a CUDA 12 runtime the cu118 torch does not bring: the
// package-index row does not make the H100 ok, and EG409 says why. A
// cu126 index (the same CUDA major as the wheel) keeps the row.
func TestVLLMIndexOfOtherMajor(t *testing.T) {
	k := kb.Default()
	for _, tt := range []struct {
		cuda    string
		verdict Verdict
		why     string
	}{
		{"118", VerdictUnknown, "the file names the PyTorch wheel index for CUDA 11.8, and vllm 0.8.4's package-index wheel is its CUDA 12.4 build"},
		{"126", VerdictOK, ""},
	} {
		src := "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu" + tt.cuda + "\n    - torch==2.6.0+cu" + tt.cuda + "\n    - vllm==0.8.4\n"
		st := resolver.Resolve(envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"}), k)
		r := Evaluate(st, host("570.124.06", "12.8", "9.0"), k, CheckOptions{})
		got := ""
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, "vllm 0.8.4") {
				got = d.Message
			}
		}
		if r.Verdict != tt.verdict || (tt.why == "") != (got == "") || !strings.Contains(got, tt.why) {
			t.Errorf("cu%s: verdict %s, EG409 %q; want %s, %q; %v", tt.cuda, r.Verdict, got, tt.verdict, tt.why, r.Findings)
		}
	}
}
