package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestRowMedianAndSpread(t *testing.T) {
	r := row("pipeline", "decode", "≤ 3.0×", []float64{4, 2, 3, 10, 1}, 3, "")
	if r.Median != 3 || r.Min != 1 || r.Max != 10 || r.Runs != 5 || r.Met == nil || !*r.Met {
		t.Errorf("row = %+v", r)
	}
	r = row("x", "y", "≤ 2×", []float64{2.5, 2.1}, 2, "")
	if r.Median != 2.3 || *r.Met {
		t.Errorf("even count: median %v met %v", r.Median, *r.Met)
	}
	if r := row("x", "y", "report", []float64{1}, 0, ""); r.Met != nil {
		t.Error("a row without a limit has a verdict")
	}
}

// TestRatiosAlternate: each round times the baseline then the subject, and
// the ratio is subject over baseline.
func TestRatiosAlternate(t *testing.T) {
	var order []string
	rs, as, bs := ratios(3,
		func() time.Duration { order = append(order, "a"); return 30 },
		func() time.Duration { order = append(order, "b"); return 10 })
	if strings.Join(order, "") != "bababa" || len(rs) != 3 || rs[0] != 3 || as[0] != 30 || bs[0] != 10 {
		t.Errorf("order %v, ratios %v", order, rs)
	}
}

func TestTableSaysSkipped(t *testing.T) {
	var b bytes.Buffer
	yes := true
	writeTable(&b, []Row{
		{Name: "cli", Baseline: "actionlint", Goal: "≤ 2.0×", Median: 1.5, Min: 1.4, Max: 1.6, Runs: 5, Met: &yes, Detail: "5 ms vs 3 ms"},
		{Name: "check vs torch collect_env", Skipped: "torch is not importable by python3"},
	})
	out := b.String()
	for _, want := range []string{"| cli", "1.50×", "1.40–1.60", "yes", "skipped: torch is not importable"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
