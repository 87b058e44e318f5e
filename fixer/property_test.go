package fixer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/builder"
	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/report"
)

// checkProperties holds one fix to what every fix must do:
//   - the fixed text validates with no fixable finding left among the codes
//     applied (but those skipped, which say why);
//   - fixing again changes nothing;
//   - the fixed file parses to the same environment apart from the fixed
//     items: the same keys, the same number of dependencies apart from
//     items added or removed by a fix, and every comment kept;
//   - the diff touches only lines a fix names.
func checkProperties(t *testing.T, src []byte, res *Result, opt Options) {
	t.Helper()
	applied := map[string]bool{}
	for _, a := range res.Applied {
		applied[a.Code] = true
	}
	skipped := map[string]bool{}
	for _, s := range res.Skipped {
		skipped[s.Code] = true
	}
	for _, d := range res.Report.Diagnostics() {
		if applied[d.Code] && len(d.Edits) > 0 && !skipped[d.Code] {
			t.Errorf("after fixing, %s still has a fix to apply: %s", d.Code, d.Error())
		}
	}
	again, err := Fix(context.Background(), "environment.yml", res.Fixed, opt)
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Fixed) != string(res.Fixed) || len(again.Applied) > 0 {
		t.Errorf("a second fix changed the file again: %v\n%s", again.Applied, Diff("environment.yml", res.Fixed, again.Fixed))
	}
	before := envspec.Parse("environment.yml", src, envspec.ParseOptions{Platform: "linux-64"})
	after := envspec.Parse("environment.yml", res.Fixed, envspec.ParseOptions{Platform: "linux-64"})
	if (before.Name == nil) != (after.Name == nil) || len(before.Variables) != len(after.Variables) {
		t.Errorf("the fix changed the name key or the variables")
	}
	// The same environment apart from the fixed items: each dependency,
	// pip line and channel of the original is still there unless an
	// applied edit took out text holding it, and each one of the fixed
	// file was there or was written by an applied edit.
	touchedOld := func(v string) bool {
		for _, e := range res.edits {
			if strings.Contains(e.Old, v) || strings.Contains(v, e.Old) && e.Old != "" {
				return true
			}
		}
		return false
	}
	touchedNew := func(v string) bool {
		for _, e := range res.edits {
			if strings.Contains(e.New, v) || strings.Contains(v, e.New) && e.New != "" {
				return true
			}
		}
		return false
	}
	sameItems(t, "dependency", condaValues(before), condaValues(after), touchedOld, touchedNew)
	sameItems(t, "pip line", pipValues(before), pipValues(after), touchedOld, touchedNew)
	sameItems(t, "channel", stringValues(before.Channels), stringValues(after.Channels), touchedOld, touchedNew)
	if len(res.Applied) == 0 && string(src) != string(res.Fixed) {
		t.Errorf("no fix applied, yet the text changed")
	}
	for _, c := range comments(src) {
		if !strings.Contains(string(res.Fixed), c) && !deletedByFix(src, res.Fixed, c) {
			t.Errorf("comment %q lost", c)
		}
	}
	// Every line the diff takes out of the original holds the old text of
	// an applied edit, or lies inside it: nothing outside the fixed spans
	// changed.
	diff := strings.Split(Diff("environment.yml", src, res.Fixed), "\n")
	added := map[string]bool{}
	for _, l := range diff {
		if strings.HasPrefix(l, "+") {
			added[l[1:]] = true
		}
	}
	for _, l := range diff {
		// a line that comes back unchanged only lost or gained its line
		// end: the last line deleted from a file with no final newline
		if !strings.HasPrefix(l, "-") || strings.HasPrefix(l, "---") || added[l[1:]] {
			continue
		}
		line := strings.TrimRight(l[1:], "\r")
		ok := false
		for _, e := range res.edits {
			old := strings.Trim(e.Old, "\n")
			if old != "" && (strings.Contains(line, old) || strings.Contains(old, line)) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("line %q changed, but no applied edit covers it (edits %+v)", line, res.edits)
		}
	}
}

// comments are the comments of src, each with the text after '#' up to the
// line end, for lines that are nothing but a comment or end with one.
func comments(src []byte) []string {
	var out []string
	for _, l := range strings.Split(string(src), "\n") {
		if i := strings.Index(l, " #"); i >= 0 && !strings.ContainsAny(l[:i], `"'`) {
			out = append(out, strings.TrimRight(l[i:], "\r"))
		} else if strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, strings.TrimRight(strings.TrimSpace(l), "\r"))
		}
	}
	return out
}

// deletedByFix reports whether the line holding comment c was deleted
// whole (a dropped prefix: or channel line takes its comment with it).
func deletedByFix(src, fixed []byte, c string) bool {
	for _, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, c) && !strings.Contains(string(fixed), strings.TrimRight(l, "\r")) {
			return true
		}
	}
	return false
}

// TestCorpus fixes every real-world environment file, with the unsafe
// fixes too, and holds each to the properties.
func TestCorpus(t *testing.T) {
	files := testshared.Corpus(t)
	fixedFiles, fixes := map[bool]int{}, map[bool]int{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, unsafe := range []bool{false, true} {
			opt := Options{Report: report.Options{Platform: "linux-64"}, Unsafe: unsafe}
			res, err := Fix(context.Background(), "environment.yml", src, opt)
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(path), err)
				continue
			}
			if len(res.Applied) > 0 {
				fixedFiles[unsafe]++
				fixes[unsafe] += len(res.Applied)
			}
			t.Run(filepath.Base(path), func(t *testing.T) { checkProperties(t, src, res, opt) })
			if !unsafe {
				// a safe fix changes neither how the environment is
				// addressed nor where its packages come from (DESIGN.md)
				if b, a := addressing(src), addressing(res.Fixed); b != a {
					t.Errorf("%s: a safe fix changed the name or channels:\n%s\nbecame\n%s", filepath.Base(path), b, a)
				}
			}
		}
	}
	t.Logf("safe fixes: %d of %d real-world files fixed, %d fixes; with --unsafe: %d files, %d fixes",
		fixedFiles[false], len(files), fixes[false], fixedFiles[true], fixes[true])
}

