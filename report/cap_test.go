package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/envguard/envguard/finding"
)

// A file with 40,000 copies of one package gets a report of bounded size,
// quickly, with the same verdict.
func TestFindingsCappedPerCode(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: big\nchannels: [conda-forge]\ndependencies:\n")
	for i := 0; i < 40000; i++ {
		b.WriteString("  - p\n")
	}
	start := time.Now()
	// The item budget (TestItemBudget) would stop at 10,000 items; this
	// test is about the cap per code, so it lifts the budget.
	r := Validate("big.yml", []byte(b.String()), Options{Budget: Budget{MaxItems: 50000}})
	took := time.Since(start)
	n106, summary := 0, ""
	for _, f := range r.Findings {
		if f.Code == "EG106" {
			n106++
			if strings.Contains(f.Message, "left out") {
				summary = f.Message
			}
		}
	}
	if n106 != maxPerCode+1 {
		t.Errorf("%d EG106 findings, want %d listed and one summary", n106, maxPerCode+1)
	}
	if want := fmt.Sprintf("%d more EG106 findings", 39999-maxPerCode); !strings.Contains(summary, want) {
		t.Errorf("summary %q does not say %q", summary, want)
	}
	if r.ExitCode(FailOn{Severity: finding.SeverityWarning}) != 1 {
		t.Error("the verdict changed")
	}
	if len(r.JSON()) > 200_000 {
		t.Errorf("report of %d bytes", len(r.JSON()))
	}
	t.Logf("40,000 duplicate dependencies: %v", took)
}

func TestCapKeepsWorstSeverity(t *testing.T) {
	var ds finding.Diagnostics
	for i := 0; i < 5; i++ {
		sev := finding.SeverityWarning
		if i == 4 {
			sev = finding.SeverityError
		}
		ds = append(ds, finding.Diagnostic{Pos: finding.Pos{Line: i + 1}, Code: "EG106", Severity: sev, Message: "m"})
	}
	out := capPerCode(ds, 2)
	if len(out) != 3 || out[2].Severity != finding.SeverityError || !strings.HasPrefix(out[2].Message, "3 more EG106") {
		t.Errorf("got %v", out)
	}
}
