package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/report"
)

// reportFiles reads validate --format json's array and returns its files,
// relative to root, with / between names.
func reportFiles(t *testing.T, root, out string) []string {
	t.Helper()
	var reps []struct{ File string }
	if err := json.Unmarshal([]byte(out), &reps); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, r := range reps {
		f := r.File
		if rel, err := filepath.Rel(root, f); err == nil && filepath.IsAbs(f) {
			f = rel
		}
		got = append(got, filepath.ToSlash(f))
	}
	return got
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, src := range files {
		write(t, filepath.Join(root, filepath.FromSlash(p)), src)
	}
}

// TestDiscoveryByContent (issue 27): a directory search picks environment
// files in envs/, conda/ and environments/ directories and *.conda.yml by
// name, any other YAML file by its content, and leaves alone the YAML that
// is no environment (Envoy, a dotenv-style env.yml, docker-compose, a Helm
// chart, a conda-build recipe), which used to be EG101 errors. A file named
// on the command line is read whatever it is; --discover-filter holds it
// to the search's choice.
func TestDiscoveryByContent(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":              "ref: refs/heads/main\n",
		"envs/gpu.yml":           cleanEnv,
		"envs/cpu.yaml":          "dependencies:\n  - python=3.11\n  - numpy\n", // no name, no channels: envs/ is enough
		"conda/meta.yaml":        "package:\n  name: x\nrequirements:\n  run:\n    - numpy\n",
		"environments/train.yml": cleanEnv,
		"gpu.conda.yml":          cleanEnv,
		"ci/stack.yml":           cleanEnv, // picked by its content alone
		"ci/deps-only.yml":       "dependencies:\n  - numpy\n",
		"deploy/envoy.yaml":      "static_resources:\n  listeners:\n  - name: listener_0\n",
		"deploy/env.yml":         "DATABASE_URL: postgres://db\nDEBUG: \"1\"\n",
		"envs-compose.yml":       "services:\n  web:\n    image: nginx\n    depends_on: [db]\n",
		"chart/Chart.yaml":       "apiVersion: v2\nname: web\ndependencies:\n  - name: common\n    version: 1.x\n",
		"mkdocs.yml":             "site_name: x\nnav:\n  - index.md\n",
	})
	t.Chdir(root)
	code, out, errs := runTree(t, nil, "validate", "--no-cache", "--format", "json")
	want := []string{"ci/stack.yml", "environments/train.yml", "envs/cpu.yaml", "envs/gpu.yml", "gpu.conda.yml"}
	if got := reportFiles(t, root, out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("found %v\nwant  %v", got, want)
	}
	if code != 0 || strings.Contains(out, "EG101") {
		t.Errorf("exit %d, want 0 with no EG101 (the other YAML is not read)\n%s%s", code, out, errs)
	}
	// Named, a file is read, and its problems reported.
	code, out, _ = runTree(t, nil, "validate", "--no-cache", "--format", "json", "deploy/envoy.yaml", "deploy/env.yml")
	if got := reportFiles(t, root, out); code == ExitUsage || strings.Join(got, " ") != "deploy/envoy.yaml deploy/env.yml" || !strings.Contains(out, "EG102") {
		t.Errorf("named files: exit %d, reports %v, want both, with their findings\n%s", code, got, out)
	}
	// Under --discover-filter (the pre-commit hook) they are skipped
	// without a word; an environment file among them is still read.
	code, out, errs = runTree(t, nil, "validate", "--no-cache", "--discover-filter", "deploy/envoy.yaml", "deploy/env.yml", "envs-compose.yml", "chart/Chart.yaml", "envs/gpu.yml")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "envs/gpu.yml: pt20_cu118") || strings.Count(out, "\n") != 1 {
		t.Errorf("--discover-filter: exit %d, want envs/gpu.yml alone\n%s%s", code, out, errs)
	}
	code, out, errs = runTree(t, nil, "validate", "--no-cache", "--discover-filter", "--format", "json", "deploy/envoy.yaml")
	if code != 0 || errs != "" || out != "[]\n" {
		t.Errorf("--discover-filter with nothing left: exit %d, %q %q", code, out, errs)
	}
	// A broken file that says it is an environment file is reported.
	write(t, filepath.Join(root, "environment.yml"), "name: x\ndependencies:\n\t- numpy\n")
	code, out, _ = runTree(t, nil, "validate", "--no-cache", "--discover-filter", "environment.yml")
	if code != ExitFindings || !strings.Contains(out, "environment.yml:3:") {
		t.Errorf("a broken environment.yml under --discover-filter: exit %d\n%s", code, out)
	}
}

