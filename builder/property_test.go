package builder

import (
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// propertyMachines are (GPU, driver) pairs spanning the GPUs and drivers a
// fleet has: every architecture from Volta to consumer Blackwell, and drivers
// from the oldest CUDA 11 branch to CUDA 13. Pairs a vendor never shipped
// (a B200 on driver 450) are left out: they say nothing the others do not.
var propertyMachines = []*gpucheck.Host{
	machine("v100-450", "450.80.02", v100),
	machine("v100-470", "470.57.02", v100),
	machine("t4-470", "470.57.02", t4),
	machine("t4-525", "525.60.13", t4),
	machine("a100-535", "535.104.05", a100),
	machine("a10-550", "550.54.15", a10),
	machine("l4-535", "535.104.05", l4),
	machine("h100-550", "550.54.15", h100gpu),
	machine("h100-580", "580.65.06", h100gpu),
	machine("b200-570", "570.124.06", b200),
	machine("rtx5090-570", "570.124.06", rtx5090),
	machine("rtx5090-580", "580.65.06", rtx5090),
}

// pythonsToTest is the oldest and the newest Python a release supports:
// the builder's choice does not depend on the Python in between (variants
// and architectures are per series), and two keep the -race run short.
func pythonsToTest(rel kb.TorchRelease) []string {
	pys := append([]string(nil), rel.Python...)
	sort.Slice(pys, func(i, j int) bool { return minorLess(pys[i], pys[j]) })
	if len(pys) <= 1 {
		return pys
	}
	return []string{pys[0], pys[len(pys)-1]}
}

// TestBuildProperty: for every PyTorch release in the knowledge base, its
// oldest and newest Python, and each machine, what Build emits validates
// against that machine with no error; or Build refuses with a *build.Error
// that says why and names the release. Releases the pytorch channel carries
// are built from the wheel index too (newest Python only). -short keeps the
// newest release of each series only.
func TestBuildProperty(t *testing.T) {
	k := kb.Default()
	start := time.Now()
	releases := k.Facts.Torch
	if testing.Short() {
		releases = newestPerSeries(releases)
	}
	var built, refused int
	refusedBy := map[string]int{}
	for _, rel := range releases {
		pys := pythonsToTest(rel)
		for pi, py := range pys {
			vias := []string{""}
			if pi == len(pys)-1 && published(k, seriesOf(rel.Version), kb.DistPytorchConda) {
				// The wheel builds of releases the channel carries too,
				// with the newest Python only.
				vias = append(vias, "pip")
			}
			for _, via := range vias {
				for _, h := range propertyMachines {
					hosts := []*gpucheck.Host{h}
					res, err := Build(Request{Framework: "pytorch", Version: rel.Version, Python: py, Via: via, Hosts: hosts, KB: k})
					if err != nil {
						var be *Error
						if !errors.As(err, &be) {
							t.Errorf("%s py%s on %s: error %T %v, want *build.Error", rel.Version, py, h.Name, err, err)
							continue
						}
						if be.Msg == "" || !strings.Contains(be.Error(), rel.Version) {
							t.Errorf("%s py%s on %s: the refusal does not name the release: %q", rel.Version, py, h.Name, be.Error())
						}
						if be.NoFit && !strings.Contains(be.Msg, h.Name) {
							t.Errorf("%s py%s on %s: the refusal does not name the machine: %q", rel.Version, py, h.Name, be.Error())
						}
						refused++
						refusedBy[h.Name]++
						continue
					}
					built++
					r := report.Validate("environment.yml", res.YAML, report.Options{Platform: "linux-64", KB: k, Hosts: hosts})
					if r.Summary.Errors > 0 {
						t.Errorf("%s py%s on %s: the emitted file has errors:\n%s", rel.Version, py, h.Name, res.YAML)
						for _, f := range r.Findings {
							if f.Severity == "error" {
								t.Logf("  %s %s", f.Code, f.Message)
							}
						}
					}
					if res.Release != rel.Version || res.Python != py {
						t.Errorf("%s py%s on %s: built torch %s py%s", rel.Version, py, h.Name, res.Release, res.Python)
					}
					if r.Name.Canonical != res.Name {
						t.Errorf("%s py%s on %s: canonical name %q, builder's %q", rel.Version, py, h.Name, r.Name.Canonical, res.Name)
					}
					if via == "pip" && res.Dist != kb.DistWheel {
						t.Errorf("%s py%s on %s: --via pip built from %s", rel.Version, py, h.Name, res.Dist)
					}
				}
			}
		}
	}
	t.Logf("%d releases × (oldest, newest Python; --via pip too where the channel has the release) × %d machines: %d built, %d refused, in %v",
		len(releases), len(propertyMachines), built, refused, time.Since(start).Round(time.Millisecond))
	t.Logf("refused per machine: %v", refusedBy)
	if built == 0 {
		t.Error("nothing was built: the property says nothing")
	}
}

func newestPerSeries(rs []kb.TorchRelease) []kb.TorchRelease {
	var out []kb.TorchRelease
	for i, r := range rs {
		if i+1 < len(rs) && seriesOf(rs[i+1].Version) == seriesOf(r.Version) {
			continue
		}
		out = append(out, r)
	}
	return out
}
