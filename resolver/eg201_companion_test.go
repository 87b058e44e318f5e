package resolver

import (
	"strings"
	"testing"
)

// A companion's +cuXXX wheel of a release PyTorch pairs with another torch
// need not exist for the framework's CUDA: the fix names the paired
// release's wheel and writes no edit (review ten #148, corpus 016:
// torchvision 0.17.2 pairs with torch 2.2, which has no CUDA 12.6 build).
// A companion of the paired release keeps the plain label fix.
func TestEG201CompanionOfAnotherRelease(t *testing.T) {
	for _, tt := range []struct {
		src, has, not string
		edits         bool
	}{
		{"dependencies:\n  - pip\n  - pip:\n    - torch==2.7.0\n    - torchvision==0.17.2+cu121\n",
			"use torchvision==0.22.0+cu126, the torchvision release PyTorch pairs with pytorch 2.7.0 (torchvision 0.17.2 pairs with another torch release", "0.17.2+cu126", false},
		{"dependencies:\n  - pip\n  - pip:\n    - torch==2.7.0\n    - torchvision==0.22.0+cu118\n",
			"use the +cu126 wheel", "pairs with", true},
	} {
		_, ds := lintSrc(t, tt.src)
		var got []string
		edits := false
		for _, d := range findingsOf(ds, "EG201") {
			if strings.Contains(d.Message, "torchvision") {
				got = append(got, d.Message+" | "+d.Hint)
				edits = edits || len(d.Edits) > 0
			}
		}
		all := strings.Join(got, "\n")
		if len(got) != 1 || !strings.Contains(all, tt.has) || strings.Contains(all, tt.not) {
			t.Errorf("%q: EG201 %q, want one with %q and without %q", tt.src, all, tt.has, tt.not)
		}
		if edits != tt.edits {
			t.Errorf("%q: edits %v, want %v", tt.src, edits, tt.edits)
		}
	}
}
