package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestPipPickVerdict holds an open torch spec beside --extra-index-url
// to the cu118 wheel index against an A100 on driver 535 (CUDA 12.2). pip
// takes the highest release across both indexes, PyPI's 2.14.0 (CUDA 13.0),
// which the driver cannot run: the files pip installs (an environment.yml's
// pip section, a requirements file) must fail with EG401, and EG304 must
// name the build the checks judged. A pixi manifest's pypi-dependencies are
// installed by uv (first-index), which takes the index's 2.7.1+cu118: that
// one runs.
func TestPipPickVerdict(t *testing.T) {
	hosts := targetHosts(t, `targets:
  - name: a100
    driver: "535.104.05"
    gpus: ["A100"]
`)
	cases := []struct {
		file, src string
		verdict   gpucheck.Verdict
		eg401     bool
		pick      string // the release EG304 and the stack's PipPick name; "" for none
	}{
		{"environment.yml", `dependencies:
  - python=3.11
  - pip
  - pip:
    - --extra-index-url https://example.org/whl/cu118
    - torch>=2.7.0
`, gpucheck.VerdictFail, true, "2.14.0"},
		{"requirements.txt", "--extra-index-url https://example.org/whl/cu118\ntorch>=2.7.0\n", gpucheck.VerdictFail, true, "2.14.0"},
		{"requirements.txt", "--extra-index-url https://example.org/whl/cu118\ntorch==2.8.0\n", gpucheck.VerdictOK, false, "2.8.0"},
		// the index has 2.7.1+cu118, which sorts above PyPI's 2.7.1
		{"requirements.txt", "--extra-index-url https://example.org/whl/cu118\ntorch>=2.7.0,<2.8\n", gpucheck.VerdictOK, false, ""},
		{"pixi.toml", `[workspace]
channels = ["conda-forge"]
platforms = ["linux-64"]

[dependencies]
python = "3.11.*"

[pypi-options]
extra-index-urls = ["https://example.org/whl/cu118"]

[pypi-dependencies]
torch = ">=2.7.0"
`, gpucheck.VerdictOK, false, ""},
	}
	for _, c := range cases {
		t.Run(c.file+" "+strings.Fields(c.src)[len(strings.Fields(c.src))-1], func(t *testing.T) {
			r := Validate(c.file, []byte(c.src), Options{Platform: "linux-64", Hosts: hosts})
			if len(r.Targets) != 1 {
				t.Fatalf("targets: %+v", r.Targets)
			}
			if got := r.Targets[0].Verdict; got != c.verdict {
				t.Errorf("verdict %s, want %s; findings %+v", got, c.verdict, r.Findings)
			}
			has401 := false
			eg304 := ""
			for _, f := range r.Findings {
				has401 = has401 || f.Code == "EG401"
				if f.Code == "EG304" {
					eg304 = f.Message
				}
			}
			if has401 != c.eg401 {
				t.Errorf("EG401 %v, want %v: %+v", has401, c.eg401, r.Findings)
			}
			fw := r.Stack.Framework
			switch {
			case c.pick == "":
				if fw.PipPick != nil && !fw.PipPick.FromIndex {
					t.Errorf("PipPick %+v, want the index's build or none", fw.PipPick)
				}
			case fw.PipPick == nil || fw.PipPick.Release != c.pick || fw.PipPick.FromIndex:
				t.Errorf("PipPick %+v, want PyPI's %s", fw.PipPick, c.pick)
			case !strings.Contains(eg304, "PyPI's") || !strings.Contains(eg304, c.pick) || !strings.Contains(eg304, "which the checks take as this file's build"):
				t.Errorf("EG304 %q does not name PyPI's %s as the build the checks take", eg304, c.pick)
			}
		})
	}
}

// targetHosts reads a targets file's machines for Options.Hosts.
func targetHosts(t *testing.T, src string) []*gpucheck.Host {
	t.Helper()
	ts, err := gpucheck.ParseTargets("targets.yml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range ts {
		names = append(names, tg.Name)
	}
	hosts, err := (&Machines{Targets: ts}).Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	return hosts
}
