package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestCuDNNDropsPreTuring: a cuDNN from 9.11 on holds no code for a GPU
// before Turing, so a V100 or P100 fails with EG410 naming it; 9.10.2 and
// 9.8.0 still carry it, and an H100 is untouched by any of them.
func TestCuDNNDropsPreTuring(t *testing.T) {
	var ts []gpucheck.Target
	for _, tg := range StandardFleet() {
		if tg.Name == "v100" || tg.Name == "p100" || tg.Name == "h100" {
			ts = append(ts, tg)
		}
	}
	hosts, err := (&Machines{Targets: ts}).Resolve([]string{"v100", "p100", "h100"})
	if err != nil {
		t.Fatal(err)
	}
	env := func(cudnn string) string {
		return "name: pt25_cu126\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pytorch=2.5.1=cuda126_py311h1234567_300\n  - cuda-version=12.6\n  - cudnn=" + cudnn + "\n"
	}
	for _, tc := range []struct {
		cudnn string
		want  map[string]gpucheck.Verdict
	}{
		{"9.11.0.98", map[string]gpucheck.Verdict{"v100": gpucheck.VerdictFail, "p100": gpucheck.VerdictFail, "h100": gpucheck.VerdictOK}},
		{"9.10.2.21", map[string]gpucheck.Verdict{"v100": gpucheck.VerdictOK, "h100": gpucheck.VerdictOK}},
		// 9.8 < 9.11 part by part, though "9.8" > "9.11" as text.
		{"9.8.0.87", map[string]gpucheck.Verdict{"v100": gpucheck.VerdictOK, "h100": gpucheck.VerdictOK}},
	} {
		t.Run(tc.cudnn, func(t *testing.T) {
			r := Validate("environment.yml", []byte(env(tc.cudnn)), Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			for _, tr := range r.Targets {
				want, ok := tc.want[tr.Name]
				if !ok {
					continue
				}
				if tr.Verdict != want {
					t.Errorf("target %s: %s, want %s", tr.Name, tr.Verdict, want)
				}
			}
			var eg410 []string
			for _, f := range r.Findings {
				if f.Code == "EG410" {
					eg410 = append(eg410, f.Target+": "+f.Message)
				}
			}
			got := strings.Join(eg410, "\n")
			if tc.want["v100"] == gpucheck.VerdictFail {
				if !strings.Contains(got, "v100: cudnn "+tc.cudnn+" carries no code for sm_70") || !strings.Contains(got, "dropped sm_70 in 9.11.0") {
					t.Errorf("EG410 on v100 does not name cudnn's drop:\n%s", got)
				}
			} else if got != "" {
				t.Errorf("unexpected EG410:\n%s", got)
			}
		})
	}
}
