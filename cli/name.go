package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/report"
)

func nameCmd(e *env) *cobra.Command {
	var platform string
	c := &cobra.Command{
		Use:   "name FILE",
		Short: "Print the environment's canonical name (pt20_cu118), or say why there is none",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			k, err := e.knowledge()
			if err != nil {
				return err
			}
			src, err := e.readInput(args[0])
			if err != nil {
				return usageErr("%v", err)
			}
			r := report.Validate(args[0], src, report.Options{Platform: platform, KB: k})
			// A file that could not be read has no framework for a
			// reason more useful than "no framework".
			for _, f := range r.Findings {
				if f.Code == "EG100" || f.Code == "EG101" {
					return usageErr("%s:%d: no canonical name: %s [%s]", r.File, f.Line, f.Message, f.Code)
				}
			}
			if r.Name.Canonical == "" {
				return usageErr("%s: no canonical name: %s", args[0], r.Name.Reason)
			}
			fmt.Fprintln(e.stdout, r.Name.Canonical)
			return nil
		},
	}
	c.Flags().StringVar(&platform, "platform", "", "conda subdir to evaluate selectors for")
	return c
}
