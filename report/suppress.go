package report

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// suppressor returns the ignore comment that silences d: one on the
// finding's own line, or on a line the finding names as related (EG201
// involves two lines, and either may carry the comment).
func suppressor(env *envspec.Env, d finding.Diagnostic) *envspec.Ignore {
	for _, ig := range env.Ignores {
		if !covers(ig, d.Code) {
			continue
		}
		if ig.Pos.Line == d.Pos.Line {
			return ig
		}
		for _, p := range d.Related {
			if ig.Pos.Line == p.Line {
				return ig
			}
		}
	}
	return nil
}

// ignoreFindings reports ignore comments without a reason (EG113) and those
// that silenced nothing (EG114). Machine codes (EG4xx) only count as unused
// when a machine was checked: an ignore for EG401 in a file validated with no
// target has had no chance to work. Nor has one for a code the project
// turned off.
func ignoreFindings(env *envspec.Env, machinesChecked bool, cfg *Config) finding.Diagnostics {
	var ds finding.Diagnostics
	for _, ig := range env.Ignores {
		if len(ig.Codes) > 0 && strings.TrimSpace(ig.Reason) == "" {
			ds = append(ds, finding.Diagnostic{
				Pos: ig.Pos, Severity: finding.SeverityWarning, Code: "EG113",
				Message: fmt.Sprintf("ignore comment for %s gives no reason", strings.Join(ig.Codes, ",")),
				Hint:    "say why the finding does not apply: # envguard: ignore " + strings.Join(ig.Codes, ",") + " <reason>",
			})
		}
		if ig.Used || len(ig.Codes) == 0 {
			continue
		}
		var unused []string
		for _, c := range ig.Codes {
			if strings.HasPrefix(c, "EG4") && !machinesChecked {
				continue
			}
			if cfg != nil && cfg.Off[c] {
				continue
			}
			unused = append(unused, c)
		}
		if len(unused) == 0 {
			continue
		}
		ds = append(ds, finding.Diagnostic{
			Pos: ig.Pos, Severity: finding.SeverityWarning, Code: "EG114",
			Message: fmt.Sprintf("ignore comment for %s silenced nothing on this line", strings.Join(unused, ",")),
			Hint:    "remove the comment, or move it to the line the finding points at",
		})
	}
	return ds
}

func covers(ig *envspec.Ignore, code string) bool {
	for _, c := range ig.Codes {
		if c == code {
			return true
		}
	}
	return false
}
