package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
)

// ruleEG405: a GPU of the local machine is busy, or has less free memory
// than asked for.
var ruleEG405 = &Rule{
	Rule: finding.Rule{
		Code: "EG405", Name: "gpu-busy", Severity: finding.SeverityWarning,
		Title: "a GPU the job will use already has memory taken by other processes, or less free memory than asked for (--min-free)",
		Why: "Another process's allocations leave the job less memory than the GPU's size: it fails with out-of-memory part way " +
			"through, or runs slower while sharing the GPU.",
		Fix:    "Pick free GPUs with CUDA_VISIBLE_DEVICES, or wait for the other processes to finish.",
		Before: "# GPU 0: python[4121] holds 30 GiB\nCUDA_VISIBLE_DEVICES=0",
		After:  "# GPU 1: no other process\nCUDA_VISIBLE_DEVICES=1",
		Since:  "0.1.0",
	},
	run: runEG405,
}

func runEG405(c *checker) bool {
	c.checkMemory()
	return true
}

// checkMemory raises EG405 for GPUs of the local machine.
func (c *checker) checkMemory() {
	for _, g := range c.h.GPUs {
		var used uint64
		var who []string
		for _, p := range g.Processes {
			used += p.UsedMemory
			name := p.Name
			if name == "" {
				name = "pid"
			} else if i := strings.LastIndexByte(name, '/'); i >= 0 {
				name = name[i+1:]
			}
			who = append(who, fmt.Sprintf("%s[%d] %s", name, p.PID, gib(p.UsedMemory)))
		}
		label := fmt.Sprintf("GPU %d (%s)", g.Index, g.Name)
		if len(g.Processes) > 0 {
			c.add("EG405", c.cudaPos(),
				fmt.Sprintf("%s already has %s taken by %d other process(es): %s", label, gib(used), len(g.Processes), strings.Join(who, ", ")),
				"pick another GPU with CUDA_VISIBLE_DEVICES, or wait for those processes to end")
		}
		if c.opt.MinFree > 0 && g.MemoryTotal > 0 && g.MemoryFree < c.opt.MinFree {
			c.add("EG405", c.cudaPos(),
				fmt.Sprintf("%s has %s free of %s, less than the %s asked for (--min-free)", label, gib(g.MemoryFree), gib(g.MemoryTotal), gib(c.opt.MinFree)),
				"free the GPU or pick another with CUDA_VISIBLE_DEVICES")
		}
	}
}
