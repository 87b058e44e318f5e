package builder

import (
	"path/filepath"
	"strings"
)

// Installers are the installers build --create knows, in the order it looks
// for them on PATH: the conda solvers first, fastest first (micromamba is
// one static binary, mamba the same solver inside a conda install), then
// pixi, which installs into a workspace, then uv, which installs only the
// file's pip: section and so only builds made with --via pip.
var Installers = []string{"micromamba", "mamba", "conda", "pixi", "uv"}

// Plan is how one installer makes a prefix from a built file.
type Plan struct {
	Installer string
	// Steps are the commands, run in order; each Steps[i][0] is the
	// installer's name, to be resolved on PATH.
	Steps [][]string
	// EnvDir is the environment the steps make, the one to check: the
	// prefix itself, except for pixi, whose environments live under the
	// workspace's .pixi/envs (EnvDir is then that folder, and the caller
	// takes the one environment in it).
	EnvDir string
	// Workspace is set for pixi: EnvDir holds its environments.
	Workspace bool
}

// Installs reports whether installer can make res: uv installs pip
// packages only, so it needs a file whose conda part is python and pip.
func Installs(installer string, res *Result) bool {
	if installer == "uv" {
		return len(res.Pip) > 0
	}
	return known(installer)
}

func known(installer string) bool {
	for _, i := range Installers {
		if i == installer {
			return true
		}
	}
	return false
}

// InstallPlan gives the commands installer runs to make prefix from res,
// whose YAML has been written to envFile.
func InstallPlan(installer, prefix, envFile string, res *Result) (Plan, error) {
	p := Plan{Installer: installer, EnvDir: prefix}
	switch installer {
	case "micromamba", "mamba":
		p.Steps = [][]string{{installer, "create", "--yes", "--prefix", prefix, "--file", envFile}}
	case "conda":
		// conda's create --file reads explicit specs, not environment.yml;
		// env create reads the YAML and does not prompt.
		p.Steps = [][]string{{"conda", "env", "create", "--prefix", prefix, "--file", envFile}}
	case "pixi":
		p.Steps = [][]string{
			{"pixi", "init", "--import", envFile, prefix},
			{"pixi", "install", "--all", "--manifest-path", filepath.Join(prefix, "pixi.toml")},
		}
		p.EnvDir = filepath.Join(prefix, ".pixi", "envs")
		p.Workspace = true
	case "uv":
		if len(res.Pip) == 0 {
			return p, badRequest("--installer uv installs pip packages only, and this build (%s) comes from conda channels; build with --via pip, or pick a conda installer", viaWord(res.Dist))
		}
		install := []string{"uv", "pip", "install", "--python", prefix}
		for _, l := range res.Pip {
			// "--index-url URL" is one line of the file and two arguments.
			install = append(install, strings.Fields(l)...)
		}
		p.Steps = [][]string{{"uv", "venv", "--python", res.Python, prefix}, install}
	default:
		return p, badRequest("--installer %q: want one of %s", installer, strings.Join(Installers, ", "))
	}
	return p, nil
}

// StepString renders a step as a shell line, for the progress messages.
func StepString(step []string) string {
	q := make([]string, len(step))
	for i, a := range step {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// NoInstaller is the error when none of the installers is on PATH.
func NoInstaller() error {
	return badRequest("build --create: no installer on PATH; looked for %s (install one, or name it with --installer)", strings.Join(Installers, ", "))
}
