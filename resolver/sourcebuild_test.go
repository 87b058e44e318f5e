package resolver

import (
	"strings"
	"testing"
)

// PyG's torch-scatter, torch-sparse, torch-cluster and torch-spline-conv
// have only their source on the package index (rusty1s/pytorch_sparse#88):
// a pip line with neither a wheel tag nor PyG's find-links page is built
// on the install machine, so its GPU code is not known from the file
// (corpus 123; review 3 #800). With the page or a +ptXYcuZ tag it is PyG's
// prebuilt wheel.
func TestPyGSourceBuild(t *testing.T) {
	tests := []struct {
		name, pip string
		source    bool
	}{
		{"index only", "      - torch-spline-conv==1.2.1\n", true},
		{"index only, newer release the KB has wheel rows for", "      - torch-scatter==2.1.2\n", true},
		{"index only, release left open", "      - torch-sparse\n", true},
		{"PyG's find-links page", "      - -f https://data.pyg.org/whl/torch-2.0.0+cu118.html\n      - torch-scatter==2.1.2\n", false},
		{"a wheel tag", "      - torch-scatter==2.1.2+pt20cu118\n", false},
		{"PyG's older find-links host", "      - -f https://pytorch-geometric.com/whl/torch-2.0.0+cu118.html\n      - torch-scatter==2.1.2\n", false},
		{"PyTorch's wheel index as an extra index", "      - --extra-index-url https://download.pytorch.org/whl/cu118\n      - torch-scatter==2.1.2\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.10\n  - pip\n  - pip:\n      - torch==2.0.0\n" + tt.pip
			st, _ := lintSrc(t, src)
			var found *GPUPackage
			for i := range st.GPUPackages {
				if strings.HasPrefix(st.GPUPackages[i].Name, "torch-") && st.GPUPackages[i].Role == RoleExtension {
					found = &st.GPUPackages[i]
				}
			}
			if found == nil {
				t.Fatalf("no PyG extension in %+v", st.GPUPackages)
			}
			if found.SourceBuild != tt.source {
				t.Errorf("SourceBuild = %v, want %v (%s)", found.SourceBuild, tt.source, found.Unknown)
			}
			if tt.source && (found.Known || !strings.Contains(found.Unknown, "has only its source: pip compiles it on the install machine")) {
				t.Errorf("known = %v, unknown = %q", found.Known, found.Unknown)
			}
		})
	}
}
