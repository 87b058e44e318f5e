package envspec

import (
	"context"
	"strings"
	"testing"
)

// countdownCtx is a context that ends after its Err has said nil `after`
// times: a request cut short at a point the test chooses, without a clock.
type countdownCtx struct {
	context.Context
	after int
	calls int
}

func (c *countdownCtx) Err() error {
	if c.calls++; c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// Every reader stops once its context ends, between entries, tables or
// lines (issue 22: the TOML reader never looked, and a request that had its
// 504 kept a slot busy for minutes). Work is counted by the items read, not
// by the clock: each input holds cancelEntries packages, and a reader that
// stopped has read a small fraction of them. The Env it returns carries no
// finding about the context: the caller, whose context it is, is told by
// Context.Err().
func TestReadersStopWithTheirContext(t *testing.T) {
	const n = cancelEntries
	cases := []struct {
		name string
		src  string
		read func(src []byte, ctx context.Context) *Env
	}{
		{"environment.yml", "dependencies:\n" + seq(n, "- pkg%d >=1.0\n"), func(src []byte, ctx context.Context) *Env {
			return Parse("environment.yml", src, ParseOptions{MaxItems: noBudget, Context: ctx})
		}},
		{"pixi.toml", pixiHead + "[dependencies]\n" + seq(n, "p%d = \">=1.0\"\n"), lockReader("pixi.toml", ReadPixiManifest)},
		{"pyproject.toml", pyprojectHead + "[tool.pixi.dependencies]\n" + seq(n, "p%d = \">=1.0\"\n"), lockReader("pyproject.toml", ReadPixiManifest)},
		{"uv.lock", "version = 1\n" + seq(n, "[[package]]\nname = \"p%d\"\nversion = \"1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n"), lockReader("uv.lock", ReadUVLock)},
		{"pylock.toml", "lock-version = \"1.0\"\n" + seq(n, "[[packages]]\nname = \"p%d\"\nversion = \"1.0\"\n[packages.sdist]\nurl = \"https://h/p.tar.gz\"\n"), lockReader("pylock.toml", ReadPylock)},
		{"conda-lock", "version: 1\nmetadata:\n  platforms: [linux-64]\npackage:\n" +
			seq(n, "- name: p%[1]d\n  version: '1.0'\n  manager: conda\n  platform: linux-64\n  url: "+condaURL+"p%[1]d-1.0-0.conda\n"), lockReader("conda-lock.yml", ReadCondaLock)},
		{"pixi.lock", "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n" + seq(n, "      - conda: "+condaURL+"p%d-1.0-0.conda\n") +
			"packages:\n" + seq(n, "- conda: "+condaURL+"p%[1]d-1.0-0.conda\n  name: p%[1]d\n  version: '1.0'\n"), lockReader("pixi.lock", ReadPixiLock)},
		{"explicit", "@EXPLICIT\n" + seq(n, condaURL+"p%d-1.0-0.conda\n"), lockReader("spec-file.txt", ReadExplicitWith)},
		{"requirements", seq(n, "pkg%d>=1.0\n"), lockReader("requirements.txt", ReadRequirements)},
		{"Read, uv.lock", "version = 1\n" + seq(n, "[[package]]\nname = \"p%d\"\nversion = \"1.0\"\n"), lockReader("uv.lock", Read)},
		{"Read, explicit", "@EXPLICIT\n" + seq(n, condaURL+"p%d-1.0-0.conda\n"), lockReader("spec-file.txt", Read)},
		{"Read, environment.yml", "dependencies:\n" + seq(n, "- pkg%d >=1.0\n"), lockReader("environment.yml", Read)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			live := &countdownCtx{Context: context.Background(), after: 1 << 30}
			if got := items(c.read(src, live)); got < n {
				t.Fatalf("with a live context %d items read, want all %d", got, n)
			}
			// Ended at its last look, the reading still leaves items out:
			// the looks go on to the end of the work, not only at its start.
			if got := items(c.read(src, &countdownCtx{Context: context.Background(), after: live.calls - 1})); got >= n {
				t.Errorf("context ended at the last of %d looks: all %d items read", live.calls, got)
			}
			for _, after := range []int{0, 2} {
				env := c.read(src, &countdownCtx{Context: context.Background(), after: after})
				if got := items(env); got > n/20 {
					t.Errorf("context ended after %d looks: %d of %d items read, want at most %d", after, got, n, n/20)
				}
				for _, d := range env.Diags {
					if strings.Contains(d.Message, "context") {
						t.Errorf("a finding about the context: %s", d.Error())
					}
				}
			}
		})
	}
}

// cancelEntries is how many packages each input of the cancellation test
// holds: enough that the readers' looks at the context (every 64 or 256
// units) fall many times within it.
const cancelEntries = 5000

func lockReader(name string, f func(string, []byte, LockOptions) *Env) func([]byte, context.Context) *Env {
	return func(src []byte, ctx context.Context) *Env {
		return f(name, src, LockOptions{Platform: "linux-64", MaxItems: noBudget, Context: ctx})
	}
}

func items(env *Env) int { return len(env.Deps) + len(env.Pip) }

// A TOML document whose parse is stopped says so with the context's
// error, not with a syntax error at some place in the file.
func TestParseTOMLStopsWithContextError(t *testing.T) {
	src := []byte("version = 1\n" + seq(cancelEntries, "[[package]]\nname = \"p%d\"\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc, err := parseTOMLContext(ctx, "uv.lock", src)
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := len(tomlArr(doc.root.get("package"))); got > cancelEntries/20 {
		t.Errorf("%d of %d tables built after the context ended", got, cancelEntries)
	}
}
