package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// A nightly or release candidate is held to its series' architecture row
// only where the row records that the series' development builds were
// built with it: 2.2's cu121 list (unchanged on the builder's main and
// release/2.2) decides; 2.5's cu124 list does not (the 2.5-era nightlies
// carried compute_90 PTX that release/2.5 reverted).
func TestDevBuildArch(t *testing.T) {
	k := kb.Default()
	tests := []struct {
		name, version, cuda, cc, want, inMessage string
		dist                                     kb.Distribution
	}{
		{"2.2 cu121 nightly on an H100", "2.2.0.dev20231010", "12.1", "9.0", "", "", kb.DistWheel},
		{"2.2 cu121 nightly on an RTX 5090", "2.2.0.dev20231010", "12.1", "12.0", "EG403", "sm_120", kb.DistWheel},
		{"2.4 cu124 nightly on an RTX 5090", "2.4.0.dev20240501", "12.4", "12.0", "EG403", "sm_120", kb.DistWheel},
		{"2.5 cu124 nightly on an H100", "2.5.0.dev20240801", "12.4", "9.0", "EG409", "development build (2.5.0.dev20240801)", kb.DistWheel},
		{"2.5 cu124 release candidate on an H100", "2.5.0rc1", "12.4", "9.0", "EG409", "development build (2.5.0rc1)", kb.DistWheel},
		{"2.5.1 cu124 release on an H100", "2.5.1", "12.4", "9.0", "", "", kb.DistWheel},
		// the pytorch-nightly channel's 1.11 cuda11.3 packages: compute_37
		// PTX, which an sm_90 GPU JIT-compiles
		{"1.11 cuda11.3 conda nightly on an H100", "1.11.0.dev20220131", "11.3", "9.0", "EG408", "compute_37", kb.DistPytorchConda},
		{"1.11 cuda11.5 conda nightly on an H100", "1.11.0.dev20220131", "11.5", "9.0", "EG409", "development build", kb.DistPytorchConda},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := Check(stack(tt.version, tt.cuda, tt.dist), host("580.65.06", "", tt.cc), k, CheckOptions{})
			if got := codes(ds); got != tt.want {
				t.Fatalf("codes = %q, want %q; %v", got, tt.want, ds)
			}
			if tt.inMessage != "" && !strings.Contains(ds[0].Message, tt.inMessage) {
				t.Errorf("message %q does not say %q", ds[0].Message, tt.inMessage)
			}
		})
	}
}
