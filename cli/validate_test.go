package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/envguard/envguard/internal/sarifschema"
)

const cleanEnv = `name: pt20_cu118
channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.10
  - pytorch=2.0.1
  - pytorch-cuda=11.8
`

// warnEnv has only a warning (EG107: no channels).
const warnEnv = `name: x
dependencies:
  - python=3.10
`

// errEnv has an error: the CUDA pins disagree (EG201).
const errEnv = `name: pt20_cu118
channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.10
  - pytorch=2.0.1
  - pytorch-cuda=11.7
  - pip
  - pip:
    - torch==2.0.1+cu118
`

const targetsFile = `targets:
  - name: old
    driver: "418.39"
    gpus: ["V100"]
  - name: h100
    driver: "550.54.15"
    gpus: ["H100"]
`

func TestValidateExitCodes(t *testing.T) {
	clean := egWrite(t, "clean.yml", cleanEnv)
	warn := egWrite(t, "warn.yml", warnEnv)
	bad := egWrite(t, "bad.yml", errEnv)
	targets := egWrite(t, "targets.yml", targetsFile)
	badTargets := egWrite(t, "t.yml", "targets:\n  - name: a\n    driver: banana\n")
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr string // substring of stderr
		stdout string // substring of stdout
	}{
		{name: "clean", args: []string{clean}, code: 0, stdout: "0 errors"},
		{name: "warning only", args: []string{warn}, code: 0, stdout: "EG107"},
		{name: "fail on warning", args: []string{"--fail-on", "warning", warn}, code: 1},
		{name: "errors", args: []string{bad}, code: 1, stdout: "EG201"},
		{name: "one bad of two", args: []string{clean, bad}, code: 1},
		{name: "stdin", args: []string{"-"}, stdin: errEnv, code: 1, stdout: "-:8:17: error EG201"},
		{name: "stdin clean", args: []string{"-"}, stdin: cleanEnv, code: 0},
		{name: "stdin twice", args: []string{"-", "-"}, stdin: cleanEnv, code: 2, stderr: "given 2 times"},
		{name: "file and stdin", args: []string{clean, "-"}, stdin: errEnv, code: 1, stdout: "-:8:17: error EG201"},
		{name: "missing file", args: []string{filepath.Join(dir, "nope.yml")}, code: 2, stderr: "nope.yml"},
		{name: "directory", args: []string{dir}, code: 2, stderr: "is a directory"},
		{name: "no file", args: nil, code: 2},
		{name: "unknown format", args: []string{"--format", "xml", clean}, code: 2, stderr: `--format "xml"`},
		{name: "bad fail-on", args: []string{"--fail-on", "sometimes", clean}, code: 2, stderr: "--fail-on"},
		{name: "unknown flag", args: []string{"--frobnicate", clean}, code: 2, stderr: "frobnicate"},
		{name: "unknown target", args: []string{"--target", "mars", clean}, code: 2, stderr: `unknown target "mars"`},
		{name: "unknown target lists known", args: []string{"--targets", targets, "--target", "mars", clean}, code: 2, stderr: "known: local, h100, old"},
		{name: "bad targets file", args: []string{"--targets", badTargets, "--target", "a", clean}, code: 2, stderr: badTargets + ":3:"},
		{name: "missing targets file", args: []string{"--targets", filepath.Join(dir, "no.yml"), clean}, code: 2, stderr: "--targets"},
		{name: "target fails", args: []string{"--targets", targets, "--target", "old", clean}, code: 1, stdout: "targets: old FAIL"},
		{name: "target ok", args: []string{"--targets", targets, "--target", "h100", clean}, code: 0, stdout: "targets: h100 ok"},
		{name: "local without a driver still validates", args: []string{"--target", "local", warn}, code: 0, stdout: "targets: local"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := egRun(t, tc.stdin, append([]string{"validate"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errs)
			}
			if !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr %q lacks %q", errs, tc.stderr)
			}
			if !strings.Contains(out, tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, out)
			}
			if tc.code == 2 && out != "" {
				t.Errorf("usage error printed a report:\n%s", out)
			}
		})
	}
}

