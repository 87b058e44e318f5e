package gpucheck

import (
	"bytes"
	"fmt"
	"github.com/envguard/envguard/resolver/kb"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

// TestTargetsGolden parses every testdata/targets/*.yml and compares what
// was read (targets, their hosts, and every error with its position) with
// the .out file beside it.
func TestTargetsGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/targets/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		if filepath.Ext(f) == ".out" {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := describeTargets(f, src)
			golden.Check(t, strings.TrimSuffix(f, filepath.Ext(f))+".out", []byte(got))
			isErr := strings.HasPrefix(filepath.Base(f), "err_")
			if hasErr := strings.Contains(got, "error: "); hasErr != isErr {
				t.Errorf("errors reported: %v, want %v", hasErr, isErr)
			}
		})
	}
}

func describeTargets(file string, src []byte) string {
	var b bytes.Buffer
	ts, err := ParseTargets(filepath.Base(file), src)
	for _, tg := range ts {
		fmt.Fprintf(&b, "target %s at %s: driver=%q cuda_driver=%q gpus=%q ccs=%q no_driver=%v\n",
			tg.Name, tg.Pos, tg.Driver, tg.CUDADriver, tg.GPUs, tg.CCs, tg.NoDriver)
		if tg.Nodes > 0 {
			fmt.Fprintf(&b, "  nodes: %d\n", tg.Nodes)
		}
		h, herr := tg.host(testKB)
		fmt.Fprintf(&b, "  host: available=%v driver=%s assumed=%v cuda=%s reason=%q\n", h.Available, h.Driver, h.DriverAssumed, h.CUDADriver, h.Reason)
		for _, g := range h.GPUs {
			fmt.Fprintf(&b, "  gpu %d: %s %s\n", g.Index, g.Name, g.CC)
		}
		if herr != nil {
			for _, l := range strings.Split(herr.Error(), "\n") {
				fmt.Fprintf(&b, "  host error: %s\n", l)
			}
		}
	}
	if err != nil {
		for _, l := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(&b, "error: %s\n", l)
		}
	}
	return b.String()
}

