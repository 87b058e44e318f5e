package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestWalkthrough runs the README's and docs/cli.md's and docs/hook.md's
// commands as a user would, in process through Main with the real process
// environment, on a small repository: a nested project whose .envguard.yml
// is two levels up, a `dependency:` typo, a binary file, a UTF-16 file, a
// .gitignore'd directory, a pyenv-style shim and a system-Python prefix.
func TestWalkthrough(t *testing.T) {
	repo := t.TempDir()
	put := func(rel, content string, mode os.FileMode) string {
		t.Helper()
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sh := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
	put(".git/HEAD", "ref: refs/heads/main\n", 0o644)
	put(".gitignore", "scratch/\n", 0o644)
	put("scratch/environment.yml", "dependency:\n  - numpy\n", 0o644) // ignored: must not be read
	// The project's config, two levels above the nested environment.
	put(".envguard.yml", "rules:\n  EG107: off\n", 0o644)
	nested := put("projects/train/environment.yml", warnEnv, 0o644) // only EG107, which the config turns off
	typo := put("typo/environment.yml", "name: x\nchannels: [conda-forge]\ndependency:\n  - numpy\n", 0o644)
	// Named as an environment file, so picked by its name; its content is
	// a binary. (A binary named env-tool.yml is not picked: its content
	// is not an environment file's.)
	put("bin/environment-tool.yml", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00", 0o644)
	// UTF-16 with a byte-order mark, as PowerShell's > writes it, holding
	// the EG201 of errEnv on line 8.
	u := []byte{0xff, 0xfe}
	for _, r := range utf16.Encode([]rune(errEnv)) {
		u = append(u, byte(r), byte(r>>8))
	}
	win := put("win/environment.yml", string(u), 0o644)
	t.Chdir(repo)
	for _, k := range []string{"CONDA_PREFIX", "VIRTUAL_ENV", "NO_COLOR", "CUDA_VISIBLE_DEVICES", "CONDA_OVERRIDE_CUDA_ARCH"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}

	// envguard validate, no argument: the repository, .gitignore honoured.
	code, out, errs := sh("validate")
	if code != ExitFindings {
		t.Errorf("validate: exit %d, want 1\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"typo/environment.yml:3:1: error EG102 unknown top-level key \"dependency\": did you mean \"dependencies\"?",
		"bin/environment-tool.yml:1: error EG100 envguard cannot read this file: it is an ELF binary",
		"win/environment.yml:8:", "EG201",
		"projects/train/environment.yml: no canonical name; 0 errors, 0 warnings, 0 info",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "scratch/") {
		t.Errorf("validate read a .gitignore'd directory:\n%s", out)
	}

	// The nested file's config is the repository's, two levels up.
	if _, out, _ := sh("validate", "--show-config", nested); !strings.HasPrefix(out, nested+": "+filepath.Join(repo, ".envguard.yml")+"\n") {
		t.Errorf("--show-config:\n%s", out)
	}
	// One JSON shape: an array, here of the four files read.
	_, out, _ = sh("validate", "--format", "json", ".")
	var reps []struct{ File string }
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 4 {
		t.Errorf("--format json: %v, %d reports\n%s", err, len(reps), out)
	}
	// Rule selection and --exit-zero.
	if code, out, _ := sh("validate", "--select", "EG102", "--exit-zero", typo, win); code != 0 || strings.Contains(out, "EG201") || !strings.Contains(out, "EG102") {
		t.Errorf("--select EG102 --exit-zero: exit %d\n%s", code, out)
	}
	// A missing file among others: the rest validated, exit 2.
	if code, out, errs := sh("validate", "missing.yml", nested); code != ExitUsage || !strings.Contains(errs, "missing.yml: no such file") || !strings.Contains(out, "projects/train/environment.yml") {
		t.Errorf("missing file: exit %d\n%s%s", code, out, errs)
	}
	// docs/cli.md: standard input named by --stdin-filename.
	var stdout, stderr bytes.Buffer
	code = Main([]string{"validate", "--stdin-filename", "typo/environment.yml", "-"}, strings.NewReader("name: x\ndependecies:\n  - numpy\n"), &stdout, &stderr)
	if code != ExitFindings || !strings.Contains(stdout.String(), `typo/environment.yml:2:1: error EG102 unknown top-level key "dependecies": did you mean "dependencies"?`) {
		t.Errorf("--stdin-filename: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}

	// envguard init in a new project; never over an existing file.
	fresh := t.TempDir()
	if code, out, _ := sh("init", fresh); code != 0 || !strings.HasPrefix(out, "wrote ") {
		t.Errorf("init: exit %d %q", code, out)
	}
	if code, _, errs := sh("init", fresh); code != ExitUsage || !strings.Contains(errs, "already exists") {
		t.Errorf("second init: exit %d %q", code, errs)
	}
	if code, out, _ := sh("version"); code != 0 || !strings.HasPrefix(out, "envguard ") {
		t.Errorf("version: exit %d %q", code, out)
	}

	// envguard check (docs/hook.md): a venv found through a pyenv-style
	// shim, and a system Python. CONDA_OVERRIDE_CUDA="" says "no driver",
	// so the outcome does not depend on this machine's GPUs.
	t.Setenv("CONDA_OVERRIDE_CUDA", "")
	venv := filepath.Join(repo, "venvs", "pt")
	put("venvs/pt/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.8\n", 0o644)
	put("venvs/pt/bin/python3", "#!/bin/sh\necho '"+venv+"'\n", 0o755)
	put("venvs/pt/lib/python3.11/site-packages/torch-2.5.1+cu124.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu124\n\n", 0o644)
	put("venvs/pt/lib/python3.11/site-packages/torch-2.5.1+cu124.dist-info/INSTALLER", "pip\n", 0o644)
	put("venvs/pt/lib/python3.11/site-packages/torch/version.py", "__version__ = '2.5.1+cu124'\ncuda = '12.4'\n", 0o644)
	shims := filepath.Join(repo, "pyenv", "shims")
	put("pyenv/shims/python3", "#!/bin/sh\nexec '"+filepath.Join(venv, "bin", "python3")+"' \"$@\"\n", 0o755)
	t.Setenv("PATH", shims)
	code, out, errs = sh("check")
	if code != ExitFindings || !strings.Contains(out, "envguard check: "+venv+" (from python3 on PATH ("+filepath.Join(shims, "python3")+"))") ||
		!strings.Contains(out, "driver     none: CONDA_OVERRIDE_CUDA is set to an empty value") || !strings.Contains(out, "STOP") {
		t.Errorf("check through a shim: exit %d\n%s%s", code, out, errs)
	}
	usr := filepath.Join(repo, "image", "usr")
	put("image/usr/lib/python3.10/os.py", "", 0o644)
	put("image/usr/bin/python3", "#!/bin/sh\necho '"+usr+"'\n", 0o755)
	put("image/usr/local/lib/python3.10/dist-packages/numpy-1.26.4.dist-info/METADATA", "Metadata-Version: 2.1\nName: numpy\nVersion: 1.26.4\n\n", 0o644)
	t.Setenv("PATH", filepath.Join(usr, "bin"))
	if code, out, errs := sh("check"); code != 0 || !strings.Contains(out, "envguard check: "+usr) || !strings.Contains(out, "python     3.10") {
		t.Errorf("check on a system Python: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("CONDA_PREFIX", filepath.Join(repo, "no-such-env"))
	if code, _, errs := sh("check"); code != ExitUsage || !strings.Contains(errs, "(from $CONDA_PREFIX)") || !strings.Contains(errs, "--prefix DIR") {
		t.Errorf("check with a stale $CONDA_PREFIX: exit %d %q", code, errs)
	}
}
