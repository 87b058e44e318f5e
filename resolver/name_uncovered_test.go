package resolver

import (
	"strings"
	"testing"
)

// A release older than the tables pins its own CUDA, which the knowledge
// base does not know: the name's refusal says so rather than that no item
// names a CUDA (review ten N11). A covered release without a CUDA item
// keeps the plain reason. tensorflow-gpu 0.12.1 (corpus 012) has a row now
// (review thirty-six: CUDA 8.0 by its setup page), so it is named.
func TestNameRefusalOlderThanTables(t *testing.T) {
	st, _ := lintSrc(t, "dependencies:\n  - python=3.5\n  - pip\n  - pip:\n    - tensorflow-gpu==0.12.1\n")
	if name, err := st.Canonical(); err != nil || name != "tf012_cu80" {
		t.Errorf("tensorflow-gpu==0.12.1: name %q, %v; want tf012_cu80", name, err)
	}
	for _, tt := range []struct{ src, want string }{
		{"dependencies:\n  - python=3.5\n  - pip\n  - pip:\n    - tensorflow-gpu==0.11.0\n",
			"tensorflow 0.11.0 is older than the releases the knowledge base covers (from 0.12.1), so the CUDA version its build needs is not known"},
		{"channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - tensorflow-gpu=2.11.0\n",
			""},
	} {
		st, _ := lintSrc(t, tt.src)
		_, err := st.Canonical()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tt.want != "" && got != tt.want || tt.want == "" && strings.Contains(got, "older than the releases") {
			t.Errorf("%q: reason %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestEG206BetweenCoveredReleases: a release inside the range the tables
// cover but without a row of its own (tensorflow 1.3.0 between 0.12.1 and
// 1.13.1) is neither older than the tables nor newer knowledge: EG206 says
// so, and points at the covered range.
func TestEG206BetweenCoveredReleases(t *testing.T) {
	_, ds := lintSrc(t, "dependencies:\n  - python=3.6\n  - pip\n  - pip:\n    - tensorflow-gpu==1.3.0\n")
	found := false
	for _, d := range ds {
		if d.Code != "EG206" {
			continue
		}
		found = true
		if !strings.Contains(d.Message, "tensorflow 1.3.0 (line 5) is not among the releases the knowledge base covers (tensorflow 0.12.1 … ") || strings.Contains(d.Message, "newer") {
			t.Errorf("EG206 %q", d.Message)
		}
		if !strings.Contains(d.Hint, "pin a covered release") {
			t.Errorf("EG206 hint %q", d.Hint)
		}
	}
	if !found {
		t.Error("no EG206 for tensorflow 1.3.0")
	}
}
