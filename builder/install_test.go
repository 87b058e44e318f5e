package builder

import (
	"os/exec"
	"strings"
	"testing"
)

// StepString's lines are what the user would paste into a shell: each
// argument comes back whole, spaces and quotes included.
func TestStepStringQuotes(t *testing.T) {
	step := []string{"micromamba", "create", "--prefix", "/opt/my envs/it's", "--file", "a$b`c`.yml", ""}
	line := StepString(step)
	got, err := exec.Command("sh", "-c", "set -- "+line+`; for a in "$@"; do printf '[%s]\n' "$a"; done`).Output()
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	want := "[" + strings.Join(step, "]\n[") + "]\n"
	if string(got) != want {
		t.Errorf("%s\nsplits to\n%s\nwant\n%s", line, got, want)
	}
}

func TestInstallPlanUV(t *testing.T) {
	res := &Result{Python: "3.11", Pip: []string{"--index-url https://download.pytorch.org/whl/cu121", "torch==2.1.2+cu121"}}
	p, err := InstallPlan("uv", "/p", "/f.yml", res)
	if err != nil {
		t.Fatal(err)
	}
	got := StepString(p.Steps[0]) + "\n" + StepString(p.Steps[1])
	want := "uv venv --python 3.11 /p\nuv pip install --python /p --index-url https://download.pytorch.org/whl/cu121 torch==2.1.2+cu121"
	if got != want || p.EnvDir != "/p" || p.Workspace {
		t.Errorf("got\n%s\nwant\n%s (%+v)", got, want, p)
	}
	if _, err := InstallPlan("uv", "/p", "/f.yml", &Result{Python: "3.11"}); err == nil || !strings.Contains(err.Error(), "--via pip") {
		t.Errorf("uv for a conda build: %v", err)
	}
	if Installs("uv", &Result{}) || !Installs("conda", &Result{}) || Installs("pip", &Result{}) {
		t.Errorf("Installs: uv needs pip lines, conda does not, pip is no installer")
	}
}
