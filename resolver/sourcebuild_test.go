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

// PyG's 2020 releases (torch-scatter 2.0.4, torch-sparse 0.6.1,
// torch-cluster 1.5.4, torch-spline-conv 1.2.0) compiled by pip from the
// package index's source carry the same code on every install machine:
// their setup.py passes -arch=sm_35, and each refuses at import a build
// whose CUDA major.minor is not torch's. That decides the build only for
// a conda CUDA torch (installed before pip runs) whose nvcc can target
// sm_35; every other case stays unknown and says why (corpus 120, 185).
func TestPyGSourceBuildDecided(t *testing.T) {
	const pt15 = "  - cudatoolkit=10.1\n  - pytorch=1.5.0=py3.7_cuda10.1.243_cudnn7.6.3_0\n"
	tests := []struct {
		name, conda, pip string
		known            bool
		torch, cuda      string // BuiltFor of a decided build
		why              string // in Unknown of an undecided one
	}{
		{name: "conda torch 1.5.0 CUDA 10.1, torch-scatter 2.0.4", conda: pt15, pip: "      - torch-scatter==2.0.4\n", known: true, torch: "1.5.0", cuda: "10.1"},
		{name: "conda torch 1.5.0 CUDA 10.1, torch-cluster 1.5.4", conda: pt15, pip: "      - torch-cluster==1.5.4\n", known: true, torch: "1.5.0", cuda: "10.1"},
		{name: "conda torch 1.4.0 CUDA 10.1, torch-spline-conv 1.2.0", conda: "  - cudatoolkit=10.1\n  - pytorch=1.4.0=py3.7_cuda10.1.243_cudnn7.6.3_0\n", pip: "      - torch-spline-conv==1.2.0\n", known: true, torch: "1.4.0", cuda: "10.1"},
		{name: "an import check of the CUDA major alone", conda: pt15, pip: "      - torch-spline-conv==1.2.1\n", why: "compares the CUDA major alone"},
		{name: "architectures left to torch", conda: pt15, pip: "      - torch-scatter==2.0.9\n", why: "TORCH_CUDA_ARCH_LIST, else those of the GPUs the install machine has"},
		{name: "torch from the same pip install", pip: "      - torch==1.5.0\n      - torch-sparse==0.6.1\n", why: "since torch comes from pip too"},
		{name: "a CPU-only conda torch", conda: "  - cpuonly\n  - pytorch=1.5.0\n", pip: "      - torch-sparse==0.6.1\n", why: "not a CUDA build of a known runtime"},
		{name: "a CUDA 12 torch, whose nvcc cannot make sm_35", conda: "  - pytorch=2.1.0\n  - pytorch-cuda=12.1\n", pip: "      - torch-scatter==2.0.4\n", why: "which the nvcc of CUDA 12.1 cannot target: the build fails"},
		{name: "a release the KB has no source row for", conda: pt15, pip: "      - torch-scatter==2.0.3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=3.7\n" + tt.conda + "  - pip\n  - pip:\n" + tt.pip
			st, _ := lintSrc(t, src)
			var p *GPUPackage
			for i := range st.GPUPackages {
				if strings.HasPrefix(st.GPUPackages[i].Name, "torch-") && st.GPUPackages[i].Role == RoleExtension {
					p = &st.GPUPackages[i]
				}
			}
			if p == nil {
				t.Fatalf("no PyG extension in %+v", st.GPUPackages)
			}
			if !p.SourceBuild {
				t.Fatalf("not read as a source build: %+v", p)
			}
			if p.Known != tt.known {
				t.Fatalf("Known = %v, want %v (%s)", p.Known, tt.known, p.Unknown)
			}
			if tt.known {
				if !p.Code.Known || strings.Join(p.Code.SASS, ",") != "3.5" || strings.Join(p.Code.PTX, ",") != "3.5" {
					t.Errorf("code = %+v, want SASS 3.5 and PTX 3.5 from -arch=sm_35", p.Code)
				}
				if strings.Join(p.BuiltFor.Torch, ",") != tt.torch || strings.Join(p.BuiltFor.CUDA, ",") != tt.cuda {
					t.Errorf("built for %+v, want torch %s CUDA %s", p.BuiltFor, tt.torch, tt.cuda)
				}
				if !hasEvidence(p.Evidence, EvidenceKBRow) {
					t.Errorf("no KB row in the evidence: %+v", p.Evidence)
				}
				return
			}
			if !strings.Contains(p.Unknown, "has only its source") || !strings.Contains(p.Unknown, tt.why) {
				t.Errorf("Unknown = %q, want the source build and %q", p.Unknown, tt.why)
			}
			if p.Code.Known {
				t.Errorf("an undecided source build has code %+v", p.Code)
			}
		})
	}
}
