package packaging

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/sarifschema"
	"gopkg.in/yaml.v3"
)

// action is the part of action.yml these tests read.
type action struct {
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name       string            `yaml:"name"`
	ID         string            `yaml:"id"`
	If         string            `yaml:"if"`
	Uses       string            `yaml:"uses"`
	Run        string            `yaml:"run"`
	Shell      string            `yaml:"shell"`
	WorkingDir string            `yaml:"working-directory"`
	Env        map[string]string `yaml:"env"`
	With       map[string]string `yaml:"with"`
}

func readAction(t *testing.T) action {
	t.Helper()
	var a action
	if err := yaml.Unmarshal(readRoot(t, "action.yml"), &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// TestActionSchema checks action.yml against the Actions metadata schema
// (testdata/schemas/github-action.json, from SchemaStore), and that the
// schema does reject broken metadata, so that a pass means something.
func TestActionSchema(t *testing.T) {
	s := compileSchema(t, "github-action.json")
	src := readRoot(t, "action.yml")
	if err := s.Validate(yamlInstance(t, src)); err != nil {
		t.Fatalf("action.yml fails the Actions metadata schema:\n%v", err)
	}
	broken := map[string]func(m map[string]any){
		"no runs":           func(m map[string]any) { delete(m, "runs") },
		"unknown key":       func(m map[string]any) { m["input"] = map[string]any{} },
		"composite typo":    func(m map[string]any) { m["runs"].(map[string]any)["using"] = "composit" },
		"run with no shell": func(m map[string]any) { delete(step(m, 2), "shell") }, // the install step
		"input not a map":   func(m map[string]any) { m["inputs"].(map[string]any)["files"] = "." },
	}
	for name, breakIt := range broken {
		var m map[string]any
		if err := yaml.Unmarshal(src, &m); err != nil {
			t.Fatal(err)
		}
		breakIt(m)
		b, err := yaml.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(yamlInstance(t, b)); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}

func step(m map[string]any, i int) map[string]any {
	return m["runs"].(map[string]any)["steps"].([]any)[i].(map[string]any)
}

var reInputRef = regexp.MustCompile(`\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}`)

// TestActionShape: a composite action whose every input is used and every
// ${{ inputs.X }} declared, whose scripts exist and are executable, which
// installs the module's own command, and uploads SARIF only when asked.
func TestActionShape(t *testing.T) {
	a := readAction(t)
	src := string(readRoot(t, "action.yml"))
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", a.Runs.Using)
	}
	used := map[string]bool{}
	for _, m := range reInputRef.FindAllStringSubmatch(src, -1) {
		used[m[1]] = true
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("action.yml uses inputs.%s, which it does not declare", m[1])
		}
	}
	for name, in := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but never used", name)
		}
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
	}
	for _, want := range []string{"version", "files", "targets", "fail-on", "sarif"} {
		if _, ok := a.Inputs[want]; !ok {
			t.Errorf("no %s input", want)
		}
	}
	var uploads, scripts int
	for _, s := range a.Runs.Steps {
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") {
			uploads++
			if !strings.Contains(s.If, "inputs.sarif == 'true'") {
				t.Errorf("SARIF upload runs whether or not sarif is true: if %q", s.If)
			}
		}
		for _, m := range regexp.MustCompile(`\$GITHUB_ACTION_PATH/([^"' ]+)`).FindAllStringSubmatch(s.Run, -1) {
			scripts++
			st, err := os.Stat(filepath.Join(root, m[1]))
			if err != nil || st.Mode()&0o111 == 0 {
				t.Errorf("step %q runs %s, which is missing or not executable (%v)", s.Name, m[1], err)
			}
		}
	}
	if uploads != 1 || scripts != 3 {
		t.Errorf("%d SARIF uploads and %d scripts; want 1 and 3 (install, validate, finish)", uploads, scripts)
	}
	// TestActionInstall runs the install; this checks that it installs
	// this module's command at the version asked.
	mod := modulePath(t)
	if !strings.Contains(string(readRoot(t, "action/install.sh")), `go install "`+mod+`/cmd/envguard@${version}"`) {
		t.Errorf("action/install.sh does not go install %s/cmd/envguard@${version}", mod)
	}
}

