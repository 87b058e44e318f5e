package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// pipDemand is one requirement pip must meet for a distribution: a line of
// the file, an exact pin of the torch wheel (torch_cuda_libs), or what an
// extra of a pinned release requires (extra_requirements).
type pipDemand struct {
	name string // PEP 503 normalised
	text string // the requirement, "nvidia-cudnn-cu12==8.9.2.26"
	// by says who asks, ending in its verb ("torch 2.3.1 (…), which
	// pins"); "" for a line of the file, which asks for itself.
	by   string
	pos  finding.Pos // the file's line it comes from
	item string      // that line as written
	req  *envspec.PipRequirement
}

// torchBuildText names the pip torch build whose pins a demand cites.
func torchBuildText(fw *Framework, rt string) string {
	if fw.Dist == kb.DistPyPI {
		return fmt.Sprintf("torch %s (the package index's CUDA %s build)", stripLocal(fw.Version), rt)
	}
	return fmt.Sprintf("torch %s+cu%s", stripLocal(fw.Version), strings.ReplaceAll(majorMinor(rt), ".", ""))
}

// pipConflicts records the pip requirements the file makes, itself or
// through what it installs, that pip cannot meet together: one asks for an
// exact release another excludes ("ResolutionImpossible"), in the files
// a resolver installs from (environment.yml, requirements, a pixi
// manifest). Only Linux
// x86_64 is judged (torch pins its CUDA wheels there, and the extras'
// requirements carry Linux markers); lines with a marker are left alone.
func (r *resolution) pipConflicts() {
	if p := strings.TrimSpace(r.env.Platform); p != "" && p != "linux-64" {
		return
	}
	switch r.env.Kind {
	case envspec.KindEnvFile, envspec.KindRequirements, envspec.KindPixiManifest:
	default:
		// an installed prefix is what it is, and a lock file is installed
		// as locked, without a resolver that could refuse the pair
		return
	}
	var ds []pipDemand
	ds = append(ds, r.torchPins...)
	for _, it := range r.items {
		if it.pip == nil || it.pip.Line == nil || it.pip.Line.Req == nil {
			continue
		}
		req := it.pip.Line.Req
		if req.Marker != "" || req.URL != "" {
			continue
		}
		if len(req.Specifiers) > 0 {
			ds = append(ds, pipDemand{name: it.name, text: strings.TrimSpace(it.raw()), pos: it.pos(), item: strings.TrimSpace(it.raw()), req: req})
		}
		if it.exact == "" || r.kb == nil {
			continue
		}
		for _, ex := range req.Extras {
			ds = append(ds, r.extraDemands(it, it.name, stripLocal(it.exact), ex, fmt.Sprintf("%s (%s), whose %s extra requires", strings.TrimSpace(it.raw()), place(it.pos()), ex), 0)...)
		}
	}
	for i := range ds {
		if ds[i].req == nil {
			l, err := envspec.ParsePipLine(ds[i].text)
			if err != nil || l.Req == nil {
				continue
			}
			ds[i].req, ds[i].name = l.Req, l.Req.Normalized
		}
	}
	// the demands on each distribution, so that a file of many lines is
	// not compared line by line
	byName := map[string][]int{}
	for i := range ds {
		if ds[i].req != nil {
			byName[ds[i].name] = append(byName[ds[i].name], i)
		}
	}
	// one finding for each pair of demanders, naming every distribution
	// they disagree on
	type pair struct{ a, b *pipDemand }
	var order []string
	groups := map[string][]pair{}
	done := map[string]bool{}
	for i := range ds {
		a := &ds[i]
		v, exact := pinnedOf(a.req)
		if !exact || len(byName[a.name]) < 2 {
			continue
		}
		for _, j := range byName[a.name] {
			b := &ds[j]
			// two lines of the file for one name are another finding's
			if i == j || done[a.name] || (a.by == b.by && (a.pos == b.pos || a.by == "")) || b.req.Admits(v) {
				continue
			}
			done[a.name] = true
			first, second := a, b
			if b.pos.Line < a.pos.Line || (b.pos.Line == a.pos.Line && b.by < a.by) {
				first, second = b, a
			}
			key := first.by + "\x00" + first.item + "\x00" + second.by + "\x00" + second.item
			if _, ok := groups[key]; !ok {
				order = append(order, key)
			}
			groups[key] = append(groups[key], pair{first, second})
		}
	}
	for _, key := range order {
		g := groups[key]
		var firsts, seconds []string
		for _, p := range g {
			firsts = append(firsts, p.a.text)
			seconds = append(seconds, p.b.text)
		}
		r.st.PinConflicts = append(r.st.PinConflicts, conflictOf(g[0].a, g[0].b, listSome(firsts), listSome(seconds)))
	}
}

