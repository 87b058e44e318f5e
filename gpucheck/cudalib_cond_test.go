package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestLibCarriesCuDNNBlackwell: cuDNN carries Blackwell code from 9.10.2
// in builds for CUDA 12.8 or later. A build whose CUDA is known decides it
// (a torch wheel's pin carries the wheel's CUDA, a bundled cuDNN goes with
// the framework build's CUDA, a cu13 wheel names a major that settles it);
// a pip nvidia-cudnn-cu12 names CUDA 12 only and stays open, as does a
// build for CUDA 12.6 (forward compatibility covers only some graphs) and
// a release before 9.10.2.
func TestLibCarriesCuDNNBlackwell(t *testing.T) {
	k := kb.Default()
	rtx5090 := cc{Major: 12, Minor: 0}
	b200 := cc{Major: 10, Minor: 0}
	gb10 := cc{Major: 12, Minor: 1}
	pinned := func(ver, cuda string) *resolver.GPUPackage {
		return &resolver.GPUPackage{Name: "nvidia-cudnn-cu12", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: ver, BundledWith: "torch 2.8.0", BuiltFor: resolver.BuiltFor{CUDA: []string{cuda}}, Known: true}
	}
	named := func(name, ver string, cuda ...string) *resolver.GPUPackage {
		return &resolver.GPUPackage{Name: name, Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: ver, BuiltFor: resolver.BuiltFor{CUDA: cuda}, Known: true}
	}
	bundledAt := func(ver string) *resolver.GPUPackage {
		return &resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: ver, BundledWith: "torch 2.8.0", Known: true}
	}
	bundled := bundledAt("9.10.2")
	stack := func(cuda string) *resolver.Stack {
		st := &resolver.Stack{}
		if cuda != "" {
			st.CUDA = &resolver.CUDAInfo{Version: cuda}
		}
		return st
	}
	tests := []struct {
		name  string
		st    *resolver.Stack
		p     *resolver.GPUPackage
		gpu   cc
		want  carries
		words string
	}{
		{"torch pin for 12.8 on sm_120", stack("12.8"), pinned("9.10.2.21", "12.8"), rtx5090, carriesYes, ""},
		{"torch pin for 12.8 on sm_100", stack("12.8"), pinned("9.10.2.21", "12.8"), b200, carriesYes, ""},
		{"torch pin for 12.9, newer cuDNN", stack("12.9"), pinned("9.17.1.4", "12.9"), rtx5090, carriesYes, ""},
		{"torch pin for 12.6", stack("12.6"), pinned("9.10.2.21", "12.6"), rtx5090, carriesUnknown, "cudnn 9.10.2.21 is a build for CUDA 12.6, and cudnn is known to carry code for sm_120 only in builds for CUDA >=12.8"},
		{"before 9.10.2", stack("12.8"), pinned("9.7.1.26", "12.8"), rtx5090, carriesUnknown, "cudnn 9.7.1.26 predates 9.10.2, the first release known to carry code of its own for sm_120"},
		{"bundled, build's CUDA 12.8", stack("12.8"), bundled, rtx5090, carriesYes, ""},
		{"bundled, build's CUDA 12.4", stack("12.4"), bundled, rtx5090, carriesUnknown, "is a build for CUDA 12.4"},
		{"bundled, build's CUDA not known", stack(""), bundled, rtx5090, carriesUnknown, "which CUDA release the cudnn build is for is not known"},
		{"pip cu12 named in the file", stack("12.8"), named("nvidia-cudnn-cu12", "9.10.2.21", "12"), rtx5090, carriesUnknown, "nvidia-cudnn-cu12 names CUDA 12 only, not which 12.x release the build is for"},
		{"pip cu13 named in the file", stack("13.0"), named("nvidia-cudnn-cu13", "9.19.0.56", "13"), rtx5090, carriesYes, ""},
		{"conda cudnn named in the file", stack("12.8"), named("cudnn", "9.10.2.21"), rtx5090, carriesUnknown, "which CUDA release the cudnn build is for is not known"},
		// cuDNN 9 built for CUDA 11 (the pytorch channel's 2.4/2.5 CUDA
		// 11.8 builds copy 9.1.0 in): not forward compatible, no Blackwell
		// SASS, so it fails there; the same release built for CUDA 12.4
		// stays open (forward compatibility), as does a CUDA 11 build past
		// the releases the rows speak for.
		{"bundled 9.1.0, build's CUDA 11.8 on sm_120", stack("11.8"), bundledAt("9.1.0"), rtx5090, carriesNo, "no cudnn release through 9.5.1 carries code of its own for sm_120"},
		{"bundled 9.1.0, build's CUDA 11.8 on sm_100", stack("11.8"), bundledAt("9.1.0"), b200, carriesNo, "not hardware forward compatible"},
		{"bundled 9.1.0, build's CUDA 12.4 on sm_120", stack("12.4"), bundledAt("9.1.0"), rtx5090, carriesUnknown, "predates 9.10.2"},
		{"bundled 9.6.0, build's CUDA 11.8 on sm_120", stack("11.8"), bundledAt("9.6.0"), rtx5090, carriesUnknown, "predates 9.10.2"},
		// No family row: sm_121 has no row, so nothing is claimed.
		{"torch pin for 12.8 on sm_121", stack("12.8"), pinned("9.10.2.21", "12.8"), gb10, carriesUnknown, "whether cudnn 9.10.2.21 carries code for sm_121 is not known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checker{st: tt.st, k: k}
			assertCarries(t, c, tt.p, tt.gpu, tt.want, tt.words)
		})
	}
}

