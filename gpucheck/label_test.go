package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// A target given by compute_capabilities alone has GPUs named after their
// capability; the EG403 message must not say it twice.
func TestGPULabelTargetByCapability(t *testing.T) {
	st := &resolver.Stack{
		Framework: &resolver.Framework{Name: "pytorch", Version: "2.8.0", Variant: "cuda", Dist: kb.DistWheel},
		CUDA:      &resolver.CUDAInfo{Version: "12.8"},
	}
	h := &Host{Name: "k80", Available: true, Driver: "570.124.06", CUDADriver: "12.8", Source: SourceTarget,
		GPUs: []GPU{{Index: 0, Name: "compute capability 3.7", CC: "3.7"}}}
	ds := Check(st, h, kb.Default(), CheckOptions{})
	var msg string
	for _, d := range ds {
		if d.Code == "EG403" {
			msg = d.Message
		}
	}
	if msg == "" {
		t.Fatalf("no EG403 for an sm_37 GPU on the 2.8 cu128 wheel; got %v", ds)
	}
	if strings.Count(msg, "compute capability 3.7") != 1 {
		t.Errorf("EG403 message names the capability %d times, want once: %s", strings.Count(msg, "compute capability 3.7"), msg)
	}
}
