package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestOtherFrameworkJudged: a file with two GPU frameworks is named after
// pytorch, and jax is held against every target on a stack of its own: a
// CPU-only torch beside jax[cuda13] needs a CUDA 13 driver (EG401 on the
// A100's CUDA 12.4 driver) and leaves no GPU idle (no EG407).
func TestOtherFrameworkJudged(t *testing.T) {
	src := "--index-url https://download.pytorch.org/whl/cpu\ntorch==2.9.1\njax[cuda13]==0.8.0\n"
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100"})
	if err != nil {
		t.Fatal(err)
	}
	r := Validate("requirements.txt", []byte(src), Options{Platform: "linux-64", Hosts: hosts})
	if !slices.Equal(r.Stack.OtherFrameworks, []string{"jax"}) {
		t.Fatalf("other frameworks %v", r.Stack.OtherFrameworks)
	}
	var msgs []string
	for _, f := range r.Findings {
		msgs = append(msgs, f.Code+" "+f.Message)
	}
	all := strings.Join(msgs, "\n")
	if r.Targets[0].Verdict != gpucheck.VerdictFail || !strings.Contains(all, "EG401") || strings.Contains(all, "EG407") {
		t.Errorf("a100: %s\n%s", r.Targets[0].Verdict, all)
	}
	// a CPU-only other framework is not a GPU-code package
	cpu := "torch==2.9.1\njax==0.8.0\n"
	r = Validate("requirements.txt", []byte(cpu), Options{Platform: "linux-64", Hosts: hosts})
	for _, f := range r.Findings {
		if strings.Contains(f.Message, "jax") && f.Target != "" {
			t.Errorf("CPU jax judged: %s %s", f.Code, f.Message)
		}
	}
}
