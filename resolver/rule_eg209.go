package resolver

import (
	"fmt"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// ruleEG209 reports conda companions taken from another channel than the
// framework; channels are resolved as resolveChannel documents.
var ruleEG209 = &Rule{
	Rule: finding.Rule{
		Code:     "EG209",
		Name:     "companion-channel-mismatch",
		Severity: finding.SeverityWarning,
		Title:    "the framework and its companions come from different channels",
		Why: "Channels build torch and its companions against their own dependencies (CUDA packages, ffmpeg, " +
			"libjpeg, the torch build itself). A torchvision from the pytorch channel on a conda-forge pytorch " +
			"drags in a second torch or fails to load its operators.",
		Fix:    "Take the framework and its companions from one channel.",
		Before: "channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.1.2\n  - pytorch::torchvision=0.16.2\n",
		After:  "channels:\n  - conda-forge\ndependencies:\n  - pytorch=2.1.2\n  - torchvision=0.16.2\n",
		Since:  "0.1.0",
	},
	run: runEG209,
}

func runEG209(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Framework.From != envspec.ProviderConda || st.Framework.Channel == "" {
		return nil
	}
	f := st.Framework
	var out []finding.Diagnostic
	for _, p := range st.Companions {
		if p.From != envspec.ProviderConda || p.Channel == "" || p.Channel == f.Channel {
			continue
		}
		msg := fmt.Sprintf("%s%s comes from %s%s but %s%s comes from %s%s", p.Item, at(p.Pos), p.Channel, why(p.ChannelWhy), f.Item, at(f.Pos), f.Channel, why(f.ChannelWhy))
		hint := fmt.Sprintf("take %s and %s from one channel (%s::%s)", p.Name, f.Name, f.Channel, p.Name)
		out = append(out, newFinding(c.rule, p.Pos, 0, msg, hint, f.Pos))
	}
	return out
}

func why(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}
