package cli

import (
	"encoding/json"
	"os"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
)

func coverageCmd(e *env) *cobra.Command {
	var targetsFile, format, platform string
	var minDecided float64
	c := &cobra.Command{
		Use:   "coverage [flags] FILE|DIR...",
		Short: "How many (environment, machine) verdicts envguard can decide, and why the rest are unknown",
		Long: "coverage validates every environment file given (a directory is searched as validate searches it)\n" +
			"against a fleet of machines: the standard fleet (K80 on driver 470 to RTX 5090 on 570; see\n" +
			"`envguard coverage --show-fleet`) or --targets FILE. It prints two figures over the\n" +
			"(environment, target) pairs of the environments that need a GPU: the determined share, the\n" +
			"decided (ok or fail) pairs among those whose file fixes the framework's release and variant\n" +
			"(or is a lock file), with the facts the undecided ones lack, one line each; and the\n" +
			"corpus-wide share over every pair, with the unknown ones counted by what was missing.\n" +
			"--min-decided holds the corpus-wide share.",
		Example: "  envguard coverage envs/\n  envguard coverage --targets fleet.yml --min-decided 95 envs/",
		RunE: func(c *cobra.Command, args []string) error {
			if show, _ := c.Flags().GetBool("show-fleet"); show {
				_, err := e.stdout.Write(report.StandardFleetYAML())
				return err
			}
			if len(args) == 0 {
				return usageErr("coverage needs environment files or directories")
			}
			if format != "text" && format != "json" {
				return usageErr("--format %q: want text or json", format)
			}
			if minDecided < 0 || minDecided > 100 {
				return usageErr("--min-decided %v: want a percentage from 0 to 100", minDecided)
			}
			return e.coverage(args, targetsFile, format, platform, minDecided)
		},
	}
	fl := c.Flags()
	fl.StringVar(&targetsFile, "targets", "", "targets `FILE` to hold the environments against (default: the standard fleet)")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	fl.StringVar(&platform, "platform", "linux-64", "conda subdir to evaluate selectors for")
	fl.Float64Var(&minDecided, "min-decided", 0, "exit 1 when less than this percentage of pairs is decided")
	fl.Bool("show-fleet", false, "print the standard fleet as a targets file and exit")
	return c
}

func (e *env) coverage(args []string, targetsFile, format, platform string, minDecided float64) error {
	k, err := e.knowledge()
	if err != nil {
		return err
	}
	targets := report.StandardFleet()
	if targetsFile != "" {
		src, err := os.ReadFile(targetsFile)
		if err != nil {
			return usageErr("--targets: %v", err)
		}
		if targets, err = gpucheck.ParseTargets(targetsFile, src); err != nil {
			return usageErr("%v", err)
		}
	}
	var names []string
	for _, t := range targets {
		names = append(names, t.Name)
	}
	hosts, err := (&report.Machines{KB: k, Targets: targets}).Resolve(names)
	if err != nil {
		return usageErr("%v", err)
	}
	// A directory is searched as validate searches it (by name and by
	// content, .gitignore, include: and exclude:), so that both commands
	// read the same files.
	files, err := e.inputFiles(args, nil, false)
	if err != nil {
		return usageErr("%v", err)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil {
			return usageErr("%v", err)
		} else if st.IsDir() {
			return usageErr("%s: no environment, lock or requirements file under it", f)
		}
	}
	var cov report.Coverage
	opt := report.Options{Platform: platform, KB: k, Hosts: hosts}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return usageErr("%v", err)
		}
		cov.Add(report.Validate(f, src, opt))
	}
	if format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			report.Coverage
			DecidedPercent           float64 `json:"decided_percent"`
			DeterminedDecidedPercent float64 `json:"determined_decided_percent"`
		}{cov, 100 * cov.Decided(), 100 * cov.DeterminedDecided()}); err != nil {
			return err
		}
	} else if err := cov.WriteText(e.stdout); err != nil {
		return err
	}
	if minDecided > 0 && 100*cov.Decided() < minDecided {
		return errFindings
	}
	return nil
}
