package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/discover"
)

// The secrets a hostile requirements file tried to put into CI logs
// (issue 22, N3): the token actions/checkout leaves in .git/config, and a
// netrc password.
const (
	leakGitConfig = "[core]\n\trepositoryformatversion = 0\n[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0LXRva2Vu\n"
	leakNetrc     = "machine example.org login u password hunter2-SECRET\n"
)

// leakTree lays out a repository whose requirements.txt names the secrets
// every way it can, and returns the repository and the requirements file.
// want maps each refused include's line to the path as written there.
func leakTree(t *testing.T) (repo, req string, want map[int]string) {
	t.Helper()
	base := t.TempDir()
	repo = filepath.Join(base, "repo")
	put := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	put(filepath.Join(repo, ".git", "config"), leakGitConfig)
	put(filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	put(filepath.Join(base, "netrc"), leakNetrc)
	put(filepath.Join(repo, "netrc"), leakNetrc) // inside the repository: read, and found not to be requirements
	put(filepath.Join(repo, "sub", "base.txt"), "torchvision==0.15.2+cu118\n")
	link(filepath.Join(base, "netrc"), filepath.Join(repo, "escape.txt"))
	link(base, filepath.Join(repo, "sub", "up"))
	link(filepath.Join(base, "gone"), filepath.Join(repo, "dangling.txt")) // says nothing of what lies outside
	abs := filepath.Join(base, "netrc")
	lines := []string{
		"torch==2.1.2+cu121",
		"--extra-index-url https://download.pytorch.org/whl/cu121",
		"-r .git/config",
		"-r ../netrc",
		"-r " + abs,
		"-c .git/config", // constraints are never read
		"-r escape.txt",
		"-r netrc",
		"-r sub/up/netrc",
		"-r ./sub/../../netrc",
		"-r dangling.txt",
		"-r sub/up/gone",
		"-r sub/base.txt", // inside: followed as before
		"-r missing.txt",  // inside, and missing: pip fails the same way
	}
	want = map[int]string{3: ".git/config", 4: "../netrc", 5: abs, 7: "escape.txt", 8: "netrc", 9: "sub/up/netrc", 10: "./sub/../../netrc", 11: "dangling.txt", 12: "sub/up/gone", 14: "missing.txt"}
	req = filepath.Join(repo, "requirements.txt")
	put(req, strings.Join(lines, "\n")+"\n")
	return repo, req, want
}

// secretLines are the strings none of whose bytes may reach any output.
func secretLines() []string {
	s := []string{"c2VjcmV0LXRva2Vu", "secret-token", "hunter2", "SECRET", "AUTHORIZATION", "extraheader", "password", "machine example.org"}
	for _, f := range []string{leakGitConfig, leakNetrc} {
		for _, l := range strings.Split(f, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				s = append(s, l)
			}
		}
	}
	return s
}

// TestIncludesNeverLeak: whatever a requirements file includes, no output
// format carries a line of a file outside the repository, under .git, or
// not a requirements file; each such include is one finding that names
// the path as written.
func TestIncludesNeverLeak(t *testing.T) {
	repo, req, want := leakTree(t)
	for _, format := range []string{"text", "json", "sarif", "github", "codequality"} {
		for _, arg := range []string{req, repo} { // named, and found by the search
			code, out, errs := egRun(t, "", "validate", "--no-cache", "--platform", "linux-64", "--format", format, arg)
			if code != 1 {
				t.Errorf("%s %s: exit %d, want 1 (an include that is not a requirements file is an error)\n%s%s", format, arg, code, out, errs)
			}
			for _, s := range secretLines() {
				if strings.Contains(out, s) || strings.Contains(errs, s) {
					t.Errorf("%s %s: the output holds %q:\n%s%s", format, arg, s, out, errs)
				}
			}
		}
	}

	_, out, _ := egRun(t, "", "validate", "--no-cache", "--platform", "linux-64", "--format", "json", req)
	var reps []struct {
		Findings []struct {
			Code, Severity, Message string
			Line                    int
		}
	}
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	byLine := map[int][]string{}
	for _, f := range reps[0].Findings {
		if f.Code == "EG104" {
			byLine[f.Line] = append(byLine[f.Line], f.Severity+" "+f.Message)
		}
	}
	for line, target := range want {
		got := byLine[line]
		if len(got) != 1 || !strings.Contains(got[0], "-r "+target+": ") {
			t.Errorf("line %d (-r %s): want one EG104 finding naming it, got %q", line, target, got)
		}
	}
	for line, got := range byLine {
		if _, ok := want[line]; !ok {
			t.Errorf("line %d: unexpected EG104 %q", line, got)
		}
	}
	mustHave := map[int]string{
		3:  "warning -r .git/config: not followed: it is inside a .git directory",
		4:  "warning -r ../netrc: not followed: it is outside the repository (",
		7:  "warning -r escape.txt: not followed: it leads outside the repository (",
		8:  "error -r netrc: " + filepath.Join(repo, "netrc") + " is not a requirements file",
		9:  "warning -r sub/up/netrc: not followed: it leads outside the repository (",
		10: "warning -r ./sub/../../netrc: not followed: it is outside the repository (",
		11: "warning -r dangling.txt: not followed: it leads outside the repository (",
		12: "warning -r sub/up/gone: not followed: it leads outside the repository (",
		14: "error -r missing.txt: cannot read it: ",
	}
	for line, prefix := range mustHave {
		if got := byLine[line]; len(got) != 1 || !strings.HasPrefix(got[0], prefix) {
			t.Errorf("line %d: got %q, want it to start %q", line, got, prefix)
		}
	}
	// The include inside the repository is still read: its torchvision
	// is held against the torch of the file itself, on the -r line.
	found := false
	for _, f := range reps[0].Findings {
		found = found || f.Code == "EG203" && f.Line == 13
	}
	if !found {
		t.Errorf("sub/base.txt was not read (no EG203 on line 13):\n%s", out)
	}
}

// TestIncludeRootWithoutRepository: outside any repository the root is
// the validated file's directory: below it is followed, above it is not.
func TestIncludeRootWithoutRepository(t *testing.T) {
	base := t.TempDir()
	if discover.RepoRoot(base) != "" {
		t.Skipf("%s is inside a repository", base)
	}
	dir := filepath.Join(base, "proj")
	for p, s := range map[string]string{
		filepath.Join(base, "netrc"):           leakNetrc,
		filepath.Join(dir, "sub", "base.txt"):  "pytest==7.4.4\n",
		filepath.Join(dir, "requirements.txt"): "-r ../netrc\n-r sub/base.txt\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	req := filepath.Join(dir, "requirements.txt")
	_, out, errs := egRun(t, "", "validate", "--no-cache", "--format", "github", req)
	for _, s := range secretLines() {
		if strings.Contains(out+errs, s) {
			t.Errorf("the output holds %q:\n%s%s", s, out, errs)
		}
	}
	if n := strings.Count("\n"+out, "\n::"); n != 1 || !strings.Contains(out, "line=1,") ||
		!strings.Contains(out, "-r ../netrc: not followed: it is outside the directory of "+req+" (there is no repository)") {
		t.Errorf("want one finding, on line 1, saying -r ../netrc is outside the file's directory:\n%s", out)
	}
}
