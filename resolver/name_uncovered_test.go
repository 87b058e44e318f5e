package resolver

import (
	"strings"
	"testing"
)

// A release older than the tables pins its own CUDA, which the knowledge
// base does not know: the name's refusal says so rather than that no item
// names a CUDA (review ten N11, corpus 012: tensorflow-gpu==0.12.1). A
// covered release without a CUDA item keeps the plain reason.
func TestNameRefusalOlderThanTables(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"dependencies:\n  - python=3.5\n  - pip\n  - pip:\n    - tensorflow-gpu==0.12.1\n",
			"tensorflow 0.12.1 is older than the releases the knowledge base covers (from 1.13.1), so the CUDA version its build needs is not known"},
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
