package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --select and --ignore take codes and prefixes; --exit-zero keeps the
// report and drops the failing exit.
func TestValidateSelectIgnoreExitZero(t *testing.T) {
	bad := egWrite(t, "bad.yml", errEnv) // EG201, EG301, EG304 errors
	cases := []struct {
		args      []string
		code      int
		want, not []string
	}{
		{[]string{"--select", "EG201"}, 1, []string{"EG201"}, []string{"EG301", "EG304"}},
		{[]string{"--select", "EG3"}, 1, []string{"EG301"}, []string{"EG201"}},
		{[]string{"--select", "eg201,EG301"}, 1, []string{"EG201", "EG301"}, []string{"EG304"}},
		{[]string{"--ignore", "EG2", "--ignore", "EG3"}, 0, nil, []string{"EG201", "EG301"}},
		{[]string{"--exit-zero"}, 0, []string{"EG201", "EG301"}, nil},
	}
	for _, tc := range cases {
		code, out, errs := egRun(t, "", append(append([]string{"validate"}, tc.args...), bad)...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", tc.args, code, tc.code, out, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %s\n%s", tc.args, w, out)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(out, n) {
				t.Errorf("%v: output has %s\n%s", tc.args, n, out)
			}
		}
	}
	if code, _, errs := egRun(t, "", "validate", "--select", "EG9", bad); code != 2 || !strings.Contains(errs, "--select EG9: no rule code starts with it") {
		t.Errorf("--select EG9: exit %d, %q", code, errs)
	}
	// --exit-zero never hides a usage error.
	if code, _, _ := egRun(t, "", "validate", "--exit-zero", filepath.Join(t.TempDir(), "none.yml")); code != 2 {
		t.Errorf("--exit-zero on a missing file: exit %d, want 2", code)
	}
}

// One missing file among several is reported on stderr; the others are
// still validated, and the exit code is 2.
func TestValidateMissingAmongMany(t *testing.T) {
	clean := egWrite(t, "environment.yml", cleanEnv)
	bad := egWrite(t, "environment.yml", errEnv)
	missing := filepath.Join(t.TempDir(), "environment.yml")
	code, out, errs := egRun(t, "", "validate", clean, missing, bad)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(errs, missing+": no such file or directory") || !strings.Contains(errs, "1 of 3 inputs could not be read") {
		t.Errorf("stderr %q", errs)
	}
	if !strings.Contains(out, clean+": pt20_cu118") || !strings.Contains(out, bad+":8:") {
		t.Errorf("the readable files were not both validated:\n%s", out)
	}
}

// --stdin-filename names standard input in the report, picks its format
// by name, and its directory's .envguard.yml.
func TestValidateStdinFilename(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".envguard.yml"), []byte("rules:\n  EG107: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "envs", "environment.yml")
	code, out, _ := egRun(t, warnEnv, "validate", "--stdin-filename", name, "-")
	if code != 0 || !strings.HasPrefix(out, name+": no canonical name") || strings.Contains(out, "EG107") {
		t.Errorf("exit %d\n%s", code, out)
	}
	// Without it, - is named "-" and the working directory's config applies.
	t.Chdir(t.TempDir())
	if _, out, _ := egRun(t, warnEnv, "validate", "-"); !strings.Contains(out, "-:1:1: warning EG107") {
		t.Errorf("plain -:\n%s", out)
	}
	// A requirements file on stdin is read as one when so named.
	_, out, _ = egRun(t, "torch==2.1.0\n", "validate", "--format", "json", "--stdin-filename", "requirements.txt", "-")
	if !strings.Contains(out, `"code": "EG304"`) {
		t.Errorf("requirements on stdin:\n%s", out)
	}
}

