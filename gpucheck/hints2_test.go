package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestEG410FloorHint: the hint offers "a release that supports sm_XY"
// only where the knowledge base knows of a release whose floor is at or
// below the GPU (review: triton keeps 7.0 in every release, so no triton
// runs on a K80).
func TestEG410FloorHint(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{
		{Name: "jitc", Framework: "none", MinCC: "7.0", JIT: true, Source: "S"},
		{Name: "oldfloor", Framework: "none", MinCC: "7.5", Source: "S"},
	}
	// oldfloor's first release ran from 3.5: a release row below the
	// project's floor.
	f.ExtensionBuilds = []kb.ExtensionBuild{{Name: "oldfloor", Version: "0.1", Dist: "pypi", MinCC: "3.5", Source: "S"}}
	k := factsKB{f}
	for _, tt := range []struct {
		name, min string
		offer     bool
	}{
		{"jitc", "7.0", false},
		{"oldfloor", "7.5", true},
	} {
		pos := finding.Pos{File: "env", Line: 4, Col: 3}
		p := resolver.GPUPackage{Name: tt.name, Role: resolver.RoleExtension, Version: "3.2.0", Pos: pos, Line: 4, Known: true,
			Code: resolver.GPUCode{MinCC: tt.min, JIT: tt.name == "jitc"}}
		st := &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", Version: "2.1.0", Variant: "cuda", Pos: fwPosT}, GPUPackages: []resolver.GPUPackage{p}}
		r := evaluate(st, host("470.57.02", "11.4", "3.7"), k, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG410" {
				hint = d.Hint
			}
		}
		if hint == "" {
			t.Fatalf("%s: no EG410 on a 3.7 GPU: %+v", tt.name, r.Findings)
		}
		if !strings.Contains(hint, "compute capability "+tt.min+" or newer") {
			t.Errorf("%s: hint %q does not name the floor", tt.name, hint)
		}
		if got := strings.Contains(hint, "use a release of "+tt.name+" that supports sm_37"); got != tt.offer {
			t.Errorf("%s: hint %q offers another release: %v, want %v", tt.name, hint, got, tt.offer)
		}
	}
}

// TestNoReleaseHint: a package the knowledge base has no facts on is not
// told to "pin a release envguard knows"; the hint names the project's
// packages the knowledge base has releases of (review: cupy-cuda101).
func TestNoReleaseHint(t *testing.T) {
	f := testFacts
	f.ExtensionBuilds = []kb.ExtensionBuild{{Name: "cupy-cuda12x", Version: "13.4.1", Dist: "pypi", Source: "S"}}
	k := factsKB{f}
	for _, tt := range []struct {
		name, has, not string
	}{
		{"cupy-cuda101", "it has releases of cupy-cuda12x (pypi)", "pin a release envguard knows"},
		{"zzext-cu118", "the knowledge base has no release of zzext-cu118: run envguard check", "pin"},
	} {
		pos := finding.Pos{File: "env", Line: 4, Col: 3}
		p := resolver.GPUPackage{Name: tt.name, Role: resolver.RoleExtension, Pos: pos, Line: 4, Unknown: "the knowledge base has no facts on " + tt.name}
		st := &resolver.Stack{GPUPackages: []resolver.GPUPackage{p}}
		r := evaluate(st, host("470.57.02", "11.4", "3.7"), k, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG409" {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, tt.has) || strings.Contains(hint, tt.not) {
			t.Errorf("%s: hint %q, want %q and not %q", tt.name, hint, tt.has, tt.not)
		}
	}
}

// TestJAXRuntimeHintBeforePipWheels: pip jax before the first cudaNN_pip
// extra has no nvidia-cuda-runtime wheel to read (review: jax 0.3.10);
// the release the extras began is the knowledge base's.
func TestJAXRuntimeHintBeforePipWheels(t *testing.T) {
	f := testFacts
	f.JAXExtras = []kb.JAXExtra{
		{Extra: "cuda", Since: "0.2.23", Through: "0.11.0", Source: "S"},
		{Extra: "cuda12_pip", Since: "0.4.7", Until: "0.6.0", Source: "S"},
	}
	k := factsKB{f}
	for _, tt := range []struct {
		version, has, not string
	}{
		{"0.3.10", "predates the cuda11_pip/cuda12_pip extras (from 0.4.7)", "pip show nvidia-cuda-runtime"},
		{"0.4.29", "pip show nvidia-cuda-runtime-cu12", "predates"},
	} {
		st := &resolver.Stack{Framework: &resolver.Framework{Name: "jax", Version: tt.version, Variant: "cuda", From: envspec.ProviderPip, Pos: fwPosT}}
		r := evaluate(st, host("570.124.06", "12.8", "9.0"), k, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, "CUDA runtime version is not known") {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, tt.has) || strings.Contains(hint, tt.not) {
			t.Errorf("jax %s: hint %q, want %q and not %q", tt.version, hint, tt.has, tt.not)
		}
	}
}

