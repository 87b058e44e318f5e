package envspec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

var testPlatformRe = regexp.MustCompile(`(?m)^# test-platform: (\S+)`)

// testPlatform lets a golden file choose the platform its selectors are
// evaluated for; linux-64 otherwise, so results do not depend on the host.
func testPlatform(src []byte) string {
	if m := testPlatformRe.FindSubmatch(src); m != nil {
		return string(m[1])
	}
	return "linux-64"
}

func TestGoldenOK(t *testing.T) {
	files, _ := filepath.Glob("testdata/ok/*.yml")
	if len(files) == 0 {
		t.Fatal("no testdata/ok/*.yml")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			env := Parse(f, src, ParseOptions{Platform: testPlatform(src)})
			for _, d := range env.Diags {
				t.Errorf("unexpected finding: %s", d.Error())
			}
			if len(env.Deps) == 0 {
				t.Errorf("no dependencies read")
			}
		})
	}
}

func TestGoldenErr(t *testing.T) {
	files, _ := filepath.Glob("testdata/err/*.yml")
	if len(files) == 0 {
		t.Fatal("no testdata/err/*.yml")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			env := Parse(f, src, ParseOptions{Platform: testPlatform(src)})
			var got []string
			for _, d := range env.Diags {
				got = append(got, d.Error())
			}
			golden.CheckLines(t, strings.TrimSuffix(f, ".yml")+".out", got)
			if len(got) == 0 {
				t.Errorf("an err case must raise at least one finding")
			}
		})
	}
}

// TestGoldenCoversEveryCode keeps the err cases honest: each EG1xx code the
// reader raises fires in at least one of them.
func TestGoldenCoversEveryCode(t *testing.T) {
	outs, _ := filepath.Glob("testdata/err/*.out")
	all := ""
	for _, o := range outs {
		b, _ := os.ReadFile(o)
		all += string(b)
	}
	for _, r := range SyntaxRules {
		if r.Code == "EG114" { // raised by the suppression code, not the reader
			continue
		}
		if !strings.Contains(all, "["+r.Code+"]") {
			t.Errorf("no golden err case raises %s", r.Code)
		}
	}
}
