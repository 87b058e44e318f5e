package report

import (
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/envguard/envguard/envspec"
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
	// Determined counts the pairs of environments whose file leaves nothing
	// to the solver that the verdict turns on (Determined), and of them the
	// decided ones. An open file has no single answer, so the goal of 100%
	// decided is set on these pairs only (issue 26); the corpus-wide share
	// above is a property of the corpus.
	Determined        int `json:"determined_pairs"`
	DeterminedOK      int `json:"determined_ok"`
	DeterminedFail    int `json:"determined_fail"`
	DeterminedUnknown int `json:"determined_unknown"`
	// DeterminedByReason counts the undecided determined pairs by the
	// first reason each gives: the facts the knowledge base lacks.
	DeterminedByReason map[string]int `json:"determined_undecided_by_reason"`
	// DeterminedExcused counts the undecided determined pairs that no
	// knowledge-base row could decide: every check left open waits on the
	// machine, on a file that cannot be installed as written, or on a
	// fact the knowledge base records no public source holds
	// (gpucheck's causes other than CauseKB). The goal of 100% is set on
	// the rest.
	DeterminedExcused  int                 `json:"determined_excused"`
	DeterminedExamples map[string][]string `json:"determined_examples"`
	// MissingFacts names each fact an undecided determined pair lacks,
	// one per (reason, thing unchecked), with the pairs and files it
	// leaves undecided: what the knowledge base would need for the
	// determined share to reach 100%.
	MissingFacts []MissingFact `json:"missing_facts"`
	facts        map[string]*MissingFact
}

// MissingFact is one fact that undecided determined pairs lack.
type MissingFact struct {
	Check  string `json:"check"`
	Reason string `json:"reason"`
	What   string `json:"what"`
	// Cause is gpucheck's cause of the open check: "" where a public
	// source may hold the fact, else no-public-source, machine or file.
	Cause string `json:"cause,omitempty"`
	Pairs int    `json:"pairs"`
	// Files lists the environment files it comes from, in the order met.
	Files []string `json:"files"`
}

// DeterminedDecided is the decided share of the determined pairs, 0..1.
func (c *Coverage) DeterminedDecided() float64 {
	if c.Determined == 0 {
		return 0
	}
	return float64(c.DeterminedOK+c.DeterminedFail) / float64(c.Determined)
}

// Determined says whether an environment's file fixes what its verdict
// turns on: a lock file, an explicit list or an installed prefix (every
// package is fixed), or a framework whose release and variant are pinned,
// with the CUDA it gets for a CUDA variant; with no framework, the CUDA
// runtime's version. Anything else leaves a choice to the solver or pip.
// A file that pins a release or a CUDA variant its channel never published
// (EG205) fixes no build at all: there is nothing whose verdict is
// determined, so it is counted with the open files, as an unpublished CUDA
// variant already was.
func Determined(r *Report) bool {
	if r.env != nil {
		switch r.env.Kind {
		case envspec.KindExplicit, envspec.KindPrefix, envspec.KindCondaLock,
			envspec.KindPixiLock, envspec.KindUVLock, envspec.KindPylock:
			return true
		}
	}
	st := r.Stack
	if st == nil {
		return false
	}
	hasCUDA := st.CUDA != nil && st.CUDA.Version != "" && st.CUDA.NotPublished == ""
	fw := st.Framework
	if fw == nil {
		return hasCUDA
	}
	switch {
	case fw.Version == "" || fw.Variant == "" || fw.NotPublished != "":
		return false
	case fw.Variant == "cuda":
		return hasCUDA
	}
	return true
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
		c.DeterminedByReason, c.DeterminedExamples = map[string]int{}, map[string][]string{}
	}
	c.Files++
	if !needsGPU(r.Stack) {
		return
	}
	c.GPUEnvs++
	det := Determined(r)
	for _, t := range r.Targets {
		c.Pairs++
		if det {
			c.Determined++
		}
		switch t.Verdict {
		case gpucheck.VerdictOK:
			c.OK++
			if det {
				c.DeterminedOK++
			}
		case gpucheck.VerdictFail:
			c.Fail++
			if det {
				c.DeterminedFail++
			}
		default:
			c.Unknown++
			reason := "unknown"
			if len(t.Undecided) > 0 {
				reason = t.Undecided[0].Check + ": " + t.Undecided[0].Reason
			}
			countReason(c.ByReason, c.Examples, reason, r.File)
			if det {
				c.DeterminedUnknown++
				countReason(c.DeterminedByReason, c.DeterminedExamples, reason, r.File)
				c.addFacts(t.Undecided, r.File)
				if excused(t.Undecided) {
					c.DeterminedExcused++
				}
			}
		}
	}
}

// excused says whether every open check of a pair waits on something no
// knowledge-base row can give: the machine, a file to fix, or a fact no
// public source holds.
func excused(us []gpucheck.Undecided) bool {
	if len(us) == 0 {
		return false
	}
	for _, u := range us {
		if u.Cause == gpucheck.CauseKB {
			return false
		}
	}
	return true
}

