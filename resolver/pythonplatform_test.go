package resolver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// eg204On lints a pip torch pin for one platform and returns the EG204
// messages.
func eg204On(t *testing.T, k *kb.KB, torch, python, platform string) []string {
	t.Helper()
	src := fmt.Sprintf("platforms:\n  - %s\ndependencies:\n  - python=%s\n  - pip\n  - pip:\n      - torch==%s\n", platform, python, torch)
	env := envspec.Parse("p.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	ctx := &Context{Env: env, Stack: Resolve(env, k), KB: k}
	ds, err := Check(context.Background(), ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		if d.Code == "EG204" {
			out = append(out, d.Message)
		}
	}
	return out
}

// For every PyPI row of torch_python_builds that names platforms, each
// missing Python fails on each of those platforms, naming the platform,
// and the same pin on linux-64 (where no row lacks it) passes EG204.
func TestEG204PlatformRowsProperty(t *testing.T) {
	k := kb.Default()
	n := 0
	for _, row := range k.TorchPythonBuilds {
		if len(row.Platforms) == 0 || row.Dist != kb.DistPyPI {
			continue
		}
		for _, py := range row.Missing {
			for _, p := range row.Platforms {
				n++
				got := eg204On(t, k, row.Torch, py, p)
				if len(got) != 1 || !strings.Contains(got[0], "on "+p+" ") || !strings.Contains(got[0], "Python "+py) {
					t.Errorf("torch %s, Python %s on %s: EG204 = %q, want one finding naming the platform", row.Torch, py, p, got)
				}
			}
			if _, ok := k.PlatformPythonBuilds(row.Torch, row.Dist, "linux-64"); !ok {
				if got := eg204On(t, k, row.Torch, py, "linux-64"); len(got) != 0 {
					t.Errorf("torch %s, Python %s on linux-64: EG204 = %q, want none", row.Torch, py, got)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no PyPI platform rows in torch_python_builds")
	}
}

// The suggested later release must itself list the Python and have no
// platform row that lacks it.
func TestEG204PlatformSuggestsRelease(t *testing.T) {
	k := kb.Default()
	got := eg204On(t, k, "2.5.1", "3.13", "win-64")
	if len(got) != 1 {
		t.Fatalf("EG204 = %q, want one", got)
	}
	i := strings.Index(got[0], "or pytorch ")
	if i < 0 {
		t.Fatalf("no later release suggested: %q", got[0])
	}
	v := strings.Fields(got[0][i+len("or pytorch "):])[0]
	v = strings.TrimSuffix(v, ",")
	r, ok := k.Release(v)
	if !ok || !slices.Contains(r.Python, "3.13") {
		t.Fatalf("suggested %s does not list Python 3.13", v)
	}
	if row, ok := k.PlatformPythonBuilds(v, kb.DistPyPI, "win-64"); ok && !row.Supports("3.13", r.Python, r.PythonExperimental) {
		t.Fatalf("suggested %s lacks Python 3.13 on win-64", v)
	}
}
