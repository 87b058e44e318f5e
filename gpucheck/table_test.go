package gpucheck

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

func tableHost() *Host {
	h := fourGPUs()
	h.NVML = "13.580.65.06"
	for i := range h.GPUs {
		h.GPUs[i].MemoryTotal = 80 << 30
		h.GPUs[i].MemoryUsed = 512 << 20
	}
	h.GPUs[0].MemoryUsed = 30 << 30
	for i := range h.GPUs {
		h.GPUs[i].MemoryFree = h.GPUs[i].MemoryTotal - h.GPUs[i].MemoryUsed
	}
	h.GPUs[0].Processes = []Process{{PID: 4121, Name: "/usr/bin/python3", UsedMemory: 29 << 30}, {PID: 77, UsedMemory: 1 << 30}}
	return h
}

func TestWriteTable(t *testing.T) {
	tests := []struct {
		file string
		h    *Host
	}{
		{"table_gpus.txt", tableHost()},
		{"table_nodriver.txt", &Host{Name: "local", Source: SourceNVML, Reason: "no NVIDIA driver: libnvidia-ml.so.1 not found"}},
		{"table_novisible.txt", SelectVisible(tableHost(), "", true)},
		{"table_override.txt", ApplyOverrides(tableHost(), env("CONDA_OVERRIDE_CUDA", "12.4", "CONDA_OVERRIDE_CUDA_ARCH", "bad"))},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTable(&b, tt.h); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tt.file), b.Bytes())
		})
	}
}

func TestHostJSON(t *testing.T) {
	b, err := json.MarshalIndent(tableHost(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "host.json"), append(b, '\n'))
	// The report's field names (DESIGN.md) must not drift.
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "driver", "cuda_driver", "gpus"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in host JSON", k)
		}
	}
	g := m["gpus"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "compute_capability", "uuid", "memory_total"} {
		if _, ok := g[k]; !ok {
			t.Errorf("no %q in GPU JSON", k)
		}
	}
	r, _ := json.Marshal(TargetResult{Name: "local", Driver: "580.65.06", CUDADriver: "13.0", GPUs: []GPUSummary{{"NVIDIA H200", "9.0"}}, Verdict: VerdictOK})
	const want = `{"name":"local","driver":"580.65.06","cuda_driver":"13.0","gpus":[{"name":"NVIDIA H200","compute_capability":"9.0"}],"verdict":"ok"}`
	if string(r) != want {
		t.Errorf("target JSON\n got %s\nwant %s", r, want)
	}
}
