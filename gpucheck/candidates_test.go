package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestOverCandidates decides a verdict the file leaves open by checking
// every build it admits: all run → ok, none runs → fail, else unknown with
// each build's outcome named.
func TestOverCandidates(t *testing.T) {
	facts := testFacts
	facts.TorchVariants = []kb.TorchVariants{
		{Series: "2.1", Dist: kb.DistWheel, CUDA: []string{"11.8", "12.1"}, CPU: true},
	}
	facts.Arch = []kb.ArchList{
		{Series: "2.1", CUDA: "11.8", Dist: kb.DistWheel, SASS: []string{"7.0", "8.0", "8.6", "9.0"}, Known: true},
		{Series: "2.1", CUDA: "12.1", Dist: kb.DistWheel, SASS: []string{"7.0", "8.0", "8.6", "9.0"}, Known: true},
	}
	k := factsKB{facts}
	open := func(variant string, candidates ...string) *resolver.Stack {
		st := stack("", "", kb.DistWheel)
		st.Framework.Variant, st.Framework.Candidates, st.Framework.Spec = variant, candidates, ">=2.1"
		return st
	}
	tests := []struct {
		name    string
		st      *resolver.Stack
		h       *Host
		verdict Verdict
		want    []string // in the EG409 message, or the findings
	}{
		{"every CUDA build runs on an H100 with a new driver", open("cuda", "2.1.0", "2.1.2"), host("580.65.06", "13.0", "9.0"), VerdictOK, nil},
		{"CPU or CUDA, each runs", open("", "2.1.0"), host("580.65.06", "13.0", "9.0"), VerdictOK, nil},
		{"CUDA 12.1 needs a CUDA 12 driver, 11.8 runs: undecided", open("cuda", "2.1.0"), host("470.57.02", "11.4", "9.0"), VerdictUnknown,
			[]string{"runs with pytorch 2.1.0 CUDA 11.8", "fails with pytorch 2.1.0 CUDA 12.1 (EG401)"}},
		{"no CUDA build carries sm_120 or PTX: fail", open("cuda", "2.1.0"), host("580.65.06", "13.0", "12.0"), VerdictFail,
			[]string{"EG403"}},
		{"CPU runs, CUDA builds fail: undecided, the GPUs idle", open("", "2.1.0"), host("580.65.06", "13.0", "12.0"), VerdictUnknown,
			[]string{"leaves the GPUs idle with pytorch 2.1.0 CPU", "fails with pytorch 2.1.0 CUDA 11.8 (EG403)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := evaluate(tt.st, tt.h, k, CheckOptions{})
			checkVerdictRules(t, tt.name, r)
			if r.Verdict != tt.verdict {
				t.Fatalf("verdict %s, want %s; %v %v", r.Verdict, tt.verdict, r.Findings, r.Undecided)
			}
			var all []string
			for _, d := range r.Findings {
				all = append(all, d.Code+" "+d.Message)
			}
			text := strings.Join(all, "\n")
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("findings %q lack %q", text, w)
				}
			}
			if tt.verdict == VerdictOK && !strings.Contains(strings.Join(r.Notes, "\n"), "each runs") {
				t.Errorf("an ok decided over builds does not say so in its notes: %q", r.Notes)
			}
		})
	}
	// A release the knowledge base has no variants for cannot be listed:
	// the variant stays undecided, as before.
	st := open("", "9.9.0")
	r := evaluate(st, host("580.65.06", "13.0", "9.0"), k, CheckOptions{})
	if r.Verdict != VerdictUnknown || len(r.Undecided) != 1 || r.Undecided[0].Reason != "variant-left-to-solver" {
		t.Errorf("unknown release: %s %+v", r.Verdict, r.Undecided)
	}
}