// TestLibCarriesToolkitWheelVersion: a toolkit library a torch wheel pins
// is compared as the toolkit release it shipped in (the wheel's CUDA),
// never by its own version: cuFFT 11.3.3.41 is CUDA 12.8's and carries
// Blackwell code, though 11.3 < 12.8; cuSPARSE 12.5.4.2 of CUDA 12.6 does
// not, though 12.5 < 12.8 would say the same for the wrong reason; and a
// CUDA 13.0 cuSPARSE (12.6.3.3) has dropped Maxwell, though 12.6 < 13.0.
func TestLibCarriesToolkitWheelVersion(t *testing.T) {
	k := kb.Default()
	lib := func(name, l, ver, cuda string) *resolver.GPUPackage {
		return &resolver.GPUPackage{Name: name, Role: resolver.RoleCUDALibrary, Lib: l, Version: ver, BundledWith: "torch 2.7.0", BuiltFor: resolver.BuiltFor{CUDA: []string{cuda}}, Known: true}
	}
	tests := []struct {
		p     *resolver.GPUPackage
		gpu   cc
		want  carries
		words string
	}{
		{lib("nvidia-cufft-cu12", "cufft", "11.3.3.41", "12.8"), cc{Major: 12}, carriesYes, ""},
		{lib("nvidia-cublas-cu12", "cublas", "12.8.3.14", "12.8"), cc{Major: 10}, carriesYes, ""},
		{lib("nvidia-cusparse-cu12", "cusparse", "12.5.4.2", "12.6"), cc{Major: 12}, carriesUnknown, "the CUDA 12.6 libraries have no code of their own for sm_120 (CUDA 12.6's compiler targets nothing above sm_90)"},
		{lib("nvidia-cusparse", "cusparse", "12.6.3.3", "13.0"), cc{Major: 5, Minor: 2}, carriesNo, "cusparse dropped sm_52 in CUDA 13.0"},
		{&resolver.GPUPackage{Name: "nvidia-cufft-cu12", Role: resolver.RoleCUDALibrary, Lib: "cufft", Version: "11.3.3.41", BundledWith: "torch 2.7.0", Known: true}, cc{Major: 12}, carriesUnknown, "which CUDA toolkit release nvidia-cufft-cu12 11.3.3.41 belongs to is not known"},
		// The runtime's own libraries and the cuda-toolkit meta package
		// already name their release.
		{ptr(resolver.ToolkitLib("cufft", "12.6")), cc{Major: 12}, carriesUnknown, "the CUDA 12.6 libraries have no code of their own"},
		{ptr(resolver.ToolkitLib("cufft", "12.8")), cc{Major: 12}, carriesYes, ""},
		{&resolver.GPUPackage{Name: "cuda-toolkit[cufft]", Role: resolver.RoleCUDALibrary, Lib: "cufft", Version: "13.0", BundledWith: "torch 2.11.0", Known: true}, cc{Major: 12}, carriesYes, ""},
		// A package the file names whose version does not follow the
		// toolkit's stays open, unless a torch wheel of one CUDA pins that
		// release (torch 2.7.0+cu128 pins cuFFT 11.3.3.41: review
		// forty-four F40) or a releases row pairs it.
		{&resolver.GPUPackage{Name: "nvidia-cufft-cu12", Role: resolver.RoleCUDALibrary, Lib: "cufft", Version: "11.2.3.18", BuiltFor: resolver.BuiltFor{CUDA: []string{"12"}}, Known: true}, cc{Major: 12}, carriesUnknown, "belongs to is not known"},
		{&resolver.GPUPackage{Name: "nvidia-cufft-cu12", Role: resolver.RoleCUDALibrary, Lib: "cufft", Version: "11.3.3.41", BuiltFor: resolver.BuiltFor{CUDA: []string{"12"}}, Known: true}, cc{Major: 12}, carriesYes, ""},
		{&resolver.GPUPackage{Name: "libcurand", Role: resolver.RoleCUDALibrary, Lib: "curand", Version: "10.3.2.106", Known: true}, cc{Major: 9}, carriesYes, ""},
	}
	for _, tt := range tests {
		t.Run(tt.p.Name+" "+tt.p.Version+" "+tt.gpu.sm(), func(t *testing.T) {
			c := &checker{st: &resolver.Stack{CUDA: &resolver.CUDAInfo{Version: "12.8"}}, k: k}
			assertCarries(t, c, tt.p, tt.gpu, tt.want, tt.words)
		})
	}
}

