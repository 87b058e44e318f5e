package kb

import "testing"

// TestCuDNNPreTuringRows reads cudalibs.yaml's cudnn rows: cuDNN 9.11
// dropped the device code for every compute capability below Turing
// (7.5), and nothing from Turing on; no row claims a Blackwell release,
// which was not read.
func TestCuDNNPreTuringRows(t *testing.T) {
	k := Default()
	for _, cc := range []string{"5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2"} {
		rows := k.CUDALibArchOf("cudnn", cc)
		if len(rows) != 1 || rows[0].Until != "9.11.0" || rows[0].Since != "" {
			t.Errorf("cudnn %s: %+v, want one row until 9.11.0", cc, rows)
			continue
		}
		if rows[0].Source == "" {
			t.Errorf("cudnn %s: no source", cc)
		}
	}
	for _, cc := range []string{"7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"} {
		if rows := k.CUDALibArchOf("cudnn", cc); len(rows) != 0 {
			t.Errorf("cudnn %s: %+v, want no row", cc, rows)
		}
	}
}
