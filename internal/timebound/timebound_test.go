package timebound

import (
	"testing"
)

func TestEnforcedNeedsEnvAndNoRace(t *testing.T) {
	t.Setenv(Env, "")
	if Enforced() {
		t.Fatal("bounds enforced without " + Env)
	}
	t.Setenv(Env, "1")
	if Enforced() == raceEnabled {
		t.Fatalf("with %s=1 and race %v, Enforced() = %v", Env, raceEnabled, Enforced())
	}
}

func TestRatioOrdersWork(t *testing.T) {
	spin := func(n int) func() {
		return func() {
			x := 0
			for i := range n {
				x ^= i * 7
			}
			sink = x
		}
	}
	// Ten times the work must come out slower than the same work; the
	// margin is wide so that load cannot turn it around.
	m := measureRatio(5, nil, spin(200_000), spin(2_000_000))
	if m.ratio < 2 {
		t.Fatalf("ten times the work measured %.2fx the baseline (%v vs %v)", m.ratio, m.subject, m.base)
	}
	if _, ok := processCPU(); ok && m.cpuRatio < 2 {
		t.Fatalf("ten times the work measured %.2fx the baseline on the CPU clock (%v vs %v)", m.cpuRatio, m.cpuSubject, m.cpuBase)
	}
	// The same on the real clock through Check: ten times the work fails
	// a bound of 1.5x in every measurement and passes one of 100x.
	if r := (Check{Max: 1.5, Rounds: 3}).Measure(spin(200_000), spin(2_000_000)); r.OK {
		t.Fatalf("Check accepted ten times the work under a bound of 1.5x: %v", r.Ratios)
	}
	if r := (Check{Max: 100, Rounds: 3}).Measure(spin(200_000), spin(2_000_000)); !r.OK {
		t.Fatalf("Check refused ten times the work under a bound of 100x: %v", r.Ratios)
	}
}

var sink int
