package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/report"
)

// rulesMDRow is a row of a table in RULES.md: | EG201 | error | when |
var rulesMDRow = regexp.MustCompile(`^\|\s*(EG[0-9]{3})\s*\|\s*(error|warning|info)\s*\|`)

// rulesMDNext is a row of RULES.md's "Codes the next issues add":
// | EG211 | 20, 21 | error | when |. Such a code is in the contract
// already; its row moves to its family's table when it ships, which only
// the contract's owner can do, so the catalogue may hold it meanwhile.
var rulesMDNext = regexp.MustCompile(`^\|\s*(EG[0-9]{3})\s*\|\s*[0-9, ]+\|\s*(error|warning|info)\b`)

// TestCatalogMatchesRULESmd: RULES.md is the contract users write ignore
// comments and CI filters against; every code there must exist with the
// same default severity, and the catalogue may add only the suppression
// codes.
func TestCatalogMatchesRULESmd(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testshared.Dir(t, ""), "RULES.md"))
	if err != nil {
		t.Fatal(err)
	}
	contract, next := map[string]string{}, map[string]string{}
	for _, l := range strings.Split(string(src), "\n") {
		if m := rulesMDRow.FindStringSubmatch(l); m != nil {
			contract[m[1]] = m[2]
		} else if m := rulesMDNext.FindStringSubmatch(l); m != nil {
			next[m[1]] = m[2]
		}
	}
	if len(contract) < 40 {
		t.Fatalf("read only %d codes from RULES.md; has its table format changed?", len(contract))
	}
	for code, sev := range contract {
		if nsev, ok := next[code]; ok {
			// the next-issues table changes this code's severity ("info (from
			// warning)"): the catalogue follows the change
			sev = nsev
		}
		r := report.Lookup(code)
		if r == nil {
			t.Errorf("%s is in RULES.md but not in the catalogue", code)
			continue
		}
		if r.Severity.String() != sev {
			t.Errorf("%s: catalogue severity %s, RULES.md %s", code, r.Severity, sev)
		}
	}
	extra := map[string]bool{"EG113": true, "EG114": true}
	for _, r := range report.Catalog() {
		if _, ok := contract[r.Code]; ok || extra[r.Code] {
			continue
		}
		if sev, ok := next[r.Code]; ok {
			if r.Severity.String() != sev {
				t.Errorf("%s: catalogue severity %s, RULES.md's next-issues table %s", r.Code, r.Severity, sev)
			}
			continue
		}
		t.Errorf("%s is in the catalogue but not in RULES.md", r.Code)
	}
	for code := range extra {
		if report.Lookup(code) == nil {
			t.Errorf("%s (suppression) is missing from the catalogue", code)
		}
	}
}

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestRegistry(t *testing.T) {
	codes, names := map[string]bool{}, map[string]string{}
	prev := ""
	for _, r := range report.Catalog() {
		if !regexp.MustCompile(`^EG[1-5][0-9]{2}$`).MatchString(r.Code) {
			t.Errorf("code %q is not EG1xx…EG5xx", r.Code)
		}
		if codes[r.Code] {
			t.Errorf("%s registered twice", r.Code)
		}
		codes[r.Code] = true
		if r.Code < prev {
			t.Errorf("catalogue not sorted: %s after %s", r.Code, prev)
		}
		prev = r.Code
		if !kebab.MatchString(r.Name) {
			t.Errorf("%s: name %q is not kebab-case", r.Code, r.Name)
		}
		if other, ok := names[r.Name]; ok {
			t.Errorf("%s and %s share the name %q", other, r.Code, r.Name)
		}
		names[r.Name] = r.Code
		for field, v := range map[string]string{"Title": r.Title, "Why": r.Why, "Fix": r.Fix, "Since": r.Since} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: %s is empty", r.Code, field)
			}
		}
	}
}

// TestRulesDocFresh fails when docs/rules.md no longer matches the catalogue.
func TestRulesDocFresh(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := RulesMarkdown(report.Catalog()); string(got) != want {
		t.Errorf("docs/rules.md is stale; regenerate it with:\n\tgo run ./cmd/envguard rules --markdown > docs/rules.md")
	}
}

func TestRulesCommand(t *testing.T) {
	code, out, _ := egRun(t, "", "rules")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(report.Catalog()) {
		t.Errorf("%d lines for %d rules", len(lines), len(report.Catalog()))
	}
	for i, r := range report.Catalog() {
		if i < len(lines) && !strings.HasPrefix(lines[i], r.Code+"  "+r.Severity.String()) {
			t.Errorf("line %d = %q, want %s %s …", i+1, lines[i], r.Code, r.Severity)
		}
	}

	code, out, _ = egRun(t, "", "rules", "eg201")
	r := report.Lookup("EG201")
	if code != 0 || !strings.HasPrefix(out, "EG201 "+r.Name) || !strings.Contains(out, r.Title) ||
		!strings.Contains(out, "How to fix:") || !strings.Contains(out, "# envguard: ignore EG201") {
		t.Errorf("rules EG201: exit %d\n%s", code, out)
	}

	code, out, errs := egRun(t, "", "rules", "EG999")
	if code != 2 || out != "" || !strings.Contains(errs, `no rule "EG999"`) {
		t.Errorf("unknown code: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, _ := egRun(t, "", "rules", "EG201", "EG202"); code != 2 {
		t.Errorf("two codes: exit %d, want 2", code)
	}

	code, out, _ = egRun(t, "", "rules", "--json")
	var rules []RuleJSON
	if err := json.Unmarshal([]byte(out), &rules); err != nil || code != 0 {
		t.Fatalf("rules --json: exit %d, %v", code, err)
	}
	if len(rules) != len(report.Catalog()) || rules[0].Code != report.Catalog()[0].Code {
		t.Errorf("rules --json: %d rules", len(rules))
	}
	code, out, _ = egRun(t, "", "rules", "--json", "EG113")
	if err := json.Unmarshal([]byte(out), &rules); err != nil || code != 0 || len(rules) != 1 || rules[0].Code != "EG113" {
		t.Errorf("rules --json EG113: exit %d, %v, %+v", code, err, rules)
	}
}