// TestTFDefaultsRuntimeHint: the defaults channel's tensorflow-gpu with no
// CUDA runtime is told to pin cudatoolkit, not pytorch-cuda or a +cuXYZ
// wheel (review: corpus 062).
func TestTFDefaultsRuntimeHint(t *testing.T) {
	for _, dist := range []kb.Distribution{kb.DistDefaults, ""} {
		st := &resolver.Stack{Framework: &resolver.Framework{Name: "tensorflow", Variant: "cuda", From: envspec.ProviderConda, Dist: dist, Pos: fwPosT}}
		r := evaluate(st, host("570.124.06", "12.8", "9.0"), testKB, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, "CUDA runtime version is not known") {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, "cudatoolkit=X.Y") || strings.Contains(hint, "pytorch-cuda") || strings.Contains(hint, "+cuXYZ") {
			t.Errorf("dist %q: hint %q, want cudatoolkit=X.Y and no pytorch-cuda or +cuXYZ wheel", dist, hint)
		}
	}
}

// TestDriverDecidedForEveryCandidate: where the knowledge base lists the
// runtimes a build may use (conda pytorch before 0.4.0) and the driver
// runs the newest of them, the driver is decided and only the
// architectures stay unknown (review: corpus 083 on k80); a driver below
// one of them leaves the driver unknown as before.
func TestDriverDecidedForEveryCandidate(t *testing.T) {
	fw := func() *resolver.Framework {
		return &resolver.Framework{Name: "pytorch", Variant: "cuda", From: envspec.ProviderConda, Pos: fwPosT,
			VariantFrom: "every conda build of pytorch before 0.4.0 is a CUDA build, made with CUDA 7.5, 8.0, 9.0 or 9.1", RuntimeCandidates: []string{"7.5", "8.0", "9.0", "9.1"}}
	}
	r := evaluate(&resolver.Stack{Framework: fw()}, host("470.57.02", "11.4", "3.7"), testKB, CheckOptions{})
	var msgs []string
	for _, d := range r.Findings {
		if d.Code == "EG409" {
			msgs = append(msgs, d.Message)
		}
	}
	m := strings.Join(msgs, "\n")
	if r.Verdict != VerdictUnknown || strings.Contains(m, "the driver was not checked") || !strings.Contains(m, "neither is its architecture list") {
		t.Errorf("driver 470: %s, EG409 %q; want unknown for the architectures only", r.Verdict, m)
	}
	r = evaluate(&resolver.Stack{Framework: fw()}, host("384.81", "9.0", "3.7"), testKB, CheckOptions{})
	msgs = nil
	for _, d := range r.Findings {
		if d.Code == "EG409" {
			msgs = append(msgs, d.Message)
		}
	}
	if m := strings.Join(msgs, "\n"); r.Verdict != VerdictUnknown || !strings.Contains(m, "the driver was not checked") {
		t.Errorf("driver for CUDA 9.0: %s, EG409 %q; want the driver unknown (9.1 is a candidate)", r.Verdict, m)
	}
}

// TestBuiltOnMachineHint: a package whose GPU ops are compiled on the
// machine (the KB's built_on_machine: deepspeed, X2_DEEPSPEED) has no
// release to pin; what decides it is the machine's nvcc against torch's
// CUDA and the GPUs visible at build time (review r7 #129).
func TestBuiltOnMachineHint(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{{Name: "deepspeed", Framework: "torch", TorchABI: true, BuiltOnMachine: true, Source: "X2_DEEPSPEED"}}
	k := factsKB{f}
	pos := finding.Pos{File: "env", Line: 4, Col: 3}
	p := resolver.GPUPackage{Name: "deepspeed", Version: "0.16.7", Role: resolver.RoleExtension, Pos: pos, Line: 4, Unknown: "the knowledge base has no row for deepspeed 0.16.7"}
	st := &resolver.Stack{GPUPackages: []resolver.GPUPackage{p}}
	r := evaluate(st, host("570.124.06", "12.8", "8.0"), k, CheckOptions{})
	var msg, hint string
	for _, d := range r.Findings {
		if d.Code == "EG409" {
			msg, hint = d.Message, d.Hint
		}
	}
	for _, w := range []string{"compiled on the machine", "nvcc", "TORCH_CUDA_ARCH_LIST"} {
		if !strings.Contains(hint+msg, w) {
			t.Errorf("finding %q / hint %q lacks %q", msg, hint, w)
		}
	}
	if strings.Contains(hint, "pin a release") || strings.Contains(hint, "kb status") {
		t.Errorf("hint %q still asks for a release pin", hint)
	}
}

