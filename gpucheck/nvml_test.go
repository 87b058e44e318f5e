//go:build linux && cgo

package gpucheck

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxa100"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh100"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh200"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
)

// idle gives every device of s no compute process (the mocks leave
// GetComputeRunningProcesses unset, and an unset mock method panics).
func idle(s *server.Server) *server.Server {
	for _, d := range s.Devices {
		d.(*server.Device).GetComputeRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) { return nil, nvml.SUCCESS }
	}
	s.SystemGetProcessNameFunc = func(pid int) (string, nvml.Return) { return "", nvml.ERROR_NOT_FOUND }
	return s
}

func TestProbeServers(t *testing.T) {
	tests := []struct {
		name    string
		s       *server.Server
		gpuName string
		cc      string
	}{
		{"dgxa100", dgxa100.New(), "NVIDIA A100-SXM4-40GB", "8.0"},
		{"dgxh100", dgxh100.New(), "NVIDIA H100 80GB HBM3", "9.0"},
		{"dgxh200", dgxh200.New(), "NVIDIA H200 141GB HBM3e", "9.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProbe(idle(tt.s))
			h := p.Static()
			if !h.Available || h.Reason != "" || h.Source != SourceNVML || h.Name != "local" {
				t.Fatalf("host = %+v", h)
			}
			if h.Driver != "550.54.15" || h.CUDADriver != "12.4" || h.NVML != "12.550.54.15" {
				t.Errorf("driver %q cuda %q nvml %q", h.Driver, h.CUDADriver, h.NVML)
			}
			if len(h.GPUs) != 8 {
				t.Fatalf("%d GPUs, want 8", len(h.GPUs))
			}
			for i, g := range h.GPUs {
				dev := tt.s.Devices[i].(*server.Device)
				if g.Index != i || g.Name != dev.Config.Name || !strings.Contains(g.Name, tt.gpuName) || g.CC != tt.cc || g.UUID != dev.UUID || g.MIG {
					t.Errorf("GPU %d = %+v", i, g)
				}
				if g.MemoryTotal != dev.Config.MemoryMB<<20 {
					t.Errorf("GPU %d memory %d, want %d", i, g.MemoryTotal, dev.Config.MemoryMB<<20)
				}
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if n := len(tt.s.ShutdownCalls()); n != 1 {
				t.Errorf("Shutdown called %d times, want 1", n)
			}
		})
	}
}

func TestProbeProcessesAndMIG(t *testing.T) {
	s := idle(dgxa100.New())
	d0 := s.Devices[0].(*server.Device)
	d0.GetComputeRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) {
		return []nvml.ProcessInfo{{Pid: 4121, UsedGpuMemory: 9 << 30}, {Pid: 77, UsedGpuMemory: 1 << 30}}, nvml.SUCCESS
	}
	d0.MemoryInfo = nvml.Memory{Total: 40 << 30, Free: 30 << 30, Used: 10 << 30}
	s.SystemGetProcessNameFunc = func(pid int) (string, nvml.Return) {
		if pid == 4121 {
			return "/usr/bin/python3", nvml.SUCCESS
		}
		return "", nvml.ERROR_NO_PERMISSION // another user's process
	}
	// GPU 1 in MIG mode with one instance; GPU 2 has no MIG at all.
	d1 := s.Devices[1].(*server.Device)
	d1.MigMode = nvml.DEVICE_MIG_ENABLE
	mig := &mock.Device{
		GetUUIDFunc:       func() (string, nvml.Return) { return "MIG-5c6c3a2e-8c2b-5a5c-9f3e-2b1c0d9e8f7a", nvml.SUCCESS },
		GetMemoryInfoFunc: func() (nvml.Memory, nvml.Return) { return nvml.Memory{Total: 5 << 30}, nvml.SUCCESS },
	}
	d1.GetMaxMigDeviceCountFunc = func() (int, nvml.Return) { return 7, nvml.SUCCESS }
	d1.GetMigDeviceHandleByIndexFunc = func(i int) (nvml.Device, nvml.Return) {
		if i == 0 {
			return mig, nvml.SUCCESS
		}
		return nil, nvml.ERROR_NOT_FOUND
	}
	s.Devices[2].(*server.Device).GetMigModeFunc = func() (int, int, nvml.Return) { return 0, 0, nvml.ERROR_NOT_SUPPORTED }

	h := NewProbe(s).Static()
	g0 := h.GPUs[0]
	if len(g0.Processes) != 2 || g0.Processes[0] != (Process{4121, "/usr/bin/python3", 9 << 30}) || g0.Processes[1] != (Process{77, "", 1 << 30}) {
		t.Errorf("processes = %+v", g0.Processes)
	}
	if g0.MemoryFree != 30<<30 || g0.MemoryUsed != 10<<30 {
		t.Errorf("memory = %+v", g0)
	}
	if g1 := h.GPUs[1]; !g1.MIG || len(g1.MIGDevices) != 1 || g1.MIGDevices[0].UUID != "MIG-5c6c3a2e-8c2b-5a5c-9f3e-2b1c0d9e8f7a" || g1.MIGDevices[0].MemoryTotal != 5<<30 {
		t.Errorf("MIG GPU = %+v", g1)
	}
	if h.GPUs[2].MIG {
		t.Error("ERROR_NOT_SUPPORTED read as MIG enabled")
	}
	// The selected MIG device's GPU is the one a job runs on.
	if sel := SelectVisible(h, "MIG-5c6c", true); len(sel.GPUs) != 1 || sel.GPUs[0].Index != 1 {
		t.Errorf("MIG selection = %v", indices(sel))
	}
	ds := Check(stack("2.1.0", "12.1", "wheel"), h, nil, CheckOptions{})
	if got := codes(ds); got != "EG405,EG406" {
		t.Errorf("codes = %q; %v", got, ds)
	}
}

