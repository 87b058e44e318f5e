package resolver

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/golden"
	"github.com/envguard/envguard/resolver/kb"
)

// goldenDir holds <case>.yml inputs and <case>.out expectations: one
// Error() line per finding of every resolver rule, sorted; a line written
// /like this/ is a regular expression. okDir holds the <case>.yml inputs
// that must give no finding at all.
const (
	goldenDir = "testdata/rules"
	okDir     = "testdata/ok"
)

// goldenInputs returns the .yml cases of goldenDir and of okDir.
func goldenInputs(t testing.TB) (err, ok []string) {
	t.Helper()
	err, _ = filepath.Glob(filepath.Join(goldenDir, "*.yml"))
	ok, _ = filepath.Glob(filepath.Join(okDir, "*.yml"))
	if len(err) == 0 || len(ok) == 0 {
		t.Fatalf("no golden cases in %s or %s", goldenDir, okDir)
	}
	return err, ok
}

// goldenPath returns the file of the golden case name, in okDir or goldenDir.
func goldenPath(name string) string {
	if p := filepath.Join(okDir, name+".yml"); fileExists(p) {
		return p
	}
	return filepath.Join(goldenDir, name+".yml")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// lintFile parses, resolves and runs every resolver rule, as validate does.
func lintFile(t testing.TB, name string, src []byte) (*envspec.Env, *Stack, finding.Diagnostics) {
	t.Helper()
	env := envspec.Parse(name, src, envspec.ParseOptions{Platform: "linux-64"})
	k := kb.Default()
	st := Resolve(env, k)
	ctx := &Context{Env: env, Stack: st, KB: k}
	found, err := Check(context.Background(), ctx)
	if err != nil {
		t.Fatal(err)
	}
	ds := finding.Diagnostics(found)
	ds.Sort()
	return env, st, ds
}

func TestGolden(t *testing.T) {
	errs, oks := goldenInputs(t)
	for _, in := range append(errs, oks...) {
		name := strings.TrimSuffix(filepath.Base(in), ".yml")
		ok := filepath.Dir(in) == okDir
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			_, _, ds := lintFile(t, filepath.Base(in), src)
			var got []string
			for _, d := range ds {
				got = append(got, d.Error())
			}
			if ok {
				for _, g := range got {
					t.Errorf("unexpected finding: %s", g)
				}
				return
			}
			golden.CheckLines(t, strings.TrimSuffix(in, ".yml")+".out", got)
		})
	}
}

// TestGoldenCoverage checks that every stack rule both fires in some case
// and stays silent in another, so no rule goes untested by the goldens.
func TestGoldenCoverage(t *testing.T) {
	outs, _ := filepath.Glob(filepath.Join(goldenDir, "*.out"))
	_, oks := goldenInputs(t)
	cases := len(outs) + len(oks) // the ok cases fire nothing
	fired := map[string]int{}
	for _, o := range outs {
		b, err := os.ReadFile(o)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, l := range golden.Lines(string(b)) {
			if i := strings.LastIndex(l, "[EG"); i >= 0 {
				seen[strings.TrimSuffix(l[i+1:], "]")] = true
			}
		}
		for c := range seen {
			fired[c]++
		}
	}
	var missing []string
	for _, r := range stackRules() {
		if fired[r.Code] == 0 || fired[r.Code] == cases {
			missing = append(missing, r.Code)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("rules that never fire or never stay silent in %s and %s: %v", goldenDir, okDir, missing)
	}
}

// stackRules are the registry's rules that judge the resolved stack: the
// EG2xx rules, EG501 and EG502.
func stackRules() []*Rule {
	var out []*Rule
	for _, r := range rules {
		if strings.HasPrefix(r.Code, "EG2") || r.Code == "EG501" || r.Code == "EG502" {
			out = append(out, r)
		}
	}
	return out
}

// mixRules are the registry's rules that read which installer provides
// what: the EG3xx rules and EG503–EG505.
func mixRules() []*Rule {
	var out []*Rule
	for _, r := range rules {
		if strings.HasPrefix(r.Code, "EG3") || (strings.HasPrefix(r.Code, "EG50") && r.Code >= "EG503") {
			out = append(out, r)
		}
	}
	return out
}
