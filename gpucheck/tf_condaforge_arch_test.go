package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestTFCondaForgeArch: a conda-forge tensorflow build is judged by the
// feedstock's own list (arch-tfjax-2.yaml: 2.14 CUDA 11.8 carries sm_35 …
// sm_90 and compute_90, corpus 132), never by the wheel's; a series without
// a conda-forge row (2.17, whose pull-request states set no list) stays
// unknown although the wheel has a row.
func TestTFCondaForgeArch(t *testing.T) {
	k := kb.Default()
	run := func(version, cuda, cc string) (Verdict, string) {
		st := &resolver.Stack{
			Framework: &resolver.Framework{Name: "tensorflow", Version: version, Variant: "cuda", From: envspec.ProviderConda, Dist: kb.DistCondaForge, BuildCUDA: cuda, Pos: fwPosT},
			CUDA:      &resolver.CUDAInfo{Version: cuda},
		}
		r := evaluate(st, host("570.124.06", "12.8", cc), k, CheckOptions{})
		var msgs []string
		for _, d := range r.Findings {
			if d.Code == "EG403" || d.Code == "EG408" || d.Code == "EG409" {
				msgs = append(msgs, d.Code+" "+d.Message)
			}
		}
		return r.Verdict, strings.Join(msgs, "\n")
	}
	if _, m := run("2.14.0", "11.8", "8.6"); strings.Contains(m, "architecture list is not known") {
		t.Errorf("2.14.0 CUDA 11.8 on sm_86: %s; want the conda-forge list used", m)
	}
	if _, m := run("2.14.0", "11.8", "10.0"); !strings.Contains(m, "EG408") || !strings.Contains(m, "compute_90") {
		t.Errorf("2.14.0 CUDA 11.8 on sm_100: %s; want EG408 through compute_90 PTX", m)
	}
	if v, m := run("2.17.0", "12.0", "8.0"); v != VerdictUnknown || !strings.Contains(m, "architecture list is not known") {
		t.Errorf("2.17.0 CUDA 12.0: %s %s; want unknown (no conda-forge row, the wheel's never stands in)", v, m)
	}
}
