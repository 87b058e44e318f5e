package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver/kb"
)

func targetsCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "targets",
		Short: "List the described machines, or export one for conda, pixi or uv",
		Long: `targets lists the machines envguard knows: the targets of .envguard.yml and of --targets FILE
(a targets: list, a conda-lock virtual-packages.yml, a pixi manifest, the output of
'kubectl get nodes -o json', or of 'nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv').

targets export prints what makes an installer solve for one of them, so that one description
drives conda, pixi and uv in CI.`,
	}
	c.AddCommand(targetsListCmd(e), targetsExportCmd(e))
	return c
}

// machines reads the configuration's targets and FILE's.
func (e *env) machines(targetsFile string) ([]gpucheck.Target, error) {
	cfg, err := e.config()
	if err != nil {
		return nil, err
	}
	var ts []gpucheck.Target
	if cfg != nil {
		ts = append(ts, cfg.Targets...)
	}
	if targetsFile != "" {
		src, err := e.readInput(targetsFile)
		if err != nil {
			return nil, usageErr("--targets: %v", err)
		}
		more, err := gpucheck.ParseTargets(targetsFile, src)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		ts = append(ts, more...)
	}
	return ts, nil
}

// machinesAndKB is machines with the knowledge base that turns them into hosts.
func (e *env) machinesAndKB(targetsFile string) ([]gpucheck.Target, *kb.KB, error) {
	ts, err := e.machines(targetsFile)
	if err != nil {
		return nil, nil, err
	}
	k, err := e.knowledge()
	return ts, k, err
}

func targetsListCmd(e *env) *cobra.Command {
	var targetsFile string
	var asJSON bool
	c := &cobra.Command{
		Use:   "list [--targets FILE] [--json]",
		Short: "List the targets with their driver, CUDA and GPUs",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			ts, k, err := e.machinesAndKB(targetsFile)
			if err != nil {
				return err
			}
			var hosts []*gpucheck.Host
			for _, t := range ts {
				h, err := t.Host(k)
				if err != nil {
					return usageErr("%v", err)
				}
				hosts = append(hosts, h)
			}
			if asJSON {
				b, _ := json.MarshalIndent(hosts, "", "  ")
				fmt.Fprintln(e.stdout, string(b))
				return nil
			}
			if len(hosts) == 0 {
				fmt.Fprintln(e.stdout, "no targets: give --targets FILE or a targets: list in .envguard.yml")
				return nil
			}
			for _, h := range hosts {
				fmt.Fprintln(e.stdout, hostLine(h))
			}
			return nil
		},
	}
	c.Flags().StringVar(&targetsFile, "targets", "", "targets `FILE` besides .envguard.yml's")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// hostLine is one target in a line: name, driver and CUDA, GPUs, nodes.
func hostLine(h *gpucheck.Host) string {
	var b strings.Builder
	b.WriteString(h.Name)
	switch {
	case !h.Available:
		b.WriteString(": " + h.Reason)
	case h.DriverAssumed:
		fmt.Fprintf(&b, ": a driver for CUDA %s (at least %s)", h.CUDADriver, h.Driver)
	default:
		fmt.Fprintf(&b, ": driver %s (CUDA %s)", h.Driver, h.CUDADriver)
	}
	counts := map[string]int{}
	var order []string
	for _, g := range h.GPUs {
		k := g.Name + " (" + g.CC + ")"
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	for i, k := range order {
		sep := ", "
		if i == 0 {
			sep = "; "
		}
		if counts[k] > 1 {
			fmt.Fprintf(&b, "%s%d× %s", sep, counts[k], k)
		} else {
			b.WriteString(sep + k)
		}
	}
	if h.Nodes > 0 {
		fmt.Fprintf(&b, "; %d node", h.Nodes)
		if h.Nodes > 1 {
			b.WriteString("s")
		}
	}
	return b.String()
}

func targetsExportCmd(e *env) *cobra.Command {
	var targetsFile, format, platform string
	c := &cobra.Command{
		Use:   "export --as conda-overrides|pixi|nv-variant [--targets FILE] TARGET",
		Short: "Print the variables or manifest lines that make conda, pixi or uv solve for TARGET",
		Long: `export prints, for one target:
  conda-overrides  CONDA_OVERRIDE_CUDA and CONDA_OVERRIDE_CUDA_ARCH (CEP 46: the lowest compute capability)
  nv-variant       NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION and NV_VARIANT_PROVIDER_FORCE_SM_ARCH,
                   the NVIDIA wheel-variant provider's overrides (uv, pip)
  pixi             a platform entry with its cuda (pixi 0.71's rich platforms), and [system-requirements]

The variables are KEY=VALUE lines: append them to "$GITHUB_ENV", or 'export $(envguard targets export ...)'.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if format == "" {
				return usageErr("--as is required: one of %s", strings.Join(gpucheck.ExportFormats, ", "))
			}
			ts, k, err := e.machinesAndKB(targetsFile)
			if err != nil {
				return err
			}
			var names []string
			for _, t := range ts {
				names = append(names, t.Name)
				if t.Name != args[0] {
					continue
				}
				h, err := t.Host(k)
				if err != nil {
					return usageErr("%v", err)
				}
				lines, notes, err := gpucheck.Export(h, format, platform)
				if err != nil {
					return usageErr("%v", err)
				}
				for _, n := range notes {
					fmt.Fprintln(e.stderr, "envguard: note: "+n)
				}
				fmt.Fprintln(e.stdout, strings.Join(lines, "\n"))
				return nil
			}
			if len(names) == 0 {
				return usageErr("no targets: give --targets FILE or a targets: list in .envguard.yml")
			}
			return usageErr("no target %q; the targets are %s", args[0], strings.Join(names, ", "))
		},
	}
	c.Flags().StringVar(&targetsFile, "targets", "", "targets `FILE` besides .envguard.yml's")
	c.Flags().StringVar(&format, "as", "", "conda-overrides, pixi or nv-variant")
	c.Flags().StringVar(&platform, "platform", "linux-64", "the conda subdir of a pixi platform entry")
	return c
}
