//go:build !(linux && cgo)

package gpucheck

// NewLocalProbe returns a probe that reports no driver: go-nvml needs cgo
// and Linux, and this binary was built without them.
func NewLocalProbe() *Probe { return newProbe(stubSource{}) }

type stubSource struct{}

func (stubSource) static() *Host {
	return &Host{Name: "local", Source: SourceNVML, Reason: "built without NVML support", GPUs: []GPU{}}
}
func (stubSource) refresh(*Host) {}
func (stubSource) close() error  { return nil }
