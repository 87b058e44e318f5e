package report

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/golden"
	"github.com/envguard/envguard/resolver"
)

// TestVerdictGolden holds each environment of testdata/verdicts against the
// machines of fleet.targets.yml and compares every target's verdict, its
// undecided checks and its EG4xx findings with the golden .out file. The
// cases are the first-principles ones: a CUDA 10.0 build whose architecture
// list is not known on an A100 (no SASS possible: unknown), a CUDA 12.4 build
// of an unknown series on an RTX 5090 (unknown), a CUDA 12 build on a K80
// (fail), driver 388.73 with a CUDA 10.0 runtime (EG401), and a fleet range.
func TestVerdictGolden(t *testing.T) {
	dir := filepath.Join("testdata", "verdicts")
	tsrc, err := os.ReadFile(filepath.Join(dir, "fleet.targets.yml"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := gpucheck.ParseTargets("fleet.targets.yml", tsrc)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range ts {
		names = append(names, tg.Name)
	}
	hosts, err := (&Machines{Targets: ts}).Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yml"))
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".targets.yml") {
			continue
		}
		n++
		name := strings.TrimSuffix(filepath.Base(f), ".yml")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(name+".yml", src, Options{Platform: "linux-64", Hosts: hosts})
			golden.Check(t, filepath.Join(dir, name+".out"), []byte(verdictText(r)))
			assertVerdictsHonest(t, r)
		})
	}
	if n < 5 {
		t.Fatalf("%d verdict cases in %s, want the first-principles ones", n, dir)
	}
}

// verdictText renders what a target's verdict rests on.
func verdictText(r *Report) string {
	var b strings.Builder
	for _, t := range r.Targets {
		fmt.Fprintf(&b, "target %s: %s\n", t.Name, t.Verdict)
		if t.Uninstallable != "" {
			fmt.Fprintf(&b, "  uninstallable: %s\n", t.Uninstallable)
		}
		for _, u := range t.Undecided {
			fmt.Fprintf(&b, "  undecided %s (%s): %s\n", u.Check, u.Reason, u.Why)
		}
		for _, f := range r.Findings {
			if f.Target == t.Name {
				fmt.Fprintf(&b, "  %d:%d %s %s %s\n", f.Line, f.Column, f.Severity, f.Code, f.Message)
			}
		}
	}
	return b.String()
}

// assertVerdictsHonest checks the verdict rules of RULES.md on a report:
// fail exactly when an EG4xx error applies, unknown exactly when no error
// and an EG409, ok only when neither.
func assertVerdictsHonest(t *testing.T, r *Report) {
	t.Helper()
	for _, tg := range r.Targets {
		var errs, eg409 int
		capped := false
		for _, f := range r.Findings {
			if f.Code == "EG409" && strings.Contains(f.Message, "more EG409 findings") {
				capped = true
			}
			if f.Target == "" && f.Severity == "error" && resolver.FailsTargets(f.Code) {
				errs++
			}
			if f.Target != tg.Name {
				continue
			}
			if f.Severity == "error" {
				errs++
			}
			if f.Code == "EG409" {
				eg409++
			}
		}
		want := gpucheck.VerdictOK
		switch {
		case tg.Uninstallable != "":
			// the file cannot be installed as written: every target fails
			// for the EG205 reason it names, whatever its findings, and
			// the file's own EG205 error says so
			want = gpucheck.VerdictFail
			if !slices.ContainsFunc(r.Findings, func(f Finding) bool {
				return (f.Code == "EG205" || f.Code == "EG100" || f.Code == "EG101" || f.Code == "EG104") && f.Severity == "error" && f.Target == ""
			}) && !strings.Contains(tg.Uninstallable, "conda cannot create the environment there as written") {
				t.Errorf("%s: target %s fails as uninstallable (%s) with no EG205 error and as no export of another platform", r.File, tg.Name, tg.Uninstallable)
			}
		case errs > 0:
			want = gpucheck.VerdictFail
		case eg409 > 0:
			want = gpucheck.VerdictUnknown
		}
		if tg.Verdict != want {
			t.Errorf("%s: target %s verdict %s, want %s (%d errors, %d EG409)", r.File, tg.Name, tg.Verdict, want, errs, eg409)
		}
		// Past maxPerCode findings of a code the report lists a summary in
		// their place; the undecided checks stay whole.
		if eg409 != len(tg.Undecided) && !(capped && eg409 < len(tg.Undecided)) {
			t.Errorf("%s: target %s has %d EG409 findings but %d undecided checks", r.File, tg.Name, eg409, len(tg.Undecided))
		}
	}
}
