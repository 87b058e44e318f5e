package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/envguard/envguard/builder"
)

func buildCmd(e *env) *cobra.Command {
	var python, cuda, via, targetsFile, create, installer string
	var targets []string
	c := &cobra.Command{
		Use:   "build FRAMEWORK[=VERSION]",
		Short: "Write a pinned environment.yml that runs on the targets (stdout)",
		Long: "build chooses the newest CUDA variant of the release that every target's driver runs and whose\n" +
			"architectures cover every target GPU, and writes an environment.yml that passes envguard's own\n" +
			"validation. Exit 1 when nothing fits, naming the closest build that would.\n\n" +
			"FRAMEWORK is pytorch, tensorflow or jax. For tensorflow and jax, build writes the framework's own\n" +
			"pip wheels, which bring NVIDIA's CUDA libraries (tensorflow[and-cuda]==X, jax[cuda12]==X), in the\n" +
			"file's pip: section, and with no VERSION (or a series) takes the newest release the knowledge base\n" +
			"lists that validates on every target; --cuda picks jax's CUDA major (12, 13) or cpu.\n\n" +
			"With --create PREFIX it installs the file into PREFIX instead of printing it, with the first of\n" +
			"micromamba, mamba, conda, pixi and uv on PATH (uv only for all-pip builds: --via pip, tensorflow, jax)\n" +
			"or the one --installer names, streaming the installer's output, then runs check on the new prefix\n" +
			"against the same targets. Exit 1 when the installer fails or the check does not pass; 2 when PREFIX\n" +
			"exists and is not empty or no installer is found.",
		Example: "  envguard build pytorch=2.1 --python 3.10 --target local > environment.yml\n" +
			"  envguard build pytorch=2.5 --targets fleet.yml --target v100-pool --via pip\n" +
			"  envguard build tensorflow --targets fleet.yml --target a100-pool\n" +
			"  envguard build jax=0.6 --target local --cuda 12\n" +
			"  envguard build pytorch=2.5 --target local --create /opt/envs/pt25",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if installer != "" && create == "" {
				return usageErr("--installer %s: it installs what --create PREFIX names; add --create", installer)
			}
			if create != "" {
				// Refuse before the build, so nothing is solved or
				// downloaded for a prefix that will not be touched.
				if err := emptyPrefix(create); err != nil {
					return err
				}
			}
			fw, ver, _ := strings.Cut(args[0], "=")
			ver = strings.TrimLeft(ver, "=")
			opt, err := e.options("linux-64", targets, targetsFile)
			if err != nil {
				return err
			}
			res, err := builder.Build(builder.Request{
				Framework: fw, Version: ver, Python: python, CUDA: cuda, Via: via,
				Hosts: opt.Hosts, KB: opt.KB,
				Command: "envguard build " + strings.Join(c.Flags().Args(), " ") + flagsLine(c),
			})
			if err != nil {
				return buildExit(err)
			}
			if create != "" {
				// Check against the machines the build was made for.
				var names []string
				for _, h := range opt.Hosts {
					names = append(names, h.Name)
				}
				return e.create(c, res, create, installer, names, targetsFile)
			}
			_, err = e.stdout.Write(res.YAML)
			return err
		},
	}
	fl := c.Flags()
	fl.StringVar(&python, "python", "", "Python `VERSION` (default: the newest the release supports)")
	fl.StringVar(&cuda, "cuda", "auto", "CUDA variant: a version (12.1), auto, or cpu")
	fl.StringVar(&via, "via", "", "conda (pytorch channel; conda-forge after 2.5), pip (PyTorch's wheel index) or conda-forge (the releases its feedstock built)")
	fl.StringArrayVar(&targets, "target", nil, "a machine the environment must run on (repeatable; local = this one)")
	fl.StringVar(&targetsFile, "targets", "", "targets `FILE`")
	fl.StringVar(&create, "create", "", "install the environment into `PREFIX` (new or empty) and check it, instead of printing the file")
	fl.StringVar(&installer, "installer", "", "with --create: the installer to run, one of "+strings.Join(builder.Installers, ", ")+" (default: the first on PATH)")
	return c
}

// flagsLine renders the flags that were set, for the header comment.
func flagsLine(c *cobra.Command) string {
	var b strings.Builder
	c.Flags().Visit(func(f *pflag.Flag) {
		if sv, ok := f.Value.(interface{ GetSlice() []string }); ok {
			for _, v := range sv.GetSlice() {
				b.WriteString(" --" + f.Name + " " + v)
			}
			return
		}
		b.WriteString(" --" + f.Name + " " + f.Value.String())
	})
	return b.String()
}

// buildExit is the exit a builder error gives: 1 when nothing fits the
// targets (a finding), 2 for a request it cannot build.
func buildExit(err error) error {
	var be *builder.Error
	if errors.As(err, &be) {
		if be.NoFit {
			return &exitError{ExitFindings, err}
		}
		return usageErr("%v", err)
	}
	return err
}
