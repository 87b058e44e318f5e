package resolver

import "testing"

// TestOnlyFramework: gpucheck narrows an unpinned pytorch-channel release
// beside cudatoolkit to the newest release only where nothing else of the
// file could rule that release out (corpus 001 holds only the framework,
// its companions and cudatoolkit).
func TestOnlyFramework(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"channels: [conda-forge, pytorch]\ndependencies:\n  - pytorch::pytorch\n  - pytorch::torchvision\n  - conda-forge::cudatoolkit=11.3\n", true},
		{"channels: [conda-forge, pytorch]\ndependencies:\n  - python\n  - pip\n  - pytorch::pytorch\n  - cudatoolkit=11.3\n", true},
		// numpy=1.15 has no build for the newest release's Pythons
		{"channels: [conda-forge, pytorch]\ndependencies:\n  - pytorch::pytorch\n  - cudatoolkit=11.3\n  - numpy=1.15\n", false},
		{"channels: [conda-forge, pytorch]\ndependencies:\n  - pytorch::pytorch\n  - cudatoolkit=11.3\n  - scikit-learn\n", false},
	}
	for _, tt := range tests {
		st := resolveSrc(t, tt.src)
		if st.Framework == nil {
			t.Fatalf("no framework in %q", tt.src)
		}
		if st.Framework.OnlyFramework != tt.want {
			t.Errorf("%q: OnlyFramework %v, want %v", tt.src, st.Framework.OnlyFramework, tt.want)
		}
	}
}