func modulePath(t *testing.T) string {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(string(readRoot(t, "go.mod"))))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "module" {
			return f[1]
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

// actionRun is what one simulated run of the action left behind.
type actionRun struct {
	stdout, summary string
	outputs         map[string]string
	finish          int // the last step's exit status: the job's fate
}

// runAction runs the action's steps as the runner would, in workspace,
// with the inputs given over the defaults: every run step with its env
// (${{ inputs.X }} and ${{ steps.validate.outputs.X }} filled in), in its
// working directory, with GITHUB_ACTION_PATH the module root. The uses
// steps are not run: setup-go (Go is here) and upload-sarif (only its
// condition is checked, by TestActionShape). The install step is
// TestActionInstall's; here the test's own build stands in for it on PATH.
func runAction(t *testing.T, workspace string, with map[string]string) actionRun {
	t.Helper()
	a := readAction(t)
	inputs := map[string]string{}
	for name, in := range a.Inputs {
		inputs[name] = in.Default
	}
	for k, v := range with {
		if _, ok := a.Inputs[k]; !ok {
			t.Fatalf("no input %s", k)
		}
		inputs[k] = v
	}
	outputs := map[string]string{}
	expand := func(s string) string {
		return regexp.MustCompile(`\$\{\{\s*(inputs|steps\.validate\.outputs)\.([A-Za-z0-9_-]+)\s*\}\}`).ReplaceAllStringFunc(s, func(m string) string {
			p := regexp.MustCompile(`\$\{\{\s*(inputs|steps\.validate\.outputs)\.([A-Za-z0-9_-]+)\s*\}\}`).FindStringSubmatch(m)
			if p[1] == "inputs" {
				return inputs[p[2]]
			}
			return outputs[p[2]]
		})
	}
	tmp := t.TempDir()
	var r actionRun
	r.finish = -1
	for _, s := range a.Runs.Steps {
		if s.Run == "" || s.Name == "Install envguard" {
			continue
		}
		if s.Shell != "bash" {
			t.Fatalf("step %q: shell %q", s.Name, s.Shell)
		}
		outFile, summary := filepath.Join(tmp, "output"), filepath.Join(tmp, "summary")
		_ = os.WriteFile(outFile, nil, 0o644)
		// The runner's bash: bash --noprofile --norc -eo pipefail {0}.
		cmd := commandOnPath("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Dir = filepath.Join(workspace, expand(s.WorkingDir))
		cmd.Env = append(cmd.Env, "GITHUB_ACTION_PATH="+root, "GITHUB_OUTPUT="+outFile,
			"GITHUB_STEP_SUMMARY="+summary, "GITHUB_WORKSPACE="+workspace)
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+expand(v))
		}
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		code := exitCode(t, cmd)
		if s.ID == "validate" {
			if code != 0 {
				t.Fatalf("the validate step failed (exit %d); it must record the status instead\n%s", code, errOut.String())
			}
			r.stdout = out.String()
			b, _ := os.ReadFile(summary)
			r.summary = string(b)
			b, _ = os.ReadFile(outFile)
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if k, v, ok := strings.Cut(l, "="); ok {
					outputs[k] = v
				}
			}
		} else {
			r.finish = code
		}
	}
	r.outputs = outputs
	return r
}

const (
	cleanEnv = "name: pt20_cu118\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - pytorch-cuda=11.8\n"
	warnEnv  = "name: x\ndependencies:\n  - python=3.10\n"
	fleet    = "targets:\n  - name: old-pool\n    driver: \"418.87.01\"\n    gpus: [\"V100\"]\n  - name: h100-pool\n    driver: \"550.54.15\"\n    gpus: [\"H100\"]\n"
)

