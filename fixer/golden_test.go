package fixer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/builder"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/golden"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// testOptions validates for linux-64 whatever the host, so that selectors
// and platform checks read the same everywhere.
func testOptions(unsafe bool) Options {
	return Options{Report: report.Options{Platform: "linux-64"}, Unsafe: unsafe}
}

// TestGolden fixes each testdata/fix/<case>/before.yml (with --unsafe where
// the case has a flags file saying so, against every machine of its
// targets.yml where it has one) and compares the fixed file and
// its diff with after.yml and diff, and what was fixed and what was not,
// with the reasons, with report; then it holds each case to the properties
// every fix must have.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/fix/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases under testdata/fix: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "before.yml"))
			if err != nil {
				t.Fatal(err)
			}
			opt := caseOptions(t, dir)
			res, err := Fix(context.Background(), "environment.yml", src, opt)
			if err != nil {
				t.Fatal(err)
			}
			diff := Diff("environment.yml", src, res.Fixed)
			golden.Check(t, filepath.Join(dir, "after.yml"), res.Fixed)
			golden.Check(t, filepath.Join(dir, "diff"), []byte(diff))
			golden.Check(t, filepath.Join(dir, "report"), []byte(fixReport(res)))
			checkProperties(t, src, res, opt)
			// a pin for the targets leaves nothing to the solver: every
			// target's verdict is decided
			if pinned(res) {
				for _, tr := range res.Report.Targets {
					if tr.Verdict != "ok" && tr.Verdict != "fail" {
						t.Errorf("pinned, yet target %s is %s", tr.Name, tr.Verdict)
					}
				}
			}
			// the golden cases are fixed whole: none of the fixed codes is
			// left in them, but where the report says why one was not made
			skipped := map[string]bool{}
			for _, s := range res.Skipped {
				skipped[s.Code] = true
			}
			for _, a := range res.Applied {
				for _, d := range res.Report.Diagnostics() {
					if d.Code == a.Code && !skipped[d.Code] {
						t.Errorf("fixed %s, yet the fixed file still has %s", a.Code, d.Error())
					}
				}
			}
		})
	}
}

// fixReport is a line for each fix made and each fix not made, with why.
func fixReport(res *Result) string {
	var b strings.Builder
	for _, a := range res.Applied {
		fmt.Fprintf(&b, "%d:%d: fixed %s: %s\n", a.Line, a.Column, a.Code, a.Message)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(&b, "%d: not fixed %s: %s\n", s.Line, s.Code, s.Reason)
	}
	return b.String()
}

// caseOptions are the options of the case in dir: --unsafe where its
// flags file says so, and its targets (with the builder's pick for pins).
func caseOptions(t *testing.T, dir string) Options {
	t.Helper()
	flags, _ := os.ReadFile(filepath.Join(dir, "flags"))
	opt := testOptions(strings.Contains(string(flags), "unsafe"))
	if opt.Targets = caseTargets(t, dir); opt.Targets != nil {
		opt.Pin = builder.PinPick
	}
	return opt
}

// caseTargets are the hosts of dir/targets.yml, every one of them; nil
// when the case has none.
func caseTargets(t *testing.T, dir string) []*gpucheck.Host {
	t.Helper()
	path := filepath.Join(dir, "targets.yml")
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	ts, err := gpucheck.ParseTargets(path, src)
	if err != nil {
		t.Fatal(err)
	}
	m := &report.Machines{Targets: ts, KB: kb.Default()}
	var names []string
	for _, tg := range ts {
		names = append(names, tg.Name)
	}
	hosts, err := m.Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	return hosts
}

// pinned reports whether a pin for the targets was made.
func pinned(res *Result) bool {
	for _, a := range res.Applied {
		if strings.HasPrefix(a.Message, "pinned to ") {
			return true
		}
	}
	return false
}
