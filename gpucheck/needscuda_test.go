package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// extStack is an environment with no framework and no CUDA runtime whose
// one GPU-code package carries the code its binaries were read to hold
// (`check` of a prefix, or a learned build), or none.
func extStack(fw *resolver.Framework, sass ...string) *resolver.Stack {
	pos := finding.Pos{File: "env", Line: 4, Col: 3}
	p := resolver.GPUPackage{Name: "myext", Role: resolver.RoleExtension, Version: "1.0", Pos: pos, Line: 4, Known: true}
	if len(sass) > 0 {
		p.Code = resolver.GPUCode{SASS: sass, Known: true}
		p.Evidence = []resolver.Evidence{{Item: "myext/_C.so", Kind: resolver.EvidenceBinary, Package: "myext"}}
	}
	return &resolver.Stack{Framework: fw, GPUPackages: []resolver.GPUPackage{p}}
}

// A GPU extension whose binaries carry GPU code makes the environment need
// a GPU even with no framework and no CUDA runtime: a machine with no
// driver gets EG404 naming the package, a GPU its code lacks gets EG410,
// and a GPU it has code for is not ok while the driver check is open. An
// environment whose packages carry no GPU code, or whose framework is a CPU
// build, needs no GPU: no EG404 there.
func TestNeedsCUDAFromGPUCode(t *testing.T) {
	k := kb.Default()
	noDriver := &Host{Name: "cpu", Source: SourceTarget, Reason: "it has no NVIDIA driver (driver: none)"}

	c := check(extStack(nil, "8.0", "9.0"), noDriver, k, CheckOptions{})
	if got := codes(c.ds); got != "EG404" {
		t.Fatalf("no driver: %s, want EG404: %+v", got, c.ds)
	}
	if d := c.ds[0]; d.Pos.Line != 4 || !strings.Contains(d.Message, "myext 1.0 carries GPU code: SASS sm_80 sm_90") {
		t.Errorf("EG404 = %d %q, want it on myext's line naming its code", d.Pos.Line, d.Message)
	}

	r := evaluate(extStack(nil, "8.0", "9.0"), host("535.104.05", "12.2", "7.0"), k, CheckOptions{})
	if r.Verdict != VerdictFail || !strings.Contains(codes(r.Findings), "EG410") {
		t.Errorf("V100 for sm_80/sm_90 code: %s %s, want fail with EG410", r.Verdict, codes(r.Findings))
	}
	r = evaluate(extStack(nil, "8.0", "9.0"), host("535.104.05", "12.2", "8.0"), k, CheckOptions{})
	if r.Verdict == VerdictOK {
		t.Errorf("A100 with the driver check open: ok, want unknown: %+v", r.Undecided)
	}

	for name, st := range map[string]*resolver.Stack{
		"no GPU code":   extStack(nil),
		"CPU framework": extStack(&resolver.Framework{Name: "pytorch", Version: "2.5.1", Variant: "cpu", Dist: kb.DistWheel}, "8.0"),
	} {
		if ds := check(st, noDriver, k, CheckOptions{}).ds; strings.Contains(codes(ds), "EG404") {
			t.Errorf("%s: EG404 on a machine with no driver: %+v", name, ds)
		}
	}
}
