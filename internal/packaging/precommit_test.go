package packaging

import (
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/lockfile"
)

// hook is the part of a .pre-commit-hooks.yaml entry pre-commit acts on.
type hook struct {
	ID            string   `yaml:"id"`
	Name          string   `yaml:"name"`
	Entry         string   `yaml:"entry"`
	Language      string   `yaml:"language"`
	Files         string   `yaml:"files"`
	Exclude       string   `yaml:"exclude"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	Args          []string `yaml:"args"`
}

func precommitHook(t *testing.T) hook {
	t.Helper()
	var hooks []hook
	if err := yaml.Unmarshal(readRoot(t, ".pre-commit-hooks.yaml"), &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	if len(hooks) != 2 {
		t.Fatalf(".pre-commit-hooks.yaml: %d hooks, want envguard and envguard-system", len(hooks))
	}
	h, sys := hooks[0], hooks[1]
	// envguard-system runs an installed binary: the same hook in every
	// respect but the language.
	if sys.ID != "envguard-system" || sys.Language != "system" || sys.Name == "" {
		t.Fatalf("second hook = %+v; want id envguard-system, language system, a name", sys)
	}
	if sys.Entry != h.Entry || sys.Files != h.Files || sys.Exclude != h.Exclude || sys.PassFilenames == nil ||
		*sys.PassFilenames != *h.PassFilenames || strings.Join(sys.Args, " ") != strings.Join(h.Args, " ") {
		t.Fatalf("envguard-system differs from envguard beyond its language:\n%+v\n%+v", sys, h)
	}
	if h.ID != "envguard" || h.Name == "" || h.Language != "golang" || h.PassFilenames == nil || !*h.PassFilenames {
		t.Fatalf("hook = %+v; want id envguard, a name, language golang, pass_filenames true", h)
	}
	if h.Entry != "envguard validate --discover-filter" {
		t.Fatalf("entry %q does not run envguard validate --discover-filter (the search's own choice of the files pre-commit passes)", h.Entry)
	}
	return h
}

// TestPrecommitFiles: the hook's files pattern passes the names `envguard
// validate DIR` looks at (every YAML file, and the others by name); the
// files picked only by content are then chosen by --discover-filter.
func TestPrecommitFiles(t *testing.T) {
	h := precommitHook(t)
	// pre-commit applies files with Python's re.search; this pattern uses
	// only what Python's re and Go's regexp read alike.
	re := regexp.MustCompile(h.Files)
	names := []string{
		"environment.yml", "environment.yaml", "Environment.YML", "envs/environment-gpu.yml",
		"env-cuda.yaml", "conf/env_train.yml", "conda-lock.yml", "linux.conda-lock.yaml",
		"pixi.lock", "pixi.toml", "uv.lock", "pylock.toml", "pylock.gpu.toml",
		"requirements.txt", "dev-requirements.txt", "reqs/requirements-cu121.txt",
		"pyproject.toml", "environment.yml.bak", "README.md", "env.yml", "environments/train.py",
		"pylock.a.b.toml", "requirements.in", "docker-compose.yml", "uv.lock.orig", "setup.cfg",
		"envs/train.environment.yml", "conda-linux-64.lock", "spec-file.txt", "envoy.toml",
		"envs/gpu.yml", "conda/cpu.yaml", "environments/a.yml", "gpu.conda.yml", "deploy/envoy.yaml",
		"ci/001.yml", "Chart.yaml", "my-explicit-linux.txt", "spec-file-gpu.txt", "conda-osx-arm64.lock",
		"notes.txt", "Pipfile.lock", "envs/README",
	}
	for _, n := range names {
		want := lockfile.IsInputName(n)
		if got := re.MatchString(n); got != want {
			t.Errorf("files matches %q: %v, validate looks at it: %v", n, got, want)
		}
	}
}

// TestPrecommitRun runs the hook as pre-commit does: the staged names of a
// small repository, filtered by files, appended to entry and args, run in
// the repository's root with the installed envguard on PATH.
func TestPrecommitRun(t *testing.T) {
	h := precommitHook(t)
	re := regexp.MustCompile(h.Files)
	clean := "name: pt20_cu118\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - pytorch-cuda=11.8\n"
	bad := string(readRoot(t, "testdata/demo/environment.yml"))

	run := func(files map[string]string) (int, []string, string) {
		dir := gitRepo(t, files)
		// pre-commit's staged-files query.
		staged := strings.Split(strings.TrimSpace(git(t, dir, "diff", "--staged", "--name-only", "--no-ext-diff")), "\n")
		var picked []string
		for _, n := range staged {
			if re.MatchString(n) && (h.Exclude == "" || !regexp.MustCompile(h.Exclude).MatchString(n)) {
				picked = append(picked, n)
			}
		}
		if len(picked) == 0 {
			// pre-commit skips a hook no file matches.
			return 0, nil, ""
		}
		argv := append(strings.Fields(h.Entry), h.Args...)
		argv = append(argv, picked...)
		cmd := commandOnPath(argv[0], argv[1:]...)
		cmd.Dir = dir
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		return exitCode(t, cmd), picked, out.String()
	}

	code, picked, out := run(map[string]string{
		"environment.yml":  clean,
		"README.md":        "# a project\n",
		"train.py":         "import torch\n",
		"requirements.txt": "numpy==1.26.4\n",
	})
	if code != 0 || strings.Join(picked, " ") != "environment.yml requirements.txt" {
		t.Errorf("clean repository: exit %d on %v\n%s", code, picked, out)
	}

	code, picked, out = run(map[string]string{
		"environment.yml":      clean,
		"envs/env-gpu.yml":     bad,
		"docs/environment.md":  "not an environment\n",
		"pyproject.toml":       "[project]\nname = \"x\"\n",
		"requirements-dev.txt": "pytest\n",
	})
	if code != 1 || strings.Join(picked, " ") != "environment.yml envs/env-gpu.yml pyproject.toml requirements-dev.txt" {
		t.Errorf("a broken environment: exit %d on %v, want 1\n%s", code, picked, out)
	}
	if !strings.Contains(out, "envs/env-gpu.yml:8:24: error EG201") {
		t.Errorf("the hook's output does not point at the broken line:\n%s", out)
	}

	// Every YAML file reaches envguard; the search's choice skips, without
	// a word and with exit 0, the ones that hold no environment: an Envoy
	// config, a dotenv-style env.yml, a docker-compose file, a Helm chart,
	// a pyproject.toml without [tool.pixi], and what exclude: names. An
	// environment file in envs/ is checked, whatever its name.
	code, picked, out = run(map[string]string{
		".envguard.yml":          "exclude: [\"vendor/**\"]\n",
		"deploy/envoy.yaml":      "static_resources:\n  listeners:\n  - name: l\n",
		"deploy/env.yml":         "DATABASE_URL: postgres://db\nDEBUG: \"1\"\n",
		"envs-compose.yml":       "services:\n  web:\n    image: nginx\n",
		"chart/Chart.yaml":       "apiVersion: v2\nname: web\ndependencies:\n  - name: common\n    version: 1.x\n",
		"pyproject.toml":         "[project]\nname = \"x\"\n",
		"vendor/environment.yml": bad,
	})
	if code != 0 || out != "" || len(picked) != 7 {
		t.Errorf("YAML that is no environment: exit %d on %v, want 0 and no output\n%s", code, picked, out)
	}
	code, picked, out = run(map[string]string{
		"envs/gpu.yml":      bad,
		"deploy/envoy.yaml": "static_resources: {}\n",
	})
	if code != 1 || strings.Join(picked, " ") != "deploy/envoy.yaml envs/gpu.yml" || !strings.Contains(out, "envs/gpu.yml:8:24: error EG201") || strings.Contains(out, "envoy") {
		t.Errorf("envs/gpu.yml beside envoy.yaml: exit %d on %v, want 1 and envs/gpu.yml's EG201 alone\n%s", code, picked, out)
	}

	code, picked, _ = run(map[string]string{"README.md": "# nothing to check\n"})
	if code != 0 || picked != nil {
		t.Errorf("no environment file: exit %d on %v", code, picked)
	}
}
