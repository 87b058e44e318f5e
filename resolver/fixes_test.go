package resolver

import "testing"

// retargetCUDA keeps a plain pin's own style and turns anything else into
// a pin of the minor.
func TestRetargetCUDA(t *testing.T) {
	tests := []struct {
		old    string
		spaced bool
		want   string
	}{
		{"=11.3", false, "=11.6"},
		{"==11.3", false, "==11.6"},
		{"==11.3.*", false, "==11.6.*"},
		{"11.3.*", true, "11.6.*"},
		{"11.3*", true, "11.6*"},
		{"11.3", true, "11.6"},
		{"=11.3.1", false, "=11.6"},
		{"11.3.1", true, "11.6.*"},
		{">=11.3,<11.4", false, "=11.6"},
		{">=11.3,<11.4", true, "11.6.*"},
	}
	for _, tt := range tests {
		if got := retargetCUDA(tt.old, tt.spaced, "11.3", "11.6"); got != tt.want {
			t.Errorf("retargetCUDA(%q, spaced=%v) = %q, want %q", tt.old, tt.spaced, got, tt.want)
		}
	}
}
