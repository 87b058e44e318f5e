package envspec

import (
	"context"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/readertest"
)

// The environment file parser stops once its context ends
// (readertest.StopsWithContext); the lock readers are held to it in
// package lockfile.
func TestReadersStopWithTheirContext(t *testing.T) {
	const n = readertest.CancelEntries
	cases := []struct {
		name string
		src  string
		read func(src []byte, ctx context.Context) *Env
	}{
		{"environment.yml", "dependencies:\n" + readertest.Seq(n, "- pkg%d >=1.0\n"), func(src []byte, ctx context.Context) *Env {
			return Parse("environment.yml", src, ParseOptions{MaxItems: readertest.NoBudget, Context: ctx})
		}},
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

func items(env *Env) int { return len(env.Deps) + len(env.Pip) }
