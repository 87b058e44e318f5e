package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// The pytorch channel's torch links NCCL statically (torch_static_libs):
// the environment's nccl package is not among the libraries it loads, so
// it is neither held against its PTX path nor blamed on it (review eleven
// #1422, corpus 185: pytorch 1.4.0 was said to load nccl 2.4.6.1). The
// same package beside a torch the row does not cover is still judged.
func TestStaticNCCLNotLoadedByTorch(t *testing.T) {
	k := kb.Default()
	h, err := Target{Name: "t", Driver: "570.124.06", GPUs: []string{"RTX 5090"}}.Host(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dist   kb.Distribution
		from   envspec.Provider
		judged bool
	}{
		{kb.DistPytorchConda, envspec.ProviderConda, false},
		{kb.DistWheel, envspec.ProviderPip, true},
	} {
		st := stack("1.4.0", "10.1", tt.dist)
		st.Framework.From = tt.from
		st.GPUPackages = append(st.GPUPackages, resolver.GPUPackage{Name: "nccl", Role: resolver.RoleCUDALibrary, Lib: "nccl", Version: "2.4.6.1", From: envspec.ProviderConda, Known: true})
		said := false
		for _, d := range Check(st, h, k, CheckOptions{}) {
			said = said || strings.Contains(d.Message, "nccl")
		}
		if said != tt.judged {
			t.Errorf("%s torch 1.4.0 beside conda nccl: nccl judged %v, want %v", tt.dist, said, tt.judged)
		}
	}
}
