package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestNoKernelHint: a GPU older than all the SASS a build carries is sent
// to an older build, one it merely lacks to a newer one (review 9 #322).
func TestNoKernelHint(t *testing.T) {
	list := &kb.ArchList{SASS: []string{"5.0", "6.0", "7.0", "8.0", "9.0"}}
	for _, tt := range []struct {
		gpu  cc
		want string
	}{
		{cc{Major: 3, Minor: 7}, "still targets this architecture (an older framework release or CUDA variant: newer ones drop old GPUs"},
		{cc{Major: 12}, "includes this architecture (a newer framework release or CUDA variant)"},
		{cc{Major: 8, Minor: 9}, "includes this architecture (a newer"},
	} {
		got := noKernelHint(tt.gpu, list, "a newer framework release or CUDA variant", "an older framework release or CUDA variant")
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.gpu.sm(), got, tt.want)
		}
	}
}