// TestDiscoveryIncludeExclude: the include: and exclude: globs of the
// .envguard.yml that governs a directory decide what its search picks, as
// doublestar matches them against paths relative to that file's directory:
// include adds files the search would not pick, exclude (a file, or a
// directory and all below it) wins over include and over names and
// content, a nested .envguard.yml replaces the globs above it, --config
// governs everything, and a file named is read unless --discover-filter.
func TestDiscoveryIncludeExclude(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":                   "ref: refs/heads/main\n",
		".envguard.yml":               "include:\n  - ci/**/stack.yml\nexclude:\n  - legacy\n  - \"**/*.old.yml\"\n  - ci/skip/**\n",
		"environment.yml":             cleanEnv,
		"ci/gpu/stack.yml":            "dependencies:\n  - numpy\n", // picked through include only
		"ci/skip/stack.yml":           cleanEnv,                     // include, but excluded
		"legacy/environment.yml":      errEnv,
		"legacy/deep/environment.yml": errEnv,
		"envs/a.old.yml":              errEnv,
		"envs/b.yml":                  cleanEnv,
		"sub/.envguard.yml":           "exclude: [environment.yml]\n",
		"sub/environment.yml":         errEnv,
		"sub/deep/environment.yml":    cleanEnv,                     // sub's glob names sub/environment.yml alone
		"sub/ci/gpu/stack.yml":        "dependencies:\n  - numpy\n", // the root's include does not reach under sub's config
	})
	t.Chdir(root)
	files := func(args ...string) (int, []string) {
		t.Helper()
		code, out, errs := runTree(t, nil, append([]string{"validate", "--no-cache", "--format", "json"}, args...)...)
		if code == ExitUsage {
			t.Fatalf("%v: exit 2: %s", args, errs)
		}
		return code, reportFiles(t, root, out)
	}
	code, got := files()
	want := "ci/gpu/stack.yml environment.yml envs/b.yml sub/deep/environment.yml"
	if strings.Join(got, " ") != want || code != 0 {
		t.Errorf("search: exit %d, %v\nwant %s", code, got, want)
	}
	// --show-config says what the globs are.
	if _, out, _ := runTree(t, nil, "validate", "--show-config", "environment.yml"); !strings.Contains(out, "  include  ci/**/stack.yml\n  exclude  legacy, **/*.old.yml, ci/skip/**\n") {
		t.Errorf("--show-config:\n%s", out)
	}
	// A directory named is searched under the same globs; the directory
	// itself, named, is not held to them.
	if _, got := files("sub"); strings.Join(got, " ") != "sub/deep/environment.yml" {
		t.Errorf("validate sub: %v", got)
	}
	if _, got := files("legacy"); strings.Join(got, " ") != "legacy/deep/environment.yml legacy/environment.yml" {
		t.Errorf("validate legacy: %v", got)
	}
	// Named files are read; --discover-filter holds them to the globs,
	// the directories on their way included.
	if code, got := files("legacy/deep/environment.yml", "envs/a.old.yml"); code != ExitFindings || len(got) != 2 {
		t.Errorf("named excluded files: exit %d, %v", code, got)
	}
	if code, got := files("--discover-filter", "legacy/deep/environment.yml", "envs/a.old.yml", "sub/environment.yml", "ci/gpu/stack.yml", "envs/b.yml"); code != 0 ||
		strings.Join(got, " ") != "ci/gpu/stack.yml envs/b.yml" {
		t.Errorf("--discover-filter: exit %d, %v", code, got)
	}
	// --config: its globs govern every file, relative to its directory.
	write(t, filepath.Join(root, "conf", "all.yml"), "exclude: [\"../x\"]\n")
	code, _, errs := runTree(t, nil, "validate", "--no-cache", "--config", "conf/all.yml")
	if code != ExitUsage || !strings.Contains(errs, "all.yml:1:11: exclude \"../x\": a glob cannot reach above") {
		t.Errorf("a glob out of the configuration's directory: exit %d, %s", code, errs)
	}
	write(t, filepath.Join(root, "top.yml"), "exclude: [\"**/environment.yml\"]\ninclude: [sub/ci/**, \"**/.envguard.yml\"]\n")
	if _, got := files("--config", "top.yml"); strings.Join(got, " ") != "ci/skip/stack.yml envs/a.old.yml envs/b.yml sub/ci/gpu/stack.yml" {
		t.Errorf("--config top.yml: %v", got)
	}
	if code, _, errs := runTree(t, nil, "validate", "--no-cache", "--config", "missing.yml"); code != ExitUsage || !strings.Contains(errs, "--config missing.yml: no such file") {
		t.Errorf("a missing --config: exit %d, %s", code, errs)
	}
	// A bad glob is a usage error at its position, found by the search.
	write(t, filepath.Join(root, "sub", ".envguard.yml"), "exclude:\n  - \"[env\"\n")
	code, _, errs = runTree(t, nil, "validate", "--no-cache")
	if code != ExitUsage || !strings.Contains(errs, filepath.Join("sub", ".envguard.yml")+":2:5: exclude \"[env\" is not a valid glob") {
		t.Errorf("a bad glob: exit %d, %s", code, errs)
	}
}