func condaValues(e *envspec.Env) []string {
	var out []string
	for _, d := range e.Deps {
		out = append(out, d.Raw.Value)
	}
	return out
}

func pipValues(e *envspec.Env) []string {
	var out []string
	for _, d := range e.Pip {
		out = append(out, d.Raw.Value)
	}
	return out
}

func stringValues(ss []envspec.String) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Value)
	}
	return out
}

// sameItems compares two lists as multisets: an item only in before must
// have been taken out by an edit, one only in after written by one.
func sameItems(t *testing.T, what string, before, after []string, removed, added func(string) bool) {
	t.Helper()
	count := map[string]int{}
	for _, v := range before {
		count[v]++
	}
	for _, v := range after {
		count[v]--
	}
	for v, n := range count {
		switch {
		case n > 0 && !removed(v):
			t.Errorf("%s %q is gone, but no applied edit took it out", what, v)
		case n < 0 && !added(v):
			t.Errorf("%s %q appeared, but no applied edit wrote it", what, v)
		}
	}
}

// addressing is an environment's name and channel list, one string.
func addressing(src []byte) string {
	e := envspec.Parse("environment.yml", src, envspec.ParseOptions{Platform: "linux-64"})
	var b strings.Builder
	if e.Name != nil {
		b.WriteString("name: " + e.Name.Value)
	}
	for _, c := range e.Channels {
		b.WriteString("\nchannel: " + c.Value)
	}
	return b.String()
}

// TestCorpusFixThenValidate is the property of issue 27 over the
// real-world corpus: each file is copied to a directory of its own, fixed
// in place (FixFile, as `envguard fix FILE` does) and the written file
// validated again. No code's count grows, nor its count at error; under
// the safe fixes neither the environment's name nor its channel list
// changes; with --unsafe too no count grows.
func TestCorpusFixThenValidate(t *testing.T) {
	files := testshared.Corpus(t)
	for _, unsafe := range []bool{false, true} {
		opt := Options{Report: report.Options{Platform: "linux-64"}, Unsafe: unsafe}
		changed := 0
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(t.TempDir(), "environment.yml")
			if err := os.WriteFile(name, src, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := FixFile(context.Background(), name, opt, FileOptions{MaxSize: 1 << 24}); err != nil {
				t.Errorf("%s: %v", filepath.Base(path), err)
				continue
			}
			fixed, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if string(fixed) != string(src) {
				changed++
			}
			before := report.Validate(name, src, opt.Report)
			after := report.Validate(name, fixed, opt.Report)
			b, a := codeCounts(before), codeCounts(after)
			for k, n := range a {
				if n > b[k] {
					t.Errorf("%s (unsafe %v): %s grew from %d to %d:\n%s", filepath.Base(path), unsafe, k, b[k], n, Diff("environment.yml", src, fixed))
				}
			}
			if !unsafe {
				if ba, aa := addressing(src), addressing(fixed); ba != aa {
					t.Errorf("%s: a safe fix changed the name or channels:\n%s\nbecame\n%s", filepath.Base(path), ba, aa)
				}
			}
		}
		if changed == 0 {
			t.Errorf("unsafe %v: no corpus file was changed, so nothing was tested", unsafe)
		}
		t.Logf("unsafe %v: %d of %d files changed", unsafe, changed, len(files))
	}
}

// codeCounts counts a report's findings by code, and by code at error.
func codeCounts(r *report.Report) map[string]int {
	n := map[string]int{}
	for _, d := range r.Diagnostics() {
		n[d.Code]++
		if d.Severity == finding.SeverityError {
			n[d.Code+" at error"]++
		}
	}
	return n
}

// TestCorpusPinForTargets fixes every corpus file with --unsafe against two
// targets, pins included: no code's count grows against the same targets,
// and a pin leaves no finding that says the solver picks the build.
func TestCorpusPinForTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("the builder runs for every release an open file admits")
	}
	files := testshared.Corpus(t)
	hosts := caseTargets(t, "testdata/fix/pin_pytorch_channel")
	opt := Options{Report: report.Options{Platform: "linux-64"}, Unsafe: true, Targets: hosts, Pin: builder.PinPick}
	pins := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Fix(context.Background(), "environment.yml", src, opt)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
			continue
		}
		ropt := opt.Report
		ropt.Hosts = hosts
		b, a := codeCounts(report.Validate("environment.yml", src, ropt)), codeCounts(res.Report)
		for k, n := range a {
			if n > b[k] {
				t.Errorf("%s: %s grew from %d to %d:\n%s", filepath.Base(path), k, b[k], n, Diff("environment.yml", src, res.Fixed))
			}
		}
		if pinned(res) {
			// the pin leaves nothing to the solver; a target may still be
			// unknown for another package (one the knowledge base lacks)
			pins++
			for _, d := range pinFindings(res.Report) {
				t.Errorf("%s: pinned, yet %s", filepath.Base(path), d.Error())
			}
		}
	}
	t.Logf("%d of %d files pinned for the targets", pins, len(files))
}
