package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver/kb"
)

// Machines turns target names into hosts: "local" through NVML, any other
// name through the described targets (--targets FILE, .envguard.yml).
type Machines struct {
	Targets []gpucheck.Target
	KB      *kb.KB
	// Local returns the host envguard runs on; nil when NVML is not wired
	// (then "local" reports no driver).
	Local func() *gpucheck.Host
}

// UnknownTargetError is a --target / ?target= name that no target describes.
type UnknownTargetError struct {
	Name  string
	Known []string
}

func (e *UnknownTargetError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("unknown target %q: no targets are configured (use --targets FILE or targets: in .envguard.yml; \"local\" is this machine)", e.Name)
	}
	return fmt.Sprintf("unknown target %q (known: %s)", e.Name, strings.Join(e.Known, ", "))
}

// StatusCode makes the HTTP service answer 400.
func (e *UnknownTargetError) StatusCode() int { return 400 }

// ErrorCode is the JSON error code.
func (e *UnknownTargetError) ErrorCode() string { return "unknown_target" }

// Names lists the configured target names, "local" first.
func (m *Machines) Names() []string {
	names := []string{"local"}
	var rest []string
	for _, t := range m.Targets {
		rest = append(rest, t.Name)
	}
	sort.Strings(rest)
	return append(names, rest...)
}

// Resolve returns one host per name, in the order given, each name once.
func (m *Machines) Resolve(names []string) ([]*gpucheck.Host, error) {
	var hosts []*gpucheck.Host
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		if n == "local" {
			var h *gpucheck.Host
			if m.Local != nil {
				h = m.Local()
			}
			if h == nil {
				h = &gpucheck.Host{Name: "local", Reason: "NVML is not available in this build"}
			}
			c := *h
			c.Name = "local"
			hosts = append(hosts, &c)
			continue
		}
		var found *gpucheck.Target
		for i := range m.Targets {
			if m.Targets[i].Name == n {
				found = &m.Targets[i]
				break
			}
		}
		if found == nil {
			return nil, &UnknownTargetError{Name: n, Known: m.Names()}
		}
		k := m.KB
		if k == nil {
			k = kb.Default() // as Options does: a nil KB is the embedded one
		}
		h, err := found.Host(k)
		if err != nil {
			return nil, err
		}
		hosts = append(hosts, h)
	}
	return hosts, nil
}