func TestParseTargetsPositions(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // the first error, file:line:col: message
	}{
		{"unknown key", "targets:\n  - name: a\n    drvier: \"1.2\"\n", `t.yml:3:5: unknown key "drvier" in a target (expected one of: compute_capabilities, cuda_driver, driver, gpus, name)`},
		{"bad driver", "targets:\n  - name: a\n    driver: abc\n", `t.yml:3:13: driver "abc" is not a driver version like 550.54.15, or a range like ">=535.54, <560"`},
		{"bad cc", "targets:\n  - name: a\n    cuda_driver: \"12.4\"\n    compute_capabilities: [\"9.0\", \"x\"]\n", `t.yml:4:35: compute capability "x" is not major.minor like 9.0`},
		{"no driver", "targets:\n  - name: a\n    gpus: [H100]\n", `t.yml:2:5: target "a" needs driver (e.g. "550.54.15", or none for a machine with no NVIDIA driver) or cuda_driver (e.g. "12.4")`},
		{"empty driver", "targets:\n  - name: a\n    driver: \"\"\n", `t.yml:3:13: driver is empty: give a version, or none for a machine with no NVIDIA driver`},
		{"null driver", "targets:\n  - name: a\n    driver:\n", `t.yml:3:12: driver is empty: give a version, or none for a machine with no NVIDIA driver`},
		{"none and a version", "targets:\n  - name: a\n    driver: none\n    cuda_driver: \"12.4\"\n", `t.yml:2:5: target "a" says driver: none (no NVIDIA driver) and also gives a driver version; keep one`},
		{"driver nonee", "targets:\n  - name: a\n    driver: nonee\n", `t.yml:3:13: driver "nonee" is not a driver version like 550.54.15, or a range like ">=535.54, <560"`},
		{"duplicate", "targets:\n  - {name: a, driver: \"550.54.15\"}\n  - {name: a, driver: \"550.54.15\"}\n", `t.yml:3:12: target "a" is already defined at line 2`},
		{"yaml syntax", "targets:\n  - name: [a\n", `t.yml:1: invalid YAML: did not find expected ',' or ']'`},
		{"not a mapping", "- a\n", `t.yml:1:1: expected a mapping with a targets: list, got a list`},
		{"empty", "", `t.yml:1:1: empty file: expected a targets: list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTargets("t.yml", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			first := strings.SplitN(err.Error(), "\n", 2)[0]
			if first != tt.want {
				t.Errorf("error\n got %s\nwant %s", first, tt.want)
			}
		})
	}
}

// TestParseTargetsNoDriver: `driver: none` (and `cuda_driver: none`, any
// case) describes a machine without an NVIDIA driver on purpose; its Host is
// unavailable with a reason that names the key.
func TestParseTargetsNoDriver(t *testing.T) {
	for _, src := range []string{
		"targets:\n  - name: cpu\n    driver: none\n",
		"targets:\n  - name: cpu\n    driver: None\n    gpus: []\n",
		"targets:\n  - name: cpu\n    cuda_driver: NONE\n",
	} {
		ts, err := ParseTargets("t.yml", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if len(ts) != 1 || !ts[0].NoDriver || ts[0].Driver != "" || ts[0].CUDADriver != "" {
			t.Fatalf("%q: targets = %+v", src, ts)
		}
		h, err := ts[0].host(testKB)
		if err != nil {
			t.Fatal(err)
		}
		if h.Available || !strings.Contains(h.Reason, "no NVIDIA driver (") || len(h.GPUs) != 0 {
			t.Errorf("%q: host = %+v", src, h)
		}
	}
}

func TestTargetHost(t *testing.T) {
	h, err := Target{Name: "x", Driver: "470.57.02", GPUs: []string{"h100", "NVIDIA A100-SXM4-40GB"}, CCs: []string{"12.0"}}.host(testKB)
	if err != nil {
		t.Fatal(err)
	}
	if h.CUDADriver != "11.4" || h.DriverAssumed || h.Source != SourceTarget || !h.Available {
		t.Errorf("host = %+v", h)
	}
	want := []GPU{{Index: 0, Name: "H100", CC: "9.0"}, {Index: 1, Name: "A100", CC: "8.0"}, {Index: 2, Name: "compute capability 12.0", CC: "12.0"}}
	if fmt.Sprint(h.GPUs) != fmt.Sprint(want) {
		t.Errorf("GPUs = %+v", h.GPUs)
	}
	_, err = Target{Name: "x", Driver: "550.54.15", GPUs: []string{"H1000"}}.host(testKB)
	if err == nil || !strings.Contains(err.Error(), `unknown GPU model "H1000"`) || !strings.Contains(err.Error(), "compute_capabilities") {
		t.Errorf("unknown model: %v", err)
	}
	// A name several models share names them all (the embedded table has
	// the Quadro, Ada and Blackwell RTX 6000).
	_, err = Target{Name: "x", Driver: "550.54.15", GPUs: []string{"RTX 6000"}}.Host(kb.Default())
	if err == nil || !strings.Contains(err.Error(), "ambiguous") || !strings.Contains(err.Error(), "(8.9)") || !strings.Contains(err.Error(), "compute_capabilities") {
		t.Errorf("ambiguous model: %v", err)
	}
	// A driver older than every floor is still a driver: the target is
	// read, and the check says what it cannot run (EG401).
	h, err = Target{Name: "x", Driver: "300.1", CCs: []string{"3.7"}}.host(testKB)
	if err != nil || !h.Available || h.DriverBelowKB != "11.0" || h.DriverBelowFloor != "450.51.05" {
		t.Fatalf("ancient driver: %+v, %v", h, err)
	}
	ds, _ := checkT(stack("1.3.1", "10.0", kb.DistPytorchConda), h, testKB, CheckOptions{})
	if !strings.Contains(codes(ds), "EG401") {
		t.Errorf("ancient driver: no EG401 in %v", ds)
	}
}

func FuzzParseTargets(f *testing.F) {
	files, _ := filepath.Glob("testdata/targets/*")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && filepath.Ext(p) != ".out" {
			f.Add(b)
		}
	}
	f.Add([]byte("targets: [{name: a, driver: 1.2, gpus: [&x H100, *x]}]"))
	f.Fuzz(func(t *testing.T, src []byte) {
		ts, err := ParseTargets("f.yml", src)
		if err != nil {
			for _, e := range err.(TargetErrors) {
				if e.Pos.File != "f.yml" || e.Msg == "" {
					t.Fatalf("error without place or words: %+v", e)
				}
			}
		}
		for _, tg := range ts {
			if _, herr := tg.host(testKB); herr != nil && herr.Error() == "" {
				t.Fatal("empty host error")
			}
		}
	})
}

func FuzzSelectVisible(f *testing.F) {
	for _, s := range []string{"", "0,1", "GPU-89", "MIG-5c6c", "0,2,-1,1", "1gpu,2", "0,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		h := SelectVisible(fourGPUs(), v, true)
		seen := map[int]bool{}
		for _, g := range h.GPUs {
			if seen[g.Index] {
				t.Fatalf("GPU %d twice for %q", g.Index, v)
			}
			seen[g.Index] = true
		}
		if len(h.GPUs) > 4 {
			t.Fatalf("%d GPUs from 4", len(h.GPUs))
		}
	})
}
