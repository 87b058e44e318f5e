package cli

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/envspec"
)

// specJSON is `envguard spec --json`: absent parts are null.
type specJSON struct {
	Spec    string            `json:"spec"`
	Channel *string           `json:"channel"`
	Subdir  *string           `json:"subdir"`
	Name    string            `json:"name"`
	Version *string           `json:"version"`
	Build   *string           `json:"build"`
	Keys    map[string]string `json:"keys,omitempty"`
	Matches map[string]bool   `json:"matches"`
	// Issues are what validate reports as EG103 for this spec.
	Issues []specIssueJSON `json:"issues,omitempty"`
}

type specIssueJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	Fixed   string `json:"fixed,omitempty"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func specCmd(e *env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "spec SPEC [VERSION...]",
		Short: "Show how a conda MatchSpec reads, and which versions it admits",
		Example: "  envguard spec 'pytorch>=1.12,<2' 1.13.1 2.0.0\n" +
			"  envguard spec --json 'pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0'",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			m, err := envspec.ParseMatchSpec(args[0])
			if err != nil {
				return usageErr("invalid MatchSpec %q: %v", args[0], err)
			}
			out := specJSON{
				Spec: args[0], Channel: optional(m.Channel), Subdir: optional(m.Subdir), Name: m.Name,
				Version: optional(m.VersionString()), Build: optional(m.BuildString()),
				Matches: map[string]bool{},
			}
			extra := map[string]string{}
			for k, v := range m.Keys {
				if k != "version" && k != "build" {
					extra[k] = v
				}
			}
			if len(extra) > 0 {
				out.Keys = extra
			}
			for _, v := range args[1:] {
				if _, err := envspec.ParseVersion(v); err != nil {
					return usageErr("version %q: %v", v, err)
				}
				out.Matches[v] = m.Admits(v)
			}
			for _, is := range m.Issues {
				j := specIssueJSON{Code: envspec.RuleEG103.Code, Message: is.Msg, Hint: is.Hint}
				if f := is.Fix; f != nil && f.End <= len(args[0]) {
					j.Fixed = args[0][:f.Start] + f.New + args[0][f.End:]
				}
				out.Issues = append(out.Issues, j)
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if err := enc.Encode(out); err != nil {
					return err
				}
				if len(out.Issues) > 0 {
					return errFindings
				}
				return nil
			}
			show := func(label string, p *string) {
				v := "(any)"
				if p != nil {
					v = *p
				}
				fmt.Fprintf(e.stdout, "%-8s %s\n", label+":", v)
			}
			fmt.Fprintf(e.stdout, "%-8s %s\n", "spec:", args[0])
			show("channel", out.Channel)
			show("subdir", out.Subdir)
			fmt.Fprintf(e.stdout, "%-8s %s\n", "name:", out.Name)
			show("version", out.Version)
			show("build", out.Build)
			if len(extra) > 0 {
				var ks []string
				for k, v := range extra {
					ks = append(ks, k+"="+v)
				}
				sort.Strings(ks)
				fmt.Fprintf(e.stdout, "%-8s %s\n", "keys:", strings.Join(ks, ", "))
			}
			for _, v := range args[1:] {
				verdict := "no"
				if out.Matches[v] {
					verdict = "yes"
				}
				fmt.Fprintf(e.stdout, "admits %s: %s\n", v, verdict)
			}
			// the spec reads as conda reads it, and says what validate says
			// of it (EG103), with the same exit code
			for _, is := range out.Issues {
				fmt.Fprintf(e.stdout, "%s %s %s\n", envspec.RuleEG103.Severity, is.Code, is.Message)
				if is.Hint != "" {
					fmt.Fprintf(e.stdout, "  = hint: %s\n", is.Hint)
				}
				if is.Fixed != "" {
					fmt.Fprintf(e.stdout, "  = fixed: %s\n", is.Fixed)
				}
			}
			if len(out.Issues) > 0 {
				return errFindings
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
