package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestFloorEveryRelease: a compute-capability floor the project keeps in
// every release (floor_every_release, RAPIDS's Pascal floor) decides a GPU
// below it even where the release is left to the solver or has no row:
// EG410 and a failing target. A GPU at or above it stays unknown, and a
// floor without the mark decides nothing for an unknown release (an older
// release may have had a lower one, as flash-attn 1.x did).
func TestFloorEveryRelease(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{
		{Name: "allfloor", Framework: "none", MinCC: "6.0", FloorEveryRelease: true, Source: "S"},
		{Name: "somefloor", Framework: "none", MinCC: "6.0", Source: "S"},
	}
	k := factsKB{f}
	cudaStack := func(p resolver.GPUPackage) *resolver.Stack {
		return &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", Version: "2.1.0", Variant: "cuda", Pos: fwPosT}, GPUPackages: []resolver.GPUPackage{p}}
	}
	// Without a framework or a runtime nothing known needs CUDA: the
	// EG404 step judges the unknown packages itself.
	bareStack := func(p resolver.GPUPackage) *resolver.Stack {
		return &resolver.Stack{GPUPackages: []resolver.GPUPackage{p}}
	}
	for _, tt := range []struct {
		name    string
		pkg     string
		stack   func(resolver.GPUPackage) *resolver.Stack
		ccs     []string
		eg410   int
		eg409   bool
		verdict Verdict
	}{
		{"below, left to the solver", "allfloor", cudaStack, []string{"3.7"}, 1, false, VerdictFail},
		{"at the floor", "allfloor", cudaStack, []string{"6.0"}, 0, true, VerdictUnknown},
		{"one GPU below, one above", "allfloor", cudaStack, []string{"3.7", "7.0"}, 1, true, VerdictFail},
		{"below, nothing needs CUDA", "allfloor", bareStack, []string{"3.7"}, 1, false, VerdictFail},
		{"above, nothing needs CUDA", "allfloor", bareStack, []string{"8.0"}, 0, true, VerdictUnknown},
		{"a floor of some releases", "somefloor", cudaStack, []string{"3.7"}, 0, true, VerdictUnknown},
		{"a floor of some releases, nothing needs CUDA", "somefloor", bareStack, []string{"3.7"}, 0, true, VerdictUnknown},
	} {
		pos := finding.Pos{File: "env", Line: 4, Col: 3}
		p := resolver.GPUPackage{Name: tt.pkg, Role: resolver.RoleExtension, Pos: pos, Line: 4,
			Unknown: "the release of " + tt.pkg + " is left to the solver (==23.8.*)", Code: resolver.GPUCode{MinCC: "6.0"}}
		r := evaluate(tt.stack(p), host("535.104.05", "12.2", tt.ccs...), k, CheckOptions{})
		n410, has409 := 0, false
		for _, d := range r.Findings {
			switch d.Code {
			case "EG410":
				n410++
				if !strings.Contains(d.Message, "every release of "+tt.pkg) || !strings.Contains(d.Message, "compute capability 3.7") {
					t.Errorf("%s: EG410 %q does not say the floor holds for every release, or which GPU", tt.name, d.Message)
				}
				if d.Pos.Line != 4 {
					t.Errorf("%s: EG410 on line %d, want the package's line 4", tt.name, d.Pos.Line)
				}
			case "EG409":
				if strings.Contains(d.Message, tt.pkg) {
					has409 = true
				}
			}
		}
		if n410 != tt.eg410 || has409 != tt.eg409 || r.Verdict != tt.verdict {
			t.Errorf("%s: %d EG410, EG409 %v, verdict %s; want %d, %v, %s: %+v", tt.name, n410, has409, r.Verdict, tt.eg410, tt.eg409, tt.verdict, r.Findings)
		}
	}
}

