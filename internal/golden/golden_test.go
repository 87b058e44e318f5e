package golden

import "testing"

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		want, got string
		ok        bool
	}{
		{"a:1:2: x [EG201]", "a:1:2: x [EG201]", true},
		{"a:1:2: x [EG201]", "a:1:3: x [EG201]", false},
		{"/^a:1:\\d+: x/", "a:1:9: x [EG201]", true},
		{"/^b/", "a", false},
		{"/", "/", true},
	} {
		if got := Match(tt.want, tt.got); got != tt.ok {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.want, tt.got, got, tt.ok)
		}
	}
	if !MatchLines(nil, Lines("\n \n")) || MatchLines([]string{"x"}, nil) {
		t.Error("MatchLines: blank lines must not count, and counts must agree")
	}
}
