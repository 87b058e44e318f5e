package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestDocumentNamedAsInput (review forty-five F8, F25: the corpus's
// README.md and MANIFEST.tsv named on the command line): YAML cannot read
// them, and the findings say the file is no environment rather than ask
// for its "error" to be fixed. An environment file with the same error
// is one conda cannot read either: its targets fail on it.
func TestDocumentNamedAsInput(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100"})
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("# Corpus\n\nEach file: kept **verbatim**: do not fix it\n")
	for _, tt := range []struct{ file, want string }{
		{"README.md", "README.md is a Markdown document, not an environment file"},
		{"MANIFEST.tsv", "MANIFEST.tsv is a table (.tsv), not an environment file"},
	} {
		r := Validate(tt.file, src, Options{Platform: "linux-64", Hosts: hosts})
		found := false
		for _, d := range r.Diagnostics() {
			if d.Code == "EG409" {
				found = true
				if !strings.Contains(d.Message, tt.want) {
					t.Errorf("%s: %s", tt.file, d.Message)
				}
				if doc := tt.file != "environment.yml"; doc == strings.Contains(d.Hint, "fix the error") {
					t.Errorf("%s: hint %q", tt.file, d.Hint)
				}
			}
		}
		if !found || r.Targets[0].Verdict != gpucheck.VerdictUnknown {
			t.Errorf("%s: no EG409, or verdict %s", tt.file, r.Targets[0].Verdict)
		}
	}
	r := Validate("environment.yml", src, Options{Platform: "linux-64", Hosts: hosts})
	if tr := r.Targets[0]; tr.Verdict != gpucheck.VerdictFail || !strings.Contains(tr.Uninstallable, "the file is not valid YAML (EG100, line 3)") {
		t.Errorf("environment.yml: %s, %q; want fail: conda cannot read it", tr.Verdict, tr.Uninstallable)
	}
}
