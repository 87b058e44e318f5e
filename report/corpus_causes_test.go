package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/testshared"
)

// TestCorpusUndecidedCauses: where a real file's check stays open, the
// cause names where the fact would come from. The CUDA toolkit's own
// libraries on a GPU newer than their compiler are a fact no public source
// holds (10.2's on Ampere and Hopper, 11.8's on Blackwell); the 11.8
// libraries conda names by their own versions (libcublas 11.11.3.6) are
// read as CUDA 11.8's, whose measured code decides Hopper; and a CUDA
// jaxlib pip cannot install as written (no find-links page, EG205) leaves
// nothing open: the file fails every target.
func TestCorpusUndecidedCauses(t *testing.T) {
	dir := testshared.Dir(t, "corpus/realworld")
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"k80", "a100", "l4", "h100", "rtx5090"})
	if err != nil {
		t.Fatal(err)
	}
	type open struct{ reason, cause, words string }
	tests := []struct {
		file string
		// target → the open check it must have; "" where the file must
		// leave no check of that reason open there
		want   map[string]open
		reason string
	}{
		{"106.yml", map[string]open{
			"a100": {"cuda-lib-arch-unknown", gpucheck.CauseNoSource, "cublas 10.2 has no code of its own for sm_80 (CUDA 10.2's compiler targets nothing above sm_75)"},
			"l4":   {"cuda-lib-arch-unknown", gpucheck.CauseNoSource, "the CUDA 10.2 libraries have no code of their own for sm_89"},
			"h100": {"cuda-lib-arch-unknown", gpucheck.CauseNoSource, "no public source lists the PTX CUDA 10.2's libraries carry"},
			// Kepler is within CUDA 10.2's compiler: open, and a row may say
			"k80": {"cuda-lib-arch-unknown", gpucheck.CauseKB, "whether the CUDA 10.2 libraries carry code for sm_37 is not known (CUDA 11.8 is the first release known to)"},
		}, "cuda-lib-arch-unknown"},
		{"073.yml", map[string]open{
			"rtx5090": {"cuda-lib-arch-unknown", gpucheck.CauseNoSource, "cublas 11.8 has no code of its own for sm_120 (CUDA 11.8's compiler targets nothing above sm_90)"},
			"h100":    {},
			"k80":     {},
		}, "cuda-lib-arch-unknown"},
		// libcumlprims 23.08 beyond the GPUs RAPIDS' guide supports: its
		// build flags are not public, so no source decides Hopper; the
		// A100 is decided (review fifty-four F23)
		{"073.yml", map[string]open{
			"h100": {"extension-cc-unlisted", gpucheck.CauseNoSource, "libcumlprims 23.08's build flags are not public"},
			"a100": {},
		}, "extension-cc-unlisted"},
		// pip installs nothing of 103 (its jaxlib needs JAX's find-links
		// page): the targets fail on the file, with nothing left open
		{"103.yml", map[string]open{"rtx5090": {}, "a100": {}}, "xla-target-unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(tt.file, src, Options{Platform: "linux-64", Hosts: hosts})
			for _, tg := range r.Targets {
				w, ok := tt.want[tg.Name]
				if !ok {
					continue
				}
				var got *gpucheck.Undecided
				for i, u := range tg.Undecided {
					if u.Reason == tt.reason {
						got = &tg.Undecided[i]
					}
				}
				switch {
				case w.reason == "" && got != nil:
					t.Errorf("target %s: %s left open: %s", tg.Name, tt.reason, got.Why)
				case w.reason == "":
				case got == nil:
					t.Errorf("target %s: no %s open check, want one (%s)", tg.Name, w.reason, verdictText(r))
				case got.Cause != w.cause || !strings.Contains(got.Why, w.words):
					t.Errorf("target %s: %s cause %q, why %q; want cause %q with %q", tg.Name, w.reason, got.Cause, got.Why, w.cause, w.words)
				}
			}
		})
	}
}
