package kb

import "testing"

// floor_every_release says the row's min_cc holds for every release; a
// row with the mark and no min_cc states nothing and is refused at load.
func TestFloorEveryReleaseNeedsMinCC(t *testing.T) {
	const row = `{name: librmm, conda: [librmm], framework: none, torch_abi: false, min_cc: "6.0", floor_every_release: true,`
	assertLoadRejects(t, "extensions-4.yaml", row,
		`{name: librmm, conda: [librmm], framework: none, torch_abi: false, floor_every_release: true,`,
		`extensions-4\.yaml:\d+: extensions\[\d+\]: floor_every_release without min_cc`)
}
