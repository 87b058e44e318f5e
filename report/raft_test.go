package report

import (
	"strings"
	"testing"
)

// TestRAFT2308Rows: RAFT 23.08's conda builds (extensions-16.yaml) are
// decided: libraft and pylibraft carry SASS 6.0 … 9.0 and compute_90
// PTX, so an RTX 5090 reaches them through PTX only (EG408), and
// raft-dask carries no code of its own; none of them is left undecided
// (corpus 073, where libcumlprims still is).
func TestRAFT2308Rows(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100", "rtx5090"})
	if err != nil {
		t.Fatal(err)
	}
	src := "channels: [rapidsai, conda-forge, nvidia]\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.8\n  - libraft=23.08\n  - pylibraft=23.08\n  - raft-dask=23.08\n"
	r := Validate("environment.yml", []byte(src), Options{Platform: "linux-64", Hosts: hosts})
	for _, tr := range r.Targets {
		for _, u := range tr.Undecided {
			for _, n := range []string{"libraft", "pylibraft", "raft-dask"} {
				if strings.HasPrefix(u.What, n+" ") || u.What == n {
					t.Errorf("%s: %s left undecided: %+v", tr.Name, n, u)
				}
			}
		}
	}
	ptx := 0
	for _, d := range r.Diagnostics() {
		if d.Code == "EG408" && strings.Contains(d.Message, "sm_120") && (strings.Contains(d.Message, "libraft") || strings.Contains(d.Message, "pylibraft")) {
			ptx++
		}
	}
	if ptx != 2 {
		t.Errorf("want EG408 for libraft and pylibraft on the RTX 5090, got %d", ptx)
	}
}
