// Package readertest is what the tests of envguard's readers share (issue
// 22): inputs of n entries, a context that ends after a chosen number of
// looks, and the two checks every reader is held to, that it stops once
// its context ends and that its cost grows in proportion to its input. It
// imports nothing of envguard's readers, so that the tests of envspec and
// of the packages above it can both use it.
package readertest

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/timebound"
)

// NoBudget lifts the item budgets, which would otherwise cut the larger
// inputs short and hide how the reading itself grows.
const NoBudget = 1 << 30

// Seq is format, which takes one integer, written n times for 0 … n-1.
func Seq(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// CancelEntries is how many packages each input of a cancellation test
// holds: enough that the readers' looks at the context (every 64 or 256
// units) fall many times within it.
const CancelEntries = 5000

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

// StopsWithContext holds one reader to stopping once its context ends,
// between entries, tables or lines (issue 22: the TOML reader never
// looked, and a request that had its 504 kept a slot busy for minutes).
// Work is counted by the items read, not by the clock: read's input holds
// CancelEntries packages, and a reader that stopped has read a small
// fraction of them. What it returns carries no finding about the context:
// the caller, whose context it is, is told by Context.Err().
func StopsWithContext(t *testing.T, read func(ctx context.Context) (items int, diags finding.Diagnostics)) {
	t.Helper()
	const n = CancelEntries
	live := &countdownCtx{Context: context.Background(), after: 1 << 30}
	if got, _ := read(live); got < n {
		t.Fatalf("with a live context %d items read, want all %d", got, n)
	}
	// Ended at its last look, the reading still leaves items out:
	// the looks go on to the end of the work, not only at its start.
	if got, _ := read(&countdownCtx{Context: context.Background(), after: live.calls - 1}); got >= n {
		t.Errorf("context ended at the last of %d looks: all %d items read", live.calls, got)
	}
	for _, after := range []int{0, 2} {
		got, diags := read(&countdownCtx{Context: context.Background(), after: after})
		if got > n/20 {
			t.Errorf("context ended after %d looks: %d of %d items read, want at most %d", after, got, n, n/20)
		}
		for _, d := range diags {
			if strings.Contains(d.Message, "context") {
				t.Errorf("a finding about the context: %s", d.Error())
			}
		}
	}
}

// The growth test (issue 22): every reader, fed each hostile shape that
// applies to it at 1x, 2x, 4x and 8x its size in one run, costs time and
// memory in proportion to its input. A cost that grows with the square of
// one dimension (a column counted from the start of the line for every key
// of a dotted key, a string rebuilt for every continuation) costs 64x at
// 8x the size, far over the bounds below; linear work costs 8x.

// growthScales are the sizes each shape is read at, in units of its 1x.
var growthScales = []int{1, 2, 4, 8}

const (
	// growthAllocFactor: bytes and allocations at k times the size stay
	// within k times those at 1x, times this. Slices that double as they
	// grow may cost up to twice their final size at one scale and just
	// over it at another; quadratic growth costs k times more again.
	growthAllocFactor = 2.5
	// growthTimeLimit: the best time at 8x stays within 3x of linear,
	// 1x and 8x timed in turn and the best of growthRounds kept, so that a
	// burst of load on a shared machine slows both alike.
	growthTimeLimit = 8 * 3
	growthRounds    = 5
	growthTries     = 3
)

// Allocated returns the fewest bytes and allocations of rounds runs of f.
func Allocated(rounds int, f func()) (bytes, allocs uint64) {
	bytes, allocs = ^uint64(0), ^uint64(0)
	var before, after runtime.MemStats
	for range rounds {
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		bytes = min(bytes, after.TotalAlloc-before.TotalAlloc)
		allocs = min(allocs, after.Mallocs-before.Mallocs)
	}
	return bytes, allocs
}

// GrowsLinearly holds one hostile shape of one reader to linear growth:
// made at every scale by shape, whose read does the work that is measured
// (the input is made beforehand), it costs bytes, allocations and time in
// proportion to its size.
func GrowsLinearly(t *testing.T, shape func(t *testing.T, scale int) (read func())) {
	t.Helper()
	reads := make([]func(), len(growthScales))
	for i, s := range growthScales {
		reads[i] = shape(t, s)
		reads[i]() // warm: the first run pays for what is built once (compiled patterns, tables)
	}
	var base [2]uint64
	var line strings.Builder
	for i, s := range growthScales {
		b, n := Allocated(3, reads[i])
		if i == 0 {
			base = [2]uint64{max(b, 1), max(n, 1)}
		}
		fmt.Fprintf(&line, " %dx: %d B in %d allocs;", s, b, n)
		limit := float64(s) * growthAllocFactor
		if r := float64(b) / float64(base[0]); s > 1 && r > limit {
			t.Errorf("%dx the input allocates %.1fx the bytes of 1x (%d vs %d), over %.0fx", s, r, b, base[0], limit)
		}
		if r := float64(n) / float64(base[1]); s > 1 && r > limit && n > 1000 {
			t.Errorf("%dx the input makes %.1fx the allocations of 1x (%d vs %d), over %.0fx", s, r, n, base[1], limit)
		}
	}
	t.Log("allocated:" + line.String())
	if timebound.Race() {
		t.Log("time ratio not checked under the race detector; allocations are")
		return
	}
	// The collector is held off while a round is timed and run before
	// each timed call (Check's Prepare): its cycles fall on one side or the
	// other by chance, and what it costs grows with the allocations, which
	// are held above. Check measures a ratio over the bound again before
	// it fails: a burst of load may land on every 8x round once, a
	// quadratic cost is over the bound every time.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	timebound.Check{
		What:    fmt.Sprintf("time of %dx the input / 1x", growthScales[len(growthScales)-1]),
		Max:     growthTimeLimit,
		Rounds:  growthRounds,
		Tries:   growthTries,
		Prepare: runtime.GC,
	}.Assert(t, reads[0], reads[len(reads)-1])
}