// listSome joins up to three requirements and counts the rest.
func listSome(xs []string) string {
	if len(xs) <= 3 {
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(xs[:3], ", "), len(xs)-3)
}

// extraDemands are what the extra ex of release version of pkg requires,
// and, one level down, what the extras those requirements name require in
// turn (jax[cuda12] → jax-cuda12-plugin[with_cuda] → its CUDA wheels).
func (r *resolution) extraDemands(it *item, pkg, version, ex, by string, depth int) []pipDemand {
	reqs, ok := r.kb.ExtraRequirementsOf(pkg, version, ex)
	if !ok || depth > 1 {
		return nil
	}
	var out []pipDemand
	for _, q := range reqs {
		l, err := envspec.ParsePipLine(q)
		if err != nil || l.Req == nil {
			continue
		}
		out = append(out, pipDemand{name: l.Req.Normalized, text: q, by: by, pos: it.pos(), item: strings.TrimSpace(it.raw()), req: l.Req})
		if v, exact := pinnedOf(l.Req); exact {
			for _, sub := range l.Req.Extras {
				out = append(out, r.extraDemands(it, l.Req.Normalized, v, sub, by, depth+1)...)
			}
		}
	}
	return out
}

// pinnedOf is the release an exact pin asks for, without a local label.
func pinnedOf(req *envspec.PipRequirement) (string, bool) {
	if req == nil {
		return "", false
	}
	if v, ok := req.Pinned(); ok && !strings.Contains(v, "*") {
		return v, true
	}
	// ">=0.4.30,<=0.4.30", as jax's setup.py writes its plugin's release
	lo, hi := "", ""
	for _, sp := range req.Specifiers {
		switch sp.Op {
		case ">=":
			lo = sp.Version
		case "<=":
			hi = sp.Version
		default:
			return "", false
		}
	}
	if lo != "" && lo == hi {
		return lo, true
	}
	return "", false
}

// conflictOf words the conflict of demands first and second (first from
// the earlier line), whose requirements ta and tb exclude each other: at
// the file's line where one of them is a line of its own, else at the
// later line.
func conflictOf(first, second *pipDemand, ta, tb string) PinConflict {
	if first.by == "" || second.by == "" {
		line, other, tOther := first, second, tb
		if first.by != "" {
			line, other, tOther = second, first, ta
		}
		hint := fmt.Sprintf("drop the line, or change it to admit %s, which %s asks for", tOther, owner(other))
		if other.item == "" {
			hint = fmt.Sprintf("drop the line, or pin %s, the release %s installs; another release of it needs another torch build", tOther, owner(other))
		}
		return PinConflict{Pos: line.pos,
			Why:  fmt.Sprintf("pip cannot install %s (%s) beside %s %s (pip: \"ResolutionImpossible\")", line.item, place(line.pos), other.by, tOther),
			Hint: hint}
	}
	return PinConflict{Pos: second.pos,
		Why:  fmt.Sprintf("pip cannot install %s beside %s: %s %s, and %s %s (pip: \"ResolutionImpossible\")", owner(second), owner(first), first.by, ta, second.by, tb),
		Hint: fmt.Sprintf("pin releases of %s and %s whose CUDA wheels agree, or keep them in separate environments", owner(first), owner(second))}
}

// owner names who makes a demand: the torch build, or the file's line.
func owner(d *pipDemand) string {
	if d.item == "" {
		return strings.TrimSuffix(d.by, ", which pins")
	}
	return d.item
}