func TestActionRun(t *testing.T) {
	bad := string(readRoot(t, "testdata/demo/environment.yml"))

	t.Run("clean", func(t *testing.T) {
		ws := gitRepo(t, map[string]string{"environment.yml": cleanEnv, "requirements.txt": "numpy==1.26.4\n"})
		r := runAction(t, ws, nil)
		if r.outputs["exit-code"] != "0" || r.finish != 0 || strings.Contains(r.stdout, "::error") {
			t.Errorf("exit-code %q, finish %d\n%s", r.outputs["exit-code"], r.finish, r.stdout)
		}
		if !strings.Contains(r.summary, "environment.yml: pt20_cu118; 0 errors") || !strings.Contains(r.summary, "requirements.txt") {
			t.Errorf("job summary:\n%s", r.summary)
		}
		if _, ok := r.outputs["sarif-file"]; ok {
			t.Errorf("a SARIF log without sarif: true")
		}
	})

	t.Run("error annotated and fails the job", func(t *testing.T) {
		ws := gitRepo(t, map[string]string{"environment.yml": cleanEnv, "envs/environment.yml": bad})
		r := runAction(t, ws, nil)
		if r.outputs["exit-code"] != "1" || r.finish != 1 {
			t.Errorf("exit-code %q, finish %d, want 1 and 1", r.outputs["exit-code"], r.finish)
		}
		if !strings.Contains(r.stdout, "::error file=envs/environment.yml,line=8,col=24") {
			t.Errorf("no ::error annotation on line 8:\n%s", r.stdout)
		}
	})

	t.Run("sarif", func(t *testing.T) {
		ws := gitRepo(t, map[string]string{"envs/environment.yml": bad})
		r := runAction(t, ws, map[string]string{"sarif": "true"})
		name := r.outputs["sarif-file"]
		if name != filepath.Join(ws, "envguard.sarif") {
			t.Fatalf("sarif-file = %q", name)
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := sarifschema.Validate(b); err != nil {
			t.Errorf("SARIF fails the 2.1.0 schema: %v", err)
		}
		var log struct {
			Runs []struct {
				Results []json.RawMessage `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(b, &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("SARIF: %v, %d runs", err, len(log.Runs))
		}
		if n := len(log.Runs[0].Results); n != strings.Count(r.stdout, "\n") {
			t.Errorf("%d SARIF results, %d annotations", n, strings.Count(r.stdout, "\n"))
		}
		if r.finish != 1 {
			t.Errorf("finish %d, want 1", r.finish)
		}
	})

	t.Run("targets and fail-on", func(t *testing.T) {
		ws := gitRepo(t, map[string]string{"environment.yml": cleanEnv, "fleet.yml": fleet, "sub dir/environment.yml": warnEnv})
		r := runAction(t, ws, map[string]string{"targets": "old-pool\nh100-pool", "targets-file": "fleet.yml", "files": "environment.yml"})
		if r.finish != 1 || !strings.Contains(r.stdout, "(target old-pool)") || strings.Contains(r.stdout, "(target h100-pool)") {
			t.Errorf("finish %d; want a failure for old-pool only\n%s", r.finish, r.stdout)
		}
		r = runAction(t, ws, map[string]string{"files": "sub dir/environment.yml\n"})
		if r.finish != 0 || !strings.Contains(r.stdout, "::warning file=sub dir/environment.yml") {
			t.Errorf("warnings pass by default: finish %d\n%s", r.finish, r.stdout)
		}
		r = runAction(t, ws, map[string]string{"files": "sub dir/environment.yml", "fail-on": "warning"})
		if r.finish != 1 {
			t.Errorf("fail-on warning: finish %d", r.finish)
		}
		r = runAction(t, ws, map[string]string{"targets": "nowhere"})
		if r.outputs["exit-code"] != "2" || r.finish != 2 {
			t.Errorf("an unknown target: exit-code %q, finish %d, want 2", r.outputs["exit-code"], r.finish)
		}
	})
}

// TestActionInstall runs the action's install step as the runner would,
// with ENVGUARD_VERSION the local proxy's version: it must install
// envguard and put its directory on the job's PATH (GITHUB_PATH).
func TestActionInstall(t *testing.T) {
	a := readAction(t)
	var install *actionStep
	for i, s := range a.Runs.Steps {
		if s.Name == "Install envguard" {
			install = &a.Runs.Steps[i]
		}
	}
	if install == nil || install.Env["ENVGUARD_VERSION"] != "${{ inputs.version }}" {
		t.Fatalf("no install step taking ENVGUARD_VERSION from the version input: %+v", install)
	}
	gobin := t.TempDir()
	version, env := installEnv(t, gobin)
	githubPath := filepath.Join(t.TempDir(), "path")
	cmd := commandOnPath("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", install.Run)
	cmd.Dir = t.TempDir()
	// No release at the download base: the fallback, go install.
	cmd.Env = append(append(cmd.Env, env...), "GITHUB_ACTION_PATH="+root, "GITHUB_PATH="+githubPath, "ENVGUARD_VERSION="+version,
		"ENVGUARD_DOWNLOAD_BASE=file://"+t.TempDir(), "ENVGUARD_CACHE_DIR=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the install step failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "falling back to go install") {
		t.Errorf("the step does not say it fell back to go install:\n%s", out)
	}
	b, err := os.ReadFile(githubPath)
	if err != nil || strings.TrimSpace(string(b)) != gobin {
		t.Errorf("GITHUB_PATH = %q (%v), want %s", b, err, gobin)
	}
	if !strings.Contains(string(out), "envguard") {
		t.Errorf("the step does not show the installed version:\n%s", out)
	}
}

// fakeRelease lays out a release as .goreleaser.yaml names its files, under
// base/download/version: the archive for this runner holding an envguard
// script, and checksums.txt (with the archive's sum, or a wrong one).
func fakeRelease(t *testing.T, version string, goodSum bool) (base, asset string) {
	t.Helper()
	base = t.TempDir()
	dir := filepath.Join(base, "download", version)
	stage := t.TempDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stage, "envguard"), []byte("#!/bin/sh\necho 'envguard "+version+" (release)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	asset = "envguard_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
	if out, err := exec.Command("tar", "-czf", filepath.Join(dir, asset), "-C", stage, "envguard").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, asset))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if !goodSum {
		sum[0] ^= 1
	}
	line := hex.EncodeToString(sum[:]) + "  " + asset + "\n"
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte("0000  envguard_other_arch.tar.gz\n"+line), 0o644); err != nil {
		t.Fatal(err)
	}
	return base, asset
}

// The install step downloads the release archive, checks it against
// checksums.txt and unpacks it into the cache directory; a later run uses
// the cache; a wrong checksum fails the step, with no fallback.
func TestActionInstallRelease(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the archive test runs on linux and darwin")
	}
	a := readAction(t)
	var install string
	for _, s := range a.Runs.Steps {
		if s.Name == "Install envguard" {
			install = s.Run
		}
	}
	run := func(base, cache string) (string, string, error) {
		githubPath := filepath.Join(t.TempDir(), "path")
		cmd := commandOnPath("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", install)
		cmd.Dir = t.TempDir()
		cmd.Env = append(cmd.Env, "GITHUB_ACTION_PATH="+root, "GITHUB_PATH="+githubPath, "ENVGUARD_VERSION=v9.8.7",
			"ENVGUARD_DOWNLOAD_BASE=file://"+base, "ENVGUARD_CACHE_DIR="+cache, "RUNNER_OS=", "RUNNER_ARCH=",
			// go is not there: the release must not need it.
			"GOBIN=/nonexistent")
		out, err := cmd.CombinedOutput()
		p, _ := os.ReadFile(githubPath)
		return string(out), strings.TrimSpace(string(p)), err
	}
	base, asset := fakeRelease(t, "v9.8.7", true)
	cache := filepath.Join(t.TempDir(), "cache")
	out, path, err := run(base, cache)
	if err != nil || path != cache || !strings.Contains(out, "envguard v9.8.7 (release)") || !strings.Contains(out, asset+" (v9.8.7, sha256 ") {
		t.Fatalf("install from the release: %v, GITHUB_PATH %q\n%s", err, path, out)
	}
	// The second run finds it in the cache, even with the release gone.
	out, path, err = run(t.TempDir(), cache)
	if err != nil || path != cache || !strings.Contains(out, "using the cached v9.8.7") {
		t.Errorf("second run: %v, GITHUB_PATH %q\n%s", err, path, out)
	}
	bad, _ := fakeRelease(t, "v9.8.7", false)
	badCache := filepath.Join(t.TempDir(), "cache")
	out, _, err = run(bad, badCache)
	if err == nil || !strings.Contains(out, "does not match checksums.txt") || strings.Contains(out, "falling back") {
		t.Errorf("a wrong checksum: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(badCache, "envguard")); err == nil {
		t.Errorf("an archive whose checksum did not match was unpacked")
	}
}
