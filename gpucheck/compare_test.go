package gpucheck

import "testing"

// TestCompareVersionsFourParts: a CUDA library's release has four parts
// (cuDNN 9.8.0.87) where the knowledge base's rows give three (9.11.0);
// the two compare part by part, never as text, where "9.8…" > "9.11…".
func TestCompareVersionsFourParts(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"9.8.0.87", "9.11.0", -1},
		{"9.10.2.21", "9.11.0", -1},
		{"9.11.0.98", "9.11.0", 1},
		{"9.11.0", "9.11.0.0", 0},
		{"9.19.0.56", "9.11.0", 1},
		{"12.8.3.14", "12.8", 1},
		{"11.3.3.41", "12.8", -1},
		{"570.124.06", "570.26", 1},
		{"12.10", "12.9", 1},
	} {
		if got := compareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := compareVersions(tc.b, tc.a); got != -tc.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}
