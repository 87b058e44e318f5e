package report

import (
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver"
)

//go:embed fleet.yml
var standardFleet []byte

// StandardFleet is the fleet `envguard coverage` uses when given no targets:
// fourteen machines from a K80 on driver 470 to an RTX 5090 on driver 570.
func StandardFleet() []gpucheck.Target {
	ts, err := gpucheck.ParseTargets("fleet.yml", standardFleet)
	if err != nil {
		// The file is embedded and tested: failing to read it is a build defect.
		panic("report: embedded fleet.yml: " + err.Error())
	}
	return ts
}

// Coverage is how much of (environment, target) envguard decided: the share
// of pairs whose verdict is ok or fail rather than unknown, over the
// environments that need a GPU, with what was missing where it could not.
type Coverage struct {
	Files   int `json:"files"`
	GPUEnvs int `json:"gpu_environments"`
	Pairs   int `json:"pairs"`
	OK      int `json:"ok"`
	Fail    int `json:"fail"`
	Unknown int `json:"unknown"`
	// ByReason counts the undecided pairs by the first reason each gives.
	ByReason map[string]int `json:"undecided_by_reason"`
	// Examples names, per reason, the first few files it came from.
	Examples map[string][]string `json:"examples"`
}

// Decided is the share of pairs with a decided verdict, 0..1.
func (c *Coverage) Decided() float64 {
	if c.Pairs == 0 {
		return 0
	}
	return float64(c.OK+c.Fail) / float64(c.Pairs)
}

// Add counts one report. Environments that need no GPU (no framework with
// CUDA builds, or a CPU build, and no CUDA runtime) are files, not pairs.
func (c *Coverage) Add(r *Report) {
	if c.ByReason == nil {
		c.ByReason, c.Examples = map[string]int{}, map[string][]string{}
	}
	c.Files++
	if !needsGPU(r.Stack) {
		return
	}
	c.GPUEnvs++
	for _, t := range r.Targets {
		c.Pairs++
		switch t.Verdict {
		case gpucheck.VerdictOK:
			c.OK++
		case gpucheck.VerdictFail:
			c.Fail++
		default:
			c.Unknown++
			reason := "unknown"
			if len(t.Undecided) > 0 {
				reason = t.Undecided[0].Check + ": " + t.Undecided[0].Reason
			}
			c.ByReason[reason]++
			if ex := c.Examples[reason]; len(ex) < 3 && (len(ex) == 0 || ex[len(ex)-1] != r.File) {
				c.Examples[reason] = append(ex, r.File)
			}
		}
	}
}

// needsGPU says whether an environment is one a GPU machine is for: a
// framework that is not a CPU (or ROCm) build, or a CUDA runtime.
func needsGPU(st *resolver.Stack) bool {
	if st == nil {
		return false
	}
	if st.CUDA != nil && st.CUDA.Version != "" {
		return true
	}
	fw := st.Framework
	if fw == nil {
		return false
	}
	switch fw.Name {
	case "pytorch", "tensorflow", "jax":
		return fw.Variant != "cpu" && fw.Variant != "rocm"
	}
	return false
}

// WriteText prints the figure and the undecided pairs by reason, most
// frequent first.
func (c *Coverage) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d files, %d need a GPU; %d (environment, target) pairs\n", c.Files, c.GPUEnvs, c.Pairs)
	fmt.Fprintf(&b, "decided: %d of %d (%.1f%%): %d ok, %d fail; unknown: %d\n", c.OK+c.Fail, c.Pairs, 100*c.Decided(), c.OK, c.Fail, c.Unknown)
	type kv struct {
		k string
		n int
	}
	var rs []kv
	for k, n := range c.ByReason {
		rs = append(rs, kv{k, n})
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].n != rs[j].n {
			return rs[i].n > rs[j].n
		}
		return rs[i].k < rs[j].k
	})
	if len(rs) > 0 {
		b.WriteString("undecided, by reason:\n")
	}
	for _, r := range rs {
		fmt.Fprintf(&b, "  %5d  %s (e.g. %s)\n", r.n, r.k, strings.Join(c.Examples[r.k], ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// StandardFleetYAML is the standard fleet as the targets file it is read from.
func StandardFleetYAML() []byte { return append([]byte(nil), standardFleet...) }
