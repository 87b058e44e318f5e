package gpucheck

import (
	"sync"
	"time"
)

// source is what a Probe reads: NVML on a cgo Linux build, a stub otherwise.
type source interface {
	// static reads everything once. After a failed start it returns a Host
	// with Available false and touches nothing else.
	static() *Host
	// refresh updates memory and processes of h's GPUs in place.
	refresh(h *Host)
	// close releases the library; a no-op when it never started.
	close() error
}

// RefreshInterval is the least time between two reads of memory and
// processes: NVML calls take milliseconds per GPU, and a service polled by
// many clients must not turn each request into a driver round trip.
const RefreshInterval = time.Second

// Probe reads the local host once (driver, GPUs) and re-reads what changes
// (memory, processes) at most once per RefreshInterval. It is safe for
// concurrent use; the HTTP service keeps one per process.
type Probe struct {
	src source
	now func() time.Time

	mu     sync.Mutex
	host   *Host
	read   time.Time // when memory and processes were last read
	closed bool
}

func newProbe(src source) *Probe {
	return &Probe{src: src, now: time.Now}
}

// Static returns the host as first read, a copy the caller may change. The
// library is initialised on the first call only.
func (p *Probe) Static() *Host {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.load()
	return p.host.Clone()
}

// Refresh returns the host with memory and processes no older than
// RefreshInterval.
func (p *Probe) Refresh() *Host {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.load()
	if p.host.Available && !p.closed && p.now().Sub(p.read) >= RefreshInterval {
		p.src.refresh(p.host)
		p.read = p.now()
	}
	return p.host.Clone()
}

func (p *Probe) load() {
	if p.host != nil {
		return
	}
	if p.closed {
		p.host = &Host{Name: "local", Source: SourceNVML, Reason: "probe closed", GPUs: []GPU{}}
		return
	}
	p.host = p.src.static()
	if p.host.GPUs == nil {
		p.host.GPUs = []GPU{}
	}
	p.read = p.now()
}

// Close shuts the library down. Later calls return what was read before.
func (p *Probe) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	return p.src.close()
}