// addFacts counts each distinct fact a pair lacks once for that pair.
func (c *Coverage) addFacts(us []gpucheck.Undecided, file string) {
	if c.facts == nil {
		c.facts = map[string]*MissingFact{}
	}
	seen := map[string]bool{}
	for _, u := range us {
		key := u.Check + "\x00" + u.Reason + "\x00" + u.What + "\x00" + u.Cause
		if seen[key] {
			continue
		}
		seen[key] = true
		f := c.facts[key]
		if f == nil {
			f = &MissingFact{Check: u.Check, Reason: u.Reason, What: u.What, Cause: u.Cause}
			c.facts[key] = f
		}
		f.Pairs++
		if n := len(f.Files); n == 0 || f.Files[n-1] != file {
			f.Files = append(f.Files, file)
		}
	}
	c.MissingFacts = c.MissingFacts[:0]
	for _, f := range c.facts {
		c.MissingFacts = append(c.MissingFacts, *f)
	}
	sort.Slice(c.MissingFacts, func(i, j int) bool {
		a, b := c.MissingFacts[i], c.MissingFacts[j]
		if a.Pairs != b.Pairs {
			return a.Pairs > b.Pairs
		}
		if a.Reason != b.Reason {
			return a.Reason < b.Reason
		}
		return a.What < b.What
	})
}

func countReason(by map[string]int, examples map[string][]string, reason, file string) {
	by[reason]++
	if ex := examples[reason]; len(ex) < 3 && (len(ex) == 0 || ex[len(ex)-1] != file) {
		examples[reason] = append(ex, file)
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

// WriteText prints the two figures, the determined share and the
// corpus-wide share, then the facts the undecided determined pairs lack
// (one line each) and every undecided pair by reason, most frequent first.
func (c *Coverage) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d files, %d need a GPU; %d (environment, target) pairs, %d of them determined (release and variant fixed, or a lock file)\n",
		c.Files, c.GPUEnvs, c.Pairs, c.Determined)
	fmt.Fprintf(&b, "determined share: %d of %d decided (%.1f%%): %d ok, %d fail; unknown: %d\n",
		c.DeterminedOK+c.DeterminedFail, c.Determined, 100*c.DeterminedDecided(), c.DeterminedOK, c.DeterminedFail, c.DeterminedUnknown)
	fmt.Fprintf(&b, "corpus-wide share: %d of %d decided (%.1f%%): %d ok, %d fail; unknown: %d\n",
		c.OK+c.Fail, c.Pairs, 100*c.Decided(), c.OK, c.Fail, c.Unknown)
	if open := c.Determined - c.DeterminedExcused; open > 0 {
		fmt.Fprintf(&b, "determined share apart from what only the machine, a file to fix or a fact no public source holds leaves open: %d of %d decided (%.1f%%)\n",
			c.DeterminedOK+c.DeterminedFail, open, 100*float64(c.DeterminedOK+c.DeterminedFail)/float64(open))
	}
	writeReasons(&b, "determined but undecided, by reason:\n", c.DeterminedByReason, c.DeterminedExamples)
	for _, g := range []struct{ cause, title string }{
		{gpucheck.CauseKB, "facts the determined undecided pairs lack that a public source may hold, one line each (pairs, files, reason, what):\n"},
		{gpucheck.CauseNoSource, "facts no public source holds, as the knowledge base records (pairs, files, reason, what):\n"},
		{gpucheck.CauseMachine, "decided on the machine, not by the file (pairs, files, reason, what):\n"},
		{gpucheck.CauseFile, "files that cannot be installed as written (pairs, files, reason, what):\n"},
	} {
		title := g.title
		for _, f := range c.MissingFacts {
			if f.Cause != g.cause {
				continue
			}
			b.WriteString(title)
			title = ""
			fmt.Fprintf(&b, "  %5d %3d  %s: %s (e.g. %s)\n", f.Pairs, len(f.Files), f.Reason, f.What, f.Files[0])
		}
	}
	writeReasons(&b, "undecided, by reason:\n", c.ByReason, c.Examples)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeReasons(b *strings.Builder, title string, by map[string]int, examples map[string][]string) {
	type kv struct {
		k string
		n int
	}
	var rs []kv
	for k, n := range by {
		rs = append(rs, kv{k, n})
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].n != rs[j].n {
			return rs[i].n > rs[j].n
		}
		return rs[i].k < rs[j].k
	})
	if len(rs) > 0 {
		b.WriteString(title)
	}
	for _, r := range rs {
		fmt.Fprintf(b, "  %5d  %s (e.g. %s)\n", r.n, r.k, strings.Join(examples[r.k], ", "))
	}
}

// StandardFleetYAML is the standard fleet as the targets file it is read from.
func StandardFleetYAML() []byte { return append([]byte(nil), standardFleet...) }