// TestDiscoveryCachedGlobs: the recorded search is not taken once the
// globs it was made under change, though no directory did.
func TestDiscoveryCachedGlobs(t *testing.T) {
	root, cacheDir := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":        "ref: refs/heads/main\n",
		"environment.yml":  cleanEnv,
		"envs/b.yml":       cleanEnv,
		"ci/deps-only.yml": "dependencies:\n  - numpy\n",
	})
	t.Chdir(root)
	vars := map[string]string{"XDG_CACHE_HOME": cacheDir}
	search := func() string {
		t.Helper()
		_, out, errs := runTree(t, vars, "validate", "--format", "json", ".")
		if errs != "" {
			t.Fatal(errs)
		}
		return strings.Join(reportFiles(t, root, out), " ")
	}
	// Every time trusted (cache.RacyWindow), so that only what the search
	// watches can tell it that the tree changed.
	var paths []string
	filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	settle(t, paths...)
	cfg := filepath.Join(root, ".envguard.yml")
	if got := search(); got != "environment.yml envs/b.yml" {
		t.Fatalf("first search: %s", got)
	}
	write(t, cfg, "exclude: [envs]\n")
	settle(t, cfg, root)
	if got := search(); got != "environment.yml" {
		t.Errorf("after exclude: [envs]: %s", got)
	}
	if got := search(); got != "environment.yml" {
		t.Errorf("again: %s", got)
	}
	// Rewritten in place: no directory changes.
	write(t, cfg, "include: [\"ci/*.yml\"]\n")
	settle(t, cfg)
	if got := search(); got != "ci/deps-only.yml environment.yml envs/b.yml" {
		t.Errorf("after include: [ci/*.yml]: %s", got)
	}
	// --config FILE, which no search reads as an input: watched as the
	// configuration it is.
	conf := filepath.Join(cacheDir, "envguard.conf")
	write(t, conf, "exclude: [envs]\n")
	settle(t, conf, cacheDir)
	withConf := func() string {
		t.Helper()
		_, out, errs := runTree(t, vars, "validate", "--config", conf, "--format", "json", ".")
		if errs != "" {
			t.Fatal(errs)
		}
		return strings.Join(reportFiles(t, root, out), " ")
	}
	if got := withConf(); got != "environment.yml" {
		t.Errorf("--config, exclude: [envs]: %s", got)
	}
	write(t, conf, "exclude: [environment.yml]\n")
	settle(t, conf)
	if got := withConf(); got != "envs/b.yml" {
		t.Errorf("--config rewritten, exclude: [environment.yml]: %s", got)
	}
}

// TestValidateCoverageAgree: validate DIR and coverage DIR read the same
// files, the corpus directory (files named NNN.yml) among them.
func TestValidateCoverageAgree(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"001.yml":            cleanEnv,
		"002.yml":            errEnv,
		"003.yaml":           "channels: [conda-forge]\ndependencies:\n  - python=3.12\n",
		"docker-compose.yml": "services:\n  web:\n    image: nginx\n",
		".envguard.yml":      "exclude: [\"003.yaml\"]\n",
	})
	for _, d := range []string{dir, testshared.Dir(t, "corpus/realworld")} {
		code, out, errs := runTree(t, nil, "validate", "--no-cache", "--format", "json", d)
		if code == ExitUsage {
			t.Fatalf("validate %s: exit 2: %s", d, errs)
		}
		n := len(reportFiles(t, d, out))
		_, cov, errs := runTree(t, nil, "coverage", "--format", "json", d)
		var c struct {
			Files int `json:"files"`
		}
		if err := json.Unmarshal([]byte(cov), &c); err != nil {
			t.Fatalf("coverage %s: %v %s", d, err, errs)
		}
		if n == 0 || c.Files != n {
			t.Errorf("%s: validate reads %d files, coverage %d", d, n, c.Files)
		}
		if d == dir && n != 2 {
			t.Errorf("%s: %d files, want 001.yml and 002.yml", d, n)
		}
		// docs/cli.md: 190 of the corpus's 193 files are environment
		// files by their content.
		if d != dir && n < 190 {
			t.Errorf("%s: %d files picked, want at least 190", d, n)
		}
	}
}

