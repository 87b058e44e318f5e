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
	src := []byte("dependencies:\n" + readertest.Seq(readertest.CancelEntries, "- pkg%d >=1.0\n"))
	readertest.StopsWithContext(t, func(ctx context.Context) (int, finding.Diagnostics) {
		env := Parse("environment.yml", src, ParseOptions{MaxItems: readertest.NoBudget, Context: ctx})
		return len(env.Deps) + len(env.Pip), env.Diags
	})
}
