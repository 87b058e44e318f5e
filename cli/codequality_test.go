package cli

import (
	"encoding/json"
	"testing"
)

// TestValidateCodeQuality: --format codequality prints one GitLab code
// quality report for every file given, an issue per finding, and exits as
// the other formats do.
func TestValidateCodeQuality(t *testing.T) {
	bad := egWrite(t, "bad.yml", errEnv)
	clean := egWrite(t, "clean.yml", cleanEnv)

	_, js, _ := egRun(t, "", "validate", "--format", "json", bad)
	var reps []struct {
		Findings []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("%v: %d reports", err, len(reps))
	}
	rep := reps[0]

	code, out, _ := egRun(t, "", "validate", "--format", "codequality", clean, bad)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var issues []struct {
		CheckName string `json:"check_name"`
		Severity  string `json:"severity"`
		Location  struct {
			Path  string `json:"path"`
			Lines struct {
				Begin int `json:"begin"`
			} `json:"lines"`
		} `json:"location"`
	}
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(issues) != len(rep.Findings) {
		t.Fatalf("%d issues, %d findings", len(issues), len(rep.Findings))
	}
	for i, is := range issues {
		f := rep.Findings[i]
		if is.Location.Path != bad || is.CheckName != f.Code || is.Location.Lines.Begin != f.Line {
			t.Errorf("issue %d = %+v, finding %+v in %s", i, is, f, bad)
		}
	}

	code, out, _ = egRun(t, "", "validate", "--format", "codequality", clean)
	if code != 0 || out != "[]\n" {
		t.Errorf("clean file: exit %d, %q", code, out)
	}
}