// targetsLine reads the text summary's "targets: a ok, b FAIL" list.
var targetsLine = regexp.MustCompile(`; targets: (.*)\n`)

// TestValidateEveryTarget (issue 27 point 3): with no --target, a file is
// held against every target of .envguard.yml and of --targets FILE, as pixi
// solves for each platform it lists; --target narrows the set. The text,
// JSON and SARIF outputs carry every verdict, fail and unknown ones
// included, and the exit status follows them.
func TestValidateEveryTarget(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		".envguard.yml": "targets:\n  - name: h100\n    driver: \"550.54.15\"\n    gpus: [\"H100\"]\n" +
			"  - name: old\n    driver: \"450.51.05\"\n    gpus: [\"V100\"]\n" +
			"  - name: mystery\n    cuda_driver: \"12.4\"\n",
		"environment.yml": cleanEnv,
		"fleet.yml":       "targets:\n  - name: a100\n    driver: \"535.54.03\"\n    gpus: [\"A100\"]\n",
	})
	t.Chdir(root)
	code, out, errs := runTree(t, nil, "validate", "--no-cache", "environment.yml")
	if m := targetsLine.FindStringSubmatch(out); code != ExitFindings || m == nil || m[1] != "h100 ok, old FAIL, mystery unknown" {
		t.Errorf("every target: exit %d, want 1 (old fails)\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "EG401") || !strings.Contains(out, "(target old)") || !strings.Contains(out, "(target mystery)") {
		t.Errorf("the failing and undecided targets' findings are missing:\n%s", out)
	}
	// --targets FILE adds its targets to the configuration's.
	code, out, _ = runTree(t, nil, "validate", "--no-cache", "--format", "json", "--targets", "fleet.yml", "environment.yml")
	var reps []struct {
		Targets []struct{ Name, Verdict string } `json:"targets"`
	}
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	var got []string
	for _, tg := range reps[0].Targets {
		got = append(got, tg.Name+"="+tg.Verdict)
	}
	if code != ExitFindings || strings.Join(got, " ") != "h100=ok old=fail mystery=unknown a100=ok" {
		t.Errorf("json with --targets: exit %d, targets %v", code, got)
	}
	// SARIF carries each target's verdict in the run's properties.
	code, out, _ = runTree(t, nil, "validate", "--no-cache", "--format", "sarif", "environment.yml")
	var sarif struct {
		Runs []struct {
			Properties struct {
				Targets []struct{ Target, Verdict string } `json:"envguard/targets"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil || len(sarif.Runs) != 1 {
		t.Fatalf("sarif: %v", err)
	}
	got = nil
	for _, v := range sarif.Runs[0].Properties.Targets {
		got = append(got, v.Target+"="+v.Verdict)
	}
	if code != ExitFindings || strings.Join(got, " ") != "h100=ok old=fail mystery=unknown" {
		t.Errorf("sarif: exit %d, targets %v", code, got)
	}
	// --target narrows the set: the unknown one alone passes by default,
	// fails under --fail-on unknown.
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--target", "h100"}, 0, "h100 ok"},
		{[]string{"--target", "mystery", "--target", "h100"}, 0, "mystery unknown, h100 ok"},
		{[]string{"--target", "mystery", "--fail-on", "unknown"}, ExitFindings, "mystery unknown"},
		{[]string{"--target", "old"}, ExitFindings, "old FAIL"},
		{[]string{"--targets", "fleet.yml", "--target", "a100"}, 0, "a100 ok"},
	} {
		code, out, errs := runTree(t, nil, append(append([]string{"validate", "--no-cache"}, tc.args...), "environment.yml")...)
		if m := targetsLine.FindStringSubmatch(out); code != tc.code || m == nil || m[1] != tc.want {
			t.Errorf("%v: exit %d, want %d and targets: %s\n%s%s", tc.args, code, tc.code, tc.want, out, errs)
		}
	}
	// No targets anywhere: none are checked, as before.
	os.Remove(filepath.Join(root, ".envguard.yml"))
	if code, out, _ := runTree(t, nil, "validate", "--no-cache", "environment.yml"); code != 0 || strings.Contains(out, "targets:") {
		t.Errorf("no targets: exit %d\n%s", code, out)
	}
}

// TestStarterConfigGlobs: the include: and exclude: lines envguard init
// writes, commented, parse once uncommented.
func TestStarterConfigGlobs(t *testing.T) {
	src := strings.NewReplacer("# include:", "include:", "# exclude:", "exclude:").Replace(starterConfig)
	cfg, err := report.ParseConfig(".envguard.yml", []byte(src))
	if err != nil || len(cfg.Include) != 1 || len(cfg.Exclude) != 2 {
		t.Fatalf("%v; %+v", err, cfg)
	}
}
