package gpucheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The child the tests start is this test binary again, told by
// childModeEnv what to do in place of running the tests.
const childModeEnv = "GPUCHECK_TEST_CHILD_MODE"

var childHost = &Host{
	Name: "local", Available: true, Driver: "580.159.04", CUDADriver: "13.0", NVML: "13.580.159.04", Source: SourceNVML,
	GPUs: []GPU{{Index: 0, Name: "NVIDIA H100 80GB HBM3", UUID: "GPU-1", CC: "9.0", MemoryTotal: 85 << 30, MemoryFree: 80 << 30, MemoryUsed: 5 << 30,
		Processes: []Process{{PID: 42, Name: "python", UsedMemory: 5 << 30}}, MIG: true, MIGDevices: []MIGDevice{{Index: 0, UUID: "MIG-1", MemoryTotal: 10 << 30}}}},
	Notes: []string{"GPU 1 skipped: no permission"},
}

func init() {
	mode := os.Getenv(childModeEnv)
	if mode == "" {
		return
	}
	switch mode {
	case "host":
		_ = json.NewEncoder(os.Stdout).Encode(childHost)
	case "nodriver":
		_ = WriteHost(os.Stdout, newProbe(noDriverSource{}))
	case "crash":
		fmt.Fprintln(os.Stderr, "some detail\nlibnvidia-ml.so.1: segmentation fault")
		os.Exit(2)
	case "garbage":
		fmt.Println("not json")
	case "target":
		_ = json.NewEncoder(os.Stdout).Encode(&Host{Name: "h100", Source: SourceTarget})
	case "huge":
		os.Stdout.Write(bytes.Repeat([]byte(" "), maxChildOutput+1))
	case "hang":
		time.Sleep(time.Minute)
	}
	os.Exit(0)
}

// noDriverSource reads as NVML does where libnvidia-ml.so.1 is missing.
type noDriverSource struct{}

func (noDriverSource) static() *Host {
	return &Host{Name: "local", Source: SourceNVML, Reason: "no NVIDIA driver: libnvidia-ml.so.1 not found", GPUs: []GPU{}}
}
func (noDriverSource) refresh(*Host) {}
func (noDriverSource) close() error  { return nil }

func childProbe(t *testing.T, mode string, timeout time.Duration) *Probe {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no path to the test binary:", err)
	}
	t.Setenv(childModeEnv, mode)
	return newProbe(&childSource{exe: exe, timeout: timeout})
}

func TestChildProbeReadsTheChildsHost(t *testing.T) {
	p := childProbe(t, "host", ChildTimeout)
	got := p.Static()
	if !reflect.DeepEqual(got, childHost) {
		t.Fatalf("the child's host came back as\n%+v\nwant\n%+v", got, childHost)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestChildProbeKeepsTheNoDriverReason(t *testing.T) {
	got := childProbe(t, "nodriver", ChildTimeout).Static()
	if got.Available || got.Reason != "no NVIDIA driver: libnvidia-ml.so.1 not found" || got.Source != SourceNVML || got.GPUs == nil {
		t.Fatalf("got %+v, want the child's reading: unavailable, its reason, no GPUs", got)
	}
}

func TestChildProbeRefreshCopiesMemoryAndProcesses(t *testing.T) {
	src := &childSource{timeout: ChildTimeout}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	src.exe = exe
	t.Setenv(childModeEnv, "host")
	h := childHost.Clone()
	h.GPUs[0].MemoryFree, h.GPUs[0].Processes = 1, nil
	src.refresh(h)
	if h.GPUs[0].MemoryFree != childHost.GPUs[0].MemoryFree || len(h.GPUs[0].Processes) != 1 {
		t.Fatalf("refresh left %+v", h.GPUs[0])
	}
	h.GPUs[0].UUID, h.GPUs[0].MemoryFree = "GPU-other", 1
	src.refresh(h)
	if h.GPUs[0].MemoryFree != 1 {
		t.Fatal("refresh copied the reading of another GPU")
	}
}

func TestChildProbeFailuresAreReasons(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		timeout time.Duration
		want    []string
	}{
		{"crash", ChildTimeout, []string{"failed: exit status 2", "libnvidia-ml.so.1: segmentation fault", "a child process that reads NVML"}},
		{"garbage", ChildTimeout, []string{"printed no host"}},
		{"target", ChildTimeout, []string{"not this machine's NVML reading", `"h100"`}},
		{"huge", ChildTimeout, []string{"printed more than"}},
		{"hang", 300 * time.Millisecond, []string{"NVML did not answer within 300ms", "was stopped"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			got := childProbe(t, tc.mode, tc.timeout).Static()
			if got.Available || got.Name != "local" || got.Source != SourceNVML || got.GPUs == nil {
				t.Fatalf("got %+v, want an unavailable local host", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got.Reason, w) {
					t.Errorf("reason %q lacks %q", got.Reason, w)
				}
			}
		})
	}
}

func TestChildProbeCannotStart(t *testing.T) {
	p := newProbe(&childSource{exe: "/nonexistent/envguard", args: []string{"__read-gpus"}, timeout: ChildTimeout})
	got := p.Static()
	if got.Available || !strings.Contains(got.Reason, "cannot start envguard's GPU reader (/nonexistent/envguard __read-gpus") {
		t.Fatalf("got %+v", got)
	}
}
