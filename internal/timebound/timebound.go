// Package timebound keeps wall-clock bounds out of the tests that README's
// test command runs. On a shared 2-core machine, or under the race detector,
// an absolute bound fails for reasons that have nothing to do with the code;
// a flaky test stops every landing. Tests therefore hold time in one of two
// ways:
//
//   - a ratio against a baseline measured in the same test, rounds
//     interleaved and the best of each kept, so that a burst of load
//     slows both alike, asserted through Check, which measures again before
//     it fails and only logs under the race detector;
//   - an absolute bound (Within) that is enforced only where .ci/run asks
//     for it, in a step without -race, by setting ENVGUARD_TIME_BOUNDS=1.
//     Elsewhere the measured time is logged and the bound is not checked.
package timebound

import (
	"os"
	"testing"
	"time"
)

// Env is the variable that turns absolute bounds on.
const Env = "ENVGUARD_TIME_BOUNDS"

// Enforced reports whether absolute bounds are checked in this run: only
// when Env is "1" and the race detector is off.
func Enforced() bool {
	return !raceEnabled && os.Getenv(Env) == "1"
}

// Race reports whether the race detector is on in this build.
func Race() bool { return raceEnabled }

// Within fails t when d exceeds limit and bounds are enforced; otherwise it
// only logs d beside the limit it would have been held to.
func Within(t testing.TB, what string, d, limit time.Duration) {
	t.Helper()
	if Enforced() && d > limit {
		t.Errorf("%s took %v, over its bound of %v", what, d.Round(time.Millisecond), limit)
		return
	}
	t.Logf("%s: %v (bound %v, enforced: %v)", what, d.Round(time.Millisecond), limit, Enforced())
}

// now is the clock Best and Ratio read; the package's tests replace it
// with one that the fake work advances, so that their verdicts on linear
// and quadratic work do not depend on the machine.
var now = time.Now

// measureRatio times base and subject in turn, rounds times each,
// interleaved, with prepare, when set, run untimed before each round, and
// returns best(subject)/best(base) with both bests. Interleaving makes a
// burst of load on a shared machine slow both sides alike.
func measureRatio(rounds int, prepare func(), base, subject func()) (ratio float64, bestBase, bestSubject time.Duration) {
	bestBase, bestSubject = time.Duration(1<<63-1), time.Duration(1<<63-1)
	timed := func(f func()) time.Duration {
		start := now()
		f()
		return now().Sub(start)
	}
	for range max(rounds, 1) {
		if prepare != nil {
			prepare()
		}
		bestBase = min(bestBase, timed(base))
		bestSubject = min(bestSubject, timed(subject))
	}
	return float64(bestSubject) / float64(max(bestBase, time.Nanosecond)), bestBase, bestSubject
}
