package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/envguard/envguard/internal/sarifschema"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver/kb"
)

// formatCase validates testdata/format/<name>.yml, held against every target
// of <name>.targets.yml when that file exists.
func formatCase(t *testing.T, name string) *Report {
	t.Helper()
	dir := filepath.Join("testdata", "format")
	src, err := os.ReadFile(filepath.Join(dir, name+".yml"))
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Platform: "linux-64"}
	if tsrc, err := os.ReadFile(filepath.Join(dir, name+".targets.yml")); err == nil {
		ts, err := gpucheck.ParseTargets(name+".targets.yml", tsrc)
		if err != nil {
			t.Fatal(err)
		}
		m := &Machines{Targets: ts}
		var names []string
		for _, tg := range ts {
			names = append(names, tg.Name)
		}
		if opt.Hosts, err = m.Resolve(names); err != nil {
			t.Fatal(err)
		}
	}
	// The bare file name keeps the goldens independent of where tests run.
	return Validate(name+".yml", src, opt)
}

func testRuleDocs() []RuleDoc {
	var docs []RuleDoc
	for _, r := range Catalog() {
		docs = append(docs, RuleDoc{Code: r.Code, Title: r.Title, Help: r.Why})
	}
	return docs
}

func formatCases(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "format", "*.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".yml")
		if strings.HasSuffix(base, ".targets") {
			continue
		}
		cases = append(cases, base)
	}
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/format")
	}
	return cases
}

func TestFormatGolden(t *testing.T) {
	for _, name := range formatCases(t) {
		t.Run(name, func(t *testing.T) {
			r := formatCase(t, name)
			base := filepath.Join("testdata", "format", name)

			golden.Check(t, base+".json", stableKB(t, r.JSON()))

			var txt bytes.Buffer
			if err := r.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, base+".txt", txt.Bytes())

			var gh bytes.Buffer
			if err := r.WriteGitHub(&gh); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, base+".github", gh.Bytes())

			var sf bytes.Buffer
			if err := WriteSARIF(&sf, []*Report{r}, testRuleDocs(), "test"); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, base+".sarif", stableKB(t, sf.Bytes()))
			validateSARIF(t, sf.Bytes())
		})
	}
}

// stableKB writes the embedded KB's version, a digest of its data files,
// as "(embedded version)": the goldens then change with the format, not
// with every row added to the data (TestReportNamesKB checks the value).
func stableKB(t *testing.T, b []byte) []byte {
	t.Helper()
	v := []byte(`"version": "` + kb.Default().Version() + `"`)
	if !bytes.Contains(b, v) {
		t.Errorf("no %s in:\n%s", v, b)
	}
	return bytes.ReplaceAll(b, v, []byte(`"version": "(embedded version)"`))
}

// validateSARIF checks a log, byte for byte as written, against the SARIF
// 2.1.0 schema, and that it carries none of the filler go-sarif's
// constructors add (-1 offsets and indexes, empty arrays).
func validateSARIF(t *testing.T, b []byte) {
	t.Helper()
	if err := sarifschema.Validate(b); err != nil {
		t.Errorf("SARIF fails the 2.1.0 schema: %v", err)
	}
	if bytes.Contains(b, []byte(": -1")) || bytes.Contains(b, []byte(": []")) && !bytes.Contains(b, []byte(`"results": []`)) {
		t.Errorf("SARIF has filler (-1 or an empty array):\n%s", b)
	}
}

