package timebound

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Tries is how many measurements Check makes before it fails. A burst of
// load on a shared machine can land on every round of one measurement; a
// real regression (a quadratic loop where the bound allows linear growth,
// a knowledge-base reload per file) is over the bound in every one.
const Tries = 4

// Check is the one way a test holds the ratio of two pieces of work
// measured in the same run: subject/base at most Max, and at least Min
// where Min is set. Base and subject are timed in turn, Rounds times each,
// the best of each kept; the measurement is repeated up to Tries
// times and passes at the first within the bounds.
type Check struct {
	// What names the ratio in logs and failures.
	What string
	// Max is the highest subject/base allowed; 0 sets none.
	Max float64
	// Min is the lowest subject/base allowed (the subject must be at
	// least this much slower); 0 sets none.
	Min float64
	// Rounds per measurement (default 5) and measurements (default Tries).
	Rounds, Tries int
	// Prepare, when set, runs untimed before every round, that is before
	// base, which subject follows (e.g. runtime.GC, so that neither pays
	// for a collection of garbage from before the round). Not before
	// subject too: with a collection just before it, readertest's deep
	// nesting (recursive work) measured 25-160x at 8x the input, where
	// it measures 12-23x without.
	Prepare func()
}

// Result is what Check measured: its last measurement, and the ratio of
// every try, on the wall clock and on the process's CPU clock (CPURatio is
// 0 where that clock could not be read).
type Result struct {
	Ratio         float64
	Base, Subject time.Duration
	Ratios        []float64
	CPURatio      float64
	CPURatios     []float64
	OK            bool
}

// minCPUBase is the least CPU time a baseline must take for its CPU ratio
// to count: below it the clock's granularity (a microsecond on Linux, a
// tick elsewhere) is a large share of the reading.
const minCPUBase = 500 * time.Microsecond

// accept says whether a measurement passes: its wall-clock ratio is within
// the bounds, or its CPU-time ratio is. A real regression (quadratic work,
// a reload per file) costs CPU as much as it costs wall time, so it is out
// of bounds on both clocks; load from other processes stretches the wall
// clock only, so it is on the CPU clock that such a measurement passes.
func (c Check) accept(m measured) bool {
	if c.within(m.ratio) {
		return true
	}
	return m.cpuOK && m.cpuBase >= minCPUBase && c.within(m.cpuRatio)
}

func (c Check) within(r float64) bool {
	return (c.Max == 0 || r <= c.Max) && (c.Min == 0 || r >= c.Min)
}

func (c Check) bounds() string {
	switch {
	case c.Max != 0 && c.Min != 0:
		return fmt.Sprintf("%gx to %gx", c.Min, c.Max)
	case c.Min != 0:
		return fmt.Sprintf("at least %gx", c.Min)
	default:
		return fmt.Sprintf("at most %gx", c.Max)
	}
}

// Measure measures subject/base up to c.Tries times, stopping at the first
// ratio within the bounds.
func (c Check) Measure(base, subject func()) Result {
	rounds, tries := c.Rounds, c.Tries
	if rounds < 1 {
		rounds = 5
	}
	if tries < 1 {
		tries = Tries
	}
	var r Result
	for range tries {
		m := measureRatio(rounds, c.Prepare, base, subject)
		r.Ratio, r.Base, r.Subject = m.ratio, m.base, m.subject
		r.CPURatio = 0
		if m.cpuOK {
			r.CPURatio = m.cpuRatio
		}
		r.Ratios = append(r.Ratios, r.Ratio)
		r.CPURatios = append(r.CPURatios, r.CPURatio)
		if r.OK = c.accept(m); r.OK {
			break
		}
	}
	return r
}

// Assert measures as Measure does and fails t when no measurement was
// within the bounds. Under the race detector, which slows code unevenly,
// it measures once and only logs (.ci/run checks the ratios in a step
// without -race); the log says so, so a skipped check is never silent.
func (c Check) Assert(t testing.TB, base, subject func()) Result {
	t.Helper()
	if Race() {
		c.Tries = 1
		r := c.Measure(base, subject)
		t.Logf("%s: %.2fx (%v vs %v); race detector on: not checked against %s",
			c.What, r.Ratio, r.Subject, r.Base, c.bounds())
		return r
	}
	r := c.Measure(base, subject)
	if !r.OK {
		t.Errorf("%s: %.2fx (%v vs %v), outside %s in all %d measurements, on the wall clock (%s) and on the CPU clock (%s)",
			c.What, r.Ratio, r.Subject, r.Base, c.bounds(), len(r.Ratios), fmtRatios(r.Ratios), fmtRatios(r.CPURatios))
		return r
	}
	t.Logf("%s: %.2fx (%v vs %v), within %s on the wall or the CPU clock (measurements: wall %s, CPU %s)",
		c.What, r.Ratio, r.Subject, r.Base, c.bounds(), fmtRatios(r.Ratios), fmtRatios(r.CPURatios))
	return r
}

// AssertGrowth holds the growth of a piece of work with its size: work(n)
// builds its input untimed and returns the timed call; the ratio is that
// of work(factor*n) to work(n). For linear work that ratio is about
// factor, for quadratic work factor², so a Max between the two (such as
// 2.5*factor, under factor² for any factor of 4 and up) tells them apart.
func (c Check) AssertGrowth(t testing.TB, n, factor int, work func(n int) func()) Result {
	t.Helper()
	return c.Assert(t, work(n), work(factor*n))
}

func fmtRatios(rs []float64) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = fmt.Sprintf("%.2fx", r)
	}
	return strings.Join(s, ", ")
}
