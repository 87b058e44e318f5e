package lockfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

// Every collect_env output under testdata/collectenv (real pastes from
// public threads, SOURCES.tsv) is read into the facts and the Env it
// gives, held to the .out beside it.
func TestCollectEnvGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/collectenv/*.txt")
	if len(files) < 5 {
		t.Fatalf("%d collect_env fixtures, want at least 5", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if !IsCollectEnv(src) || SniffFile(filepath.Base(f), src) != "collect_env" {
				t.Fatalf("not sniffed as collect_env")
			}
			var b strings.Builder
			ce, err := ParseCollectEnv(filepath.Base(f), src)
			if err != nil {
				fmt.Fprintf(&b, "error: %v\n", err)
			}
			for _, fc := range []struct {
				k string
				v Fact
			}{{"torch", ce.Torch}, {"torch_cuda", ce.TorchCUDA}, {"python", ce.Python}, {"platform", ce.PythonPlat},
				{"driver", ce.Driver}, {"driver_cuda", ce.DriverCUDA}} {
				if fc.v.Value != "" {
					fmt.Fprintf(&b, "%s: %q at %d:%d\n", fc.k, fc.v.Value, fc.v.Pos.Line, fc.v.Pos.Col)
				}
			}
			for _, g := range ce.GPUs {
				fmt.Fprintf(&b, "gpu: %q at %d:%d\n", g.Value, g.Pos.Line, g.Pos.Col)
			}
			env := ReadCollectEnv(filepath.Base(f), src, Options{})
			fmt.Fprintf(&b, "env: kind=%s platform=%s python=%s", env.Kind, env.Platform, env.PythonVersion)
			if env.Torch != nil {
				fmt.Fprintf(&b, " torch=%s cuda=%q", env.Torch.Version, env.Torch.CUDA)
			}
			b.WriteString("\n")
			for _, p := range env.Pip {
				fmt.Fprintf(&b, "pip: %s==%s at %d:%d\n", p.Installed.Name, p.Installed.Version, p.Raw.Pos.Line, p.Raw.Pos.Col)
			}
			for _, d := range env.Deps {
				fmt.Fprintf(&b, "conda: %s %s %s %s at %d:%d\n", d.Installed.Name, d.Installed.Version, d.Installed.Build, d.Installed.Channel, d.Raw.Pos.Line, d.Raw.Pos.Col)
			}
			for _, n := range env.Notes {
				fmt.Fprintf(&b, "note: %s\n", n)
			}
			for _, d := range env.Diags {
				fmt.Fprintf(&b, "diag: %s %s\n", d.Code, d.Message)
			}
			golden.Check(t, strings.TrimSuffix(f, ".txt")+".out", []byte(b.String()))
		})
	}
}

// What is not collect_env is not taken for it, and a paste with neither
// a version line nor a torch in its library list is EG100, not a guess.
func TestCollectEnvNotOthers(t *testing.T) {
	for _, src := range []string{
		"torch==2.1.0\nnumpy\n",
		"name: x\ndependencies:\n  - pytorch\n# PyTorch version: 2.1\n",
		"PyTorch version: 2.1.0\n", // alone, it could be anything
	} {
		if IsCollectEnv([]byte(src)) {
			t.Errorf("%q sniffed as collect_env", src)
		}
	}
	env := ReadCollectEnv("bug.txt", []byte("Versions of relevant libraries:\n[pip3] numpy==1.26.0\nNvidia driver version: 535.104.05\n"), Options{})
	if len(env.Diags) != 1 || env.Diags[0].Code != "EG100" || !strings.Contains(env.Diags[0].Message, "no torch in [pip3]") {
		t.Errorf("diags %v", env.Diags)
	}
}

func FuzzParseCollectEnv(f *testing.F) {
	files, _ := filepath.Glob("testdata/collectenv/*.txt")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ce, err := ParseCollectEnv("f.txt", src)
		if err == nil && ce.Torch.Value == "" {
			t.Fatal("no error and no torch")
		}
		env := ReadCollectEnv("f.txt", src, Options{})
		for _, p := range env.Pip {
			if p.Raw.Pos.Line < 1 || p.Installed == nil {
				t.Fatalf("pip line without place: %+v", p)
			}
		}
	})
}
