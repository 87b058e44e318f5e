package cli

import (
	"errors"
	"fmt"

	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/builder"
)

// emptyPrefix refuses a PREFIX that holds anything: an installer would mix
// the new environment into it or fail half way, and either way what the
// user had there is at risk.
func emptyPrefix(prefix string) error {
	st, err := os.Lstat(prefix)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return usageErr("--create %s: %v", prefix, err)
	}
	if !st.IsDir() {
		return usageErr("--create %s: exists and is not a directory; name a new or empty directory", prefix)
	}
	d, err := os.Open(prefix)
	if err != nil {
		return usageErr("--create %s: %v", prefix, err)
	}
	defer d.Close()
	if names, _ := d.Readdirnames(1); len(names) > 0 {
		return usageErr("--create %s: the directory is not empty (it holds %s); envguard never installs into an existing environment; name a new or empty directory", prefix, names[0])
	}
	return nil
}

// create installs res into prefix with the installer named or the first on
// PATH, streaming its output to stderr, then checks the new prefix against
// the targets the build was made for. Standard output carries only the
// check's verdict.
func (e *env) create(c *cobra.Command, res *builder.Result, prefix, installer string, targets []string, targetsFile string) error {
	name, path, err := e.pickInstaller(installer, res)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "envguard-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// pixi's import and conda's env create tell the format by the name.
	envFile := filepath.Join(tmp, "environment.yml")
	if err := os.WriteFile(envFile, res.YAML, 0o644); err != nil {
		return err
	}
	plan, err := builder.InstallPlan(name, prefix, envFile, res)
	if err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintf(e.stderr, "envguard: building %s into %s with %s\n", res.Name, prefix, name)
	for _, step := range plan.Steps {
		fmt.Fprintf(e.stderr, "envguard: running %s\n", builder.StepString(step))
		cmd := exec.Command(path, step[1:]...)
		cmd.Env = e.childEnv()
		cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
		if err := cmd.Run(); err != nil {
			var xe *exec.ExitError
			if errors.As(err, &xe) {
				return &exitError{ExitFindings, fmt.Errorf("build --create: %s failed (%s) while running: %s\n"+
					"%s may hold a partial environment; remove it before trying again",
					name, exitStatus(xe), builder.StepString(step), prefix)}
			}
			return &exitError{ExitFindings, fmt.Errorf("build --create: running %s: %v", builder.StepString(step), err)}
		}
	}
	dir := plan.EnvDir
	if plan.Workspace {
		if dir, err = onlyEnv(plan.EnvDir); err != nil {
			return &exitError{ExitFindings, fmt.Errorf("build --create: pixi finished, but %v", err)}
		}
	}
	fmt.Fprintf(e.stderr, "envguard: %s finished; checking %s\n", name, dir)
	return e.checkPrefix(c, dir, "--create", prefixCheck{
		names: targets, targetsFile: targetsFile, format: "text", failOn: "error",
	})
}

// pickInstaller resolves the installer named, or the first of
// builder.Installers on PATH that can install res.
func (e *env) pickInstaller(named string, res *builder.Result) (name, path string, err error) {
	if named != "" {
		if !builder.Installs(named, res) {
			if _, err := builder.InstallPlan(named, "", "", res); err != nil {
				return "", "", usageErr("%v", err)
			}
		}
		if path = e.lookPath(named); path == "" {
			return "", "", usageErr("--installer %s: not found on PATH", named)
		}
		return named, path, nil
	}
	var skipped []string
	for _, n := range builder.Installers {
		p := e.lookPath(n)
		if p == "" {
			continue
		}
		if !builder.Installs(n, res) {
			skipped = append(skipped, n)
			continue
		}
		return n, p, nil
	}
	if len(skipped) > 0 {
		return "", "", usageErr("build --create: only %s is on PATH, and it installs pip packages only; this build comes from conda channels: build with --via pip, or install micromamba, mamba, conda or pixi", strings.Join(skipped, ", "))
	}
	return "", "", usageErr("%v", builder.NoInstaller())
}

// childEnv is the process's environment with e's PATH, so that the
// installer finds what lookPath found (and a test's fake installers).
func (e *env) childEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+e.getenv("PATH"))
}

func exitStatus(xe *exec.ExitError) string {
	if code := xe.ExitCode(); code >= 0 {
		return fmt.Sprintf("exit status %d", code)
	}
	return xe.String()
}

// onlyEnv is the one environment pixi made under dir.
func onlyEnv(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("its environments are not where pixi keeps them: %v", err)
	}
	var dirs []string
	for _, en := range ents {
		if en.IsDir() {
			dirs = append(dirs, en.Name())
		}
	}
	if len(dirs) != 1 {
		return "", fmt.Errorf("%s holds %d environments (%s), not one", dir, len(dirs), strings.Join(dirs, ", "))
	}
	return filepath.Join(dir, dirs[0]), nil
}
