package gpucheck_test

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestDefaultsCuDNNRange: review thirty-four F21 (164). The defaults
// channel's pytorch 2.0.1 build for CUDA 11.8 requires cudnn
// >=8.9.2.26,<9 (pin_compatible of its host cudnn 8.9.2.26), so every
// release it can load starts with 8.9: none runs on a K80 (cuDNN dropped
// Kepler after 8.7.0) or an RTX 5090 (no cuDNN 8 has sm_120 code); an H100
// stays ok. A file that leaves the variant open still leaves the target
// open: its CPU build loads no cuDNN.
func TestDefaultsCuDNNRange(t *testing.T) {
	gpu := "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1=gpu_cuda118*\n"
	for _, tt := range []struct {
		target string
		want   gpucheck.Verdict
		has    string
	}{
		{"k80", gpucheck.VerdictFail, "requires cudnn >=8.9.2.26,<9 (pin_compatible of its host cudnn 8.9.2.26), and the last cuDNN 8 is 8.9.7; cudnn has no code for sm_37 from 8.8.0 on"},
		{"rtx5090", gpucheck.VerdictFail, "no cudnn release through 8.9.7 carries code of its own for sm_120"},
		{"h100", gpucheck.VerdictOK, ""},
	} {
		v, m := verdictAndMessages(validateOn(t, tt.target, "environment.yml", gpu))
		if v != tt.want || !strings.Contains(m, tt.has) || strings.Contains(m, "which cudnn release it loads is not known (target") {
			t.Errorf("%s: %s\n%s; want %s with %q", tt.target, v, m, tt.want, tt.has)
		}
		if strings.Count(m, "the last cuDNN 8 is 8.9.7") > 1 {
			t.Errorf("%s: the last release said twice:\n%s", tt.target, m)
		}
	}
	// pytorch=2.0.* admits 2.0.1 alone on defaults (2.0.0 was never
	// published there), so its CUDA 11.8 build reads the same row
	series := strings.Replace(gpu, "pytorch=2.0.1=gpu_cuda118*", "pytorch=2.0.*=gpu_cuda118*", 1)
	if v, m := verdictAndMessages(validateOn(t, "k80", "environment.yml", series)); v != gpucheck.VerdictFail || !strings.Contains(m, "pytorch 2.0.1 build for CUDA 11.8 requires cudnn >=8.9.2.26,<9") {
		t.Errorf("pytorch=2.0.* on a K80: %s\n%s; want the 2.0.1 row", v, m)
	}
	open := "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - cudatoolkit=11.8\n"
	if v, m := verdictAndMessages(validateOn(t, "rtx5090", "environment.yml", open)); v == gpucheck.VerdictFail && strings.Contains(m, "requires cudnn >=8.9.2.26") && !strings.Contains(m, "CPU") {
		t.Errorf("variant open on an RTX 5090: %s\n%s; the CPU build loads no cuDNN", v, m)
	}
}