// TestSourceHint: a package pip compiles on the install machine is pointed
// at its project's prebuilt packages (cupy's per-CUDA wheels for the
// source package cupy), a PyG extension at PyG's find-links page, and
// neither is told to pin a release, which would be compiled the same way.
func TestSourceHint(t *testing.T) {
	f := testFacts
	f.Extensions = []kb.Extension{
		{Name: "cupy", Framework: "none", IndexSdistOnly: true, Source: "S"},
		{Name: "cupy-cuda12x", Framework: "none", Source: "S"},
		{Name: "torch-scatter", Framework: "torch", TorchABI: true, IndexSdistOnly: true, IndexURL: `^https://data\.pyg\.org/whl/torch-(?P<torch>[0-9.]+)\+(?:cu(?P<cuda>[0-9]+)|cpu)\.html$`, Source: "S"},
	}
	f.ExtensionBuilds = []kb.ExtensionBuild{{Name: "cupy-cuda12x", Version: "13.4.1", Dist: "pypi", CUDA: []string{"12"}, Source: "S"}}
	k := factsKB{f}
	// A prebuilt package is offered only for the environment's CUDA major
	// (review nine #186: cupy-cuda12x for a CUDA 10.1 stack).
	for _, tt := range []struct{ pkg, cuda, has string }{
		{"cupy", "12.1", "pip builds cupy from source with the install machine's CUDA toolkit; to take a prebuilt build instead, install the package built for the environment's CUDA 12.1 (the knowledge base has releases of cupy-cuda12x (pypi))"},
		{"cupy", "10.1", "the prebuilt packages the knowledge base has releases of are built for CUDA 12, none for this environment's CUDA 10.1"},
		{"torch-scatter", "12.1", "add -f https://data.pyg.org/whl/torch-2.1.0+cu121.html"},
	} {
		pos := finding.Pos{File: "env", Line: 4, Col: 3}
		p := resolver.GPUPackage{Name: tt.pkg, Role: resolver.RoleExtension, Version: "8.3.0", Pos: pos, Line: 4, SourceBuild: true,
			Unknown: tt.pkg + " 8.3.0 comes from the package index, which has only its source"}
		st := stack("2.1.0", tt.cuda, kb.DistWheel)
		st.GPUPackages = append(st.GPUPackages, p)
		r := evaluate(st, host("535.104.05", "12.2", "8.0"), k, CheckOptions{})
		var hint string
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, tt.pkg+" 8.3.0") {
				hint = d.Hint
			}
		}
		if !strings.Contains(hint, tt.has) || strings.Contains(hint, "pin a release envguard knows") ||
			(tt.cuda == "10.1" && strings.Contains(hint, "cupy-cuda12x")) {
			t.Errorf("%s: hint %q, want it to contain %q and not to offer a release envguard knows", tt.pkg, hint, tt.has)
		}
	}
	// A prebuilt package whose rows name no CUDA is not ruled out: it is
	// still offered, and no list of CUDA majors is made up for it.
	f.ExtensionBuilds = []kb.ExtensionBuild{{Name: "cupy-cuda12x", Version: "13.4.1", Dist: "pypi", Source: "S"}}
	st := stack("2.1.0", "10.1", kb.DistWheel)
	st.GPUPackages = append(st.GPUPackages, resolver.GPUPackage{Name: "cupy", Role: resolver.RoleExtension, Version: "8.3.0",
		Pos: finding.Pos{File: "env", Line: 4, Col: 3}, Line: 4, SourceBuild: true, Unknown: "cupy 8.3.0 comes from the package index, which has only its source"})
	seen := false
	for _, d := range evaluate(st, host("535.104.05", "12.2", "8.0"), factsKB{f}, CheckOptions{}).Findings {
		if d.Code == "EG409" && strings.Contains(d.Message, "cupy 8.3.0") {
			seen = true
			if !strings.Contains(d.Hint, "releases of cupy-cuda12x (pypi)") || strings.Contains(d.Hint, "built for CUDA ,") {
				t.Errorf("a prebuilt package with no CUDA rows: hint %q", d.Hint)
			}
		}
	}
	if !seen {
		t.Error("no EG409 for the source-built cupy")
	}
}
