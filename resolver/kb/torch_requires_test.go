package kb

import "testing"

// TestAdmitsTorch: a release's torch requirement, as its metadata
// declares it (bitsandbytes 0.45.5 torch>=2.0,<3, 0.48.0 torch>=2.3,<3,
// 0.43.1 a bare torch, 0.37.0 none), admits or excludes a torch release;
// a requirement that was not read is not known either way.
func TestAdmitsTorch(t *testing.T) {
	for _, tt := range []struct {
		req, torch    string
		admits, known bool
	}{
		{">=2.0,<3", "1.13.1", false, true},
		{">=2.0,<3", "2.0.0", true, true},
		{">=2.0,<3", "2.6.0+cu124", true, true},
		{">=2.3,<3", "2.2.2", false, true},
		{">=2.3,<3", "3.0.0", false, true},
		{"any", "1.13.1", true, true},
		{"none", "1.13.1", true, true},
		{"", "1.13.1", false, false},
		{"~=2.0", "2.1.0", false, false},
	} {
		b := ExtensionBuild{TorchRequires: tt.req}
		if a, k := b.AdmitsTorch(tt.torch); a != tt.admits || k != tt.known {
			t.Errorf("%q admits %s = %v, %v; want %v, %v", tt.req, tt.torch, a, k, tt.admits, tt.known)
		}
	}
}

// TestBitsandbytesRowsValidated: the loader refuses a torch requirement it
// cannot read and cuda_from_machine on a row that cannot say which
// libraries the wheel carries. Every bitsandbytes row states its release's
// torch requirement.
func TestBitsandbytesRowsValidated(t *testing.T) {
	const row = `{name: bitsandbytes, version: "0.37.0", dist: pypi, torch: [], cuda_from_machine: true, torch_requires: "none", cuda: ["10.2"],`
	assertLoadRejects(t, "extensions-2.yaml", row,
		`{name: bitsandbytes, version: "0.37.0", dist: pypi, torch: [], cuda_from_machine: true, torch_requires: "~=1.0", cuda: ["10.2"],`,
		`extensions-2\.yaml:\d+: extension_builds\[\d+\]: torch_requires: requirement "~=1.0": clause "~=1.0" has no operator`)
	assertLoadRejects(t, "extensions-2.yaml", row,
		`{name: bitsandbytes, version: "0.37.0", dist: pypi, torch: [], cuda_from_machine: true, torch_requires: "none", cuda: [],`,
		`extensions-2\.yaml:\d+: extension_builds\[\d+\]: cuda_from_machine is for a pypi row with its cuda and its architectures`)
	k := Default()
	for _, b := range k.ExtensionReleases("bitsandbytes") {
		if b.Dist == "pypi" && b.TorchRequires == "" {
			t.Errorf("bitsandbytes %s (CUDA %v) has no torch_requires", b.Version, b.CUDA)
		}
	}
}
