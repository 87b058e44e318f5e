package resolver

import (
	"os"
	"strings"
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

// TestEG201HintsOnlyInstallablePins: the fix never proposes a pytorch-cuda
// the pytorch channel never published (its pytorch-cuda ends at 12.4), nor
// a cuda-runtime / cuda-cudart that a pytorch-cuda of another minor in the
// file pins to its own (review r7 #110, corpus 016).
func TestEG201HintsOnlyInstallablePins(t *testing.T) {
	src := "channels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n  - cuda-runtime=12.1.0\n  - pytorch-cuda=12.1\n  - pip\n  - pip:\n    - torch==2.7.0\n"
	_, ds := lintSrc(t, src)
	got := map[int]string{}
	for _, d := range findingsOf(ds, "EG201") {
		got[d.Pos.Line] = d.Hint
	}
	for line, w := range map[int]string{
		6: "cuda-runtime=12.6 cannot be installed beside pytorch-cuda=12.1 (line 7), which requires cuda-runtime 12.1.x, and there is no pytorch-cuda=12.6",
		7: "there is no pytorch-cuda=12.6 to use",
	} {
		if !strings.Contains(got[line], w) || strings.Contains(got[line], "use pytorch-cuda=12.6") || strings.HasPrefix(got[line], "use cuda-runtime=12.6") {
			t.Errorf("line %d: hint %q, want %q", line, got[line], w)
		}
	}
	// a pytorch-cuda that exists: change both together
	src = "channels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n  - pytorch=2.5.1=*cuda12.4*\n  - cuda-runtime=12.1.0\n  - pytorch-cuda=12.1\n"
	_, ds = lintSrc(t, src)
	var hints []string
	for _, d := range findingsOf(ds, "EG201") {
		hints = append(hints, d.Hint)
	}
	if !strings.Contains(strings.Join(hints, "\n"), "use cuda-runtime=12.4 together with pytorch-cuda=12.4") {
		t.Errorf("hints %q, want cuda-runtime and pytorch-cuda changed together", hints)
	}
}
