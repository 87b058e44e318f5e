package cli

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/envguard/envguard/resolver/kb"
)

// TestMain keeps the tests' results out of the user's cache: every test
// that runs envguard through Main gets a cache (and data) directory of the
// run's own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "envguard-cli-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	// and no downloaded knowledge base of the user's.
	os.Setenv("XDG_DATA_HOME", dir)
	// and a clock on the embedded knowledge base's date: the stale-KB
	// warning of validate's text output never depends on the day tests run.
	if d, err := time.Parse(time.DateOnly, kb.Default().Date); err == nil {
		wallClock = func() time.Time { return d }
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
