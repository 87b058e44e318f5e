package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestJAXRangeDecidedOverReleases: an open jax spec is no release to look
// an architecture row up by, but each release it admits takes one (review
// r8 #64, corpus 010: jax[cuda12]>=0.4.20 on an A100 read "the build's
// architecture list is not known" though every CUDA 12 row from 0.4.12 on
// carries sm_80). Where every admitted release agrees the GPU is decided;
// where they differ the finding says which releases do what.
func TestJAXRangeDecidedOverReleases(t *testing.T) {
	k := kb.Default()
	arch := func(spec, cc string) (codes, msg string) {
		st := &resolver.Stack{
			Framework: &resolver.Framework{Name: "jax", Spec: spec, Variant: "cuda", From: envspec.ProviderPip, Pos: fwPosT},
			CUDA:      &resolver.CUDAInfo{Evidence: []resolver.Evidence{{Says: "12"}}},
		}
		r := evaluate(st, host("570.124.06", "12.8", cc), k, CheckOptions{})
		var cs []string
		for _, d := range r.Findings {
			if d.Code == "EG403" || (d.Code == "EG409" && !strings.Contains(d.Message, "CUDA runtime")) {
				cs = append(cs, d.Code)
				msg += d.Message
			}
		}
		return strings.Join(cs, ","), msg
	}
	for _, tt := range []struct {
		spec, cc, codes string
		has             []string
	}{
		{">=0.4.20", "8.0", "", nil},
		{">=0.4.20,<0.5", "8.0", "", nil},
		{">=0.4.20", "3.7", "EG403", []string{"every release it admits"}},
		// sm_100 SASS came with the 0.6.0 row; before it only PTX, which
		// XLA's run-time compilation leaves open from 0.4.33, and which
		// the XLA of 0.4.20 to 0.4.31 replaces with sm_90a code
		{">=0.4.20", "10.0", "EG409", []string{"runs with releases from 0.6.0 on", "fails with releases 0.4.20 up to 0.4.33 (their XLA compiles", "cannot be checked with releases 0.4.33 up to 0.6.0"}},
		{">=0.4.26,<0.4.33", "12.0", "EG403", []string{"with the sm_90a target"}},
		// no row below the first: those releases are named as unchecked
		{"<0.4.30", "8.0", "EG409", []string{"cannot be checked with releases before", "no architecture row"}},
	} {
		got, msg := arch(tt.spec, tt.cc)
		if got != tt.codes {
			t.Errorf("jax %s on %s: codes %q, want %q (%s)", tt.spec, tt.cc, got, tt.codes, msg)
		}
		for _, h := range tt.has {
			if !strings.Contains(msg, h) {
				t.Errorf("jax %s on %s: message %q lacks %q", tt.spec, tt.cc, msg, h)
			}
		}
	}
}

func TestLowerBound(t *testing.T) {
	for spec, want := range map[string]string{">=0.4.20": "0.4.20", ">=0.4.20,<0.5": "0.4.20", "<0.5,>0.4.21": "0.4.21", "<0.5": "0", "==0.4.*": "0.4", "~=0.4.30": "0.4.30"} {
		if got := lowerBound(spec); got != want {
			t.Errorf("lowerBound(%q) = %q, want %q", spec, got, want)
		}
	}
}

// FuzzLowerBound: any spec reads without a panic, and the bound is "0" or
// text the spec holds.
func FuzzLowerBound(f *testing.F) {
	for _, s := range []string{">=0.4.20", ">=0.4.20,<0.5", "<0.5", ">", "==0.4.*", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if got := lowerBound(spec); got != "0" && !strings.Contains(spec, got) {
			t.Errorf("lowerBound(%q) = %q, not in the spec", spec, got)
		}
	})
}