// TestCandidatesSkipReleasesAChannelLacks: an open spec on conda-forge (or
// the pytorch channel) is listed without the releases newer than every
// series the channel has a row for (conda-forge's rows stop before the
// torch table's newest series): they do not make the whole list
// unknowable. An older release without a row, an exact release, and the
// wheel index keep the old answer: no row, no list.
func TestCandidatesSkipReleasesAChannelLacks(t *testing.T) {
	facts := testFacts
	facts.Torch = []kb.TorchRelease{{Version: "2.0.1"}, {Version: "2.1.0"}, {Version: "2.2.0"}}
	facts.TorchVariants = []kb.TorchVariants{
		{Series: "2.1", Dist: kb.DistCondaForge, CUDA: []string{"11.8"}, CPU: true},
		{Series: "2.1", Dist: kb.DistWheel, CUDA: []string{"11.8"}, CPU: true},
	}
	k := factsKB{facts}
	labels := func(cs []candidate) string {
		var l []string
		for _, c := range cs {
			l = append(l, c.label)
		}
		return strings.Join(l, ", ")
	}
	st := stack("", "", kb.DistCondaForge)
	st.Framework.Variant, st.Framework.Candidates, st.Framework.Spec = "cuda", []string{"2.1.0", "2.2.0"}, ">=2.1"
	if cs, ok := candidates(st, k); !ok || labels(cs) != "pytorch 2.1.0 CUDA 11.8" {
		t.Errorf("conda-forge, 2.2 without a row: %v %s", ok, labels(cs))
	}
	// a release older than the channel's rows (conda-forge before 1.6)
	// is not known to be missing there: the list is not made
	st.Framework.Candidates, st.Framework.Spec = []string{"2.0.1", "2.1.0"}, ">=2.0"
	if cs, ok := candidates(st, k); ok {
		t.Errorf("conda-forge, 2.0 without a row: listed %s", labels(cs))
	}
	// every admitted release without a row: nothing to list
	st.Framework.Candidates, st.Framework.Spec = []string{"2.2.0"}, ">=2.2"
	if cs, ok := candidates(st, k); ok {
		t.Errorf("conda-forge, no release with a row: listed %s", labels(cs))
	}
	// an exact release the channel has no row for cannot be listed
	st.Framework.Candidates, st.Framework.Version, st.Framework.Spec = nil, "2.2.0", "==2.2.0"
	if cs, ok := candidates(st, k); ok {
		t.Errorf("conda-forge, exact 2.2.0 without a row: listed %s", labels(cs))
	}
	st = stack("", "", kb.DistWheel)
	st.Framework.Variant, st.Framework.Candidates, st.Framework.Spec = "cuda", []string{"2.1.0", "2.2.0"}, ">=2.1"
	if cs, ok := candidates(st, k); ok {
		t.Errorf("wheel, 2.2 without a row: listed %s", labels(cs))
	}
}

