package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

func TestCodeQualityGolden(t *testing.T) {
	for _, name := range formatCases(t) {
		t.Run(name, func(t *testing.T) {
			r := formatCase(t, name)
			var b bytes.Buffer
			if err := WriteCodeQuality(&b, []*Report{r}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "format", name+".codequality"), b.Bytes())
			if n := len(checkCodeQuality(t, b.Bytes())); n != len(r.diags) {
				t.Errorf("%d issues for %d findings", n, len(r.diags))
			}
		})
	}
}

// TestCodeQualityMany checks what the goldens cannot: several files in one
// report, every issue on its own file, fingerprints unique across files.
func TestCodeQualityMany(t *testing.T) {
	reports := []*Report{formatCase(t, "mixed"), formatCase(t, "target"), formatCase(t, "clean")}
	var b bytes.Buffer
	if err := WriteCodeQuality(&b, reports); err != nil {
		t.Fatal(err)
	}
	issues := checkCodeQuality(t, b.Bytes())
	want := map[string]int{}
	for _, r := range reports {
		for _, d := range r.diags {
			want[d.Pos.File]++
		}
	}
	got := map[string]int{}
	for _, is := range issues {
		got[is.Location.Path]++
	}
	if len(got) != len(want) {
		t.Errorf("issues on %v, findings on %v", got, want)
	}
	for f, n := range want {
		if got[f] != n {
			t.Errorf("%s: %d issues, %d findings", f, got[f], n)
		}
	}
}

// TestCodeQualityEmpty: a clean run is an empty array, which GitLab reads
// as "no issues"; null would not be a report.
func TestCodeQualityEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCodeQuality(&b, nil); err != nil {
		t.Fatal(err)
	}
	if b.String() != "[]\n" {
		t.Errorf("got %q, want []", b.String())
	}
}

// checkCodeQuality decodes a report and checks what GitLab requires of each
// issue: a description, a check name, a fingerprint unique in the report,
// one of its five severities, a path and a first line.
func checkCodeQuality(t *testing.T, b []byte) []codeQualityIssue {
	t.Helper()
	var issues []codeQualityIssue
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&issues); err != nil {
		t.Fatalf("not a code quality report: %v\n%s", err, b)
	}
	seen := map[string]bool{}
	for i, is := range issues {
		switch {
		case is.Description == "", is.CheckName == "", is.Location.Path == "":
			t.Errorf("issue %d lacks a description, check name or path: %+v", i, is)
		case is.Location.Lines.Begin < 1:
			t.Errorf("issue %d: lines.begin %d", i, is.Location.Lines.Begin)
		case len(is.Fingerprint) != 32 || seen[is.Fingerprint]:
			t.Errorf("issue %d: fingerprint %q missing, malformed or repeated", i, is.Fingerprint)
		}
		seen[is.Fingerprint] = true
		switch is.Severity {
		case "info", "minor", "major", "critical", "blocker":
		default:
			t.Errorf("issue %d: severity %q is not one of GitLab's", i, is.Severity)
		}
	}
	return issues
}
