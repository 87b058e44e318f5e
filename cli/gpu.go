package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/gpucheck"
)

func gpuCmd(e *env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "gpu",
		Short: "Show what NVML sees: driver, CUDA version, GPUs (honours CUDA_VISIBLE_DEVICES)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			h := e.localHost()
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(h)
			}
			return gpucheck.WriteTable(e.stdout, h)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