// TestCandidatesUnpinnedRelease: an unpinned release beside a CUDA pin is
// listed over every release the pin selects the variant of, and over every
// build of the releases whose variant it does not select.
func TestCandidatesUnpinnedRelease(t *testing.T) {
	facts := testFacts
	facts.Torch = []kb.TorchRelease{{Version: "1.12.1"}, {Version: "2.0.1"}}
	facts.TorchVariants = []kb.TorchVariants{
		{Series: "1.12", Dist: kb.DistPytorchConda, CUDA: []string{"11.3", "11.6"}, CPU: true, Selector: "cudatoolkit=X.Y"},
		{Series: "2.0", Dist: kb.DistPytorchConda, CUDA: []string{"11.7", "11.8"}, CPU: true, Selector: "pytorch-cuda=X.Y"},
	}
	k := factsKB{facts}
	st := stack("", "11.3", kb.DistPytorchConda)
	st.Framework.Pins = []resolver.Evidence{{Kind: resolver.EvidenceCudatoolkit, Says: "11.3"}}
	st.Framework.OnlyFramework = true
	// cudatoolkit selects 1.12's variant but not 2.0's, and 2.0 does not
	// depend on cudatoolkit, so nothing conflicts with 2.0.1 and the solver
	// takes it over 1.12.1: every build of 2.0.1 (issue 26: an unpinned
	// pytorch::pytorch beside cudatoolkit=11.3 gets 2.x, which has no CUDA
	// 11.3 build).
	labels := func(cs []candidate) string {
		var l []string
		for _, c := range cs {
			l = append(l, c.label)
		}
		return strings.Join(l, ", ")
	}
	if cs, ok := candidates(st, k); !ok || labels(cs) != "pytorch 2.0.1 CPU, pytorch 2.0.1 CUDA 11.7, pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("cudatoolkit beside an unpinned pytorch: %v %s", ok, labels(cs))
	}
	// Any other conda package could rule 2.0.1 out (its own Python range
	// or pins): 1.12.1 stays listed.
	other := stack("", "11.3", kb.DistPytorchConda)
	other.Framework.Pins = st.Framework.Pins
	if cs, ok := candidates(other, k); !ok || labels(cs) != "pytorch 1.12.1 CUDA 11.3, pytorch 2.0.1 CPU, pytorch 2.0.1 CUDA 11.7, pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("cudatoolkit beside an unpinned pytorch and other packages: %v %s", ok, labels(cs))
	}
	// A Python pin or a pinned companion could rule 2.0.1 out (no build
	// for that Python; torchvision=0.13 needs 1.12): 1.12.1 stays listed.
	py := stack("", "11.3", kb.DistPytorchConda)
	py.Framework.Pins = st.Framework.Pins
	py.Framework.OnlyFramework = true
	py.Python = "3.7"
	if cs, ok := candidates(py, k); !ok || labels(cs) != "pytorch 1.12.1 CUDA 11.3, pytorch 2.0.1 CPU, pytorch 2.0.1 CUDA 11.7, pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("cudatoolkit beside an unpinned pytorch and python=3.7: %v %s", ok, labels(cs))
	}
	comp := stack("", "11.3", kb.DistPytorchConda)
	comp.Framework.Pins = st.Framework.Pins
	comp.Framework.OnlyFramework = true
	comp.Companions = []resolver.Package{{Name: "torchvision", Version: "0.13.1", Spec: "0.13.1"}}
	if cs, ok := candidates(comp, k); !ok || labels(cs) != "pytorch 1.12.1 CUDA 11.3, pytorch 2.0.1 CPU, pytorch 2.0.1 CUDA 11.7, pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("cudatoolkit beside an unpinned pytorch and torchvision=0.13.1: %v %s", ok, labels(cs))
	}
	// A release without a row for the channel: which release is the newest
	// the channel published is not known, so nothing is narrowed.
	gap := facts
	gap.Torch = append([]kb.TorchRelease{}, facts.Torch...)
	gap.Torch = append(gap.Torch, kb.TorchRelease{Version: "2.1.0"})
	if cs, ok := candidates(st, factsKB{gap}); !ok || labels(cs) != "pytorch 1.12.1 CUDA 11.3, pytorch 2.0.1 CPU, pytorch 2.0.1 CUDA 11.7, pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("cudatoolkit beside an unpinned pytorch, 2.1 without a row: %v %s", ok, labels(cs))
	}
	// pytorch-cuda selects from 1.13 on; 1.12 never depends on it and is
	// left out, so pytorch-cuda=11.8 admits 2.0.1 CUDA 11.8 alone.
	st = stack("", "11.8", kb.DistPytorchConda)
	st.Framework.Pins = []resolver.Evidence{{Kind: resolver.EvidencePytorchCUDA, Says: "11.8"}}
	if cs, ok := candidates(st, k); !ok || labels(cs) != "pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("pytorch-cuda=11.8: %v %s", ok, labels(cs))
	}
	// A lower bound admits every CUDA from it on.
	st = stack("", "", kb.DistPytorchConda)
	st.Framework.Pins = []resolver.Evidence{{Kind: resolver.EvidencePytorchCUDA, Says: "cuda", Item: "pytorch-cuda>=11.7"}}
	if cs, ok := candidates(st, k); !ok || labels(cs) != "pytorch 2.0.1 CUDA 11.7, pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("pytorch-cuda>=11.7: %v %s", ok, labels(cs))
	}
	// A build-string pin selects everywhere: the releases with that variant.
	st = stack("", "11.8", kb.DistPytorchConda)
	st.Framework.Pins = []resolver.Evidence{{Kind: resolver.EvidenceBuild, Says: "11.8"}}
	cs, ok := candidates(st, k)
	if !ok || len(cs) != 1 || cs[0].label != "pytorch 2.0.1 CUDA 11.8" {
		t.Errorf("build-string pin: %v %+v", ok, cs)
	}
}

