package envspec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseEnvFile: Parse never panics, and every finding it raises is an
// EG1xx code at a line that is not negative.
func FuzzParseEnvFile(f *testing.F) {
	for _, pat := range []string{"testdata/ok/*.yml", "testdata/err/*.yml"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b, "linux-64")
			}
		}
	}
	f.Add([]byte("dependencies:\n  - sel(win): a\n  - b  # [osx and arm64]\n"), "win-64")
	f.Add([]byte("a: &a [x]\ndependencies: [*a, *a]\n"), "osx-arm64")
	f.Fuzz(func(t *testing.T, src []byte, platform string) {
		env := Parse("f.yml", src, ParseOptions{Platform: platform})
		if env == nil {
			t.Fatal("nil env")
		}
		for _, d := range env.Diags {
			if d.Pos.Line < 0 || d.Pos.Col < 0 {
				t.Fatalf("negative position: %s", d.Error())
			}
			if d.EndCol != 0 && d.EndCol <= d.Pos.Col {
				t.Fatalf("EndCol %d not past column: %s", d.EndCol, d.Error())
			}
			if !strings.HasPrefix(d.Code, "EG1") || len(d.Code) != 5 {
				t.Fatalf("non-EG1xx code: %s", d.Error())
			}
			if strings.Contains(d.Message, "internal error") {
				t.Fatalf("recovered panic: %s", d.Error())
			}
		}
		for _, d := range env.Deps {
			if d.Raw.Pos.Line < 1 {
				t.Fatalf("dependency without a line: %+v", d.Raw)
			}
		}
	})
}