func TestValidateFormats(t *testing.T) {
	bad := egWrite(t, "bad.yml", errEnv)
	clean := egWrite(t, "clean.yml", cleanEnv)

	code, out, _ := egRun(t, "", "validate", "--format", "json", bad)
	if code != 1 {
		t.Errorf("json: exit %d", code)
	}
	// One file or many, --format json is an array of reports.
	var reps []struct {
		File     string                     `json:"file"`
		Name     struct{ Canonical string } `json:"name"`
		Findings []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
		} `json:"findings"`
		Summary struct{ Errors int } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("json: %v (%d reports)\n%s", err, len(reps), out)
	}
	rep := reps[0]
	if rep.File != bad || rep.Name.Canonical != "pt20_cu118" || rep.Summary.Errors == 0 || len(rep.Findings) == 0 {
		t.Errorf("json report = %+v", rep)
	}

	code, out, _ = egRun(t, "", "validate", "--format", "json", clean, bad)
	var many []json.RawMessage
	if err := json.Unmarshal([]byte(out), &many); err != nil || len(many) != 2 || code != 1 {
		t.Errorf("json of two files: exit %d, %d reports, %v", code, len(many), err)
	}

	code, out, _ = egRun(t, "", "validate", "--format", "sarif", clean, bad)
	if code != 1 {
		t.Errorf("sarif: exit %d", code)
	}
	if err := sarifschema.Validate([]byte(out)); err != nil {
		t.Errorf("sarif fails the schema: %v", err)
	}
	log, err := sarif.FromBytes([]byte(out))
	if err != nil {
		t.Fatalf("sarif: %v", err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) != len(rep.Findings) {
		t.Errorf("sarif: want 1 run with %d results", len(rep.Findings))
	}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if r.Help == nil || r.Help.Markdown == nil || !strings.Contains(*r.Help.Markdown, "How to fix") {
			t.Errorf("rule %s has no markdown help", *r.ID)
		}
		// help.text is for viewers without Markdown: no ** or ``` in it.
		if r.Help == nil || r.Help.Text == nil || !strings.Contains(*r.Help.Text, "How to fix") || strings.Contains(*r.Help.Text, "**") || strings.Contains(*r.Help.Text, "```") {
			t.Errorf("rule %s: help.text is not the plain-text documentation", *r.ID)
		}
	}

	code, out, _ = egRun(t, "", "validate", "--format", "github", bad)
	if code != 1 || !strings.HasPrefix(out, "::") || !strings.Contains(out, "::error file="+bad+",line=8,col=17") {
		t.Errorf("github: exit %d\n%s", code, out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::warning ") && !strings.HasPrefix(l, "::notice ") {
			t.Errorf("github: not a workflow command: %q", l)
		}
	}

	code, out, _ = egRun(t, "", "validate", "--format", "text", bad)
	if code != 1 || !strings.Contains(out, bad+":8:17: error EG201") || !strings.Contains(out, "    8 |   - pytorch-cuda=11.7") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
}

