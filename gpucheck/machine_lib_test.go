package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestMachineLibsAndTorchRequires: an extension release that loads the
// library of the CUDA runtime found on the machine (CUDAFromMachine) fails
// only where none of its libraries carries code for the GPU, and is
// unknown, never ok, where some or all do. Hints that propose another
// release leave out those whose torch requirement excludes the file's
// torch, and say so where that leaves none.
func TestMachineLibsAndTorchRequires(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{{Name: "bnblike", Framework: "torch", TorchCUDALib: true, Source: "S"}}
	f.ExtensionBuilds = []kb.ExtensionBuild{
		{Name: "bnblike", Version: "2.0", Dist: "pypi", CUDA: []string{"12.8"}, SASS: []string{"8.0", "12.0"}, PTX: []string{"12.0"}, ArchKnown: true, TorchRequires: ">=2.0,<3", Source: "S"},
	}
	k := factsKB{f}
	pos := finding.Pos{File: "env", Line: 4, Col: 3}
	machine := resolver.GPUPackage{Name: "bnblike", Role: resolver.RoleExtension, Version: "0.5", Pos: pos, Line: 4, Known: true,
		CUDAFromMachine: "bnblike 0.5 loads the library of the CUDA runtime it finds",
		Code:            resolver.GPUCode{SASS: []string{"7.5", "8.0", "8.6", "9.0"}, Known: true},
		Builds: []resolver.BuildCode{
			{Label: "CUDA 11.7", Code: resolver.GPUCode{SASS: []string{"7.5", "8.0", "8.6"}, Known: true}},
			{Label: "CUDA 11.8", Code: resolver.GPUCode{SASS: []string{"7.5", "8.0", "8.6", "9.0"}, Known: true}},
		}}
	unknown := resolver.GPUPackage{Name: "bnblike", Role: resolver.RoleExtension, Version: "0.9", Pos: pos, Line: 4,
		Unknown: "the knowledge base has no row for bnblike 0.9"}
	for _, tt := range []struct {
		name, torch, cc string
		p               resolver.GPUPackage
		code, has       string
		reason          string
	}{
		{"no library runs", "1.13.1", "12.0", machine, "EG410",
			"no release of bnblike envguard knows supports both torch 1.13.1 and sm_120 (2.0 requires torch>=2.0,<3)", ""},
		{"no library runs, torch admitted", "2.1.0", "12.0", machine, "EG410",
			"use a release of bnblike built for sm_120 whose requirements admit torch 2.1.0 (envguard knows pypi: 2.0 with code for it)", ""},
		{"libraries differ", "1.13.1", "9.0", machine, "EG409", "run python -m bitsandbytes there", "extension-lib-from-machine"},
		{"every library runs", "1.13.1", "8.0", machine, "EG409", "run python -m bitsandbytes there", "extension-lib-from-machine"},
		{"unknown release, torch excluded", "1.13.1", "8.0", unknown, "EG409",
			"no release of bnblike envguard knows admits torch 1.13.1 (2.0 requires torch>=2.0,<3), so pinning one would make pip replace torch", "extension-unknown"},
		{"unknown release, torch admitted", "2.1.0", "8.0", unknown, "EG409", "pin a release envguard knows (pypi: 2.0)", "extension-unknown"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := stack(tt.torch, "11.7", kb.DistWheel)
			st.GPUPackages = append(st.GPUPackages, tt.p)
			r := evaluate(st, host("570.124.06", "12.8", tt.cc), k, CheckOptions{})
			var hint string
			for _, d := range r.Findings {
				if d.Code == tt.code && strings.Contains(d.Message, "bnblike "+tt.p.Version) {
					hint = d.Hint
				}
			}
			if !strings.Contains(hint, tt.has) {
				t.Errorf("%s hint %q, want it to contain %q (findings %v)", tt.code, hint, tt.has, r.Findings)
			}
			if tt.reason != "" {
				if r.Verdict == VerdictOK {
					t.Errorf("verdict ok, want unknown")
				}
				found := false
				for _, u := range r.Undecided {
					found = found || u.Reason == tt.reason
				}
				if !found {
					t.Errorf("undecided %v, want reason %s", r.Undecided, tt.reason)
				}
			}
		})
	}
}