// A pytorch-gpu pin is held to the wrapper's own uploads: conda-forge's
// pytorch-gpu 2.4.1 has no Python 3.10 CUDA 12.0 upload
// (conda-forge/pytorch-cpu-feedstock#338), so with Python 3.10 the solver
// can only take the CUDA 11.8 build; Python 3.11, or the pytorch package
// itself, keeps both.
func TestCandidatesWrapperUploads(t *testing.T) {
	k := kb.Default()
	for _, c := range []struct {
		name, wrapper, python, want string
	}{
		{"pytorch-gpu, Python 3.10", "pytorch-gpu", "3.10", "pytorch 2.4.1 CUDA 11.8"},
		{"pytorch-gpu, Python 3.11", "pytorch-gpu", "3.11", "pytorch 2.4.1 CUDA 11.8, pytorch 2.4.1 CUDA 12.0"},
		{"pytorch, Python 3.10", "", "3.10", "pytorch 2.4.1 CUDA 11.8, pytorch 2.4.1 CUDA 12.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := stack("2.4.1", "", kb.DistCondaForge)
			st.Framework.Wrapper, st.Python = c.wrapper, c.python
			cs, _, ok := listCandidates(st, k)
			if !ok {
				t.Fatal("no candidates listed")
			}
			var got []string
			for _, cand := range cs {
				got = append(got, cand.label)
			}
			if strings.Join(got, ", ") != c.want {
				t.Errorf("candidates %q, want %q", strings.Join(got, ", "), c.want)
			}
		})
	}
}

// TestCandidatesMajorOnlyCudatoolkit: cudatoolkit=9 is conda's 9.*, so an
// exact pytorch beside it is listed over every 9.x variant the release was
// built with, not none (corpus 183: pytorch=1.1.0 with cudatoolkit=9).
func TestCandidatesMajorOnlyCudatoolkit(t *testing.T) {
	facts := testFacts
	facts.Torch = []kb.TorchRelease{{Version: "1.1.0"}}
	facts.TorchVariants = []kb.TorchVariants{
		{Series: "1.1", Dist: kb.DistPytorchConda, CUDA: []string{"9.0", "10.0"}, CPU: true, Selector: "cudatoolkit=X.Y"},
	}
	k := factsKB{facts}
	st := stack("1.1.0", "", kb.DistPytorchConda)
	st.CUDA = &resolver.CUDAInfo{Evidence: []resolver.Evidence{{Kind: resolver.EvidenceCudatoolkit, Says: "9", Item: "cudatoolkit=9"}}}
	st.Framework.Pins = []resolver.Evidence{{Kind: resolver.EvidenceCudatoolkit, Says: "9", Item: "cudatoolkit=9"}}
	cs, ok := candidates(st, k)
	var l []string
	for _, c := range cs {
		l = append(l, c.label)
	}
	if !ok || strings.Join(l, ", ") != "pytorch 1.1.0 CUDA 9.0" {
		t.Errorf("cudatoolkit=9 beside pytorch 1.1.0: %v %q", ok, l)
	}
}

