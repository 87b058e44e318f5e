package resolver

import (
	"slices"
	"strings"
	"testing"
)

// An open conda-forge cupy spec is judged over every build of every release
// it admits for the environment's CUDA (X5_CF_CUPY_12_13): cupy>=12.0.0
// beside cudatoolkit 11.8 admits 12.0.0 to 13.6.0 (nvcc 11.2 and 11.8
// builds; 14.x builds are CUDA 12 and 13 only), so the package is known with
// both lists as its builds. A spec reaching below the first release with
// complete rows, or an environment of unknown CUDA, stays unknown with why.
func TestCondaForgeCupyRange(t *testing.T) {
	src := "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - cupy>=12.0.0\n"
	st := resolveSrc(t, src)
	var got *GPUPackage
	for i := range st.GPUPackages {
		if st.GPUPackages[i].Name == "cupy" {
			got = &st.GPUPackages[i]
		}
	}
	if got == nil || !got.Known || got.Unknown != "" {
		t.Fatalf("want cupy known, got %+v", got)
	}
	if len(got.Builds) != 2 {
		t.Fatalf("want the nvcc 11.2 and 11.8 builds, got %+v", got.Builds)
	}
	if !slices.Equal(got.Builds[0].Code.PTX, []string{"3.5", "5.0", "8.6"}) || !slices.Equal(got.Builds[1].Code.PTX, []string{"9.0"}) {
		t.Errorf("builds = %+v", got.Builds)
	}
	// A bare cupy beside cudatoolkit 11.8: 6.4.0 to 8.4.0 built only for
	// CUDA 9.2 to 11.1, each pinned exactly, and 14.x only for CUDA 12 and
	// 13, so the builds are the 11.2 ones of 8.5.0 to 12.2.0 (two lists)
	// and the 11.8 one of 12.3.0 to 13.6.0.
	st = resolveSrc(t, "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - cupy\n")
	for _, p := range st.GPUPackages {
		if p.Name != "cupy" {
			continue
		}
		if !p.Known || len(p.Builds) != 3 || !strings.HasPrefix(p.Builds[0].Label, "cupy 8.5.0 to ") || !strings.HasPrefix(p.Builds[2].Label, "cupy 12.3.0 to 13.6.0") {
			t.Errorf("bare cupy beside cudatoolkit 11.8: Known=%v Unknown=%q builds %+v", p.Known, p.Unknown, p.Builds)
		}
	}
	// Beside CUDA 11.0 every admitted release has one 11.0 build (pinned
	// exactly); the 11.2 builds (nvcc run_exports >=11.2) cannot install.
	st = resolveSrc(t, "channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.0\n  - cupy\n")
	for _, p := range st.GPUPackages {
		if p.Name == "cupy" && (!p.Known || len(p.Builds) != 0 || !slices.Equal(p.Code.PTX, []string{"3.5", "5.0", "8.0"})) {
			t.Errorf("bare cupy beside cudatoolkit 11.0: Known=%v Unknown=%q builds %+v code %+v", p.Known, p.Unknown, p.Builds, p.Code)
		}
	}
	for _, tt := range []struct{ src, want string }{
		{"channels: [conda-forge]\ndependencies:\n  - cudatoolkit=11.0\n  - cupy>=12.2.0\n", "no conda-forge release it admits has a build for CUDA 11.0"},
		{"channels: [conda-forge]\ndependencies:\n  - cupy>=13\n", "which CUDA this environment has is not known"},
		{"channels: [anaconda, conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - cupy\n", "it comes from defaults, whose builds of cupy the knowledge base does not describe"},
		{"channels: [conda-forge]\ndependencies:\n  - cupy>=13\n  - pip\n  - pip:\n    - torch==2.1.0+cu118\n", "no conda cudatoolkit or cuda-version package holds"},
	} {
		st := resolveSrc(t, tt.src)
		for _, p := range st.GPUPackages {
			if p.Name == "cupy" && (p.Known || !strings.Contains(p.Unknown, tt.want)) {
				t.Errorf("%q: want unknown (%q), got Known=%v Unknown=%q", tt.src, tt.want, p.Known, p.Unknown)
			}
		}
	}
}
