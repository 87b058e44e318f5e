package native

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCodesDistinctSorted holds SASS and PTX, which keep the distinct
// codes as they go, to what sorting every loaded entry's code and
// dropping repeats gives, on entries in random order with repeats,
// variants, relocatable entries and other kinds.
func TestCodesDistinctSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	archs := []Arch{75, 80, 86, 90, 100, 103, 120, 121}
	variants := []Variant{Plain, ArchSpecific, FamilySpecific}
	for round := range 200 {
		l := &Library{}
		for range r.IntN(300) {
			e := Entry{Kind: []Kind{SASS, PTX, Other}[r.IntN(3)], Arch: archs[r.IntN(len(archs))],
				Variant: variants[r.IntN(len(variants))], Section: ".nv_fatbin"}
			if r.IntN(5) == 0 {
				e.Section = "__nv_relfatbin"
			}
			n := 1 + r.IntN(4) // neighbours repeat, as in a real fatbin
			for range n {
				l.Entries = append(l.Entries, e)
			}
		}
		for _, k := range []Kind{SASS, PTX} {
			var want []Code
			for _, e := range l.Entries {
				if e.Kind == k && e.Loaded() {
					want = append(want, e.Code())
				}
			}
			slices.SortFunc(want, compareCode)
			want = slices.Compact(want)
			if got := l.codes(k); !slices.Equal(got, want) {
				t.Fatalf("round %d, %s: got %v, want %v", round, k, got, want)
			}
		}
	}
}