// TestCandidateLibs: each build decided over loads the toolkit libraries
// of its own CUDA, not those of the CUDA the stack was read with (or none
// where no runtime was read); a CPU build loads none of the framework's.
// Libraries the file names itself stay whatever the build.
func TestCandidateLibs(t *testing.T) {
	facts := testFacts
	facts.CUDALibPackages = []kb.CUDALibPackage{{Lib: "cudnn"}}
	for _, l := range []string{"cublas", "cufft", "curand", "cusolver", "cusparse"} {
		facts.CUDALibPackages = append(facts.CUDALibPackages, kb.CUDALibPackage{Lib: l, Toolkit: true})
	}
	k := factsKB{facts}
	named := resolver.GPUPackage{Name: "nvidia-cudnn-cu11", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: "8.6.0.163", Known: true}
	read := []resolver.GPUPackage{
		{Name: "cublas", Role: resolver.RoleCUDALibrary, Lib: "cublas", Version: "11.3", BundledWith: resolver.RuntimeBundled("11.3"), Known: true},
		named,
	}
	got := func(ps []resolver.GPUPackage) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.Lib+" "+p.Version+" ["+p.BundledWith+"]")
		}
		return strings.Join(s, "; ")
	}
	if g, want := got(candidateLibs(read, k, &resolver.Framework{Name: "pytorch"}, "", "cuda", "12.4", resolver.ToolkitRelease{Release: "12.4"})), "cudnn 8.6.0.163 []; cublas 12.4 [the CUDA 12.4 runtime]; cufft 12.4 [the CUDA 12.4 runtime]; curand 12.4 [the CUDA 12.4 runtime]; cusolver 12.4 [the CUDA 12.4 runtime]; cusparse 12.4 [the CUDA 12.4 runtime]"; g != want {
		t.Errorf("CUDA 12.4 build beside cublas 11.3 read: %s, want %s", g, want)
	}
	if g, want := got(candidateLibs(read, k, &resolver.Framework{Name: "pytorch"}, "", "cpu", "", resolver.ToolkitRelease{})), "cudnn 8.6.0.163 []"; g != want {
		t.Errorf("CPU build: %s, want %s", g, want)
	}
	// no runtime read, so no libraries: the candidate's are added, and a
	// library with no toolkit row is left unknown
	ps := candidateLibs(nil, k, &resolver.Framework{Name: "pytorch"}, "", "cuda", "9.0", resolver.ToolkitRelease{Release: "9.0"})
	if g, want := got(ps), "cublas 9.0 [the CUDA 9.0 runtime]; cufft 9.0 [the CUDA 9.0 runtime]; curand 9.0 [the CUDA 9.0 runtime]; cusolver 9.0 [the CUDA 9.0 runtime]; cusparse 9.0 [the CUDA 9.0 runtime]; cudnn  [torch]"; g != want {
		t.Errorf("no libraries read: %s, want %s", g, want)
	}
	if last := ps[len(ps)-1]; last.Known || last.Unknown == "" {
		t.Errorf("cudnn with no release is known: %+v", last)
	}
}

// TestCandidatesCPUPackage: the pytorch channel's CPU builds of 1.0 and 1.1
// were the package pytorch-cpu (the KB's cpu_package), so an open variant
// of the package pytorch lists only its CUDA builds there (review r7 #613,
// corpus 099), and still the CPU build of a release whose CPU build was
// pytorch itself.
func TestCandidatesCPUPackage(t *testing.T) {
	facts := testFacts
	facts.Torch = []kb.TorchRelease{{Version: "1.1.0"}, {Version: "1.2.0"}}
	facts.TorchVariants = []kb.TorchVariants{
		{Series: "1.1", Dist: kb.DistPytorchConda, CUDA: []string{"9.0", "10.0"}, CPU: true, Selector: "cudatoolkit=X.Y", CPUPackage: "pytorch-cpu"},
		{Series: "1.2", Dist: kb.DistPytorchConda, CUDA: []string{"9.2", "10.0"}, CPU: true, Selector: "cudatoolkit=X.Y"},
	}
	k := factsKB{facts}
	st := stack("", "", kb.DistPytorchConda)
	st.Framework.Variant, st.Framework.Candidates, st.Framework.Spec = "", []string{"1.1.0", "1.2.0"}, ">=1.1"
	cs, ok := candidates(st, k)
	if !ok {
		t.Fatal("no candidates")
	}
	var l []string
	for _, c := range cs {
		l = append(l, c.label)
	}
	got := strings.Join(l, ", ")
	if want := "pytorch 1.1.0 CUDA 9.0, pytorch 1.1.0 CUDA 10.0, pytorch 1.2.0 CPU, pytorch 1.2.0 CUDA 9.2, pytorch 1.2.0 CUDA 10.0"; got != want {
		t.Errorf("candidates = %s, want %s", got, want)
	}
}

