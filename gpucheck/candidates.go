package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
)

// maxCandidates bounds the builds one verdict is decided over: an open spec
// such as pytorch>=1.8 admits dozens of releases × variants, and the list a
// person reads must stay short.
const maxCandidates = 256

// candidate is one build the solver (or pip) could install for an
// environment that leaves the release, the variant or the CUDA version open.
type candidate struct {
	st    *resolver.Stack
	label string
}

// candidates lists the builds the knowledge base says the environment's
// framework spec admits in its distribution: each admitted release × each
// variant that distribution publishes for it, narrowed by what the file does
// decide (the variant, the CUDA version). ok is false when the builds cannot
// be listed (no distribution, no release known, too many).
func candidates(st *resolver.Stack, k knowledge) ([]candidate, bool) {
	fw := st.Framework
	if fw == nil || fw.Name != "pytorch" || fw.Dist == "" {
		return nil, false
	}
	rels := fw.Candidates
	if fw.Version != "" {
		rels = []string{fw.Version}
	}
	if len(rels) == 0 {
		return nil, false
	}
	rt := ""
	if st.CUDA != nil {
		rt = st.CUDA.Version
	}
	var out []candidate
	for _, rel := range rels {
		series := seriesOfVersion(rel)
		v, ok := k.Variants(series, fw.Dist)
		if !ok {
			return nil, false // a release whose variants are not known: cannot list the builds
		}
		if v.NotPublished {
			continue
		}
		if v.CPU && fw.Variant != "cuda" && rt == "" {
			out = append(out, candidate{st: buildStack(st, rel, "cpu", ""), label: fmt.Sprintf("%s %s CPU", fw.Name, rel)})
		}
		if fw.Variant == "cpu" {
			continue
		}
		for _, c := range v.CUDA {
			if rt != "" && c != rt {
				continue
			}
			out = append(out, candidate{st: buildStack(st, rel, "cuda", c), label: fmt.Sprintf("%s %s CUDA %s", fw.Name, rel, c)})
		}
	}
	if len(out) == 0 || len(out) > maxCandidates {
		return nil, false
	}
	return out, true
}

// buildStack is the stack with one candidate build filled in.
func buildStack(st *resolver.Stack, version, variant, cuda string) *resolver.Stack {
	cp := *st
	fw := *st.Framework
	fw.Version, fw.Variant, fw.Candidates = version, variant, nil
	cp.Framework = &fw
	cp.CUDA = nil
	if cuda != "" {
		info := resolver.CUDAInfo{Version: cuda}
		if st.CUDA != nil {
			info.Evidence = st.CUDA.Evidence
		}
		cp.CUDA = &info
	}
	return &cp
}

func seriesOfVersion(v string) string {
	if i := strings.IndexByte(v, '+'); i >= 0 {
		v = v[:i]
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// overCandidates decides a verdict the file leaves to the solver by
// checking every build it could install: when they all run (or all fail),
// which one is picked does not matter. It returns false when the builds
// cannot be listed.
func (c *checker) overCandidates() bool {
	cands, ok := candidates(c.st, c.k)
	if !ok {
		return false
	}
	type outcome struct {
		label   string
		verdict Verdict
		ds      []envspec.Diagnostic
		und     []Undecided
	}
	var outs []outcome
	for _, cand := range cands {
		sub := check(cand.st, c.h, c.k, c.opt)
		outs = append(outs, outcome{cand.label, VerdictOf(sub.ds, len(sub.undecided) > 0), sub.ds, sub.undecided})
	}
	fw := c.st.Framework
	what := fwName(fw)
	if fw.Dist != "" {
		what += " (" + string(fw.Dist) + ")"
	}
	all := func(v Verdict) bool {
		for _, o := range outs {
			if o.verdict != v {
				return false
			}
		}
		return true
	}
	// What concerns the machine rather than the build (busy GPUs, MIG)
	// holds whichever build is picked.
	machine := func(d envspec.Diagnostic) bool { return d.Code == "EG405" || d.Code == "EG406" }
	var kept []envspec.Diagnostic
	for _, d := range c.ds {
		if machine(d) {
			kept = append(kept, d)
		}
	}
	c.ds, c.undecided = kept, nil
	switch {
	case all(VerdictOK):
		// Findings every build shares still hold whichever is picked.
		for _, d := range outs[0].ds {
			if !machine(d) && inAll(d, outs[1:], func(o outcome) []envspec.Diagnostic { return o.ds }) {
				c.ds = append(c.ds, d)
			}
		}
		c.note("decided over the %d builds the file admits (%s): each runs", len(outs), labels(outs, func(o outcome) string { return o.label }))
	case all(VerdictFail):
		seen := map[string]bool{}
		for _, o := range outs {
			for _, d := range o.ds {
				if d.Severity == envspec.SeverityError && !seen[d.Message] {
					seen[d.Message] = true
					c.ds = append(c.ds, d)
				}
			}
		}
		c.note("decided over the %d builds the file admits (%s): none runs", len(outs), labels(outs, func(o outcome) string { return o.label }))
	default:
		var runs, idle, fails, open []string
		reason := "builds-disagree"
		for _, o := range outs {
			switch o.verdict {
			case VerdictOK:
				if strings.HasSuffix(o.label, " CPU") {
					idle = append(idle, o.label)
				} else {
					runs = append(runs, o.label)
				}
			case VerdictFail:
				fails = append(fails, o.label+" ("+firstError(o.ds)+")")
			default:
				open = append(open, o.label+" ("+o.und[0].Why+")")
				if reason == "builds-disagree" {
					reason = o.und[0].Reason
				}
			}
		}
		var parts []string
		if len(runs) > 0 {
			parts = append(parts, "runs with "+shortList(runs))
		}
		if len(idle) > 0 {
			parts = append(parts, "leaves the GPUs idle with "+shortList(idle))
		}
		if len(fails) > 0 {
			parts = append(parts, "fails with "+shortList(fails))
		}
		if len(open) > 0 {
			parts = append(parts, "cannot be checked with "+shortList(open))
		}
		check := "variant"
		if fw.Version == "" {
			check = "release"
		}
		c.undecide(c.fwPos(), check, reason, what,
			fmt.Sprintf("the file leaves the build to the solver, and it %s", strings.Join(parts, "; ")),
			"pin the release and the variant (pytorch-cuda=X.Y or cpuonly on the pytorch channel, a cuda*/cpu* build string on conda-forge, a +cuXXX wheel with its index)")
	}
	return true
}

func inAll[T any](d envspec.Diagnostic, rest []T, ds func(T) []envspec.Diagnostic) bool {
	for _, o := range rest {
		found := false
		for _, e := range ds(o) {
			if e.Code == d.Code && e.Message == d.Message {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func labels[T any](xs []T, f func(T) string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = f(x)
	}
	return shortList(s)
}

// shortList joins at most six items and says how many more there are.
func shortList(s []string) string {
	const max = 6
	if len(s) <= max {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:max], ", ") + fmt.Sprintf(" and %d more", len(s)-max)
}

func firstError(ds []envspec.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == envspec.SeverityError {
			return d.Code
		}
	}
	return "no error"
}
