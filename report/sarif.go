package report

import (
	"io"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/envguard/envguard/envspec"
)

// RuleDoc is what SARIF needs of a rule's documentation.
type RuleDoc struct {
	Code, Title, Help string
}

// WriteSARIF renders several reports as one SARIF 2.1.0 log (one run),
// the format GitHub code scanning and most CI dashboards ingest. go-sarif
// keeps the schema's shape so we do not hand-write it.
func WriteSARIF(w io.Writer, reports []*Report, rules []RuleDoc, version string) error {
	rep := sarif.NewReport()
	run := sarif.NewRunWithInformationURI("envguard", "https://github.com/envguard/envguard")
	run.Tool.Driver.WithVersion(version)
	// Columns come from yaml.v3, which counts characters; SARIF's default
	// unit is UTF-16 code units, which differ beyond the BMP.
	run.WithColumnKind("unicodeCodePoints")
	used := map[string]bool{}
	for _, r := range reports {
		for _, d := range r.diags {
			used[d.Code] = true
		}
	}
	for _, rd := range rules {
		if used[rd.Code] {
			run.AddRule(rd.Code).WithDescription(rd.Title).WithMarkdownHelp(rd.Help)
		}
	}
	for _, r := range reports {
		run.AddDistinctArtifact(r.File)
		for _, d := range r.diags {
			region := sarif.NewRegion().WithStartLine(max(d.Pos.Line, 1))
			if d.Pos.Col > 0 {
				region.WithStartColumn(d.Pos.Col)
				if d.EndCol > d.Pos.Col {
					region.WithEndColumn(d.EndCol)
				}
			}
			text := d.Message
			if d.Target != "" {
				text += " (target " + d.Target + ")"
			}
			if d.Hint != "" {
				text += " Hint: " + d.Hint
			}
			res := run.CreateResultForRule(d.Code).
				WithLevel(sarifLevel(d.Severity)).
				WithMessage(sarif.NewTextMessage(text)).
				WithLocations([]*sarif.Location{sarif.NewLocationWithPhysicalLocation(
					sarif.NewPhysicalLocation().
						WithArtifactLocation(sarif.NewSimpleArtifactLocation(r.File)).
						WithRegion(region))})
			// EG201 names two lines; viewers show the second as a link.
			for _, p := range d.Related {
				if p.Line < 1 {
					continue
				}
				rg := sarif.NewRegion().WithStartLine(p.Line)
				if p.Col > 0 {
					rg.WithStartColumn(p.Col)
				}
				res.AddRelatedLocation(sarif.NewLocationWithPhysicalLocation(
					sarif.NewPhysicalLocation().
						WithArtifactLocation(sarif.NewSimpleArtifactLocation(r.File)).
						WithRegion(rg)))
			}
		}
	}
	// Code scanning shows results, not verdicts: the verdict of each target
	// (ok, fail or unknown) travels in the run's property bag, so a
	// consumer never has to infer an ok from the absence of errors.
	var verdicts []map[string]string
	for _, r := range reports {
		for _, t := range r.Targets {
			verdicts = append(verdicts, map[string]string{"file": r.File, "target": t.Name, "verdict": string(t.Verdict)})
		}
	}
	if len(verdicts) > 0 {
		run.WithProperties(sarif.NewPropertyBag().Add("envguard/targets", verdicts))
	}
	rep.AddRun(run)
	return rep.PrettyWrite(w)
}

func sarifLevel(s envspec.Severity) string {
	switch s {
	case envspec.SeverityError:
		return "error"
	case envspec.SeverityWarning:
		return "warning"
	}
	return "note"
}