func ptr(p resolver.GPUPackage) *resolver.GPUPackage { return &p }

// TestLibCarriesCuDNNNotForwardCompatible: a cuDNN before 9.0.0 is not
// hardware forward compatible, so on a GPU no release through a row's
// none_through carries code for, it runs nowhere: cuDNN 7 on Ampere and
// Ada, cuDNN 8.0 … 8.5.0 on Hopper, any cuDNN 8 on Blackwell. A release
// past the row stays as before (8.7.0 on Hopper: no row says it lacks
// sm_90, nor that it has it), and a GPU of the same major as the newest
// the release lists (7.5 for cuDNN 7, 8.9 for cuDNN 8.2) has no such row:
// a cubin runs on a higher minor of its major. A case "ver@cuda" is a
// build for that CUDA (11.3 otherwise).
func TestLibCarriesCuDNNNotForwardCompatible(t *testing.T) {
	k := kb.Default()
	bundled := func(ver string) *resolver.GPUPackage {
		return &resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: ver, BundledWith: "torch 1.11.0", Known: true}
	}
	tests := []struct {
		ver   string
		gpu   cc
		want  carries
		words string
	}{
		{"7.6.3", cc{Major: 8, Minor: 0}, carriesNo, "no cudnn release through 7.6.5 carries code of its own for sm_80"},
		{"7.6.5", cc{Major: 8, Minor: 9}, carriesNo, "not hardware forward compatible"},
		{"7.4.1", cc{Major: 7, Minor: 5}, carriesUnknown, "whether cudnn 7.4.1 carries code for sm_75 is not known"},
		{"8.0.5", cc{Major: 8, Minor: 6}, carriesUnknown, ""},
		{"8.2.0", cc{Major: 8, Minor: 9}, carriesUnknown, ""},
		{"8.2.0", cc{Major: 9, Minor: 0}, carriesNo, "no cudnn release through 8.5.0 carries code of its own for sm_90"},
		{"8.5.0", cc{Major: 9, Minor: 0}, carriesNo, "through 8.5.0"},
		{"8.7.0", cc{Major: 9, Minor: 0}, carriesUnknown, "cudnn 8.7.0 predates 8.9.1, the first release known to carry code of its own for sm_90; whether it carries code or PTX that serves sm_90 is not known"},
		// 8.9.1's matrix lists Hopper for its CUDA 11.x and 12.x packages
		// (cudalibs-hopper.yaml); a CUDA 11.3 build cannot hold sm_90 SASS
		{"8.9.2@11.8", cc{Major: 9, Minor: 0}, carriesYes, ""},
		{"8.9.2@11.3", cc{Major: 9, Minor: 0}, carriesUnknown, ""},
		{"8.7.0", cc{Major: 10, Minor: 0}, carriesNo, "no cudnn release through 8.9.7 carries code of its own for sm_100"},
		{"8.9.7", cc{Major: 12, Minor: 0}, carriesNo, "sm_120"},
		// cuDNN 9 for CUDA 12 may run through forward compatibility: the
		// Blackwell rows of 9.10.2 decide, not these. Built for CUDA 11 it
		// may not (the cuda "<12.0" none_through rows).
		{"9.1.0@12.4", cc{Major: 12, Minor: 0}, carriesUnknown, "predates 9.10.2"},
		{"9.1.0", cc{Major: 12, Minor: 0}, carriesNo, "no cudnn release through 9.5.1 carries code of its own for sm_120"},
	}
	for _, tt := range tests {
		t.Run(tt.ver+" "+tt.gpu.sm(), func(t *testing.T) {
			ver, cuda, ok := strings.Cut(tt.ver, "@")
			if !ok {
				cuda = "11.3"
			}
			tt.ver = ver
			c := &checker{st: &resolver.Stack{CUDA: &resolver.CUDAInfo{Version: cuda}}, k: k}
			assertCarries(t, c, bundled(tt.ver), tt.gpu, tt.want, tt.words)
		})
	}
}

