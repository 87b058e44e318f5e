package report

import (
	"strings"
	"testing"
)

// A torch-scatter 2.0.4 that pip compiles from the package index's source
// carries SASS sm_35 and PTX compute_35 (its setup.py's -arch=sm_35), so
// it runs on a compute capability 3.7 GPU through sm_35's SASS and on
// none below 3.5: there it is EG410, named with that code, beside torch's
// own EG403.
func TestPyGSourceBuildTargets(t *testing.T) {
	src := []byte("name: pt15_cu101\nchannels:\n  - pytorch\ndependencies:\n  - python=3.7\n  - cudatoolkit=10.1\n  - pytorch=1.5.0=py3.7_cuda10.1.243_cudnn7.6.3_0\n  - pip\n  - pip:\n    - torch-scatter==2.0.4\n")
	hosts := targetHosts(t, "targets:\n  - name: kepler30\n    driver: \"470.82.01\"\n    compute_capabilities: [\"3.0\"]\n  - name: kepler37\n    driver: \"470.82.01\"\n    compute_capabilities: [\"3.7\"]\n")
	r := Validate("environment.yml", src, Options{Platform: "linux-64", Hosts: hosts})
	verdicts := map[string]string{}
	for _, tg := range r.Targets {
		verdicts[tg.Name] = string(tg.Verdict)
	}
	if verdicts["kepler37"] != "ok" || verdicts["kepler30"] != "fail" {
		t.Fatalf("verdicts %v, want kepler37 ok and kepler30 fail", verdicts)
	}
	var eg410 []string
	for _, f := range r.Findings {
		if f.Code == "EG410" {
			eg410 = append(eg410, f.Target+": "+f.Message)
		}
	}
	if len(eg410) != 1 || !strings.HasPrefix(eg410[0], "kepler30: torch-scatter 2.0.4 (SASS sm_35, PTX compute_35) can run no code") {
		t.Errorf("EG410 findings %q, want one for torch-scatter on kepler30", eg410)
	}
}
