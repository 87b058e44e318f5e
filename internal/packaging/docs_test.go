package packaging

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// A block is a fenced code block of a docs page: its language, the file
// name that may follow it ("```yaml fleet.yml"), its text and its line.
type block struct {
	lang, label, body string
	line              int
}

func docBlocks(t *testing.T, page string) []block {
	t.Helper()
	var out []block
	var cur *block
	sc := bufio.NewScanner(strings.NewReader(string(readRoot(t, page))))
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			f := strings.Fields(strings.TrimPrefix(l, "```"))
			cur = &block{line: n}
			if len(f) > 0 {
				cur.lang = f[0]
			}
			if len(f) > 1 {
				cur.label = f[1]
			}
		case cur != nil && strings.TrimSpace(l) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.body += l + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: code block never closed", page, cur.line)
	}
	return out
}

func labelled(t *testing.T, blocks []block, label string) block {
	t.Helper()
	for _, b := range blocks {
		if b.label == label {
			return b
		}
	}
	t.Fatalf("docs/ci.md has no %s block", label)
	return block{}
}

// needsOutside reports whether a shell block says it needs Docker or a
// cluster, which the tests do not have.
func needsOutside(b block) bool {
	return strings.Contains(b.body, "# needs Docker") || strings.Contains(b.body, "# needs a cluster")
}

// reInstall is how the docs install envguard: from the module proxy, at a
// version. The tests run it against the local proxy (proxy_test.go), at
// the version it serves.
var reInstall = regexp.MustCompile(`^(CGO_CFLAGS=-Wno-deprecated-declarations )?go install github\.com/envguard/envguard/cmd/envguard@(\S+)$`)

// atProxyVersion checks every install line of script and points the ones
// that name a version literally at the proxy's version.
func atProxyVersion(t *testing.T, script, version string) string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(script, "\n") {
		if strings.Contains(l, "go install") {
			m := reInstall.FindStringSubmatch(strings.TrimSpace(l))
			if m == nil {
				t.Fatalf("an install line the tests do not know: %q", l)
			}
			if !strings.HasPrefix(m[2], "$") {
				l = strings.Replace(l, "@"+m[2], "@"+version, 1)
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// ciRepo is a repository as docs/ci.md assumes one: fleet.yml at its root
// and a clean environment, plus a broken one when broken is set.
func ciRepo(t *testing.T, blocks []block, broken bool, extra map[string]string) string {
	t.Helper()
	files := map[string]string{
		"fleet.yml":        labelled(t, blocks, "fleet.yml").body,
		"environment.yml":  cleanEnv,
		"requirements.txt": "numpy==1.26.4\n",
		"README.md":        "# a training project\n",
	}
	if broken {
		files["envs/environment.yml"] = string(readRoot(t, "testdata/demo/environment.yml"))
	}
	for k, v := range extra {
		files[k] = v
	}
	return gitRepo(t, files)
}

func TestCIDocsWorkflow(t *testing.T) {
	blocks := docBlocks(t, "docs/ci.md")
	var wf struct {
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(labelled(t, blocks, ".github/workflows/envguard.yml").body), &wf); err != nil {
		t.Fatalf("the workflow does not parse: %v", err)
	}
	var with map[string]string
	checkedOut := false
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "actions/checkout@") {
				checkedOut = true
			}
			if strings.HasPrefix(s.Uses, "envguard/envguard@") {
				if !checkedOut {
					t.Error("the workflow runs envguard before checking out the repository")
				}
				with = s.With
			}
		}
	}
	if with == nil {
		t.Fatal("the workflow never uses envguard/envguard@…")
	}
	if with["sarif"] == "true" && wf.Permissions["security-events"] != "write" {
		t.Error("sarif: true without permissions security-events: write")
	}
	// The workflow's inputs, run through the action's steps.
	if r := runAction(t, ciRepo(t, blocks, false, nil), with); r.finish != 0 {
		t.Errorf("clean repository: the job fails (%d)\n%s", r.finish, r.stdout)
	}
	r := runAction(t, ciRepo(t, blocks, true, nil), with)
	if r.finish != 1 || !strings.Contains(r.stdout, "::error file=envs/environment.yml,line=8") {
		t.Errorf("broken environment: finish %d\n%s", r.finish, r.stdout)
	}
	if with["sarif"] == "true" && r.outputs["sarif-file"] == "" {
		t.Error("sarif: true but no SARIF log for the upload step")
	}
}

