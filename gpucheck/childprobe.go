package gpucheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Why a child process reads the GPUs. nvmlInit loads libcuda.so into the
// process that calls it, and neither nvmlShutdown nor anything else unloads
// it: on an H100 machine with driver 580 that is 15 MiB of anonymous memory
// and 4 MiB of mapped code (docs/hardware.md, "Peak RSS"), a third of what
// `envguard check` may hold. A one-shot command reads the GPUs in a child
// of its own, which gives that memory back when it exits and keeps a fault
// in the driver's libraries (a hang on a lost GPU, a crash) out of the
// command's process. The service, which reads the GPUs again every
// RefreshInterval for as long as it runs, keeps NVML in its own process.

// ChildTimeout bounds the child's reading: NVML answers in well under a
// second on a healthy machine (a few seconds per GPU with persistence mode
// off); one that has not answered by then is reported, not waited for.
const ChildTimeout = 2 * time.Minute

// maxChildOutput bounds what is read of the child's output: a host of 16
// GPUs, each with hundreds of processes, is a few hundred KiB of JSON.
const maxChildOutput = 8 << 20

// NewChildProbe reads the local host by running exe with args, a process
// that prints the host as WriteHost writes it (envguard's hidden command,
// cli.ReadGPUsCommand). Memory and processes are read again, by another
// child, at most once per RefreshInterval.
func NewChildProbe(exe string, args ...string) *Probe {
	return newProbe(&childSource{exe: exe, args: args, timeout: ChildTimeout})
}

// WriteHost prints the probe's first reading as JSON, for NewChildProbe's
// parent, and shuts the probe down.
func WriteHost(w io.Writer, p *Probe) error {
	h := p.Static()
	cerr := p.Close()
	return errors.Join(json.NewEncoder(w).Encode(h), cerr)
}

type childSource struct {
	exe     string
	args    []string
	timeout time.Duration
}

func (c *childSource) static() *Host {
	h, err := c.read()
	if err != nil {
		return &Host{Name: "local", Source: SourceNVML, Reason: err.Error(), GPUs: []GPU{}}
	}
	return h
}

// refresh copies the memory and processes of a new reading into h, GPU by
// GPU where the UUIDs agree; a failed or different reading changes nothing.
func (c *childSource) refresh(h *Host) {
	n, err := c.read()
	if err != nil || len(n.GPUs) != len(h.GPUs) {
		return
	}
	for i := range h.GPUs {
		g, ng := &h.GPUs[i], n.GPUs[i]
		if g.UUID != ng.UUID {
			return
		}
		g.MemoryTotal, g.MemoryFree, g.MemoryUsed, g.Processes = ng.MemoryTotal, ng.MemoryFree, ng.MemoryUsed, ng.Processes
	}
}

func (c *childSource) close() error { return nil }

// boundedBuffer keeps the first max bytes written to it and notes the rest.
// The buffer is a field, not embedded: an embedded bytes.Buffer's ReadFrom
// would let io.Copy (exec's pipe) write past Write's bound.
type boundedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (c *childSource) read() (*Host, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.exe, c.args...)
	out := &boundedBuffer{max: maxChildOutput}
	errOut := &boundedBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, errOut
	what := "envguard's GPU reader (" + strings.Join(append([]string{c.exe}, c.args...), " ") + ", a child process that reads NVML)"
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("NVML did not answer within %v: %s was stopped (a GPU that hangs the driver; nvidia-smi would hang too)", c.timeout, what)
	case err != nil:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, fmt.Errorf("cannot start %s: %v", what, err)
		}
		msg := fmt.Sprintf("%s failed: %v", what, err)
		if last := lastLine(errOut.buf.String()); last != "" {
			msg += ": " + last
		}
		return nil, errors.New(msg)
	case out.over:
		return nil, fmt.Errorf("%s printed more than %d bytes", what, maxChildOutput)
	}
	var h Host
	dec := json.NewDecoder(bytes.NewReader(out.buf.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%s printed no host: %v", what, err)
	}
	if h.Source != SourceNVML || h.Name != "local" {
		return nil, fmt.Errorf("%s printed a host that is not this machine's NVML reading (name %q, source %q)", what, h.Name, h.Source)
	}
	if h.GPUs == nil {
		h.GPUs = []GPU{}
	}
	return &h, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