// TestLibCarriesCuDNNCeiling: a cuDNN whose release the file leaves open
// is bounded by the build's CUDA (NVIDIA built nothing newer than 7.6.5
// for CUDA 10.0), so where a none_through row covers the bound every
// release it can load fails (TF 1.15 for CUDA 10.0 on an A100). The bound
// never makes one run: within the supported range, for a CUDA the
// knowledge base has no bound for, or where the build's CUDA is open, the
// release stays unknown.
func TestLibCarriesCuDNNCeiling(t *testing.T) {
	k := kb.Default()
	open := func(cuda ...string) *resolver.GPUPackage {
		return &resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", BundledWith: "tensorflow 1.15.0", BuiltFor: resolver.BuiltFor{CUDA: cuda}, Known: true}
	}
	tests := []carriesCase{
		{"CUDA 10.0 on sm_80", open("10.0"), cc{Major: 8}, carriesNo, "none built for CUDA 10.0 is newer than 7.6.5, no cudnn release through 7.6.5 carries code of its own for sm_80"},
		{"CUDA 9.0 on sm_86", open("9.0"), cc{Major: 8, Minor: 6}, carriesNo, "newer than 7.6.5"},
		{"CUDA 10.0 on sm_90", open("10.0"), cc{Major: 9}, carriesNo, "through 8.5.0"},
		{"CUDA 10.0 on sm_120", open("10.0"), cc{Major: 12}, carriesNo, "through 8.9.7"},
		{"CUDA 10.0 on sm_75, supported", open("10.0"), cc{Major: 7, Minor: 5}, carriesUnknown, "which cudnn release it loads is not known"},
		{"CUDA 10.1, cuDNN 8 was built for it", open("10.1"), cc{Major: 8}, carriesUnknown, "which cudnn release it loads is not known"},
		{"CUDA 10.1 on sm_90: none newer than 8.0.5", open("10.1"), cc{Major: 9}, carriesNo, "none built for CUDA 10.1 is newer than 8.0.5"},
		// review sixteen #19: NVIDIA built 7.5.0 … 8.0.5 for CUDA 10.1,
		// all of them with Kepler code
		{"CUDA 10.1 on sm_37: every release of the span carries it", open("10.1"), cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"CUDA 10.2 on sm_35: 7.6.5 … 8.7.0 carry it", open("10.2"), cc{Major: 3, Minor: 5}, carriesYes, ""},
		{"CUDA 10.0 on sm_37: 7.3.0 is older than any release read", open("10.0"), cc{Major: 3, Minor: 7}, carriesUnknown, "which cudnn release it loads is not known"},
		{"CUDA major only", open("10"), cc{Major: 8}, carriesUnknown, "which cudnn release it loads is not known"},
		{"CUDA not known", open(), cc{Major: 8}, carriesUnknown, "which cudnn release it loads is not known"},
	}
	runCarries(t, k, tests)
}