func TestValidateConfig(t *testing.T) {
	warn := egWrite(t, "warn.yml", warnEnv)
	off := egWrite(t, "off.yml", "rules:\n  EG107: off\n")
	up := egWrite(t, "up.yml", "rules:\n  EG107: error\n")
	broken := egWrite(t, "broken.yml", "rules:\n  EG107: loud\n")
	withTargets := egWrite(t, "t.yml", targetsFile)

	if code, out, _ := egRun(t, "", "validate", "--config", off, warn); code != 0 || strings.Contains(out, "EG107") {
		t.Errorf("EG107 off: exit %d\n%s", code, out)
	}
	if code, out, _ := egRun(t, "", "validate", "--config", up, warn); code != 1 || !strings.Contains(out, "error EG107") {
		t.Errorf("EG107 error: exit %d\n%s", code, out)
	}
	if code, _, errs := egRun(t, "", "validate", "--config", broken, warn); code != 2 || !strings.Contains(errs, broken+":2:10:") {
		t.Errorf("broken config: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := egRun(t, "", "validate", "--config", filepath.Join(t.TempDir(), "none.yml"), warn); code != 2 || !strings.Contains(errs, "--config") {
		t.Errorf("missing config: exit %d, stderr %q", code, errs)
	}
	// Targets named in .envguard.yml work without --targets.
	if code, out, _ := egRun(t, "", "validate", "--config", withTargets, "--target", "old", egWrite(t, "c.yml", cleanEnv)); code != 1 || !strings.Contains(out, "EG401") {
		t.Errorf("config targets: exit %d\n%s", code, out)
	}
}

// TestValidateDefaultConfig: the .envguard.yml nearest a file, up to the
// repository root, is read without --config, wherever envguard runs from;
// one above the repository root is not.
func TestValidateDefaultConfig(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	sub := filepath.Join(repo, "envs", "train")
	for _, d := range []string{filepath.Join(repo, ".git"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := filepath.Join(sub, "environment.yml")
	if err := os.WriteFile(env, []byte(warnEnv), 0o644); err != nil {
		t.Fatal(err)
	}
	// Above the repository: must not apply.
	if err := os.WriteFile(filepath.Join(top, ".envguard.yml"), []byte("rules:\n  EG107: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if code, out, _ := egRun(t, "", "validate", env); code != 0 || !strings.Contains(out, "EG107") {
		t.Errorf("a config above the repository root was applied: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(filepath.Join(repo, ".envguard.yml"), []byte("rules:\n  EG107: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := egRun(t, "", "validate", env); code != 0 || strings.Contains(out, "EG107") {
		t.Errorf("the repository's config two levels up was not applied: exit %d\n%s", code, out)
	}
	_, out, _ := egRun(t, "", "validate", "--show-config", env)
	if want := env + ": " + filepath.Join(repo, ".envguard.yml") + "\n"; !strings.HasPrefix(out, want) || !strings.Contains(out, "off: EG107") {
		t.Errorf("--show-config:\n%s\nwant it to start %q and list EG107 off", out, want)
	}
}

// unknownEnv is a wheel of a series newer than the knowledge base, whose
// architecture list is not known: against an RTX 5090 (beyond what CUDA 12.6
// targets) the verdict is unknown.
const unknownEnv = `name: pt215_cu126
channels:
  - conda-forge
dependencies:
  - python=3.12
  - pip
  - pip:
      - --index-url https://download.pytorch.org/whl/cu126
      - torch==2.15.0+cu126
`

const rtx5090Targets = `targets:
  - name: rtx5090
    driver: "570.124.06"
    gpus: ["RTX 5090"]
`

// TestValidateFailOnUnknown: unknown is shown and passes by default; it
// fails with --fail-on unknown or fail_on: unknown, and the flag wins over
// the file.
func TestValidateFailOnUnknown(t *testing.T) {
	env := egWrite(t, "e.yml", unknownEnv)
	targets := egWrite(t, "t.yml", rtx5090Targets)
	code, out, _ := egRun(t, "", "validate", "--targets", targets, "--target", "rtx5090", env)
	if code != 0 || !strings.Contains(out, "targets: rtx5090 unknown") || strings.Contains(out, "rtx5090 ok") {
		t.Errorf("default: exit %d\n%s", code, out)
	}
	if code, _, _ := egRun(t, "", "validate", "--fail-on", "unknown", "--targets", targets, "--target", "rtx5090", env); code != 1 {
		t.Errorf("--fail-on unknown: exit %d, want 1", code)
	}
	cfg := egWrite(t, "c.yml", "fail_on: unknown\n")
	if code, _, _ := egRun(t, "", "validate", "--config", cfg, "--targets", targets, "--target", "rtx5090", env); code != 1 {
		t.Errorf("fail_on: unknown: exit %d, want 1", code)
	}
	if code, _, _ := egRun(t, "", "validate", "--config", cfg, "--fail-on", "error", "--targets", targets, "--target", "rtx5090", env); code != 0 {
		t.Errorf("--fail-on error over fail_on: unknown: exit %d, want 0", code)
	}
	// info fails on any finding: the EG409 warning here, and an info alone.
	if code, _, _ := egRun(t, "", "validate", "--fail-on", "info", "--targets", targets, "--target", "rtx5090", env); code != 1 {
		t.Errorf("--fail-on info: exit %d, want 1", code)
	}
	prefixOnly := egWrite(t, "info.yml", cleanEnv+"prefix: /opt/conda/envs/x\n")
	if code, out, _ := egRun(t, "", "validate", prefixOnly); code != 0 || !strings.Contains(out, "EG109") {
		t.Errorf("an info finding with the default fail level: exit %d, want 0\n%s", code, out)
	}
	if code, _, _ := egRun(t, "", "validate", "--fail-on", "info", prefixOnly); code != 1 {
		t.Errorf("an info finding with --fail-on info: exit %d, want 1", code)
	}
	if code, _, errs := egRun(t, "", "validate", "--fail-on", "sometimes", env); code != 2 || !strings.Contains(errs, "want error, unknown, warning or info") {
		t.Errorf("--fail-on sometimes: exit %d, %q", code, errs)
	}
	bad := egWrite(t, "bad.yml", "fail_on: sometimes\n")
	if code, _, errs := egRun(t, "", "validate", "--config", bad, env); code != 2 || !strings.Contains(errs, bad+":1:10:") {
		t.Errorf("bad fail_on: exit %d, %q", code, errs)
	}
	// JSON carries the verdict and the counts.
	_, js, _ := egRun(t, "", "validate", "--format", "json", "--targets", targets, "--target", "rtx5090", env)
	for _, w := range []string{`"verdict": "unknown"`, `"unknown": 1`, `"reason": "arch-list-unknown+ptx-unknown"`} {
		if !strings.Contains(js, w) {
			t.Errorf("JSON lacks %s:\n%s", w, js)
		}
	}
}