// TestMachineLibCPULibrary: where only a package that loads the library of
// the machine's CUDA runtime carries GPU code (no CUDA framework build, no
// CUDA runtime in the file), a machine without a driver is not an EG404:
// the package's setup loads its CPU library there (bitsandbytes 0.36.0 …
// 0.39.1 load libbitsandbytes_cpu.so where torch finds no GPU). Beside a
// CUDA torch it is EG404 as before.
func TestMachineLibCPULibrary(t *testing.T) {
	p := resolver.GPUPackage{Name: "bnblike", Role: resolver.RoleExtension, Version: "0.5", Known: true,
		Pos: finding.Pos{File: "env", Line: 4, Col: 3}, Line: 4,
		CUDAFromMachine: "bnblike 0.5 loads the library of the CUDA runtime it finds",
		Code:            resolver.GPUCode{SASS: []string{"7.5", "8.0"}, Known: true}}
	none := &Host{Name: "cpu", Available: false, Reason: "no NVIDIA driver", Source: SourceTarget}
	st := &resolver.Stack{GPUPackages: []resolver.GPUPackage{p}}
	r := evaluate(st, none, factsKB{testFacts}, CheckOptions{})
	if r.Verdict != VerdictUnknown || strings.Contains(codes(r.Findings), "EG404") {
		t.Fatalf("only a machine-library package: verdict %s, findings %s; want unknown without EG404", r.Verdict, codes(r.Findings))
	}
	found := false
	for _, u := range r.Undecided {
		found = found || u.Reason == "extension-cpu-library"
	}
	if !found {
		t.Errorf("undecided %v, want extension-cpu-library", r.Undecided)
	}
	st = stack("2.0.1", "11.8", kb.DistWheel)
	st.GPUPackages = append(st.GPUPackages, p)
	if r := evaluate(st, none, factsKB{testFacts}, CheckOptions{}); !strings.Contains(codes(r.Findings), "EG404") {
		t.Errorf("beside a CUDA torch: findings %s, want EG404", codes(r.Findings))
	}
}

// TestKnownReleasesSkipMachineLibsWithoutCode: the EG409 hint for a
// release without rows does not propose a release that loads the library
// of the machine's CUDA runtime where one of its libraries lacks code for
// the target's GPU, and says so where no release is left.
func TestKnownReleasesSkipMachineLibsWithoutCode(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{{Name: "bnblike", Framework: "torch", TorchCUDALib: true, Source: "S"}}
	f.ExtensionBuilds = []kb.ExtensionBuild{
		{Name: "bnblike", Version: "0.3", Dist: "pypi", CUDA: []string{"11.7"}, SASS: []string{"3.7", "8.0"}, ArchKnown: true, CUDAFromMachine: true, TorchRequires: "none", Source: "S"},
		{Name: "bnblike", Version: "0.3", Dist: "pypi", CUDA: []string{"11.8"}, SASS: []string{"5.0", "8.0"}, ArchKnown: true, CUDAFromMachine: true, TorchRequires: "none", Source: "S"},
	}
	k := factsKB{f}
	for _, tt := range []struct{ cc, has string }{
		{"8.0", "pin a release envguard knows (pypi: 0.3)"},
		{"3.7", "the releases envguard knows (pypi: 0.3) do not carry code for this target's GPU in every build they may load, so pinning one would not help"},
	} {
		p := resolver.GPUPackage{Name: "bnblike", Role: resolver.RoleExtension, Version: "0.9", Pos: finding.Pos{File: "env", Line: 4, Col: 3}, Line: 4,
			Unknown: "the knowledge base has no row for bnblike 0.9"}
		st := stack("2.1.0", "11.8", kb.DistWheel)
		st.GPUPackages = append(st.GPUPackages, p)
		r := evaluate(st, host("550.54.15", "12.4", tt.cc), k, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, "bnblike 0.9") {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, tt.has) {
			t.Errorf("compute capability %s: hint %q, want it to contain %q", tt.cc, hint, tt.has)
		}
	}
}
