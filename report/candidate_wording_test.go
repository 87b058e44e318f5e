package report

import (
	"strings"
	"testing"
)

// TestMergedFindingSaysWhoseWording: an unpinned pytorch-channel pytorch
// with pytorch-cuda=11.8 admits the 2.0 … 2.5 builds, whose bundled cuDNN
// differs (8.7.0, 9.1.0 built for CUDA 11). On an RTX 5090 each fails on
// it, and the one EG410 shown is said to be the first build's, not the
// same sentence for all 14 (review 8, corpus 049).
func TestMergedFindingSaysWhoseWording(t *testing.T) {
	src := []byte("channels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n  - pytorch\n  - pytorch-cuda=11.8\n")
	hosts := targetHosts(t, "targets:\n  - name: blackwell\n    driver: \"570.86.10\"\n    compute_capabilities: [\"12.0\"]\n")
	r := Validate("environment.yml", src, Options{Platform: "linux-64", Hosts: hosts})
	var msgs []string
	for _, f := range r.Findings {
		if f.Code == "EG410" {
			msgs = append(msgs, f.Message)
		}
	}
	if len(msgs) != 1 {
		t.Fatalf("EG410 findings %q, want one merged over the admitted builds", msgs)
	}
	if !strings.Contains(msgs[0], "(as pytorch 2.0.0 CUDA 11.8 has it; ") || !strings.Contains(msgs[0], "not all worded alike") || strings.Contains(msgs[0], "(so for ") {
		t.Errorf("EG410 %q: want it marked as the first build's wording", msgs[0])
	}
}