func TestCIDocsGitLab(t *testing.T) {
	blocks := docBlocks(t, "docs/ci.md")
	var jobs map[string]struct {
		Image     string            `yaml:"image"`
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
		Artifacts struct {
			When    string `yaml:"when"`
			Reports struct {
				CodeQuality string `yaml:"codequality"`
			} `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal([]byte(labelled(t, blocks, ".gitlab-ci.yml").body), &jobs); err != nil {
		t.Fatalf(".gitlab-ci.yml does not parse: %v", err)
	}
	job, ok := jobs["envguard"]
	if !ok || len(job.Script) == 0 {
		t.Fatal(".gitlab-ci.yml has no envguard job with a script")
	}
	report := job.Artifacts.Reports.CodeQuality
	if report == "" || job.Artifacts.When != "always" {
		t.Fatalf("artifacts: %+v; want reports: codequality, when: always (the report matters most when the job fails)", job.Artifacts)
	}
	// The GitLab runner runs the script lines in one shell that stops at the
	// first failing line.
	gobin := t.TempDir()
	version, env := installEnv(t, gobin)
	script := atProxyVersion(t, strings.Join(job.Script, "\n"), version)
	run := func(ws string) (int, []codeQualityIssue, string) {
		cmd := commandOnPath("bash", "-eo", "pipefail", "-c", script)
		cmd.Dir = ws
		for k, v := range job.Variables {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		// The job installs the version the proxy serves, into gobin, first
		// on PATH (as /go/bin is in the golang image).
		cmd.Env = append(append(cmd.Env, env...), "ENVGUARD_VERSION="+version)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		code := exitCode(t, cmd)
		b, err := os.ReadFile(filepath.Join(ws, report))
		if err != nil {
			t.Fatalf("the job wrote no %s: %v", report, err)
		}
		var issues []codeQualityIssue
		if err := json.Unmarshal(b, &issues); err != nil {
			t.Fatalf("%s is not a code quality report: %v", report, err)
		}
		return code, issues, out.String()
	}
	code, issues, out := run(ciRepo(t, blocks, false, nil))
	if code != 0 || len(issues) != 0 {
		t.Errorf("clean repository: exit %d, %d issues\n%s", code, len(issues), out)
	}
	if _, err := os.Stat(filepath.Join(gobin, "envguard")); err != nil {
		t.Errorf("the job's go install put no envguard in GOBIN: %v", err)
	}
	code, issues, out = run(ciRepo(t, blocks, true, nil))
	found := false
	for _, is := range issues {
		if is.CheckName == "EG201" && is.Location.Path == "envs/environment.yml" && is.Location.Lines.Begin == 8 && is.Severity == "major" {
			found = true
		}
	}
	if code != 1 || !found || !strings.Contains(out, "envs/environment.yml:8:24: error EG201") {
		t.Errorf("broken environment: exit %d, EG201 on line 8 reported: %v\n%s\n%+v", code, found, out, issues)
	}
}

// codeQualityIssue is what the tests read of a GitLab code quality issue.
type codeQualityIssue struct {
	CheckName string `json:"check_name"`
	Severity  string `json:"severity"`
	Location  struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
		} `json:"lines"`
	} `json:"location"`
}

// TestCIDocsShell runs every shell block of docs/ci.md in a repository
// shaped as the page assumes: each must pass on a clean one, and each that
// validates must fail on a broken one. The pre-commit blocks run real
// pre-commit, with the config's repository pointed at this checkout's
// HEAD (so the hook is built by pre-commit's own `go install`).
func TestCIDocsShell(t *testing.T) {
	blocks := docBlocks(t, "docs/ci.md")
	cfg := labelled(t, blocks, ".pre-commit-config.yaml").body
	var pc struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Rev   string `yaml:"rev"`
			Hooks []struct {
				ID string `yaml:"id"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(cfg), &pc); err != nil {
		t.Fatalf(".pre-commit-config.yaml does not parse: %v", err)
	}
	if len(pc.Repos) != 1 || pc.Repos[0].Repo != "https://github.com/"+strings.TrimPrefix(modulePath(t), "github.com/") ||
		len(pc.Repos[0].Hooks) != 1 || pc.Repos[0].Hooks[0].ID != precommitHook(t).ID {
		t.Fatalf(".pre-commit-config.yaml = %+v; want this repository's envguard hook", pc)
	}
	head := strings.TrimSpace(git(t, root, "rev-parse", "HEAD"))
	local := strings.Replace(strings.Replace(cfg, "repo: "+pc.Repos[0].Repo, "repo: "+root, 1), "rev: "+pc.Repos[0].Rev, "rev: "+head, 1)

	_, err := exec.LookPath("pre-commit")
	havePrecommit := err == nil
	precommitHome := t.TempDir()
	modCache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}

	ran := 0
	for _, b := range blocks {
		if b.lang != "sh" || needsOutside(b) {
			continue
		}
		usesPrecommit := strings.Contains(b.body, "pre-commit ")
		if usesPrecommit && !havePrecommit {
			if os.Getenv("ENVGUARD_REQUIRE_PRECOMMIT") != "" {
				t.Errorf("docs/ci.md:%d needs pre-commit, which is not installed (.ci/install-pre-commit.sh installs it)", b.line)
			} else {
				t.Logf("docs/ci.md:%d: skipped: no pre-commit command (.ci/install-pre-commit.sh installs it)", b.line)
			}
			continue
		}
		gobin := t.TempDir()
		version, env := installEnv(t, gobin)
		script := atProxyVersion(t, b.body, version)
		for _, broken := range []bool{false, true} {
			ws := ciRepo(t, blocks, broken, map[string]string{".pre-commit-config.yaml": local})
			cmd := commandOnPath("bash", "-e", "-c", script)
			cmd.Dir = ws
			// pre-commit installs into its home; the module cache is shared
			// so that its `go install` needs nothing from the network.
			cmd.Env = append(cmd.Env, "PRE_COMMIT_HOME="+precommitHome, "GOMODCACHE="+strings.TrimSpace(string(modCache)),
				"CGO_CFLAGS=-Wno-deprecated-declarations", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
			if strings.Contains(b.body, "go install") {
				cmd.Env = append(cmd.Env, env...)
			}
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			code := exitCode(t, cmd)
			validates := strings.Contains(b.body, "envguard validate") || strings.Contains(b.body, "pre-commit run")
			switch {
			case !broken && code != 0:
				t.Errorf("docs/ci.md:%d fails on a clean repository (exit %d):\n%s\n%s", b.line, code, b.body, out.String())
			case broken && validates && code == 0:
				t.Errorf("docs/ci.md:%d passes on a broken environment:\n%s\n%s", b.line, b.body, out.String())
			case broken && validates && usesPrecommit && !strings.Contains(out.String(), "envs/environment.yml:8:24: error EG201"):
				t.Errorf("docs/ci.md:%d: the hook's output does not show the broken line:\n%s", b.line, out.String())
			}
		}
		ran++
	}
	if ran == 0 {
		t.Error("no shell block of docs/ci.md ran")
	}
}
