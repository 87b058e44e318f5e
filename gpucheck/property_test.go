package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestVerdictProperty holds every build the knowledge base knows (each
// release × published CUDA variant × distribution) against every GPU in its
// table, on a new driver and on an old one, and checks the verdict rules:
//   - fail exactly when an error applies, unknown exactly when no error and
//     some check undecided, ok only when neither;
//   - each undecided check is one EG409 finding with a reason, and no ok
//     hides one;
//   - where the build's architecture list is known, with its PTX, the
//     architecture check is always decided;
//   - a GPU below what the build's CUDA toolkit can target always fails.
func TestVerdictProperty(t *testing.T) {
	k := kb.Default()
	drivers := []struct{ driver, cuda string }{{"580.65.06", "13.0"}, {"470.82.01", "11.4"}}
	pairs, decided := 0, 0
	for _, v := range k.TorchVariants {
		if v.NotPublished {
			continue
		}
		rels := k.Series(v.Series)
		if len(rels) == 0 {
			continue
		}
		for _, rel := range rels {
			for _, cuda := range v.CUDA {
				st := stack(rel.Version, cuda, v.Dist)
				list, listOK := k.Arch(v.Series, cuda, v.Dist)
				archKnown := listOK && list.Known && !list.PTXUnknown
				ta, taOK := k.ToolkitArch(cuda)
				for _, g := range k.GPUs {
					for _, d := range drivers {
						h := host(d.driver, d.cuda, g.CC)
						h.GPUs[0].Name = g.Name
						r := evaluate(st, h, k, CheckOptions{})
						pairs++
						if r.Verdict != VerdictUnknown {
							decided++
						}
						label := rel.Version + " " + string(v.Dist) + " cu" + cuda + " on " + g.Name + " (" + g.CC + "), driver " + d.driver
						checkVerdictRules(t, label, r)
						for _, u := range r.Undecided {
							if u.Check == "architecture" && archKnown {
								t.Errorf("%s: architecture undecided (%s) though the list is known: %s", label, u.Reason, u.Why)
							}
						}
						if taOK && below(g.CC, ta.MinSASS) && r.Verdict != VerdictFail {
							t.Errorf("%s: %s is below CUDA %s's lowest target %s, yet the verdict is %s", label, g.CC, cuda, ta.MinSASS, r.Verdict)
						}
					}
				}
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no build × GPU pair was checked: the knowledge base lists no variants")
	}
	t.Logf("%d build × GPU × driver pairs, %d decided (%.1f%%)", pairs, decided, 100*float64(decided)/float64(pairs))
}

func checkVerdictRules(t *testing.T, label string, r TargetResult) {
	t.Helper()
	var errs, eg409 int
	for _, d := range r.Findings {
		if d.Severity.String() == "error" {
			errs++
		}
		if d.Code == "EG409" {
			eg409++
			if !strings.HasPrefix(d.Message, "could not check ") || d.Hint == "" {
				t.Errorf("%s: EG409 without a reason or a hint: %q / %q", label, d.Message, d.Hint)
			}
		}
	}
	if eg409 != len(r.Undecided) {
		t.Errorf("%s: %d EG409 findings, %d undecided checks", label, eg409, len(r.Undecided))
	}
	for _, u := range r.Undecided {
		if u.Check == "" || u.Reason == "" || u.Why == "" {
			t.Errorf("%s: undecided check without a name or reason: %+v", label, u)
		}
	}
	want := VerdictOK
	switch {
	case errs > 0:
		want = VerdictFail
	case len(r.Undecided) > 0:
		want = VerdictUnknown
	}
	if r.Verdict != want {
		t.Errorf("%s: verdict %s, want %s (%d errors, %d undecided)", label, r.Verdict, want, errs, len(r.Undecided))
	}
}

func below(gpu, min string) bool {
	g, ok1 := parseCC(gpu)
	m, ok2 := parseCC(min)
	return ok1 && ok2 && g.less(m)
}
