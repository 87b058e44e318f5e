package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestTFPTXEveryListed: defaults' tensorflow-gpu 1.13.1, whose recipe
// commits set three different lists for CUDA 10.0 (review fifteen #941,
// corpus 116), has no list in the knowledge base, but every list it could
// have is of X.Y entries, each SASS and PTX: on a GPU newer than CUDA
// 10.0's compiler targets it runs through PTX (EG408). Within the
// compiler's range which list it has still decides, so that stays open,
// and so does a release the row does not cover.
func TestTFPTXEveryListed(t *testing.T) {
	k := kb.Default()
	run := func(dist kb.Distribution, from envspec.Provider, version, cc, driver, driverCUDA string) (Verdict, string) {
		st := &resolver.Stack{
			Framework: &resolver.Framework{Name: "tensorflow", Version: version, Variant: "cuda", From: from, Dist: dist, BuildCUDA: "10.0", Pos: fwPosT},
			CUDA:      &resolver.CUDAInfo{Version: "10.0"},
		}
		r := evaluate(st, host(driver, driverCUDA, cc), k, CheckOptions{})
		var msgs []string
		for _, d := range r.Findings {
			if d.Code == "EG403" || d.Code == "EG408" || d.Code == "EG409" {
				msgs = append(msgs, d.Code+" "+d.Message)
			}
		}
		return r.Verdict, strings.Join(msgs, "\n")
	}
	if _, m := run(kb.DistDefaults, envspec.ProviderConda, "1.13.1", "12.0", "570.124.06", "12.8"); !strings.Contains(m, "EG408") || !strings.Contains(m, "X.Y entries, each SASS and PTX") || strings.Contains(m, "which is not known") {
		t.Errorf("defaults 1.13.1 on sm_120: %s; want EG408 through its PTX", m)
	}
	if _, m := run(kb.DistDefaults, envspec.ProviderConda, "1.13.1", "6.0", "535.104.05", "12.2"); !strings.Contains(m, "EG409") || strings.Contains(m, "EG408") {
		t.Errorf("defaults 1.13.1 on sm_60: %s; want it left open (the SASS depends on the list)", m)
	}
	if _, m := run(kb.DistPyPI, envspec.ProviderPip, "1.13.1", "8.0", "550.54.15", "12.4"); !strings.Contains(m, "EG408") {
		t.Errorf("pip 1.13.1 on sm_80: %s; want EG408 (wheels before 2.3 carry PTX for every listed architecture)", m)
	}
	// A driver older than the build's CUDA cannot JIT its PTX: the row
	// must not turn that into a run.
	if v, m := run(kb.DistDefaults, envspec.ProviderConda, "1.13.1", "8.0", "396.26", "9.2"); v == VerdictOK || strings.Contains(m, "EG408") {
		t.Errorf("defaults 1.13.1 on sm_80 with a CUDA 9.2 driver: %s %s; want no PTX run", v, m)
	}
}
