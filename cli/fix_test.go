package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runFix(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(append([]string{"fix"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestFixREADMEExample keeps the README's fix example true, on a copy of
// the demo file: what it prints, and the file it leaves.
func TestFixREADMEExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	demo, err := os.ReadFile(filepath.Join("..", "testdata", "demo", "environment.yml"))
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ ./bin/envguard fix testdata/demo/environment.yml     # or --diff to see the change first\n"
	s := string(readme)
	i := strings.Index(s, cmd)
	j := strings.Index(s[max(i, 0):], "```")
	if i < 0 || j < 0 {
		t.Fatal("README.md lost its fix example")
	}
	shown := s[i+len(cmd) : i+j]

	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "testdata", "demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "testdata", "demo", "environment.yml")
	if err := os.WriteFile(path, demo, 0o640); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, errOut := runFix(t, "", "--platform", "linux-64", "testdata/demo/environment.yml")
	// the report goes to stdout (fix … > log keeps it)
	if code != ExitFindings || errOut != "" {
		t.Errorf("exit %d (the README implies 1: EG302 is left), stderr %q", code, errOut)
	}
	if out != shown {
		t.Errorf("README.md shows what fix no longer prints.\n--- README ---\n%s--- now ---\n%s", shown, out)
	}
	got, _ := os.ReadFile(path)
	want := strings.NewReplacer("cudatoolkit=11.3", "cudatoolkit=11.6").Replace(string(demo))
	if string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	// fixed once, a second run changes nothing and says so
	if _, out, _ := runFix(t, "", "--platform", "linux-64", "testdata/demo/environment.yml"); !strings.Contains(out, "0 fixes made") {
		t.Errorf("second run: %s", out)
	}
}

func TestFixCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	crlf := "name: train\r\nchannels:\r\n  - pytorch\r\n  - nvidia\r\ndependencies:\r\n  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0  # é\r\n  - pytorch-cuda=11.7\r\n"
	if err := os.WriteFile("env.yml", []byte(crlf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("env.yml", "link.yml"); err != nil {
		t.Fatal(err)
	}

	// --diff writes nothing and prints the diff
	code, out, _ := runFix(t, "", "--diff", "--platform", "linux-64", "env.yml")
	if code != ExitOK || !strings.Contains(out, "-  - pytorch-cuda=11.7\r\n+  - pytorch-cuda=11.8\r\n") {
		t.Errorf("--diff: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile("env.yml"); string(b) != crlf {
		t.Errorf("--diff wrote the file")
	}

	// through the link: the file it names is fixed, CRLF kept, link kept
	if code, _, errOut := runFix(t, "", "--platform", "linux-64", "link.yml"); code != ExitOK {
		t.Errorf("exit %d: %s", code, errOut)
	}
	want := "name: train\r\nchannels:\r\n  - pytorch\r\n  - nvidia\r\ndependencies:\r\n  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0  # é\r\n  - pytorch-cuda=11.8\r\n"
	if b, _ := os.ReadFile("env.yml"); string(b) != want {
		t.Errorf("fixed:\n%q\nwant\n%q", b, want)
	}
	if fi, err := os.Lstat("link.yml"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}

	// standard input in, the fixed file out
	// with -, stdout is the fixed file and the report goes to stderr
	code, out, errOut := runFix(t, "name: x\nchannels: [conda-forge, defaults]\ndependencies: [numpy]\n", "--unsafe", "-")
	if code != ExitOK || out != "name: x\nchannels: [conda-forge, nodefaults]\ndependencies: [numpy]\n" || !strings.Contains(errOut, "-:2:") || !strings.Contains(errOut, "fixed EG108") {
		t.Errorf("stdin: exit %d %q, stderr %q", code, out, errOut)
	}

	// --select limits the fixes; a code with no fix is a usage error
	code, out, _ = runFix(t, "name: x\nchannels: [conda_forge]\ndependencies: [numpy=>1.2]\n", "--unsafe", "--select", "EG112", "-")
	if code != ExitFindings || out != "name: x\nchannels: [conda-forge]\ndependencies: [numpy=>1.2]\n" {
		t.Errorf("--select EG112: exit %d %q", code, out)
	}
	// a fix that would add a finding is not made, and the report says why:
	// conda-forge beside defaults is EG108
	code, out, errOut = runFix(t, "name: x\nchannels: [conda_forge, defaults]\ndependencies: [numpy]\n", "--unsafe", "--select", "EG112", "-")
	if code != ExitFindings || out != "name: x\nchannels: [conda_forge, defaults]\ndependencies: [numpy]\n" || !strings.Contains(errOut, "-:2: not fixed EG112: the edit would add EG108 (warning, line 2:") {
		t.Errorf("EG112 beside defaults: exit %d %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runFix(t, "", "--select", "EG401", "env.yml"); code != ExitUsage || !strings.Contains(errOut, "no automatic fix") {
		t.Errorf("--select EG401: exit %d %s", code, errOut)
	}
	if code, _, errOut := runFix(t, "", "."); code != ExitUsage || !strings.Contains(errOut, "is a directory") {
		t.Errorf("a directory: exit %d %s", code, errOut)
	}
	if err := os.WriteFile("uv.lock", []byte("version = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runFix(t, "", "uv.lock"); code != ExitUsage || !strings.Contains(errOut, "environment.yml and requirements files only") {
		t.Errorf("uv.lock: exit %d %s", code, errOut)
	}
}

// Standard input named twice is refused before anything is read, as
// validate refuses it.
func TestFixStdinTwice(t *testing.T) {
	code, _, errOut := runFix(t, "dependencies: [numpy]\n", "--diff", "-", "-")
	if code != ExitUsage || !strings.Contains(errOut, "- (standard input) given 2 times") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestFixPinForTargets: fix --unsafe --target pins the release and the
// variant that the file leaves to the solver to the newest build that
// validates on every target named; without --unsafe, or without a target,
// nothing is pinned.
func TestFixPinForTargets(t *testing.T) {
	dir := t.TempDir()
	targets := filepath.Join(dir, "targets.yml")
	if err := os.WriteFile(targets, []byte("targets:\n  - name: a100\n    driver: \"535.104.05\"\n    gpus: [A100]\n  - name: l4\n    driver: \"550.54.15\"\n    gpus: [L4]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := filepath.Join(dir, "environment.yml")
	src := "name: train\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.11\n  - pytorch>=2.1\n"
	if err := os.WriteFile(env, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runFix(t, "", "--unsafe", "--platform", "linux-64", "--targets", targets, "--target", "a100", "--target", "l4", env)
	want := "name: pt25_cu121\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.11\n  - pytorch::pytorch-cuda=12.1\n  - pytorch=2.5.1\n"
	if b, _ := os.ReadFile(env); code != ExitOK || string(b) != want || !strings.Contains(out, "fixed EG502: pinned to pytorch=2.5.1 with pytorch::pytorch-cuda=12.1, the newest build that validates on every target (a100, l4)") {
		t.Errorf("exit %d, file\n%s\nreport %q, stderr %q", code, b, out, errOut)
	}
	for _, args := range [][]string{
		{"--platform", "linux-64", "--targets", targets, "--target", "a100", "-"}, // safe
		{"--unsafe", "--platform", "linux-64", "-"},                               // no target
	} {
		code, out, errOut := runFix(t, src, args...)
		if code != ExitFindings || strings.Contains(out, "pytorch=2.5.1") || strings.Contains(errOut, "pinned") {
			t.Errorf("%v: exit %d %q, stderr %q", args, code, out, errOut)
		}
		// with a target, the report says the pin needs --unsafe
		if withTarget := strings.Contains(strings.Join(args, " "), "--target "); withTarget != strings.Contains(errOut, "not fixed EG502: a pin for the targets is an unsafe fix") {
			t.Errorf("%v: stderr %q", args, errOut)
		}
	}
}
