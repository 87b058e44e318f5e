package report

import (
	"encoding/json"
	"io"

	"github.com/envguard/envguard/finding"
)

// RuleDoc is what SARIF needs of a rule's documentation: its title, and its
// help as plain text (shown by viewers without Markdown) and as Markdown.
type RuleDoc struct {
	Code, Title, Help, HelpText string
}

// The SARIF 2.1.0 subset envguard writes. The log is written from these
// types rather than go-sarif's, whose constructors fill every optional
// property with -1 or [] ("byteOffset": -1, "addresses": []): noise in
// the file, and a -1 region is an invalid location to some consumers.
// Every field here is set or left out. The tests still check each log
// against the 2.1.0 schema through go-sarif.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool       `json:"tool"`
		Artifacts  []sarifArtifact `json:"artifacts,omitempty"`
		ColumnKind string          `json:"columnKind"`
		Results    []sarifResult   `json:"results"` // required, even when empty
		Properties map[string]any  `json:"properties,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules,omitempty"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		ShortDescription sarifMessage `json:"shortDescription"`
		Help             *sarifHelp   `json:"help,omitempty"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifArtifact struct {
		Location sarifArtifactLocation `json:"location"`
	}
	sarifArtifactLocation struct {
		URI string `json:"uri"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        *int            `json:"ruleIndex,omitempty"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		Fixes            []sarifFix      `json:"fixes,omitempty"`
	}
	// A fix is the finding's edits, the same envguard fix applies.
	sarifFix struct {
		Description     sarifMessage          `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Replacements     []sarifReplacement    `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifSpan     `json:"deletedRegion"`
		InsertedContent *sarifContent `json:"insertedContent,omitempty"`
	}
	// sarifSpan is a region with both ends; start = end is an insertion point.
	sarifSpan struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
	sarifContent struct {
		Text string `json:"text"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           sarifRegion           `json:"region"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

// WriteSARIF renders several reports as one SARIF 2.1.0 log (one run),
// the format GitHub code scanning and most CI dashboards ingest. Rules are
// listed once each, and only those some result uses.
func WriteSARIF(w io.Writer, reports []*Report, rules []RuleDoc, version string) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "envguard", Version: version, InformationURI: "https://github.com/envguard/envguard"}},
		// Columns come from yaml.v3, which counts characters; SARIF's
		// default unit is UTF-16 code units, which differ beyond the BMP.
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	used := map[string]bool{}
	for _, r := range reports {
		for _, d := range r.diags {
			used[d.Code] = true
		}
	}
	index := map[string]int{}
	for _, rd := range rules {
		if !used[rd.Code] || rd.Code == "" {
			continue
		}
		if _, dup := index[rd.Code]; dup {
			continue
		}
		rule := sarifRule{ID: rd.Code, ShortDescription: sarifMessage{rd.Title}}
		if rd.HelpText != "" || rd.Help != "" {
			text := rd.HelpText
			if text == "" {
				text = rd.Title
			}
			rule.Help = &sarifHelp{Text: text, Markdown: rd.Help}
		}
		index[rd.Code] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule)
	}
	seen := map[string]bool{}
	for _, r := range reports {
		if !seen[r.File] {
			seen[r.File] = true
			run.Artifacts = append(run.Artifacts, sarifArtifact{sarifArtifactLocation{r.File}})
		}
		for _, d := range r.diags {
			region := sarifRegion{StartLine: max(d.Pos.Line, 1)}
			if d.Pos.Col > 0 {
				region.StartColumn = d.Pos.Col
				if d.EndCol > d.Pos.Col {
					region.EndColumn = d.EndCol
				}
			}
			text := d.Message
			if d.Target != "" {
				text += " (target " + d.Target + ")"
			}
			if d.Hint != "" {
				text += " Hint: " + d.Hint
			}
			res := sarifResult{
				RuleID: d.Code, Level: sarifLevel(d.Severity), Message: sarifMessage{text},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{sarifArtifactLocation{r.File}, region}}},
			}
			if i, ok := index[d.Code]; ok {
				res.RuleIndex = &i
			}
			if fx := sarifFixOf(r.File, d); fx != nil {
				res.Fixes = []sarifFix{*fx}
			}
			// EG201 names two lines; viewers show the second as a link.
			for _, p := range d.Related {
				if p.Line < 1 {
					continue
				}
				res.RelatedLocations = append(res.RelatedLocations, sarifLocation{PhysicalLocation: sarifPhysicalLocation{
					sarifArtifactLocation{r.File}, sarifRegion{StartLine: p.Line, StartColumn: max(p.Col, 0)}}})
			}
			run.Results = append(run.Results, res)
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
		run.Properties = map[string]any{"envguard/targets": verdicts}
	}
	// The knowledge the results rest on (one KB serves a whole run).
	if len(reports) > 0 && reports[0].KB != nil {
		if run.Properties == nil {
			run.Properties = map[string]any{}
		}
		run.Properties["envguard/kb"] = reports[0].KB
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{
		Schema:  "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/main/sarif-2.1/schema/sarif-schema-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

// sarifLevel maps a severity to SARIF's level; SARIF's own word for info is
// "note", which its schema requires.
func sarifLevel(s finding.Severity) string {
	switch s {
	case finding.SeverityError:
		return "error"
	case finding.SeverityWarning:
		return "warning"
	}
	return "note"
}

// sarifFixOf is a finding's edits as a SARIF fix: one artifactChange whose
// replacements delete a region (by line and column, in code points like
// every region of the log) and insert text; nil when the finding has none.
func sarifFixOf(file string, d finding.Diagnostic) *sarifFix {
	if len(d.Edits) == 0 {
		return nil
	}
	change := sarifArtifactChange{ArtifactLocation: sarifArtifactLocation{file}}
	for _, e := range d.Edits {
		rp := sarifReplacement{DeletedRegion: sarifSpan{e.Pos.Line, e.Pos.Col, e.EndPos.Line, e.EndPos.Col}}
		if e.New != "" {
			rp.InsertedContent = &sarifContent{e.New}
		}
		change.Replacements = append(change.Replacements, rp)
	}
	how := "envguard fix applies it"
	if r := Lookup(d.Code); r != nil && r.Fixable == finding.FixUnsafe {
		how = "unsafe, it changes what gets installed: envguard fix --unsafe applies it"
	}
	text := how
	if d.Hint != "" {
		text = d.Hint + " (" + how + ")"
	}
	return &sarifFix{Description: sarifMessage{text}, ArtifactChanges: []sarifArtifactChange{change}}
}
