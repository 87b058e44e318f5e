package resolver

import (
	"os"
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
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

// TestEG201PipWheelHint checks review 4 #1023: against conda's CUDA, a pip
// torch wheel is not fixed by moving conda's toolkit to the wheel's CUDA
// (the wheel never loads it). The hint offers the same release's wheel for
// conda's CUDA where the knowledge base's wheel rows list it, with the
// index root the knowledge base gives, and otherwise dropping the
// conda-side package; no edit is made, since which fix is right is the
// user's call.
func TestEG201PipWheelHint(t *testing.T) {
	root := kb.Default().TorchWheelIndexURL()
	tests := []struct {
		name     string
		src      string
		has, not []string
	}{
		{
			// corpus 173: torch 1.11 has a cu113 wheel; torchaudio is the
			// conda build for CUDA 11.3
			name: "wheel exists, conda companion built for conda's CUDA",
			src:  "eg201_pip_wheel_vs_conda_companion",
			has: []string{"install torch==1.11.0+cu113", "--extra-index-url " + root + "cu113", "pin torch==1.11.0+cu113",
				"remove torchaudio=0.11.0=py310_cu113 (line 17) and install torchaudio with pip"},
			not: []string{"use cudatoolkit=10.2"},
		},
		{
			// torch 2.0 has no cu113 wheel (cu117, cu118): nothing to
			// offer but dropping the toolkit the wheel does not use
			name: "no wheel for conda's CUDA, nothing conda-side built for it",
			src:  "eg201_pip_local_vs_cudatoolkit",
			has:  []string{"remove cudatoolkit=11.3 (line 6) unless another conda package needs it"},
			not:  []string{"+cu113", "use cudatoolkit=11.8"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := os.ReadFile(goldenPath(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			env, st, _ := lintFile(t, tt.src+".yml", src)
			ds := ruleEG201.Run(&Context{Env: env, Stack: st, KB: kb.Default()})
			if len(ds) != 1 {
				t.Fatalf("want one EG201, got %v", ds)
			}
			d := ds[0]
			for _, s := range tt.has {
				if !strings.Contains(d.Hint, s) {
					t.Errorf("hint %q lacks %q", d.Hint, s)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(d.Hint+" "+d.Message, s) {
					t.Errorf("finding %q / %q still says %q", d.Message, d.Hint, s)
				}
			}
			if len(d.Edits) > 0 {
				t.Errorf("EG201 on a pip wheel has an edit: %v", d.Edits)
			}
		})
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
	// Beside a pip torch wheel, which never loads conda's CUDA, the hint is
	// the pip-wheel one (TestEG201PipWheelHint): drop the conda side.
	for line, w := range map[int]string{
		6: "remove cuda-runtime=12.1.0 (line 6)",
		7: "remove pytorch-cuda=12.1 (line 7)",
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
