package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// An unknown release of a conda package is not told to pin the package
// index's releases, which a conda line cannot install (review ten #1163,
// corpus 166: a defaults bitsandbytes=0.41.1 was offered pypi 0.43.1 …).
// A pip line of the same package still is.
func TestUnknownReleaseHintKeepsTheInstaller(t *testing.T) {
	k := kb.Default()
	h, err := Target{Name: "t", Driver: "570.124.06", GPUs: []string{"RTX 5090"}}.Host(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		from     envspec.Provider
		has, not string
	}{
		{envspec.ProviderConda, "no conda build of bitsandbytes", "pypi:"},
		{envspec.ProviderPip, "pypi:", "no conda build"},
	} {
		st := stack("2.0.1", "11.8", kb.DistPytorchConda)
		st.GPUPackages = append(st.GPUPackages, resolver.GPUPackage{Name: "bitsandbytes", Version: "0.41.1", Role: resolver.RoleExtension, From: tt.from})
		hint := ""
		for _, d := range Check(st, h, k, CheckOptions{}) {
			if d.Code == "EG409" && strings.Contains(d.Message, "bitsandbytes") {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, tt.has) || strings.Contains(hint, tt.not) {
			t.Errorf("%s bitsandbytes: hint %q, want %q and not %q", tt.from, hint, tt.has, tt.not)
		}
	}
}
