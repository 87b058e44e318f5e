package kb

import "testing"

// A platform row answers only for its platforms, and never stands in for
// the release's list on other platforms (PythonBuilds skips it).
func TestPlatformPythonBuilds(t *testing.T) {
	k := Default()
	r, ok := k.PlatformPythonBuilds("2.5.1+cpu", DistPyPI, "win-64")
	if !ok || r.Supports("3.13", []string{"3.12"}, []string{"3.13"}) {
		t.Fatalf("2.5.1 win-64 PyPI: row %v, ok %v; want a row without 3.13", r, ok)
	}
	if _, ok := k.PlatformPythonBuilds("2.5.1", DistPyPI, "linux-64"); ok {
		t.Error("2.5.1 linux-64 PyPI: a platform row answers, but no source says Linux lacks a Python")
	}
	if r, ok := k.PythonBuilds("2.5.1", DistPyPI, ""); ok {
		t.Errorf("PythonBuilds returned platform row %+v for every platform", r)
	}
}
