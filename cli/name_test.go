package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	code, out, _ := egRun(t, "", "name", egWrite(t, "e.yml", cleanEnv))
	if code != 0 || out != "pt20_cu118\n" {
		t.Errorf("exit %d, %q", code, out)
	}
	code, out, _ = egRun(t, cleanEnv, "name", "-")
	if code != 0 || out != "pt20_cu118\n" {
		t.Errorf("stdin: exit %d, %q", code, out)
	}
	// No framework: no name, and a reason.
	code, out, errs := egRun(t, "", "name", egWrite(t, "np.yml", "channels: [conda-forge]\ndependencies:\n  - numpy=1.26\n"))
	if code != 2 || out != "" || !strings.Contains(errs, "no canonical name: ") || strings.HasSuffix(strings.TrimSpace(errs), ":") {
		t.Errorf("no framework: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	bad := egWrite(t, "bad.yml", "name: x\ndependencies:\n  - a: [\n")
	code, _, errs = egRun(t, "", "name", bad)
	if code != 2 || !strings.Contains(errs, bad+":") || !strings.Contains(errs, "[EG100]") {
		t.Errorf("invalid YAML: exit %d, %q", code, errs)
	}
	code, _, errs = egRun(t, "", "name", egWrite(t, "x.yml", "")+".missing")
	if code != 2 || !strings.Contains(errs, ".missing") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
}

// TestGPUJSON runs `gpu --json` on whatever machine the tests run on. Here
// (no driver) that is available:false with a reason; on a GPU machine it
// is the GPUs. Either way it exits 0.
func TestGPUJSON(t *testing.T) {
	code, out, errs := egRun(t, "", "gpu", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var h struct {
		Name      string            `json:"name"`
		Available bool              `json:"available"`
		Reason    string            `json:"reason"`
		GPUs      []json.RawMessage `json:"gpus"`
	}
	if err := json.Unmarshal([]byte(out), &h); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if h.Name != "local" {
		t.Errorf("name %q", h.Name)
	}
	if !h.Available && h.Reason == "" {
		t.Errorf("unavailable without a reason:\n%s", out)
	}
	if h.Available && len(h.GPUs) == 0 && h.Reason == "" {
		t.Errorf("available, no GPUs, no reason:\n%s", out)
	}
	t.Logf("available=%v reason=%q gpus=%d", h.Available, h.Reason, len(h.GPUs))
}
