// Package timebound keeps wall-clock bounds out of the tests that README's
// test command runs. On a shared 2-core machine, or under the race detector,
// an absolute bound fails for reasons that have nothing to do with the code;
// a flaky test stops every landing. Tests therefore hold time in one of two
// ways:
//
//   - a ratio against a baseline measured in the same test, rounds
//     interleaved and the best of each kept, so that a burst of load
//     slows both alike, read on the wall clock and on the process's CPU
//     clock (which waiting for a core does not advance), asserted through
//     Check, which passes a measurement within the bound on either clock,
//     measures again before it fails, and only logs under the race detector;
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

// now is the wall clock and cpuNow the process's CPU clock that
// measureRatio reads; the package's tests replace them with clocks that the
// fake work advances, so that their verdicts on linear and quadratic work
// do not depend on the machine.
var (
	now    = time.Now
	cpuNow = processCPU
)

// measured is one measurement of subject against base: the best wall time
// of each and their ratio, and the same for the process's CPU time where
// the CPU clock could be read (CPUOK).
type measured struct {
	ratio, cpuRatio     float64
	base, subject       time.Duration
	cpuBase, cpuSubject time.Duration
	cpuOK               bool
}

// measureRatio times base and subject in turn, rounds times each,
// interleaved, with prepare, when set, run untimed before each round, and
// keeps the best of each side on both clocks. Interleaving makes a burst of
// load on a shared machine slow both sides alike; the CPU clock is there
// for the load interleaving cannot even out: a short base fits between two
// preemptions, a subject eight times longer does not, and on a machine with
// more runnable threads than cores its wall time grows by the time it
// waited, which its CPU time does not count.
func measureRatio(rounds int, prepare func(), base, subject func()) measured {
	const never = time.Duration(1<<63 - 1)
	m := measured{base: never, subject: never, cpuBase: never, cpuSubject: never, cpuOK: true}
	timed := func(f func()) (wall, cpu time.Duration) {
		c0, ok0 := cpuNow()
		start := now()
		f()
		wall = now().Sub(start)
		c1, ok1 := cpuNow()
		if !ok0 || !ok1 {
			m.cpuOK = false
		}
		return wall, c1 - c0
	}
	for range max(rounds, 1) {
		if prepare != nil {
			prepare()
		}
		w, c := timed(base)
		m.base, m.cpuBase = min(m.base, w), min(m.cpuBase, c)
		w, c = timed(subject)
		m.subject, m.cpuSubject = min(m.subject, w), min(m.cpuSubject, c)
	}
	m.ratio = float64(m.subject) / float64(max(m.base, time.Nanosecond))
	m.cpuRatio = float64(m.cpuSubject) / float64(max(m.cpuBase, time.Microsecond))
	return m
}