// TestSARIFMany checks what the goldens cannot: several reports in one run,
// rules listed once each and only when used, every result pointing at a
// listed rule and at its own file.
func TestSARIFMany(t *testing.T) {
	a := formatCase(t, "mixed")
	b := formatCase(t, "target")
	c := formatCase(t, "clean")
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, []*Report{a, b, c}, testRuleDocs(), "9.9.9"); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, buf.Bytes())
	log, err := sarif.FromBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("runs = %d, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	if v := run.Tool.Driver.Version; v == nil || *v != "9.9.9" {
		t.Errorf("driver version = %v, want 9.9.9", v)
	}
	rules := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		if rules[*r.ID] {
			t.Errorf("rule %s listed twice", *r.ID)
		}
		rules[*r.ID] = true
	}
	want := len(a.Findings) + len(b.Findings) + len(c.Findings)
	if len(run.Results) != want {
		t.Fatalf("results = %d, want %d", len(run.Results), want)
	}
	files := map[string]int{}
	related := 0
	for _, res := range run.Results {
		for _, rl := range res.RelatedLocations {
			related++
			if rl.PhysicalLocation.Region.StartLine == nil || *rl.PhysicalLocation.Region.StartLine < 1 {
				t.Errorf("%s: related location without a line", *res.RuleID)
			}
		}
		if !rules[*res.RuleID] {
			t.Errorf("result for %s, which the rules list lacks", *res.RuleID)
		}
		files[*res.Locations[0].PhysicalLocation.ArtifactLocation.URI]++
	}
	if files["mixed.yml"] != len(a.Findings) || files["target.yml"] != len(b.Findings) {
		t.Errorf("results per file = %v, want mixed.yml:%d target.yml:%d", files, len(a.Findings), len(b.Findings))
	}
	wantRelated := 0
	for _, f := range a.Findings {
		wantRelated += len(f.Related)
	}
	if wantRelated == 0 || related != wantRelated {
		t.Errorf("related locations = %d, want %d (and some)", related, wantRelated)
	}
	used := map[string]bool{}
	for _, r := range []*Report{a, b} {
		for _, f := range r.Findings {
			used[f.Code] = true
		}
	}
	for code := range rules {
		if !used[code] {
			t.Errorf("rule %s listed but no result uses it", code)
		}
	}
}

func TestCaret(t *testing.T) {
	for _, tc := range []struct {
		line     string
		col, end int
		want     string
	}{
		{"  - numpy", 5, 10, "    ^~~~~"},
		{"  - numpy", 5, 0, "    ^"},
		{"  - numpy", 5, 5, "    ^"},
		{"  - numpy", 0, 3, ""},
		// Columns count characters: ÿ is two bytes, one column.
		{"a: [ÿÿ, x_y]", 9, 12, "        ^~~"},
		// Past the end of the line: clamp, never panic.
		{"ab", 9, 20, "  ^"},
		{"abc", 2, 99, " ^~"},
		{"", 1, 5, "^"},
	} {
		if got := caret(tc.line, tc.col, tc.end); got != tc.want {
			t.Errorf("caret(%q, %d, %d) = %q, want %q", tc.line, tc.col, tc.end, got, tc.want)
		}
	}
}

func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"a%b", "a%25b", "a%25b"},
		{"x\ny\r", "x%0Ay%0D", "x%0Ay%0D"},
		{"f:1,2", "f:1,2", "f%3A1%2C2"},
	} {
		if got := ghData(tc.in); got != tc.data {
			t.Errorf("ghData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := ghProp(tc.in); got != tc.prop {
			t.Errorf("ghProp(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}

// TestTextMatchesFindings ties the text format to the report: one header
// line per finding, in the report's order, and the summary counts.
func TestTextMatchesFindings(t *testing.T) {
	for _, name := range formatCases(t) {
		r := formatCase(t, name)
		var b bytes.Buffer
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		var heads []string
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, name+".yml:") && strings.Contains(l, " EG") {
				heads = append(heads, l)
			}
		}
		if len(heads) != len(r.Findings) {
			t.Errorf("%s: %d finding lines, %d findings\n%s", name, len(heads), len(r.Findings), b.String())
			continue
		}
		for i, f := range r.Findings {
			if !strings.Contains(heads[i], " "+f.Severity+" "+f.Code+" ") {
				t.Errorf("%s: line %q, want %s %s", name, heads[i], f.Severity, f.Code)
			}
		}
		e, w, n := r.Diagnostics().Count()
		if r.Summary.Errors != e || r.Summary.Warnings != w || r.Summary.Info != n {
			t.Errorf("%s: summary %+v, diagnostics count %d/%d/%d", name, r.Summary, e, w, n)
		}
	}
}

// TestSARIFValidatorBites makes sure the schema check above can fail: a log
// with a level the schema does not allow must be rejected.
func TestSARIFValidatorBites(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, []*Report{formatCase(t, "mixed")}, testRuleDocs(), "test"); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(buf.Bytes(), []byte(`"level": "error"`), []byte(`"level": "fatal"`), 1)
	if bytes.Equal(bad, buf.Bytes()) {
		t.Fatal("no error-level result to corrupt")
	}
	if err := sarifschema.Validate(bad); err == nil {
		t.Error("schema validation accepted level \"fatal\"")
	}
}
