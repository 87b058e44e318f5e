//go:build !(linux && cgo)

package gpucheck

import "testing"

func TestStubProbe(t *testing.T) {
	p := NewLocalProbe()
	h := p.Static()
	if h.Available || h.Reason != "built without NVML support" {
		t.Fatalf("host = %+v", h)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}
