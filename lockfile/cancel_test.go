package lockfile

import (
	"context"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/readertest"
)

// Every lock and manifest reader, and Read, stops once its context ends
// (readertest.StopsWithContext).
func TestReadersStopWithTheirContext(t *testing.T) {
	const n = readertest.CancelEntries
	cases := []struct {
		name string
		src  string
		read func(src []byte, ctx context.Context) *envspec.Env
	}{
		{"pixi.toml", pixiHead + "[dependencies]\n" + readertest.Seq(n, "p%d = \">=1.0\"\n"), lockReader("pixi.toml", ReadPixiManifest)},
		{"pyproject.toml", pyprojectHead + "[tool.pixi.dependencies]\n" + readertest.Seq(n, "p%d = \">=1.0\"\n"), lockReader("pyproject.toml", ReadPixiManifest)},
		{"uv.lock", "version = 1\n" + readertest.Seq(n, "[[package]]\nname = \"p%d\"\nversion = \"1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n"), lockReader("uv.lock", ReadUVLock)},
		{"pylock.toml", "lock-version = \"1.0\"\n" + readertest.Seq(n, "[[packages]]\nname = \"p%d\"\nversion = \"1.0\"\n[packages.sdist]\nurl = \"https://h/p.tar.gz\"\n"), lockReader("pylock.toml", ReadPylock)},
		{"conda-lock", "version: 1\nmetadata:\n  platforms: [linux-64]\npackage:\n" +
			readertest.Seq(n, "- name: p%[1]d\n  version: '1.0'\n  manager: conda\n  platform: linux-64\n  url: "+condaURL+"p%[1]d-1.0-0.conda\n"), lockReader("conda-lock.yml", ReadCondaLock)},
		{"pixi.lock", "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n" + readertest.Seq(n, "      - conda: "+condaURL+"p%d-1.0-0.conda\n") +
			"packages:\n" + readertest.Seq(n, "- conda: "+condaURL+"p%[1]d-1.0-0.conda\n  name: p%[1]d\n  version: '1.0'\n"), lockReader("pixi.lock", ReadPixiLock)},
		{"explicit", "@EXPLICIT\n" + readertest.Seq(n, condaURL+"p%d-1.0-0.conda\n"), lockReader("spec-file.txt", ReadExplicitWith)},
		{"requirements", readertest.Seq(n, "pkg%d>=1.0\n"), lockReader("requirements.txt", ReadRequirements)},
		{"Read, uv.lock", "version = 1\n" + readertest.Seq(n, "[[package]]\nname = \"p%d\"\nversion = \"1.0\"\n"), lockReader("uv.lock", Read)},
		{"Read, explicit", "@EXPLICIT\n" + readertest.Seq(n, condaURL+"p%d-1.0-0.conda\n"), lockReader("spec-file.txt", Read)},
		{"Read, environment.yml", "dependencies:\n" + readertest.Seq(n, "- pkg%d >=1.0\n"), lockReader("environment.yml", Read)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			readertest.StopsWithContext(t, func(ctx context.Context) (int, finding.Diagnostics) {
				env := c.read(src, ctx)
				return items(env), env.Diags
			})
		})
	}
}

func lockReader(name string, f func(string, []byte, Options) *envspec.Env) func([]byte, context.Context) *envspec.Env {
	return func(src []byte, ctx context.Context) *envspec.Env {
		return f(name, src, Options{Platform: "linux-64", MaxItems: readertest.NoBudget, Context: ctx})
	}
}

func items(env *envspec.Env) int { return len(env.Deps) + len(env.Pip) }

// A TOML document whose parse is stopped says so with the context's
// error, not with a syntax error at some place in the file.
func TestParseTOMLStopsWithContextError(t *testing.T) {
	src := []byte("version = 1\n" + readertest.Seq(readertest.CancelEntries, "[[package]]\nname = \"p%d\"\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc, err := parseTOMLContext(ctx, "uv.lock", src)
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := len(tomlArr(doc.root.get("package"))); got > readertest.CancelEntries/20 {
		t.Errorf("%d of %d tables built after the context ended", got, readertest.CancelEntries)
	}
}
