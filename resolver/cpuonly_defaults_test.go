package resolver

import "testing"

// cpuonly is the pytorch channel's selector (pytorch-mutex): the defaults
// recipe's pytorch never depends on it, so beside defaults' pytorch it
// selects no CPU build (review twelve #828, corpus 100, which read as a
// CPU-only build with an EG407). Beside the pytorch channel's, it does.
func TestCpuonlyBesideDefaultsPytorch(t *testing.T) {
	for _, tt := range []struct{ src, variant string }{
		{"channels: [defaults, pytorch]\ndependencies:\n  - python=3.10\n  - pytorch\n  - cpuonly\n", ""},
		{"channels: [pytorch, defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.1.0\n  - cpuonly\n", "cpu"},
		{"channels: [defaults, pytorch]\ndependencies:\n  - python=3.10\n  - pytorch::pytorch=2.1.0\n  - cpuonly\n", "cpu"},
	} {
		st, _ := lintSrc(t, tt.src)
		if st.Framework == nil || st.Framework.Variant != tt.variant {
			t.Errorf("%q: variant %q (dist %q), want %q", tt.src, st.Framework.Variant, st.Framework.Dist, tt.variant)
		}
	}
}