func TestProbeInitFailures(t *testing.T) {
	tests := []struct {
		ret    nvml.Return
		reason string
	}{
		{nvml.ERROR_LIBRARY_NOT_FOUND, "no NVIDIA driver: libnvidia-ml.so.1 not found"},
		{nvml.ERROR_DRIVER_NOT_LOADED, "driver not loaded"},
		{nvml.ERROR_NO_PERMISSION, "no permission"},
		{nvml.ERROR_LIB_RM_VERSION_MISMATCH, "driver/library version mismatch"},
		{nvml.ERROR_UNKNOWN, "NVML failed to start: unknown error"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			// A bare mock: any call after the failed Init panics.
			lib := &mock.Interface{InitFunc: func() nvml.Return { return tt.ret }}
			p := NewProbe(lib)
			h := p.Static()
			if h.Available || !strings.Contains(h.Reason, tt.reason) || len(h.GPUs) != 0 || h.GPUs == nil {
				t.Fatalf("host = %+v", h)
			}
			if h2 := p.Refresh(); h2.Available {
				t.Error("Refresh after a failed Init")
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if n := len(lib.InitCalls()); n != 1 {
				t.Errorf("Init called %d times", n)
			}
			ds := Check(stack("2.1.0", "12.1", "wheel"), h, nil, CheckOptions{})
			if codes(ds) != "EG404" || !strings.Contains(ds[0].Message, tt.reason) {
				t.Errorf("check = %v", ds)
			}
		})
	}
}

func TestProbeNoDevice(t *testing.T) {
	s, _ := server.New(server.WithDriverVersion("580.65.06"), server.WithNVMLVersion("13.580.65.06"), server.WithCUDADriverVersion(13000))
	p := NewProbe(s)
	h := p.Static()
	if h.Available || h.Reason != "no NVIDIA device" || h.CUDADriver != "13.0" || h.Driver != "580.65.06" {
		t.Fatalf("host = %+v", h)
	}
	p.Close()
	if n := len(s.ShutdownCalls()); n != 1 {
		t.Errorf("Shutdown called %d times after a good Init, want 1", n)
	}
}