// TestLibCarriesCuDNNWithin: a cuDNN whose release is open but whose
// releases all start with what the file or the framework fixes (cudnn=8.7
// admits only 8.7.x; TensorFlow built with cuDNN 7.6 opens libcudnn.so.7,
// and 7.6.5 is the last cuDNN 7) fails where a none_through row covers
// every such release, and stays unknown where one of them may be newer
// than the row (cuDNN 8 on Hopper: 8.6.0 … 8.9.7 are not covered by 8.5.0;
// cuDNN 9 has no last release and no such row for CUDA 12).
func TestLibCarriesCuDNNWithin(t *testing.T) {
	k := kb.Default()
	within := func(w string, cuda ...string) *resolver.GPUPackage {
		return &resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", BuiltFor: resolver.BuiltFor{CUDA: cuda}, Within: w, WithinWhy: "the file admits only cuDNN " + w + ".x"}
	}
	tests := []carriesCase{
		{"major 7 on sm_80", within("7"), cc{Major: 8}, carriesNo, "the file admits only cuDNN 7.x, and the last cuDNN 7 is 7.6.5; no cudnn release through 7.6.5 carries code of its own for sm_80"},
		{"major 7 on sm_90", within("7"), cc{Major: 9}, carriesNo, "through 8.5.0"},
		{"8.1 on sm_90", within("8.1"), cc{Major: 9}, carriesNo, "the file admits only cuDNN 8.1.x; no cudnn release through 8.5.0"},
		// 8.5.0 is NVIDIA's one 8.5 release, covered by the 8.5.0 row
		{"8.5 on sm_90", within("8.5"), cc{Major: 9}, carriesNo, "the file admits only cuDNN 8.5.x, and the last cuDNN 8.5 is 8.5.0; no cudnn release through 8.5.0"},
		{"8.8 on sm_90", within("8.8", "11.8"), cc{Major: 9}, carriesUnknown, "which cudnn 8.8.x release it loads is not known"},
		{"major 8 on sm_90", within("8"), cc{Major: 9}, carriesUnknown, "which cudnn 8.x release it loads is not known"},
		{"major 8 on sm_100", within("8"), cc{Major: 10}, carriesNo, "the last cuDNN 8 is 8.9.7; no cudnn release through 8.9.7"},
		{"8.7 on sm_120", within("8.7"), cc{Major: 12}, carriesNo, "through 8.9.7"},
		{"major 7 on sm_75", within("7"), cc{Major: 7, Minor: 5}, carriesUnknown, "which cudnn 7.x release"},
		{"major 9, CUDA open, on sm_120", within("9"), cc{Major: 12}, carriesUnknown, "which cudnn 9.x release"},
		{"major 9 for CUDA 11.8 on sm_120", within("9", "11.8"), cc{Major: 12}, carriesUnknown, "which cudnn 9.x release"},
		// cuDNN lists no Kepler from 8.8.0 on: every 8.8.x, 8.9.x and 9.x
		// release lacks it; an 8.7.x after 8.7.0 and an 8.x may not.
		{"8.8 on sm_37", within("8.8"), cc{Major: 3, Minor: 7}, carriesNo, "which cudnn release it loads is not known, but the file admits only cuDNN 8.8.x; cudnn has no code for sm_37 from 8.8.0 on (it dropped sm_37 after 8.7.0)"},
		{"8.9 on sm_35", within("8.9"), cc{Major: 3, Minor: 5}, carriesNo, "from 8.8.0 on"},
		{"major 9 on sm_37", within("9"), cc{Major: 3, Minor: 7}, carriesNo, "the file admits only cuDNN 9.x; cudnn has no code for sm_37 from 8.8.0 on"},
		// 8.7.0 is NVIDIA's one 8.7 release, and it carries Kepler; 8.0.x
		// all lie below it
		{"8.7 on sm_37", within("8.7"), cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"8.0 on sm_37", within("8.0"), cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"major 8 on sm_37", within("8"), cc{Major: 3, Minor: 7}, carriesUnknown, "which cudnn 8.x release it loads is not known"},
		// Hopper from 8.9.1 in builds for CUDA 11.8 or newer
		// (cudalibs-hopper.yaml): every 9.1.x of a CUDA 12 build carries it;
		// the build's CUDA open, or 8.9 (8.9.0 predates 8.9.1), stays open
		{"9.1 for CUDA 12 on sm_90", within("9.1", "12"), cc{Major: 9}, carriesYes, ""},
		{"major 9 for CUDA 12.4 on sm_89", within("9", "12.4"), cc{Major: 8, Minor: 9}, carriesYes, ""},
		{"9.1, CUDA open, on sm_90", within("9.1"), cc{Major: 9}, carriesUnknown, "which cudnn 9.1.x release it loads is not known"},
		{"8.9 for CUDA 12 on sm_90", within("8.9", "12"), cc{Major: 9}, carriesUnknown, "which cudnn 8.9.x release it loads is not known"},
		{"9.1 for CUDA 11.3 on sm_90", within("9.1", "11.3"), cc{Major: 9}, carriesUnknown, "which cudnn 9.1.x release"},
	}
	runCarries(t, k, tests)
}

