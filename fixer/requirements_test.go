package fixer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
	"github.com/envguard/envguard/report"
)

// TestGoldenRequirements fixes each testdata/fix-requirements/<case>/
// before.txt as a requirements.txt (with --unsafe and targets as the
// environment.yml cases take them) and compares the fixed file, its diff
// and the report with after.txt, diff and report. Each fix keeps the
// other lines byte for byte (every line the diff takes out holds the old
// text of an applied edit), adds no finding, and a second fix changes
// nothing.
func TestGoldenRequirements(t *testing.T) {
	dirs, err := filepath.Glob("testdata/fix-requirements/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases under testdata/fix-requirements: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "before.txt"))
			if err != nil {
				t.Fatal(err)
			}
			opt := caseOptions(t, dir)
			res, err := Fix(context.Background(), "requirements.txt", src, opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Applied) == 0 {
				t.Errorf("no fix made")
			}
			diff := Diff("requirements.txt", src, res.Fixed)
			golden.Check(t, filepath.Join(dir, "after.txt"), res.Fixed)
			golden.Check(t, filepath.Join(dir, "diff"), []byte(diff))
			golden.Check(t, filepath.Join(dir, "report"), []byte(fixReport(res)))
			again, err := Fix(context.Background(), "requirements.txt", res.Fixed, opt)
			if err != nil {
				t.Fatal(err)
			}
			if string(again.Fixed) != string(res.Fixed) || len(again.Applied) > 0 {
				t.Errorf("a second fix changed the file again: %v", again.Applied)
			}
			for _, l := range strings.Split(diff, "\n") {
				if !strings.HasPrefix(l, "-") || strings.HasPrefix(l, "---") {
					continue
				}
				ok := false
				for _, e := range res.edits {
					if old := strings.Trim(e.Old, "\n"); old != "" && strings.Contains(l[1:], old) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("line %q changed, but no applied edit covers it", l[1:])
				}
			}
			ropt := opt.Report
			ropt.Hosts = opt.Targets
			b, a := codeCounts(report.Validate("requirements.txt", src, ropt)), codeCounts(res.Report)
			for k, n := range a {
				if n > b[k] {
					t.Errorf("%s grew from %d to %d", k, b[k], n)
				}
			}
		})
	}
}