func TestProbeDeviceErrors(t *testing.T) {
	s := idle(dgxh100.New())
	s.DeviceGetCountFunc = func() (int, nvml.Return) { return 0, nvml.ERROR_UNKNOWN }
	if h := NewProbe(s).Static(); h.Available || !strings.Contains(h.Reason, "cannot count") {
		t.Errorf("count failure: %+v", h)
	}
	s = idle(dgxh100.New())
	s.DeviceGetHandleByIndexFunc = func(i int) (nvml.Device, nvml.Return) {
		if i == 1 {
			return nil, nvml.ERROR_NO_PERMISSION
		}
		return s.Devices[i], nvml.SUCCESS
	}
	h := NewProbe(s).Static()
	if !h.Available || len(h.GPUs) != 7 || h.GPUs[1].Index != 2 || !strings.Contains(strings.Join(h.Notes, ";"), "GPU 1 skipped: no permission") {
		t.Errorf("one GPU refused: %+v", h)
	}
	s = idle(dgxh100.New())
	s.DeviceGetHandleByIndexFunc = func(int) (nvml.Device, nvml.Return) { return nil, nvml.ERROR_GPU_IS_LOST }
	if h := NewProbe(s).Static(); h.Available || !strings.Contains(h.Reason, "GPU is lost") {
		t.Errorf("every GPU lost: %+v", h)
	}
}

func TestProbeRefreshRate(t *testing.T) {
	s := idle(dgxh200.New())
	d0 := s.Devices[0].(*server.Device)
	p := NewProbe(s)
	now := time.Unix(1000, 0)
	p.now = func() time.Time { return now }
	if h := p.Static(); h.GPUs[0].MemoryUsed != 0 {
		t.Fatalf("initial memory %+v", h.GPUs[0])
	}
	reads := len(d0.GetMemoryInfoCalls())
	d0.MemoryInfo.Used = 7 << 30
	if h := p.Refresh(); h.GPUs[0].MemoryUsed != 0 || len(d0.GetMemoryInfoCalls()) != reads {
		t.Error("Refresh read NVML again within RefreshInterval")
	}
	now = now.Add(RefreshInterval)
	if h := p.Refresh(); h.GPUs[0].MemoryUsed != 7<<30 {
		t.Errorf("Refresh after RefreshInterval: used %d", h.GPUs[0].MemoryUsed)
	}
	// Static never re-initialises.
	p.Static()
	if n := len(s.InitCalls()); n != 1 {
		t.Errorf("Init called %d times", n)
	}
	// Copies are the caller's own.
	h := p.Static()
	h.GPUs[0].Name = "changed"
	if p.Static().GPUs[0].Name == "changed" {
		t.Error("Static returned the cached host itself")
	}
}

func TestProbeConcurrent(t *testing.T) {
	s := idle(dgxa100.New())
	p := NewProbe(s)
	var mu sync.Mutex
	now := time.Unix(0, 0)
	p.now = func() time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(300 * time.Millisecond); return now }
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if h := p.Refresh(); len(h.GPUs) != 8 {
					t.Errorf("%d GPUs", len(h.GPUs))
				}
				_ = p.Static()
			}
		}()
	}
	wg.Wait()
	p.Close()
	if n := len(s.InitCalls()); n != 1 {
		t.Errorf("Init called %d times under concurrency", n)
	}
}

// TestRealNVML runs the real library loader: on a machine without a driver
// (CI, this one) it must give a plain reason, not a panic.
func TestRealNVML(t *testing.T) {
	p := NewLocalProbe()
	defer p.Close()
	h := p.Static()
	var tb strings.Builder
	WriteTable(&tb, p.Refresh())
	t.Logf("envguard gpu:\n%s", tb.String())
	if h.Available {
		t.Logf("a driver is present: %s, CUDA %s, %d GPUs", h.Driver, h.CUDADriver, len(h.GPUs))
		if h.Driver == "" || len(h.GPUs) == 0 {
			t.Errorf("available but empty: %+v", h)
		}
		return
	}
	t.Logf("reason: %s", h.Reason)
	if h.Reason == "" {
		t.Fatal("no driver and no reason")
	}
	if !strings.Contains(h.Reason, "libnvidia-ml.so.1 not found") && !strings.Contains(h.Reason, "no NVIDIA device") && !strings.Contains(h.Reason, "driver") {
		t.Errorf("unexpected reason %q", h.Reason)
	}
}
