package resolver

import "testing"

func TestPreReleaseSeries(t *testing.T) {
	for _, c := range []struct {
		in, series string
		ok         bool
	}{
		{"1.13.0a0+gitunknown", "1.13", true},
		{"2.1.0a0+32f93b1", "2.1", true},
		{"2.5.0rc1", "2.5", true},
		{"2.6.0.dev20241112+cu124", "2.6", true},
		{"2.0.0-beta2", "2.0", true},
		{"2.4.0b1.dev3", "2.4", true},
		{"2.5.1", "", false},
		{"2.5.1+cu124", "", false},
		{"2.5.1.post1", "", false},
		{"2", "", false},
		{"a0", "", false},
		{"", "", false},
	} {
		s, ok := preReleaseSeries(c.in)
		if s != c.series || ok != c.ok {
			t.Errorf("preReleaseSeries(%q) = %q, %v; want %q, %v", c.in, s, ok, c.series, c.ok)
		}
	}
}
