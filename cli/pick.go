package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/builder"
)

func pickCmd(e *env) *cobra.Command {
	var python, as, targetsFile string
	var targets []string
	c := &cobra.Command{
		Use:   "pick pytorch[=VERSION] --target NAME... [--as index|conda|pixi]",
		Short: "Print the one PyTorch index, conda variant or pixi selector that runs on every target named",
		Long: `pick chooses, as build does, the newest CUDA variant of the release whose driver floor every target
meets and whose architectures cover every target GPU, and prints it on one line for scripts:
  index  PyTorch's wheel index for pip or uv (--index-url)
  conda  the conda specs that select the build (pytorch channel, else conda-forge)
  pixi   pixi dependency lines (conda-forge), joined by "; "
It decides by GPU architecture as well as driver: a Pascal GPU on a CUDA 12.8 driver gets cu126,
because the cu128 wheels start at sm_75. Exit 1 when no variant runs on every target.`,
		Example: "  uv pip install torch --index-url \"$(envguard pick pytorch=2.7 --targets fleet.yml --target pascal-pool)\"",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			fw, ver, _ := strings.Cut(args[0], "=")
			ver = strings.TrimLeft(ver, "=")
			if f := strings.ToLower(fw); f != "pytorch" && f != "torch" {
				return usageErr("pick %s: pick knows pytorch only (an index URL, conda variant or pixi selector); for %s, envguard build %s writes the whole environment", args[0], fw, args[0])
			}
			via, err := builder.PickVia(as)
			if err != nil {
				return usageErr("--as: %v", err)
			}
			if len(targets) == 0 {
				return usageErr("pick needs --target NAME (repeatable; local = this machine): the machines the build must run on")
			}
			opt, err := e.options("linux-64", targets, targetsFile)
			if err != nil {
				return err
			}
			res, err := builder.Build(builder.Request{Framework: fw, Version: ver, Python: python, Via: via, Hosts: opt.Hosts, KB: opt.KB})
			if err != nil {
				return buildExit(err)
			}
			line, err := res.Pick(as)
			if err != nil {
				return &exitError{ExitFindings, err}
			}
			fmt.Fprintln(e.stdout, line)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&python, "python", "", "Python `VERSION` (default: the newest the release supports)")
	fl.StringVar(&as, "as", builder.PickIndex, "what to print: index, conda or pixi")
	fl.StringArrayVar(&targets, "target", nil, "a machine the build must run on (repeatable; local = this one)")
	fl.StringVar(&targetsFile, "targets", "", "targets `FILE`")
	return c
}
