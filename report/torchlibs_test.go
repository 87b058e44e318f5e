package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver"
)

// TestTorchWheelPinsDecideCuDNN: a pip torch loads the cuDNN its wheel
// pins (torch_cuda_libs). PyPI's torch 2.7.0 is the cu126 build, whose
// cuDNN 9.5.1.17 predates 9.11's drop of pre-Turing code, so a V100 and a
// P100 run it; torch 2.9.1+cu130 pins cuDNN 9.13.0.50, which carries
// nothing for them (EG410, beside the framework's own EG403). A release
// whose pins were not read leaves its cuDNN unknown, never guessed.
func TestTorchWheelPinsDecideCuDNN(t *testing.T) {
	var ts []gpucheck.Target
	for _, tg := range StandardFleet() {
		if tg.Name == "v100" || tg.Name == "p100" {
			ts = append(ts, tg)
		}
	}
	hosts, err := (&Machines{Targets: ts}).Resolve([]string{"v100", "p100"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		req, cudnn, evidence string
		verdict              gpucheck.Verdict
		eg410                bool // cuDNN's EG410 on both GPUs
	}{
		{"torch==2.7.0", "9.5.1.17", "nvidia-cudnn-cu12==9.5.1.17", gpucheck.VerdictOK, false},
		// a +cu118 pin needs its index named (EG205 otherwise, and every
		// target fails on the file): a mirror of the PyTorch wheel index
		{"--extra-index-url https://mirror.example.org/whl/cu118\ntorch==2.7.1+cu118", "9.1.0.70", "nvidia-cudnn-cu11==9.1.0.70", gpucheck.VerdictOK, false},
		{"torch==2.3.1", "8.9.2.26", "nvidia-cudnn-cu12==8.9.2.26", gpucheck.VerdictOK, false},
		{"torch==2.9.1+cu130", "9.13.0.50", "nvidia-cudnn-cu13==9.13.0.50", gpucheck.VerdictFail, true},
		{"torch==2.8.0", "", "", "", false},
	} {
		t.Run(tc.req, func(t *testing.T) {
			r := Validate("requirements.txt", []byte(tc.req+"\n"), Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			var cudnn *resolver.GPUPackage
			for i, p := range r.Stack.GPUPackages {
				if p.Lib == "cudnn" {
					cudnn = &r.Stack.GPUPackages[i]
				}
			}
			if cudnn == nil {
				t.Fatal("no cudnn among the GPU packages")
			}
			if tc.cudnn == "" {
				if cudnn.Known || !strings.Contains(cudnn.Unknown, "which cudnn release torch 2.8.0 loads is not known") {
					t.Errorf("cudnn of a release whose pins were not read: %+v", *cudnn)
				}
				return
			}
			if !cudnn.Known || cudnn.Version != tc.cudnn || len(cudnn.Evidence) == 0 || cudnn.Evidence[0].Item != tc.evidence || cudnn.Evidence[0].Kind != resolver.EvidenceRequiresDist {
				t.Errorf("cudnn: %+v, want %s from %s", *cudnn, tc.cudnn, tc.evidence)
			}
			// A pinned toolkit library is the runtime's release, whatever
			// its wheel's own version (cuFFT 11.3.0.4 is CUDA 12.6's).
			if tc.req == "torch==2.7.0" {
				var cufft *resolver.GPUPackage
				for i, p := range r.Stack.GPUPackages {
					if p.Lib == "cufft" {
						cufft = &r.Stack.GPUPackages[i]
					}
				}
				if cufft == nil || cufft.Version != "12.6" || cufft.BundledWith != resolver.RuntimeBundled("12.6") || len(cufft.Evidence) != 2 || cufft.Evidence[1].Item != "nvidia-cufft-cu12==11.3.0.4" {
					t.Errorf("cufft of torch 2.7.0: %+v", cufft)
				}
			}
			var eg410 []string
			for _, f := range r.Findings {
				if f.Code == "EG410" && strings.Contains(f.Message, "cudnn") {
					eg410 = append(eg410, f.Target+": "+f.Message)
				}
			}
			for _, tr := range r.Targets {
				if tr.Verdict != tc.verdict {
					t.Errorf("target %s: %s, want %s", tr.Name, tr.Verdict, tc.verdict)
				}
			}
			got := strings.Join(eg410, "\n")
			if !tc.eg410 {
				if got != "" {
					t.Errorf("unexpected cuDNN EG410:\n%s", got)
				}
				return
			}
			for _, want := range []string{
				"v100: nvidia-cudnn-cu13 9.13.0.50 (loaded by torch 2.9.1) carries no code for sm_70",
				"p100: nvidia-cudnn-cu13 9.13.0.50 (loaded by torch 2.9.1) carries no code for sm_60",
				"dropped sm_70 in 9.11.0",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("cuDNN EG410 lacks %q:\n%s", want, got)
				}
			}
		})
	}
}
