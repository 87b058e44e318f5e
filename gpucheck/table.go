package gpucheck

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteTable prints what `envguard gpu` shows a person: the driver and the
// CUDA version it supports, then one row per GPU.
func WriteTable(w io.Writer, h *Host) error {
	if h == nil {
		_, err := fmt.Fprintln(w, "no host")
		return err
	}
	var b strings.Builder
	if !h.Available {
		reason := h.Reason
		if reason == "" {
			reason = "no usable NVIDIA driver"
		}
		fmt.Fprintf(&b, "%s: %s\n", h.Name, reason)
		if h.Source == SourceOverride {
			b.WriteString("source: override (CONDA_OVERRIDE_CUDA)\n")
		}
		writeNotes(&b, h)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "driver %s   CUDA %s", orDash(h.Driver), orDash(h.CUDADriver))
	if h.NVML != "" {
		fmt.Fprintf(&b, "   NVML %s", h.NVML)
	}
	if h.Source != "" && h.Source != SourceNVML {
		fmt.Fprintf(&b, "   (source: %s)", h.Source)
	}
	b.WriteByte('\n')
	if len(h.GPUs) == 0 {
		fmt.Fprintf(&b, "no GPU visible: %s\n", orUnknown(h.Reason))
		writeNotes(&b, h)
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GPU\tNAME\tCC\tMEMORY USED/TOTAL\tPROCESSES\tMIG")
	for _, g := range h.GPUs {
		mem := "-"
		if g.MemoryTotal > 0 {
			mem = fmt.Sprintf("%s / %s", gib(g.MemoryUsed), gib(g.MemoryTotal))
		}
		procs := "-"
		if len(g.Processes) > 0 {
			ps := make([]string, len(g.Processes))
			for i, p := range g.Processes {
				name := p.Name
				if j := strings.LastIndexByte(name, '/'); j >= 0 {
					name = name[j+1:]
				}
				if name == "" {
					name = "?"
				}
				ps[i] = name + "[" + strconv.FormatUint(uint64(p.PID), 10) + "]"
			}
			procs = strings.Join(ps, ",")
		}
		mig := "off"
		if g.MIG {
			mig = fmt.Sprintf("on (%d)", len(g.MIGDevices))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", g.Index, g.Name, orDash(g.CC), mem, procs, mig)
	}
	tw.Flush()
	writeNotes(&b, h)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeNotes(b *strings.Builder, h *Host) {
	for _, n := range h.Notes {
		b.WriteString("note: " + n + "\n")
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