// TestCandidateLibsChannelCuDNN: a pytorch-channel build decided over
// loads the cuDNN its series and CUDA copy in (pytorch_channel_cudnn), as
// the build the file pins does, not the unknown cuDNN of the release the
// file leaves open nor the row of another CUDA; a series with no row
// stays unknown, and a cuDNN the build string names holds for each build.
func TestCandidateLibsChannelCuDNN(t *testing.T) {
	facts := testFacts
	facts.CUDALibPackages = []kb.CUDALibPackage{{Lib: "cudnn"}}
	facts.PytorchChannelCuDNN = []kb.PytorchChannelCuDNN{
		{Series: "2.0", CUDA: "11.7", CuDNN: "8.5.0"},
		{Series: "2.0", CUDA: "11.8", CuDNN: "8.7.0"},
	}
	k := factsKB{facts}
	open := resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", BundledWith: "torch", Unknown: "which cudnn release torch loads is not known"}
	rowOf117 := resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: "8.5.0", BundledWith: "torch 2.0.0", Known: true,
		Evidence: []resolver.Evidence{{Kind: resolver.EvidenceKBRow, Says: "8.5.0"}}}
	fromBuild := resolver.GPUPackage{Name: "cudnn", Role: resolver.RoleCUDALibrary, Lib: "cudnn", Version: "8.6.0", BundledWith: "torch 2.0.0", Known: true,
		Evidence: []resolver.Evidence{{Kind: resolver.EvidenceBuild, Says: "8.6.0"}}}
	cudnn := func(ps []resolver.GPUPackage) resolver.GPUPackage {
		for _, p := range ps {
			if p.Lib == "cudnn" {
				return p
			}
		}
		t.Fatalf("no cudnn in %+v", ps)
		return resolver.GPUPackage{}
	}
	channel := func(v string) *resolver.Framework {
		return &resolver.Framework{Name: "pytorch", Version: v, Dist: kb.DistPytorchConda}
	}
	for _, c := range []struct {
		what  string
		read  resolver.GPUPackage
		fw    *resolver.Framework
		build string
		cuda  string
		want  string // version and bundled-with, or "unknown"
	}{
		{"open release, 2.0.0 CUDA 11.8", open, channel("2.0.0"), "", "11.8", "8.7.0 torch 2.0.0"},
		{"open release, 2.0.1 CUDA 11.7", open, channel("2.0.1"), "", "11.7", "8.5.0 torch 2.0.1"},
		{"the row of CUDA 11.7 read, candidate CUDA 11.8", rowOf117, channel("2.0.0"), "", "11.8", "8.7.0 torch 2.0.0"},
		{"series with no row", open, channel("2.2.0"), "", "11.8", "unknown"},
		{"a wheel build", open, &resolver.Framework{Name: "pytorch", Version: "2.0.0", Dist: kb.DistWheel}, "", "11.8", "unknown"},
		{"build string names cuDNN 7", open, channel("2.0.0"), "7", "11.8", "unknown"},
		{"build string names 8.6.0", fromBuild, channel("2.0.0"), "8.6.0", "11.8", "8.6.0 torch 2.0.0"},
	} {
		p := cudnn(candidateLibs([]resolver.GPUPackage{c.read}, k, c.fw, c.build, "cuda", c.cuda, resolver.ToolkitRelease{Release: c.cuda}))
		got := p.Version + " " + p.BundledWith
		if !p.Known {
			got = "unknown"
			if p.Unknown == "" {
				t.Errorf("%s: cudnn neither known nor unknown: %+v", c.what, p)
			}
		}
		if got != c.want {
			t.Errorf("%s: cudnn %s, want %s", c.what, got, c.want)
		}
	}
}
