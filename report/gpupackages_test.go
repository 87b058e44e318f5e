package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// undecidedPackageCases are environments whose framework is decided on an
// H100 and an RTX 5090 but where another GPU-code package is not: an
// extension the knowledge base does not know, a release of a known one
// newer than its rows, and (on the RTX 5090) CUDA libraries on the
// framework's PTX path.
var undecidedPackageCases = []struct {
	name, src string
	targets   []string // the targets whose verdict must be unknown
}{
	{"unknown extension", "name: pt25_cu124\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu124\n    - torch==2.5.1+cu124\n    - someonesext==1.0+cu124\n", []string{"h100"}},
	{"release newer than the KB", "name: pt26_cu124\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu124\n    - torch==2.6.0+cu124\n    - xformers==0.0.99\n", []string{"h100"}},
	// tensorflow 2.18.0 (CUDA 12.5, cuDNN 9.3) reaches the RTX 5090 only
	// through PTX: whether its CUDA 12.5 libraries serve sm_120 is not
	// known, nor which cuDNN 9 it loads (cuDNN 9 for CUDA 12 may run there
	// through forward compatibility). pytorch 1.7.0 for CUDA 11.0 was this
	// case until its cuDNN 8.0.3 was known (build string), and fails there.
	{"CUDA libraries on the PTX path", "name: tf218_cu125\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - tensorflow[and-cuda]==2.18.0\n", []string{"rtx5090"}},
}

func undecidedHosts(t *testing.T) *Machines {
	t.Helper()
	var ts []gpucheck.Target
	for _, tg := range StandardFleet() {
		if tg.Name == "h100" || tg.Name == "rtx5090" {
			ts = append(ts, tg)
		}
	}
	if len(ts) != 2 {
		t.Fatalf("standard fleet lacks h100 or rtx5090: %+v", ts)
	}
	return &Machines{Targets: ts}
}

// TestUndecidedPackagesNeverOK: where an extension, or a CUDA library on
// the PTX path, was not decided, no output says ok for that target: the
// report's verdict and summary, the text summary line, JSON, SARIF's
// target properties, and the GitHub and GitLab annotations (which list
// findings only, so each must carry the target's EG409).
func TestUndecidedPackagesNeverOK(t *testing.T) {
	m := undecidedHosts(t)
	hosts, err := m.Resolve([]string{"h100", "rtx5090"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range undecidedPackageCases {
		t.Run(tc.name, func(t *testing.T) {
			r := Validate("environment.yml", []byte(tc.src), Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			for _, name := range tc.targets {
				var tr *TargetReport
				for i := range r.Targets {
					if r.Targets[i].Name == name {
						tr = &r.Targets[i]
					}
				}
				if tr == nil || tr.Verdict != gpucheck.VerdictUnknown {
					t.Fatalf("target %s: %+v, want unknown", name, tr)
				}
				var text bytes.Buffer
				if err := r.WriteText(&text); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(text.String(), name+" ok") || !strings.Contains(text.String(), name+" unknown") {
					t.Errorf("text: target %s is not unknown:\n%s", name, text.String())
				}
				var js struct {
					Targets []struct{ Name, Verdict string } `json:"targets"`
				}
				if err := json.Unmarshal(r.JSON(), &js); err != nil {
					t.Fatal(err)
				}
				for _, jt := range js.Targets {
					if jt.Name == name && jt.Verdict != "unknown" {
						t.Errorf("json: target %s is %s", name, jt.Verdict)
					}
				}
				var sf bytes.Buffer
				if err := WriteSARIF(&sf, []*Report{r}, testRuleDocs(), "test"); err != nil {
					t.Fatal(err)
				}
				var log struct {
					Runs []struct {
						Properties struct {
							Targets []map[string]string `json:"envguard/targets"`
						} `json:"properties"`
					} `json:"runs"`
				}
				if err := json.Unmarshal(sf.Bytes(), &log); err != nil || len(log.Runs) != 1 {
					t.Fatalf("sarif: %v", err)
				}
				seen := false
				for _, p := range log.Runs[0].Properties.Targets {
					if p["target"] == name {
						seen = true
						if p["verdict"] != "unknown" {
							t.Errorf("sarif: target %s is %s", name, p["verdict"])
						}
					}
				}
				if !seen {
					t.Errorf("sarif: no verdict for target %s:\n%s", name, sf.String())
				}
				var gh bytes.Buffer
				if err := r.WriteGitHub(&gh); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(gh.String(), "title=EG409::") || !strings.Contains(gh.String(), "(target "+name+")") {
					t.Errorf("github: no EG409 annotation for target %s:\n%s", name, gh.String())
				}
				var cq bytes.Buffer
				if err := WriteCodeQuality(&cq, []*Report{r}); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(cq.String(), `"check_name": "EG409"`) {
					t.Errorf("codequality: no EG409 issue:\n%s", cq.String())
				}
			}
		})
	}
}
