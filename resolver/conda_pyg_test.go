package resolver

import (
	"testing"
)

// PyG's conda packages (the pyg channel's pytorch-scatter, conda-forge's
// pytorch_scatter) are the extensions torch-scatter … built for conda: GPU
// code the checks must decide. Before, they were no GPU-code package at
// all, and corpus 011 read ok on ten targets with pytorch-scatter,
// pytorch-sparse and pytorch-cluster unchecked.
func TestCondaPyGPackagesAreExtensions(t *testing.T) {
	st := resolveSrc(t, "channels: [pytorch, pyg, nvidia]\ndependencies:\n  - pytorch=2.0.1\n  - pytorch-cuda=11.8\n"+
		"  - pytorch-scatter=2.1.1\n  - conda-forge::pytorch_sparse\n  - pyg\n  - numpy\n")
	want := map[string]bool{"pytorch-scatter": true, "pytorch_sparse": true}
	for _, p := range st.GPUPackages {
		if p.Role == RoleExtension {
			if !want[p.Name] {
				t.Errorf("extension %s, want only %v", p.Name, want)
			}
			delete(want, p.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("not read as extensions: %v; GPU packages %+v", want, st.GPUPackages)
	}
}
