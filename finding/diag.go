package finding

import (
	"fmt"
	"sort"
	"strings"
)

// Severity orders findings; a higher value is worse.
type Severity int

const (
	SeverityInfo Severity = iota
	SeverityWarning
	SeverityError
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	default:
		return "info"
	}
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return SeverityError, nil
	case "warning", "warn":
		return SeverityWarning, nil
	case "info":
		return SeverityInfo, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// MarshalText makes severities read as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText is the inverse of MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Diagnostic is one finding: a rule code at a position, with a message that
// says what is wrong and a hint that says how to fix it.
type Diagnostic struct {
	Pos      Pos
	EndCol   int // column just past the offending part; 0 when unknown
	Severity Severity
	Code     string // EGxxx, fixed by RULES.md
	Message  string
	Hint     string
	// Related are other places the finding involves (the second of two
	// disagreeing lines, say).
	Related []Pos
	// Target names the machine an EG4xx finding is about ("" otherwise).
	Target string
	// Edits are the fix, where the rule is fixable and the fix is certain:
	// all of them are applied or none (envguard fix, SARIF fixes, /v1/fix).
	Edits []Edit
	// Uninstallable marks a file finding that says conda or pip cannot
	// create the environment as written (EG205's cases): every target
	// fails on it while it stays an error.
	Uninstallable bool
}

// Error renders file:line:col: message [CODE], like a compiler.
func (d Diagnostic) Error() string {
	if d.Target != "" {
		return fmt.Sprintf("%s: %s (target %s) [%s]", d.Pos, d.Message, d.Target, d.Code)
	}
	return fmt.Sprintf("%s: %s [%s]", d.Pos, d.Message, d.Code)
}

// Diagnostics is a list of findings.
type Diagnostics []Diagnostic

// Sort orders by file, line, column, code and message, and removes exact
// duplicates (the same code and message at the same place).
func (ds *Diagnostics) Sort() {
	s := *ds
	sort.SliceStable(s, func(i, j int) bool {
		a, b := &s[i], &s[j] // a Diagnostic is too large to copy per comparison
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		return a.Message < b.Message
	})
	out := s[:0]
	for i, d := range s {
		if i > 0 {
			p := out[len(out)-1]
			if p.Pos == d.Pos && p.Code == d.Code && p.Message == d.Message && p.Target == d.Target {
				continue
			}
		}
		out = append(out, d)
	}
	*ds = out
}

// Err returns nil when the list holds no error-severity finding.
func (ds Diagnostics) Err() error {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return ds
		}
	}
	return nil
}

// Error joins the findings one per line.
func (ds Diagnostics) Error() string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.Error())
	}
	return b.String()
}

// Count returns how many findings have each severity.
func (ds Diagnostics) Count() (errors, warnings, infos int) {
	for _, d := range ds {
		switch d.Severity {
		case SeverityError:
			errors++
		case SeverityWarning:
			warnings++
		default:
			infos++
		}
	}
	return
}
