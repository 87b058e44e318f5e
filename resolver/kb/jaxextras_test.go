package kb

import "testing"

// TestJAXExtraDeclared checks the jax extras table against what jax's
// setup.py declared at the release tags (JAX_SETUP_EXTRAS).
func TestJAXExtraDeclared(t *testing.T) {
	k := Default()
	for _, c := range []struct {
		release, extra  string
		declared, known bool
	}{
		{"0.4.20", "cuda12", false, true},    // cuda12 came with 0.4.22
		{"0.4.22", "cuda12", true, true},     // its first release
		{"0.4.20", "cuda12_pip", true, true}, // what 0.4.20 users wrote
		{"0.4.20", "CUDA12-Pip", true, true}, // PEP 685 names
		{"0.5.0", "cuda12_pip", true, true},
		{"0.6.0", "cuda12_pip", false, true},  // dropped in 0.6.0
		{"0.6.0", "cuda12_local", true, true}, // respelt cuda12-local: one extra
		{"0.4.25", "cuda11_pip", true, true},
		{"0.4.26", "cuda11_pip", false, true},
		{"0.6.2", "cuda13", false, true},
		{"0.7.0", "cuda13", true, true},
		{"0.11.0", "cuda13", true, true},
		{"0.12.0", "cuda13", false, false}, // past the newest tag read
		{"0.12.0", "cuda99", false, false},
		{"0.2.12", "cuda-111", true, true},
		{"0.2.12", "cuda111", false, true}, // PEP 685 keeps cuda-111 and cuda111 apart
		{"0.1.70", "cuda", false, true},    // no extras before 0.2.11
		{"0.2.23", "cuda", true, true},
	} {
		d, ok := k.JAXExtraDeclared(c.release, c.extra)
		if d != c.declared || ok != c.known {
			t.Errorf("JAXExtraDeclared(%s, %s) = %v, %v; want %v, %v", c.release, c.extra, d, ok, c.declared, c.known)
		}
	}
}

// TestJAXLibPTXASError: XLA returns a ptxas rejection as a failed
// compilation from the XLA jax 0.4.25 pins (1f4f781c); 0.4.24's does not
// contain that commit, and the flag carries on to later releases.
func TestJAXLibPTXASError(t *testing.T) {
	k := Default()
	for _, tc := range []struct {
		version string
		want    bool
	}{{"0.4.24", false}, {"0.4.25", true}, {"0.4.34", true}, {"0.6.0", true}, {"0.1.68", false}} {
		st, ok := k.JAXLibAt(tc.version)
		if !ok || st.PTXASError != tc.want {
			t.Errorf("JAXLibAt(%s).PTXASError = %v (ok %v), want %v", tc.version, st.PTXASError, ok, tc.want)
		}
	}
}
