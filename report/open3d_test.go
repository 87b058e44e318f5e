package report

import (
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestOpen3DWheels: Open3D's Linux wheels carry the architectures of
// their release's build (extensions-15.yaml). 0.19.0 (SASS 7.5 … 9.0)
// runs on an A100 and has no code for a V100; 0.15.2 (SASS 6.0 … 8.0,
// PTX 8.0) runs on a P100 and has none for a K80, whose sm_37 no PTX of
// a newer GPU can serve (corpus 020, 154).
func TestOpen3DWheels(t *testing.T) {
	for _, tc := range []struct {
		torch, open3d string
		want          map[string]gpucheck.Verdict
	}{
		{"torch==2.0.0", "open3d==0.19.0", map[string]gpucheck.Verdict{"a100": gpucheck.VerdictOK, "v100": gpucheck.VerdictFail}},
		{"torch==1.8.0+cu111\n  -f https://download.pytorch.org/whl/torch_stable.html", "open3d==0.15.2", map[string]gpucheck.Verdict{"p100": gpucheck.VerdictOK, "k80": gpucheck.VerdictFail}},
	} {
		var names []string
		for n := range tc.want {
			names = append(names, n)
		}
		hosts, err := (&Machines{Targets: StandardFleet()}).Resolve(names)
		if err != nil {
			t.Fatal(err)
		}
		src := tc.torch + "\n" + tc.open3d + "\n"
		r := Validate("requirements.txt", []byte(src), Options{Platform: "linux-64", Hosts: hosts})
		for _, tr := range r.Targets {
			if tr.Verdict != tc.want[tr.Name] {
				t.Errorf("%s: target %s is %s, want %s: %+v", tc.open3d, tr.Name, tr.Verdict, tc.want[tr.Name], tr.Undecided)
			}
		}
	}
}
