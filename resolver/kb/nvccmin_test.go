package kb

import "testing"

// The rows "from this release on" pick the latest at or below a release:
// TransformerEngine needs CUDA 12.0 from 1.10 and 12.1 from 2.9, nothing
// before; conda-forge's CUDA rule is of the build's own major.
func TestLatestFromRows(t *testing.T) {
	k := Default()
	e, ok := k.ExtensionByName("transformer-engine")
	if !ok {
		t.Fatal("no transformer-engine row")
	}
	for v, want := range map[string]string{"1.9": "", "1.10": "12.0", "2.2.0": "12.0", "2.9": "12.1", "2.18": "12.1"} {
		if got := e.NVCCMinOf(v); got != want {
			t.Errorf("NVCCMinOf(%s) = %q, want %q", v, got, want)
		}
	}
	for cuda, want := range map[string]string{"11.1": "", "11.2": "11.2", "11.8": "11.2", "12.0": "12.0", "12.9": "12.0", "13.0": "13.0"} {
		got := ""
		if r, ok := k.CondaForgeCUDAFloatOf(cuda); ok {
			got = r.From
		}
		if got != want {
			t.Errorf("CondaForgeCUDAFloatOf(%s) = %q, want %q", cuda, got, want)
		}
	}
}
