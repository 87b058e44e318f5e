package resolver

import (
	"os"
	"testing"
)

func TestCUDAConflict(t *testing.T) {
	ev := func(says string, atLeast bool) Evidence { return Evidence{Says: says, AtLeast: atLeast} }
	tests := []struct {
		a, b Evidence
		want bool
	}{
		{ev("11.6", false), ev("11.6", false), false},
		{ev("11.6", false), ev("11.3", false), true},
		{ev("11.8", false), ev("12.1", false), true},
		{ev("11.8", true), ev("11.8", false), false},
		{ev("11.2", true), ev("11.8", false), false}, // cuda112 serves every 11.x from 11.2
		{ev("11.8", true), ev("11.3", false), true},
		{ev("11.3", false), ev("11.8", true), true},
		{ev("12.0", true), ev("12.6", true), false},
		{ev("12.0", true), ev("11.8", true), true},
		{ev("12", false), ev("12.4", false), false}, // a major alone agrees with any minor of it
		{ev("12", false), ev("11.8", false), true},
	}
	for _, tt := range tests {
		if got := cudaConflict(tt.a, tt.b); got != tt.want {
			t.Errorf("cudaConflict(%+v, %+v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := cudaConflict(tt.b, tt.a); got != tt.want {
			t.Errorf("cudaConflict is not symmetric for %+v, %+v", tt.a, tt.b)
		}
	}
}

// TestEG201PointsAtBothLines checks seed (b): the finding sits on the
// cudatoolkit version, spans it, and Related points at the pytorch line.
func TestEG201PointsAtBothLines(t *testing.T) {
	src, err := os.ReadFile(goldenPath("seed_b_cudatoolkit_mismatch"))
	if err != nil {
		t.Fatal(err)
	}
	env, st, _ := lintFile(t, "seed_b.yml", src)
	ds := ruleEG201.Run(&Context{Env: env, Stack: st})
	if len(ds) != 1 {
		t.Fatalf("want one EG201, got %v", ds)
	}
	d := ds[0]
	if d.Pos.Line != 8 || d.EndCol <= d.Pos.Col || len(d.Related) != 1 || d.Related[0].Line != 7 {
		t.Errorf("EG201 at %v end %d related %v; want line 8 spanning the version, related line 7", d.Pos, d.EndCol, d.Related)
	}
	if got := env.Line(8)[d.Pos.Col-1 : d.EndCol-1]; got != "=11.3" && got != "11.3" {
		t.Errorf("caret spans %q, want the version", got)
	}
	if d.Hint == "" {
		t.Error("no hint")
	}
}
