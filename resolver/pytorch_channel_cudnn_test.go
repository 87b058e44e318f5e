package resolver

import "testing"

// TestPytorchChannelCuDNN: a pytorch-channel build loads the cuDNN it
// copies into its package. Its build string says which where it names
// major.minor.patch (cudnn7.6.3) and wins; otherwise the knowledge base's
// row for the series and CUDA variant says (1.11 for CUDA 11.3: 8.2.0,
// also beside a build string that names only the major, cudnn8), or the
// release's own row where the series' releases differ (1.7.0 for CUDA 11.0
// carries 8.0.3, 1.7.1 8.0.5); with neither (1.7 for CUDA 11.0, the release
// open) the release stays unknown.
func TestPytorchChannelCuDNN(t *testing.T) {
	tests := []struct {
		name, src   string
		version     string
		kbRow, know bool
	}{
		{"row", "channels: [pytorch]\ndependencies:\n  - pytorch=1.11.0\n  - cudatoolkit=11.3\n", "8.2.0", true, true},
		{"row beside a major-only build string", "channels: [pytorch]\ndependencies:\n  - pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0\n  - cudatoolkit=11.6\n", "8.3.2", true, true},
		{"build string wins", "channels: [pytorch]\ndependencies:\n  - pytorch=1.7.0=py3.8_cuda10.1.243_cudnn7.6.3_0\n  - cudatoolkit=10.1\n", "7.6.3", false, true},
		{"release row", "channels: [pytorch]\ndependencies:\n  - pytorch=1.7.0\n  - cudatoolkit=11.0\n", "8.0.3", true, true},
		{"the other release's row", "channels: [pytorch]\ndependencies:\n  - pytorch=1.7.1\n  - cudatoolkit=11.0\n", "8.0.5", true, true},
		{"series row before 1.9", "channels: [pytorch]\ndependencies:\n  - pytorch=1.5.1\n  - cudatoolkit=10.2\n", "7.6.5", true, true},
		{"neither", "channels: [pytorch]\ndependencies:\n  - pytorch=1.7\n  - cudatoolkit=11.0\n", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			got := cudnnOf(t, st)
			if got.Version != tt.version || got.Known != tt.know {
				t.Errorf("cudnn %q known %v, want %q %v (%+v)", got.Version, got.Known, tt.version, tt.know, got)
			}
			fromRow := len(got.Evidence) == 1 && got.Evidence[0].Kind == EvidenceKBRow
			if fromRow != tt.kbRow {
				t.Errorf("evidence %+v: from a KB row %v, want %v", got.Evidence, fromRow, tt.kbRow)
			}
		})
	}
}
