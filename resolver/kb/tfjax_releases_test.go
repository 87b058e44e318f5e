package kb

import (
	"strings"
	"testing"
)

// TestJAXReleasesAndPythonMax: the builder's JAX facts: the plugin-era
// releases, the Python range each takes from the jaxlib rows, CUDA 13 from
// 0.7.2, and TensorFlow's and-cuda extra from 2.14.
func TestJAXReleasesAndPythonMax(t *testing.T) {
	k := Default()
	rs := k.JAXReleaseList()
	if len(rs) == 0 || rs[0].Version != "0.4.30" {
		t.Fatalf("JAXReleaseList starts %v, want 0.4.30", rs)
	}
	yanked := map[string]bool{}
	for _, r := range rs {
		yanked[r.Version] = r.Yanked
	}
	if !yanked["0.4.32"] || yanked["0.4.33"] {
		t.Errorf("yanked: 0.4.32 %v, 0.4.33 %v; want true, false", yanked["0.4.32"], yanked["0.4.33"])
	}
	for _, tc := range []struct{ v, min, max, cuda string }{
		{"0.4.30", "3.9", "3.12", ">=12.1"},
		{"0.4.34", "3.10", "3.13", ">=12.1"},
		{"0.7.1", "3.11", "3.14", ">=12.1"},
		{"0.7.2", "3.11", "3.14", ">=12.1,>=13.0"},
		{"0.11.0", "3.12", "3.14", ">=12.1,>=13.0"},
	} {
		st, ok := k.JAXLibAt(tc.v)
		if !ok || st.PythonMin != tc.min || st.PythonMax != tc.max || strings.Join(st.CUDA, ",") != tc.cuda || !st.PluginOnly {
			t.Errorf("JAXLibAt(%s) = %+v, want python %s–%s, cuda %s, plugin only", tc.v, st, tc.min, tc.max, tc.cuda)
		}
	}
	if _, ok := k.TensorFlowPipCUDA("2.13.0"); ok {
		t.Error("TensorFlowPipCUDA(2.13.0): and-cuda predates 2.14")
	}
	if e, ok := k.TensorFlowPipCUDA("2.14.0"); !ok || e.Extra != "and-cuda" {
		t.Errorf("TensorFlowPipCUDA(2.14.0) = %v, %v; want and-cuda", e, ok)
	}
}