// TestKnownReleasesHint: the hint for a release newer than the knowledge
// base's rows names the releases it knows itself (kb status prints only
// row counts, review r7 #24): per distribution, newest last, at most five.
func TestKnownReleasesHint(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{{Name: "cupy", Framework: "none", Source: "S"}}
	for _, v := range []string{"10.6.0", "11.0.0", "11.6.0", "12.0.0", "9.6.0", "8.0.0", "11.0.0"} {
		f.ExtensionBuilds = append(f.ExtensionBuilds, kb.ExtensionBuild{Name: "cupy", Version: v, Dist: "conda-forge", Source: "S"})
	}
	f.ExtensionBuilds = append(f.ExtensionBuilds, kb.ExtensionBuild{Name: "cupy", Version: "13.0.0", Dist: "pypi", Source: "S"})
	k := factsKB{f}
	pos := finding.Pos{File: "env", Line: 4, Col: 3}
	p := resolver.GPUPackage{Name: "cupy", Version: "12.3.0", Role: resolver.RoleExtension, Pos: pos, Line: 4, Unknown: "cupy 12.3.0 is newer than every release the knowledge base knows"}
	st := &resolver.Stack{GPUPackages: []resolver.GPUPackage{p}}
	r := evaluate(st, host("570.124.06", "12.8", "8.0"), k, CheckOptions{})
	var hint string
	for _, d := range r.Findings {
		if d.Code == "EG409" {
			hint = d.Hint
		}
	}
	want := "pin a release envguard knows (conda-forge: 9.6.0, 10.6.0, 11.0.0, 11.6.0, 12.0.0 and 1 older; pypi: 13.0.0)"
	if !strings.Contains(hint, want) || strings.Contains(hint, "kb status") {
		t.Errorf("hint %q, want %q and no kb status", hint, want)
	}
}

// TestCommonArchDecides: where the runtime of conda pytorch before 0.4.0
// is open but every build the file admits carries sm_35 SASS (the KB's
// common_sass, resolver.Framework.CommonArch), a K80 (3.7) is decided for
// the framework's architectures and only the CUDA libraries can leave it
// open: with cuDNN's Kepler rows (carries_through 8.7.0) an unknown cuDNN
// release does, without them nothing does. A GPU below every build's
// lowest code (2.0 under 3.0) is EG403; one no common SASS serves (6.0)
// stays arch-list-unknown, and so does 3.0, which some builds have code
// for and the common list does not serve.
func TestCommonArchDecides(t *testing.T) {
	fw := func() *resolver.Framework {
		return &resolver.Framework{Name: "pytorch", Variant: "cuda", From: envspec.ProviderConda, Pos: fwPosT,
			VariantFrom: "every conda build of pytorch before 0.4.0 is a CUDA build, made with CUDA 7.5, 8.0, 9.0 or 9.1", RuntimeCandidates: []string{"7.5", "8.0", "9.0", "9.1"},
			CommonArch: &kb.ArchList{SASS: []string{"3.5"}, PTX: []string{"5.2"}, Known: true}, LowestCode: "3.0", CommonWhy: "every build of pytorch 0.1.7 … 0.3.0"}
	}
	run := func(k knowledge, cc string) (Verdict, string) {
		r := evaluate(&resolver.Stack{Framework: fw()}, host("470.57.02", "11.4", cc), k, CheckOptions{})
		var s []string
		for _, d := range r.Findings {
			s = append(s, d.Code+" "+d.Message)
		}
		return r.Verdict, strings.Join(s, "\n")
	}
	if v, m := run(testKB, "3.7"); v != VerdictOK || strings.Contains(m, "EG409") || strings.Contains(m, "EG403") {
		t.Errorf("3.7 without cuDNN Kepler rows: %s\n%s\nwant ok", v, m)
	}
	f := testFacts
	f.CUDALibArch = append(append([]kb.CUDALibArch(nil), f.CUDALibArch...),
		kb.CUDALibArch{Lib: "cudnn", CC: "3.7", Since: "7.5.0", CarriesThrough: "8.7.0", Until: "8.8.0", Source: "T"})
	if v, m := run(factsKB{f}, "3.7"); v != VerdictUnknown || !strings.Contains(m, "carries sm_35 SASS, which runs on sm_37") || !strings.Contains(m, "which cudnn release it loads is not known") || strings.Contains(m, "neither is its architecture list") {
		t.Errorf("3.7 with cuDNN Kepler rows: %s\n%s\nwant unknown for cudnn only", v, m)
	}
	if v, m := run(testKB, "2.0"); v != VerdictFail || !strings.Contains(m, "EG403") || !strings.Contains(m, "the lowest architecture any of them has code for is sm_30") {
		t.Errorf("2.0: %s\n%s\nwant EG403", v, m)
	}
	for _, cc := range []string{"3.0", "6.0", "9.0"} {
		if v, m := run(testKB, cc); v != VerdictUnknown || !strings.Contains(m, "neither is its architecture list") || strings.Contains(m, "EG403") {
			t.Errorf("%s: %s\n%s\nwant arch-list-unknown", cc, v, m)
		}
	}
}
