package kb

import "testing"

// semverCompare is what CompareDotted answered before it read the parts in
// place: both sides through ParseNVIDIA (Masterminds/semver).
func semverCompare(a, b string) (int, bool) {
	x, ok1 := ParseNVIDIA(a)
	y, ok2 := ParseNVIDIA(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return x.Compare(y), true
}

var dottedCases = []string{
	"", " ", "0", "1", "12", "12.4", "12.4.1", "535.104.05", "535.104.5", "0580", "580.0.0",
	"580.", ".580", "580..1", "1.2.3.4", "1.2.3 ", " 11.8", "1e3", "-1", "1.x", "12.4-rc1",
	"999999999", "1000000000", "1.999999999", "1.0000000001", "3.5", "8.9", "9.0", "10.0", "12.0",
	"+1", "1,2", "１", "12.4\n", "33333333333333333333333333333333.1",
}

func TestCompareDottedAgreesWithSemver(t *testing.T) {
	for _, a := range dottedCases {
		for _, b := range dottedCases {
			got, gok := CompareDotted(a, b)
			want, wok := semverCompare(a, b)
			if got != want || gok != wok {
				t.Errorf("CompareDotted(%q, %q) = %d, %v; semver says %d, %v", a, b, got, gok, want, wok)
			}
		}
	}
}

func FuzzCompareDotted(f *testing.F) {
	for i, a := range dottedCases {
		f.Add(a, dottedCases[(i+7)%len(dottedCases)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got, gok := CompareDotted(a, b)
		want, wok := semverCompare(a, b)
		if got != want || gok != wok {
			t.Errorf("CompareDotted(%q, %q) = %d, %v; semver says %d, %v", a, b, got, gok, want, wok)
		}
	})
}

func TestLatestTorchIndexed(t *testing.T) {
	k := Default()
	scan := (&KB{Facts: k.Facts}).LatestTorch() // no index: read from the table
	if got := k.LatestTorch(); got != scan || got == "" {
		t.Errorf("LatestTorch() = %q from the index, %q from the table", got, scan)
	}
}
