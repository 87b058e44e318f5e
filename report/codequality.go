package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/envguard/envguard/finding"
)

// A codeQualityIssue is one entry of a GitLab code quality report, the
// subset of the Code Climate issue format that GitLab reads:
// https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format
type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string `json:"path"`
	Lines struct {
		Begin int `json:"begin"`
	} `json:"lines"`
}

// WriteCodeQuality renders several reports as one GitLab code quality
// report: a JSON array with an issue per finding, which GitLab shows in the
// merge request widget when a job names it in artifacts:reports:codequality.
func WriteCodeQuality(w io.Writer, reports []*Report) error {
	issues := []codeQualityIssue{}
	seen := map[string]bool{}
	for _, r := range reports {
		for _, d := range r.diags {
			is := codeQualityIssue{
				Description: d.Code + " " + d.Message,
				CheckName:   d.Code,
				Severity:    codeQualitySeverity(d.Severity),
			}
			if d.Target != "" {
				is.Description += " (target " + d.Target + ")"
			}
			if d.Hint != "" {
				is.Description += "; hint: " + d.Hint
			}
			// GitLab wants a path relative to the repository, with forward
			// slashes; envguard reports the names it was given.
			is.Location.Path = filepath.ToSlash(d.Pos.File)
			// A finding about the whole file has no line; GitLab requires
			// one, and line 1 is where the file starts.
			is.Location.Lines.Begin = max(d.Pos.Line, 1)
			// GitLab keeps one issue per fingerprint, so it must tell apart
			// every finding: the same code can apply on several lines, and to
			// several targets on one line.
			sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%s\x00%d\x00%d\x00%s",
				is.Location.Path, d.Code, d.Target, d.Pos.Line, d.Pos.Col, d.Message))
			is.Fingerprint = hex.EncodeToString(sum[:16])
			if seen[is.Fingerprint] {
				continue
			}
			seen[is.Fingerprint] = true
			issues = append(issues, is)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}

// codeQualitySeverity maps envguard's three severities onto GitLab's five
// (info, minor, major, critical, blocker): an error stops the job, so it
// ranks major; a warning is minor; a note is info.
func codeQualitySeverity(s finding.Severity) string {
	switch s {
	case finding.SeverityError:
		return "major"
	case finding.SeverityWarning:
		return "minor"
	}
	return "info"
}
