package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

// starterConfig is what `envguard init` writes: every setting, commented,
// with the defaults active, so that the file parses as it stands.
const starterConfig = `# envguard project configuration. envguard reads the first .envguard.yml
# it finds from a file's directory up to the repository root; ` + "`envguard validate --show-config`" + `
# says which one governs each file.

# When to exit 1: error (the default), unknown (also a target whose verdict
# could not be decided), warning (also warnings) or info (any finding).
fail_on: error

# Per-rule severities: off, info, warning or error. ` + "`envguard rules`" + ` lists the
# codes; ` + "`envguard rules EG107`" + ` explains one.
rules:
  # EG107: off        # no channels: our .condarc pins them on every machine
  # EG505: warning    # keep plotting and notebook packages out of training envs

# The machines the environments must run on: validate holds each file
# against every one of them, and --target NAME narrows the set. "local"
# (this machine, through NVML) is always known.
# targets:
#   - name: h100-pool
#     driver: "550.54.15"          # or cuda_driver: "12.4"; or a range: ">=535.54, <560"
#     gpus: ["H100"]               # or compute_capabilities: ["9.0"]
#   - name: b200-pool
#     cuda_driver: "12.8"
#     gpus: ["B200"]
#   - name: cpu-runner
#     driver: none                 # no NVIDIA driver: CUDA environments get EG404

# Which files a directory search picks, besides environment files found by
# name and by content: globs (** spans directories) relative to this file's
# directory. exclude wins; a file named on the command line is always read.
# include: ["ci/**/stack.yml"]
# exclude: ["vendor", "**/*.old.yml"]
`

func initCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a commented starter .envguard.yml in DIR (default: the working directory); never overwrites one",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			p := filepath.Join(dir, ConfigName)
			// O_EXCL: an existing file, or one created meanwhile, is never
			// overwritten.
			fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, fs.ErrExist) {
				return usageErr("%s already exists; envguard init never overwrites it (`envguard validate --show-config` shows what it sets)", p)
			}
			if err != nil {
				return usageErr("%v", err)
			}
			if _, err := fh.WriteString(starterConfig); err != nil {
				fh.Close()
				return err
			}
			if err := fh.Close(); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote %s\n", p)
			return nil
		},
	}
}
