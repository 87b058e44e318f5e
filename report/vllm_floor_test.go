package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// vLLM has needed compute capability 7.0 from its source-build releases on
// (its setup.py refuses anything older), so a K80 fails for any vLLM,
// one the knowledge base has no row for included (review 8 #659 found
// 0.8.5.post1 left unknown there, before extensions-9.yaml gave it a row;
// 0.8.2 still has none); a V100 at the floor is not decided by it.
func TestVLLMFloorEveryRelease(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   gpucheck.Verdict
	}{
		{"k80", gpucheck.VerdictFail},
		{"v100", gpucheck.VerdictUnknown},
	} {
		hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{tc.target})
		if err != nil {
			t.Fatal(err)
		}
		src := "vllm==0.8.2\n"
		r := Validate("requirements.txt", []byte(src), Options{Platform: "linux-64", Hosts: hosts})
		if len(r.Targets) != 1 {
			t.Fatalf("%s: %d targets", tc.target, len(r.Targets))
		}
		var msgs []string
		for _, d := range r.Diagnostics() {
			msgs = append(msgs, d.Code+" "+d.Message)
		}
		all := strings.Join(msgs, "\n")
		if r.Targets[0].Verdict != tc.want {
			t.Errorf("%s: verdict %s, want %s\n%s", tc.target, r.Targets[0].Verdict, tc.want, all)
		}
		if tc.want == gpucheck.VerdictFail && !strings.Contains(all, "EG410 vllm 0.8.2 needs compute capability 7.0 or newer, as every release of vllm does") {
			t.Errorf("%s: no EG410 names vLLM's floor:\n%s", tc.target, all)
		}
	}
}
