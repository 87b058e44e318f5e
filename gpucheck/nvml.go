//go:build linux && cgo

package gpucheck

import (
	"fmt"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// NewProbe reads the host through lib. Production code passes nvml.New();
// tests pass go-nvml's mock servers.
func NewProbe(lib nvml.Interface) *Probe {
	return newProbe(&nvmlSource{lib: lib})
}

// NewLocalProbe reads the local driver through libnvidia-ml.so.1.
func NewLocalProbe() *Probe { return NewProbe(nvml.New()) }

type nvmlSource struct {
	lib     nvml.Interface
	started bool          // Init succeeded: Shutdown is owed
	devs    []nvml.Device // handles of Host.GPUs, same order
}

// initReason turns Init's failure into words. After a failed Init nothing
// else is called: the library may not even be loaded.
func initReason(r nvml.Return) string {
	switch r {
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		return "no NVIDIA driver: libnvidia-ml.so.1 not found"
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return "NVIDIA driver not loaded (the kernel module is not running)"
	case nvml.ERROR_NO_PERMISSION:
		return "no permission to talk to the NVIDIA driver (check /dev/nvidia* access)"
	case nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		return "driver/library version mismatch: the loaded kernel module and libnvidia-ml.so.1 differ (reboot or reload the driver)"
	}
	return "NVML failed to start: " + errorString(r)
}

// errorString names a Return in our own words. Return's Error method is
// rebound to libnvidia-ml's nvmlErrorString once the library is loaded, and
// a probe may outlive the library (after Close); this never calls into it.
func errorString(r nvml.Return) string {
	switch r {
	case nvml.ERROR_UNINITIALIZED:
		return "NVML not initialised"
	case nvml.ERROR_INVALID_ARGUMENT:
		return "invalid argument"
	case nvml.ERROR_NOT_SUPPORTED:
		return "not supported"
	case nvml.ERROR_NO_PERMISSION:
		return "no permission"
	case nvml.ERROR_NOT_FOUND:
		return "not found"
	case nvml.ERROR_INSUFFICIENT_SIZE:
		return "insufficient size"
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return "driver not loaded"
	case nvml.ERROR_TIMEOUT:
		return "timeout"
	case nvml.ERROR_GPU_IS_LOST:
		return "GPU is lost"
	case nvml.ERROR_FUNCTION_NOT_FOUND:
		return "function not found in libnvidia-ml.so.1 (driver too old)"
	case nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		return "driver/library version mismatch"
	case nvml.ERROR_UNKNOWN:
		return "unknown error"
	}
	return fmt.Sprintf("NVML error %d", int32(r))
}

func (s *nvmlSource) static() *Host {
	h := &Host{Name: "local", Source: SourceNVML, GPUs: []GPU{}}
	if r := s.lib.Init(); r != nvml.SUCCESS {
		h.Reason = initReason(r)
		return h
	}
	s.started = true
	if v, r := s.lib.SystemGetDriverVersion(); r == nvml.SUCCESS {
		h.Driver = v
	}
	if v, r := s.lib.SystemGetCudaDriverVersion(); r == nvml.SUCCESS {
		h.CUDADriver = cudaVersion(v)
	}
	if v, r := s.lib.SystemGetNVMLVersion(); r == nvml.SUCCESS {
		h.NVML = v
	}
	n, r := s.lib.DeviceGetCount()
	switch {
	case r != nvml.SUCCESS:
		h.Reason = "cannot count NVIDIA devices: " + errorString(r)
		return h
	case n == 0:
		h.Reason = "no NVIDIA device"
		return h
	}
	for i := 0; i < n; i++ {
		dev, r := s.lib.DeviceGetHandleByIndex(i)
		if r != nvml.SUCCESS {
			// A GPU the driver will not hand out (no permission, lost) is one
			// a job cannot use either: note it and go on with the others.
			h.Notes = append(h.Notes, fmt.Sprintf("GPU %d skipped: %s", i, errorString(r)))
			continue
		}
		g := GPU{Index: i}
		if v, r := dev.GetName(); r == nvml.SUCCESS {
			g.Name = v
		}
		if v, r := dev.GetUUID(); r == nvml.SUCCESS {
			g.UUID = v
		}
		if maj, min, r := dev.GetCudaComputeCapability(); r == nvml.SUCCESS {
			g.CC = fmt.Sprintf("%d.%d", maj, min)
		} else {
			h.Notes = append(h.Notes, fmt.Sprintf("GPU %d: compute capability unreadable: %s", i, errorString(r)))
		}
		// ERROR_NOT_SUPPORTED is the answer of every GPU without MIG.
		if cur, _, r := dev.GetMigMode(); r == nvml.SUCCESS && cur == nvml.DEVICE_MIG_ENABLE {
			g.MIG = true
			g.MIGDevices = s.migDevices(dev)
		}
		s.devs = append(s.devs, dev)
		h.GPUs = append(h.GPUs, g)
	}
	if len(h.GPUs) == 0 {
		h.Reason = "no usable NVIDIA device: " + strings.Join(h.Notes, "; ")
		return h
	}
	h.Available = true
	s.refresh(h)
	return h
}

func (s *nvmlSource) migDevices(dev nvml.Device) []MIGDevice {
	n, r := dev.GetMaxMigDeviceCount()
	if r != nvml.SUCCESS {
		return nil
	}
	var out []MIGDevice
	for i := 0; i < n; i++ {
		m, r := dev.GetMigDeviceHandleByIndex(i)
		if r != nvml.SUCCESS {
			continue // slots without an instance answer NOT_FOUND
		}
		md := MIGDevice{Index: i}
		if v, r := m.GetUUID(); r == nvml.SUCCESS {
			md.UUID = v
		}
		if mem, r := m.GetMemoryInfo(); r == nvml.SUCCESS {
			md.MemoryTotal = mem.Total
		}
		out = append(out, md)
	}
	return out
}

func (s *nvmlSource) refresh(h *Host) {
	if !s.started {
		return
	}
	for i := range h.GPUs {
		if i >= len(s.devs) {
			break
		}
		dev, g := s.devs[i], &h.GPUs[i]
		if mem, r := dev.GetMemoryInfo(); r == nvml.SUCCESS {
			g.MemoryTotal, g.MemoryFree, g.MemoryUsed = mem.Total, mem.Free, mem.Used
		}
		procs, r := dev.GetComputeRunningProcesses()
		if r != nvml.SUCCESS {
			// Keep what was read last: a failed read says nothing new.
			continue
		}
		g.Processes = g.Processes[:0]
		for _, p := range procs {
			name, r := s.lib.SystemGetProcessName(int(p.Pid))
			if r != nvml.SUCCESS {
				name = ""
			}
			g.Processes = append(g.Processes, Process{PID: p.Pid, Name: name, UsedMemory: p.UsedGpuMemory})
		}
	}
}

func (s *nvmlSource) close() error {
	if !s.started {
		return nil
	}
	s.started = false
	if r := s.lib.Shutdown(); r != nvml.SUCCESS {
		return fmt.Errorf("NVML shutdown: %s", errorString(r))
	}
	return nil
}
