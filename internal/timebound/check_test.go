package timebound

import (
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock that only the fake work moves: a unit of work is a
// microsecond, and a burst of load is more microseconds for the same work.
// Verdicts measured on it are the same on any machine, loaded or not.
// The CPU clock advances with the work only; load (time spent waiting for
// a core) advances the wall clock alone, unless the clock models a machine
// whose CPU clock cannot be read (cpuOff).
type fakeClock struct {
	t      time.Time
	cpu    time.Duration
	cpuOff bool
}

func useFakeClock(t *testing.T) *fakeClock {
	c := &fakeClock{t: time.Unix(0, 0)}
	savedNow, savedCPU := now, cpuNow
	now = func() time.Time { return c.t }
	cpuNow = func() (time.Duration, bool) { return c.cpu, !c.cpuOff }
	t.Cleanup(func() { now, cpuNow = savedNow, savedCPU })
	return c
}

// work returns a call that costs units microseconds.
func (c *fakeClock) work(units int) func() {
	return func() {
		d := time.Duration(units) * time.Microsecond
		c.t = c.t.Add(d)
		c.cpu += d
	}
}

// loaded returns a call that costs units microseconds of work, and slow
// times that on the wall clock for its first burst calls: load that lands
// on every round of a measurement, a wait for a core that the CPU clock
// does not count.
func (c *fakeClock) loaded(units, slow, burst int) func() {
	calls := 0
	return func() {
		calls++
		d := time.Duration(units) * time.Microsecond
		c.cpu += d
		if calls <= burst {
			d *= time.Duration(slow)
		}
		c.t = c.t.Add(d)
	}
}

// recorder is a testing.TB that keeps what a Check said instead of
// failing the test that runs it.
type recorder struct {
	testing.TB
	failed bool
	logs   []string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Errorf(format string, a ...any) { r.failed = true; r.logs = append(r.logs, format) }
func (r *recorder) Logf(format string, a ...any)   { r.logs = append(r.logs, format) }

// The converted tests, each with the shape of its work: a subject that
// keeps the expected cost passes, and the regression the bound is there
// for fails in every one of the measurements. The costs mirror each test's
// comment: what it measured, and what the regression cost.
var regressionCases = []struct {
	name        string
	check       Check
	n, factor   int // growth checks: work(factor*n) against work(n)
	good, bad   func(n int) int
	base        int // ratio checks: the baseline's cost
	goodS, badS int
}{
	{
		// report.TestCorpusSpeedRatio: validate at 3-6x a YAML decode;
		// a knowledge-base reload per file costs tens of times more.
		name: "report.TestCorpusSpeedRatio", check: Check{Max: 8},
		base: 1000, goodS: 3500, badS: 30_000,
	},
	{
		// report.TestOneLineListLinear: 7-15x the YAML tree; the build
		// before issue 11 was about 500x.
		name: "report.TestOneLineListLinear", check: Check{Max: 40},
		base: 1000, goodS: 15_000, badS: 500_000,
	},
	{
		// envspec.TestCorpusSpeedRatio: Parse at about 2-3x a bare
		// decode; a check gone quadratic over the corpus is many times more.
		name: "envspec.TestCorpusSpeedRatio", check: Check{Max: 5},
		base: 1000, goodS: 2500, badS: 20_000,
	},
	{
		// envspec.TestTokenEndLinearOnOneLine, growth: eight times the
		// items, linear 8x, the per-item rune conversion 64x.
		name: "envspec.TestTokenEndLinearOnOneLine growth", check: Check{Max: 24},
		n: 2000, factor: 8,
		good: func(n int) int { return n }, bad: func(n int) int { return n * n / 100 },
	},
	{
		// envspec.TestMatchSpecLong: eight times the blanks, linear 8x,
		// a quadratic split 64x.
		name: "envspec.TestMatchSpecLong", check: Check{Max: 24},
		n: 25_000, factor: 8,
		good: func(n int) int { return n / 10 }, bad: func(n int) int { return n / 100 * n / 1000 },
	},
}

func TestCheckCatchesRegressions(t *testing.T) {
	for _, c := range regressionCases {
		t.Run(c.name, func(t *testing.T) {
			clk := useFakeClock(t)
			run := func(subject func(n int) int, s int) Result {
				if c.factor != 0 {
					work := func(n int) func() { return clk.work(subject(n)) }
					return c.check.Measure(work(c.n), work(c.factor*c.n))
				}
				return c.check.Measure(clk.work(c.base), clk.work(s))
			}
			if r := run(c.good, c.goodS); !r.OK || len(r.Ratios) != 1 {
				t.Errorf("the expected cost failed: %v", r.Ratios)
			}
			r := run(c.bad, c.badS)
			if r.OK {
				t.Errorf("the regression passed at %.1fx", r.Ratio)
			}
			if len(r.Ratios) != Tries {
				t.Errorf("the regression was measured %d times, want %d", len(r.Ratios), Tries)
			}
		})
	}
}

// TestCheckOutlastsABurst: on the wall clock alone (no CPU clock), load
// that lands on every round of the subject in one measurement fails it, and
// the next measurement passes; load that lasts longer than all the
// measurements fails.
func TestCheckOutlastsABurst(t *testing.T) {
	clk := useFakeClock(t)
	clk.cpuOff = true
	c := Check{Max: 8, Rounds: 5}
	r := c.Measure(clk.work(1000), clk.loaded(3500, 4, 5))
	if !r.OK || len(r.Ratios) != 2 || r.Ratios[0] <= 8 {
		t.Errorf("a burst over one measurement: ratios %v, ok %v", r.Ratios, r.OK)
	}
	r = c.Measure(clk.work(1000), clk.loaded(3500, 4, 5*Tries))
	if r.OK {
		t.Errorf("load over every measurement passed: %v", r.Ratios)
	}
}

// TestCheckMin: a lower bound (the subject must be at least Min times
// slower) passes a reference far slower and fails one that is not.
func TestCheckMin(t *testing.T) {
	clk := useFakeClock(t)
	clk.cpuOff = true
	c := Check{Min: 5}
	if r := c.Measure(clk.work(400), clk.work(200_000)); !r.OK {
		t.Errorf("500x passed under a minimum of 5x: %v", r.Ratios)
	}
	if r := c.Measure(clk.work(400), clk.work(800)); r.OK {
		t.Errorf("2x passed a minimum of 5x")
	}
	// A burst on the base makes the subject look fast; a second
	// measurement sees through it.
	if r := c.Measure(clk.loaded(400, 1000, 5), clk.work(200_000)); !r.OK || len(r.Ratios) != 2 {
		t.Errorf("a burst on the base: %v", r.Ratios)
	}
}

// TestCheckCPUClockOutlastsLoad: load that stretches the wall clock in every
// measurement (a 2-core machine with many runnable threads) passes on the
// CPU clock, which counts only the work, while a regression, which costs
// work, fails on both clocks; a baseline too short for the CPU clock's
// granularity is held on the wall clock alone.
func TestCheckCPUClockOutlastsLoad(t *testing.T) {
	clk := useFakeClock(t)
	c := Check{Max: 24, Rounds: 3}
	// Linear growth, 8x the work, with the subject's wall time 6x its work
	// in every round of every measurement: 48x on the wall clock.
	r := c.Measure(clk.work(2000), clk.loaded(16_000, 6, 3*Tries))
	if !r.OK || len(r.Ratios) != 1 || r.Ratios[0] <= 24 || r.CPURatios[0] > 24 {
		t.Errorf("linear work under load: ok %v, wall %v, CPU %v", r.OK, r.Ratios, r.CPURatios)
	}
	// Quadratic growth (64x the work) fails on both clocks, loaded or not.
	if r := c.Measure(clk.work(2000), clk.loaded(128_000, 6, 3*Tries)); r.OK || len(r.Ratios) != Tries {
		t.Errorf("quadratic work passed: wall %v, CPU %v", r.Ratios, r.CPURatios)
	}
	// A 100µs baseline is under minCPUBase: the CPU ratio does not count.
	if r := c.Measure(clk.work(100), clk.loaded(800, 6, 3*Tries)); r.OK {
		t.Errorf("a baseline under the CPU clock's floor passed on it: wall %v, CPU %v", r.Ratios, r.CPURatios)
	}
	// Without a CPU clock, the wall clock decides alone.
	clk.cpuOff = true
	if r := c.Measure(clk.work(2000), clk.loaded(16_000, 6, 3*Tries)); r.OK || r.CPURatio != 0 {
		t.Errorf("no CPU clock, load on every measurement: ok %v, CPU ratio %v", r.OK, r.CPURatio)
	}
}

// TestCheckPrepareUntimed: Prepare runs before every round and is not
// counted.
func TestCheckPrepareUntimed(t *testing.T) {
	clk := useFakeClock(t)
	prepared := 0
	c := Check{Max: 2, Rounds: 3, Prepare: func() { prepared++; clk.work(1_000_000)() }}
	r := c.Measure(clk.work(1000), clk.work(1500))
	if !r.OK || r.Base != time.Millisecond || prepared != 3 {
		t.Errorf("ratio %.2f, base %v, prepared %d times; want 1.5, 1ms, 3", r.Ratio, r.Base, prepared)
	}
}

// TestAssertLogsUnderRace: Assert fails on a regression without the race
// detector, and under it measures once and says that it did not check.
func TestAssertLogs(t *testing.T) {
	clk := useFakeClock(t)
	rec := &recorder{TB: t}
	Check{What: "w", Max: 8}.Assert(rec, clk.work(1000), clk.work(30_000))
	if Race() {
		if rec.failed || len(rec.logs) != 1 || !strings.Contains(rec.logs[0], "race detector on: not checked") {
			t.Errorf("under -race: failed %v, logs %q", rec.failed, rec.logs)
		}
		return
	}
	if !rec.failed {
		t.Error("a regression passed Assert")
	}
	rec = &recorder{TB: t}
	Check{What: "w", Max: 8}.AssertGrowth(rec, 100, 4, func(n int) func() { return clk.work(n) })
	if rec.failed || len(rec.logs) != 1 {
		t.Errorf("linear growth: failed %v, logs %q", rec.failed, rec.logs)
	}
}