// TestLibCarriesOlderToolkit: a release before an until row keeps the
// architecture only where its build's compiler could target the GPU: cuDNN
// 7.1.2 built for CUDA 8.0 (whose nvcc stops at sm_6x) has no code of its
// own for a V100, so the until row does not make it run there; built for
// CUDA 9.0 it does.
func TestLibCarriesOlderToolkit(t *testing.T) {
	k := kb.Default()
	for _, tt := range []struct {
		cuda  string
		want  carries
		words string
	}{
		{"8.0", carriesUnknown, "cudnn 7.1.2 is a build for CUDA 8.0, whose compiler emits SASS up to sm_62"},
		{"9.0", carriesYes, ""},
	} {
		p := &resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: "7.1.2", BundledWith: "torch 1.0.0", BuiltFor: resolver.BuiltFor{CUDA: []string{tt.cuda}}, Known: true}
		c := &checker{st: &resolver.Stack{}, k: k}
		got, why := c.libCarries(p, cc{Major: 7})
		if got != tt.want || !strings.Contains(why, tt.words) {
			t.Errorf("CUDA %s: libCarries = %d %q, want %d with %q", tt.cuda, got, why, tt.want, tt.words)
		}
	}
}

// TestLibCarriesCuDNNKepler: NVIDIA's support matrices list Kepler (SM 3.5
// and later for the CUDA 11 packages) for every cuDNN read from 7.5.0
// through 8.5.0; the 8.7 matrix includes sm_35 and the 8.8 matrix requires
// 5.0 or later, as kazeevn/pytorch-iapetus and nixpkgs quote them; 8.9.1,
// 8.9.5, 8.9.6, 9.0.0 and 9.5.x list 5.0 as the lowest. So 8.6.0 and 8.7.0
// carry Kepler code (carries_through 8.7.0) and 8.8.0 on lacks it (until);
// a release before 7.5.0 was not read. The wheels' four-part versions
// (nvidia-cudnn-cu11 9.1.0.70, 8.7.0.84) compare as releases.
func TestLibCarriesCuDNNKepler(t *testing.T) {
	k := kb.Default()
	tests := []struct {
		ver   string
		gpu   cc
		want  carries
		words string
	}{
		{"7.6.5", cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"8.2.0", cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"8.5.0", cc{Major: 3, Minor: 5}, carriesYes, ""},
		{"8.5.0.96", cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"8.6.0.163", cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"8.7.0", cc{Major: 3, Minor: 7}, carriesYes, ""},
		{"8.7.0.84", cc{Major: 3, Minor: 5}, carriesYes, ""},
		{"8.8.0", cc{Major: 3, Minor: 7}, carriesNo, "cudnn has no code for sm_37 from 8.8.0 on (it dropped sm_37 after 8.7.0)"},
		{"8.8.1.3", cc{Major: 3, Minor: 5}, carriesNo, "from 8.8.0 on"},
		{"8.9.2.26", cc{Major: 3, Minor: 5}, carriesNo, "cudnn has no code for sm_35 from 8.8.0 on"},
		{"8.9.5", cc{Major: 3, Minor: 7}, carriesNo, "cudnn has no code for sm_37 from 8.8.0 on (it dropped sm_37 after 8.7.0)"},
		{"9.1.0.70", cc{Major: 3, Minor: 7}, carriesNo, "cudnn has no code for sm_37 from 8.8.0 on"},
		{"9.5.1.17", cc{Major: 3, Minor: 5}, carriesNo, "dropped sm_35 after 8.7.0"},
		{"7.0.5", cc{Major: 3, Minor: 7}, carriesUnknown, "predates 7.5.0"},
		// Compute capability 3.0 has no row: only the CUDA 10.x packages list it.
		{"8.2.0", cc{Major: 3, Minor: 0}, carriesUnknown, "whether cudnn 8.2.0 carries code for sm_30 is not known"},
	}
	for _, tt := range tests {
		t.Run(tt.ver+" "+tt.gpu.sm(), func(t *testing.T) {
			p := &resolver.GPUPackage{Name: "nvidia-cudnn-cu11", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: tt.ver, BuiltFor: resolver.BuiltFor{CUDA: []string{"11.8"}}, BundledWith: "torch 2.4.1", Known: true}
			c := &checker{st: &resolver.Stack{CUDA: &resolver.CUDAInfo{Version: "11.8"}}, k: k}
			assertCarries(t, c, p, tt.gpu, tt.want, tt.words)
		})
	}
}

