package packaging

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// root is the module root, where the files under test live.
var root string

// binDir holds the envguard binary built for these tests, as a user's
// PATH would hold the one `go install` puts there.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if root, err = filepath.Abs(filepath.Join("..", "..")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		fmt.Fprintf(os.Stderr, "packaging tests: no go.mod at %s: %v\n", root, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "envguard-packaging-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	// The same package path the docs install; inside the module it builds
	// this checkout.
	cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "envguard"), "github.com/envguard/envguard/cmd/envguard")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "packaging tests: building envguard: %v\n", err)
		return 1
	}
	defer removeProxyVersion()
	return m.Run()
}

// readRoot reads a file from the module root.
func readRoot(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pathWithEnvguard is PATH with the test's envguard first.
func pathWithEnvguard() string {
	return binDir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// commandOnPath is exec.Command with name looked up, and run, with the
// test's envguard first on PATH, as a shell in a CI job would.
func commandOnPath(name string, args ...string) *exec.Cmd {
	path := pathWithEnvguard()
	cmd := exec.Command(name, args...)
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			cmd.Path, cmd.Err = p, nil
			break
		}
	}
	cmd.Env = append(os.Environ(), "PATH="+path)
	return cmd
}

// gitRepo makes a git repository in a temporary directory holding files
// (name → content), all staged, and returns its path.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "-A")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

// exitCode runs cmd and returns its exit status; a command that could not
// start fails the test.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatalf("%v: %v", cmd.Args, err)
	return -1
}
