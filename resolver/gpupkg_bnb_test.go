package resolver

import (
	"slices"
	"testing"
)

// bitsandbytes' wheel carries one library per CUDA release and loads the
// one torch's CUDA names: the row of that CUDA describes the file's build,
// not the first row of the release.
func TestBitsandbytesRowFollowsTorchCUDA(t *testing.T) {
	tests := []struct {
		name, src string
		cuda      []string
		sass      []string
		unknown   bool
	}{
		{"torch cu124 takes the 12.x library",
			"dependencies:\n  - pip\n  - pip:\n    - torch==2.6.0\n    - bitsandbytes==0.45.5\n",
			[]string{"12.4"}, []string{"5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0"}, false},
		{"torch cu118 takes the 11.8 library",
			"channels: [pytorch, nvidia]\ndependencies:\n  - pytorch=2.3.1\n  - pytorch-cuda=11.8\n  - pip\n  - pip:\n    - bitsandbytes==0.43.1\n",
			[]string{"11.8"}, []string{"5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9"}, false},
		{"torch's CUDA with no library in the wheel stays unknown",
			"dependencies:\n  - pip\n  - pip:\n    - torch==2.8.0\n    - bitsandbytes==0.43.1\n",
			nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			var got *GPUPackage
			for i := range st.GPUPackages {
				if st.GPUPackages[i].Name == "bitsandbytes" {
					got = &st.GPUPackages[i]
				}
			}
			if got == nil {
				t.Fatalf("no bitsandbytes package in %+v", st.GPUPackages)
			}
			if tt.unknown {
				if got.Known || got.Code.Known || got.Unknown == "" {
					t.Fatalf("want unknown with a reason, got Known=%v Code=%+v Unknown=%q", got.Known, got.Code, got.Unknown)
				}
				return
			}
			if !slices.Equal(got.BuiltFor.CUDA, tt.cuda) {
				t.Errorf("BuiltFor.CUDA = %v, want %v", got.BuiltFor.CUDA, tt.cuda)
			}
			if !got.Code.Known || !slices.Equal(got.Code.SASS, tt.sass) {
				t.Errorf("Code = %+v, want SASS %v", got.Code, tt.sass)
			}
		})
	}
}
