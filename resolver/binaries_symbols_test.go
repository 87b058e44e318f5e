package resolver

import (
	"slices"
	"testing"
)

// SymbolHashes holds what HashesOf was given and nothing else: every hash
// given is found, and the values around each (and past both ends) are not.
func TestSymbolHashesContains(t *testing.T) {
	if HashesOf(nil) != nil {
		t.Error("HashesOf(nil) is not nil")
	}
	if s := HashesOf([]uint64{}); s == nil || s.Len() != 0 || s.Contains(0) {
		t.Errorf("HashesOf(empty) = %v", s)
	}
	hs := []uint64{TorchSymbolHash([]byte("_ZN3c104initEv")), 3, 1 << 40, 1<<64 - 2, 7}
	slices.Sort(hs)
	s := HashesOf(hs)
	if s.Len() != len(hs) {
		t.Fatalf("Len %d, want %d", s.Len(), len(hs))
	}
	for i, h := range hs {
		if s.At(i) != h || !s.Contains(h) {
			t.Errorf("hash %d (%#x): At %#x, Contains %v", i, h, s.At(i), s.Contains(h))
		}
		for _, near := range []uint64{h - 1, h + 1} {
			if !slices.Contains(hs, near) && s.Contains(near) {
				t.Errorf("%#x found, never given", near)
			}
		}
	}
	if s.Contains(0) || s.Contains(1<<64-1) {
		t.Error("a hash past either end found")
	}
}