// --format json is an array of reports for one file, several, or none.
func TestValidateJSONShape(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		var files []string
		for i := 0; i < n; i++ {
			files = append(files, egWrite(t, "environment.yml", cleanEnv))
		}
		args := append([]string{"validate", "--format", "json"}, files...)
		if n == 0 {
			// A directory with no input in it: a usage error, but JSON
			// still prints an (empty) array.
			args = append(args, t.TempDir())
		}
		_, out, _ := egRun(t, "", args...)
		var reps []map[string]any
		if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != n {
			t.Errorf("%d files: %d reports, %v\n%s", n, len(reps), err, out)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := egRun(t, "", args...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "envguard ") || !strings.HasPrefix(lines[1], "commit ") || !strings.HasPrefix(lines[2], "go1.") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}

// init writes a starter config that parses and governs the directory, and
// never overwrites one.
func TestInit(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := egRun(t, "", "init", dir)
	p := filepath.Join(dir, ".envguard.yml")
	if code != 0 || out != "wrote "+p+"\n" {
		t.Fatalf("init: exit %d, %q", code, out)
	}
	env := filepath.Join(dir, "environment.yml")
	if err := os.WriteFile(env, []byte(cleanEnv), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := egRun(t, "", "validate", "--show-config", env); code != 0 || !strings.Contains(out, env+": "+p) || !strings.Contains(out, "fail_on  error") {
		t.Errorf("the starter config is not read: exit %d\n%s%s", code, out, errs)
	}
	if err := os.WriteFile(p, []byte("fail_on: warning\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := egRun(t, "", "init", dir); code != 2 || !strings.Contains(errs, "already exists") {
		t.Errorf("second init: exit %d, %q", code, errs)
	}
	if b, _ := os.ReadFile(p); string(b) != "fail_on: warning\n" {
		t.Errorf("init overwrote the file: %q", b)
	}
}

// Colour only when asked or on a terminal; never under NO_COLOR or
// --color never; escape sequences from the input stay escaped either way.
func TestColor(t *testing.T) {
	file := egWrite(t, "environment.yml", "name: \"a\x1b[31mb\"\n"+warnEnv[len("name: x\n"):])
	_, plain, _ := egRun(t, "", "validate", file)
	if strings.Contains(plain, "\x1b") {
		t.Errorf("colour on a non-terminal:\n%q", plain)
	}
	_, col, _ := egRun(t, "", "validate", "--color", "always", file)
	if !strings.Contains(col, "\x1b[1;31merror\x1b[0m") || strings.Contains(col, "\x1b[31m") || !strings.Contains(col, `a\x1b[31mb`) {
		t.Errorf("--color always:\n%q", col)
	}
	_, never, _ := egRun(t, "", "validate", "--color", "never", file)
	if never != plain {
		t.Errorf("--color never differs from plain output")
	}
	if code, _, errs := egRun(t, "", "validate", "--color", "sometimes", file); code != 2 || !strings.Contains(errs, "want auto, always or never") {
		t.Errorf("--color sometimes: exit %d %q", code, errs)
	}
	e := &env{getenv: func(k string) string { return map[string]string{"NO_COLOR": "1"}[k] }, stdout: os.Stdout, color: "auto"}
	if c, _ := e.useColor(); c {
		t.Error("NO_COLOR=1 left colour on")
	}
}

// validate with no argument searches the working directory, skipping what
// .gitignore ignores (including a .gitignore above the directory given).
func TestValidateDiscovery(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		".git/HEAD":                      "ref: refs/heads/main\n",
		".gitignore":                     "build-out/\n*.local.yml\n!keep.local.yml\n",
		"environment.yml":                cleanEnv,
		"envs/env-gpu.yml":               cleanEnv,
		"envs/train.environment.yml":     cleanEnv,
		"envs/keep.local.yml":            cleanEnv,                                // an environment file in envs/
		"envs/compose.yml":               "services:\n  web:\n    image: nginx\n", // in envs/, but not an environment file
		"envs/environment.local.yml":     cleanEnv,                                // ignored by *.local.yml
		"build-out/environment.yml":      cleanEnv,                                // ignored directory
		"sub/.gitignore":                 "/environment-old.yml\n",
		"sub/environment-old.yml":        cleanEnv, // ignored by sub's .gitignore
		"sub/deeper/environment-old.yml": cleanEnv,
		"conda-linux-64.lock":            "@EXPLICIT\nhttps://conda.anaconda.org/conda-forge/linux-64/python-3.10.0-h12debd9_5.tar.bz2\n",
		"spec-file.txt":                  "numpy\n", // named like an explicit file, but is not one
		"notes.yml":                      "name: x\n",
	}
	for p, c := range files {
		full := filepath.Join(repo, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(repo)
	_, out, errs := egRun(t, "", "validate", "--format", "json")
	var reps []struct{ File string }
	if err := json.Unmarshal([]byte(out), &reps); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errs)
	}
	var got []string
	for _, r := range reps {
		got = append(got, filepath.ToSlash(r.File))
	}
	want := []string{"conda-linux-64.lock", "environment.yml", "envs/env-gpu.yml", "envs/keep.local.yml", "envs/train.environment.yml", "sub/deeper/environment-old.yml"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("found %v\nwant  %v", got, want)
	}
	// A .gitignore above the directory named applies to it too.
	_, out, _ = egRun(t, "", "validate", "--format", "json", "envs")
	if strings.Contains(out, "environment.local.yml") || !strings.Contains(out, "env-gpu.yml") {
		t.Errorf("validate envs:\n%s", out)
	}
}