// TestLibCarriesGap: where the knowledge base knows the last release that
// carries an architecture's code and the first that lacks it, with releases
// between them that no source places, a release in that gap is neither
// counted as carrying the code nor as lacking it. cuDNN's Kepler rows have
// no such release left (8.7.0 carries it, 8.8.0 does not), so the rule is
// exercised on a copy of the KB whose sm_37 row has the wider gap the rows
// had before the 8.7 and 8.8 matrices were placed (8.5.0 … 8.9.5).
func TestLibCarriesGap(t *testing.T) {
	k := *kb.Default()
	var rows []kb.CUDALibArch
	for _, r := range k.CUDALibArch {
		if r.Lib == "cudnn" && r.CC == "3.7" && r.CarriesThrough != "" {
			r.CarriesThrough, r.Until = "8.5.0", "8.9.5"
		}
		rows = append(rows, r)
	}
	k.CUDALibArch = rows
	tests := []struct {
		ver   string
		want  carries
		words string
	}{
		{"8.5.0.96", carriesYes, ""},
		{"8.7.0.84", carriesUnknown, "cudnn 8.7.0.84 is after 8.5.0, the last release known to carry code for sm_37, and before 8.9.5, the first known to lack it"},
		{"8.9.5", carriesNo, "cudnn has no code for sm_37 from 8.9.5 on (it dropped sm_37 after 8.5.0)"},
	}
	for _, tt := range tests {
		p := &resolver.GPUPackage{Name: "nvidia-cudnn-cu11", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: tt.ver, BuiltFor: resolver.BuiltFor{CUDA: []string{"11.8"}}, BundledWith: "torch 2.4.1", Known: true}
		c := &checker{st: &resolver.Stack{CUDA: &resolver.CUDAInfo{Version: "11.8"}}, k: &k}
		got, why := c.libCarries(p, cc{Major: 3, Minor: 7})
		if got != tt.want || !strings.Contains(why, tt.words) {
			t.Errorf("%s: libCarries = %d %q, want %d with %q", tt.ver, got, why, tt.want, tt.words)
		}
	}
}

// assertCarries checks libCarries' answer and that its reason says words.
func assertCarries(t *testing.T, c *checker, p *resolver.GPUPackage, gpu cc, want carries, words string) {
	t.Helper()
	got, why := c.libCarries(p, gpu)
	if got != want || !strings.Contains(why, words) {
		t.Errorf("libCarries = %d %q, want %d with %q", got, why, want, words)
	}
}

// carriesCase is one libCarries question: a package on a GPU, and the
// answer with words its reason must hold.
type carriesCase struct {
	name  string
	p     *resolver.GPUPackage
	gpu   cc
	want  carries
	words string
}

// runCarries asks each case of an empty stack with knowledge k.
func runCarries(t *testing.T, k knowledge, tests []carriesCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertCarries(t, &checker{st: &resolver.Stack{}, k: k}, tt.p, tt.gpu, tt.want, tt.words)
		})
	}
}
