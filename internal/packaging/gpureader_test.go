package packaging

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestGPUReaderChild runs the built envguard as a user does: `gpu --json`
// reads the GPUs through a child of the binary (`__read-gpus`), and what it
// prints is the child's reading, whatever this machine has (no driver in
// CI: the same "no NVIDIA driver" reason from both).
func TestGPUReaderChild(t *testing.T) {
	bin := filepath.Join(binDir, "envguard")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CUDA_VISIBLE_DEVICES=") && !strings.HasPrefix(kv, "CONDA_OVERRIDE_") {
			env = append(env, kv)
		}
	}
	read := func(args ...string) map[string]any {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil && len(out) == 0 {
			t.Fatalf("envguard %v: %v", args, err)
		}
		var h map[string]any
		if err := json.Unmarshal(out, &h); err != nil {
			t.Fatalf("envguard %v printed %q: %v", args, out, err)
		}
		// Memory and processes change between two readings.
		for _, g := range asSlice(h["gpus"]) {
			if m, ok := g.(map[string]any); ok {
				delete(m, "memory_free")
				delete(m, "memory_used")
				delete(m, "processes")
			}
		}
		return h
	}
	child := read("__read-gpus")
	parent := read("gpu", "--json")
	if child["source"] != "nvml" || child["name"] != "local" {
		t.Fatalf("__read-gpus printed %v, want the local NVML reading", child)
	}
	if !reflect.DeepEqual(parent, child) {
		t.Fatalf("gpu --json printed\n%v\nthe child read\n%v", parent, child)
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
