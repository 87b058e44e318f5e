package resolver

import (
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// item is one dependency of either side, reduced to what resolution needs.
type item struct {
	name string // conda name, or the PEP 503 normalised pip name
	// conda or pip is the dependency the item was read from (see from).
	conda   *envspec.CondaDep
	pip     *envspec.PipDep
	verText string // the version spec as written (conda syntax), "" when none
	exact   string // the exact release the item pins, "" when open
	local   string // pip local version (+cu118), without '+'
	build   string
	channel string // resolved conda channel, "" when unknown or pip
	// how says how channel was chosen, for messages, unless firstChannel
	// is set: the channel is then the first of channels: that publishes
	// the name, and channelWhy words that (most items never reach a
	// message, so the sentence is not built for them).
	how          string
	firstChannel bool
	// moved says, in a few words, why the item's channel is not the first
	// of channels: that publishes its name (that one never built the
	// release): "conda-forge never built tensorflow-gpu 2.4.1".
	moved string
	// verShift and buildShift place the version and the build within the
	// item (see verPos, buildPos); verEnd and buildEnd are their end
	// columns. Offsets rather than positions keep an item small: a file
	// makes one per dependency.
	verShift, buildShift int32
	verEnd, buildEnd     int32
}

// from is the installer the item comes from.
func (it *item) from() envspec.Provider {
	if it.pip != nil {
		return envspec.ProviderPip
	}
	return envspec.ProviderConda
}

// extras are a pip requirement's extras (jax[cuda12]).
func (it *item) extras() []string {
	if it.pip != nil && it.pip.Line != nil && it.pip.Line.Req != nil {
		return it.pip.Line.Req.Extras
	}
	return nil
}

// raw is the item as written.
func (it *item) raw() string {
	switch {
	case it.conda != nil:
		return it.conda.Raw.Value
	case it.pip != nil:
		return it.pip.Raw.Value
	}
	return ""
}

// pos is where the item starts.
func (it *item) pos() finding.Pos {
	switch {
	case it.conda != nil:
		return it.conda.Raw.Pos
	case it.pip != nil:
		return it.pip.Raw.Pos
	}
	return finding.Pos{}
}

// verPos is where the item's version starts (the item's start when it
// has none).
func (it *item) verPos() finding.Pos { return it.pos().Shift(int(it.verShift)) }

// buildPos is where the item's build string starts (the item's start when
// it has none).
func (it *item) buildPos() finding.Pos { return it.pos().Shift(int(it.buildShift)) }

// channelWhy says how the item's channel was chosen.
func (it *item) channelWhy() string {
	if it.firstChannel {
		return "first channel in channels: that publishes " + it.name
	}
	return it.how
}

// label is the item as a message names it.
func (it *item) label() string {
	if raw := it.raw(); raw != "" {
		return raw
	}
	return it.name
}

// condaItem reads a conda dependency; an installed one takes its exact
// version, build and channel from the prefix.
func readCondaItem(env *envspec.Env, d *envspec.CondaDep) *item {
	it := &item{}
	if !fillCondaItem(it, channelNames(env), d) {
		return nil
	}
	return it
}

// fillCondaItem is readCondaItem into it, a zero item, with env's channel
// names at hand; false when d names no package.
func fillCondaItem(it *item, channels []string, d *envspec.CondaDep) bool {
	it.conda = d
	if d.Spec != nil {
		s := d.Spec
		it.name = strings.ToLower(s.Name)
		it.build = s.Build
		if s.VersionSpan.Start >= 0 && s.VersionSpan.End > s.VersionSpan.Start && s.VersionSpan.End <= len(d.Raw.Value) {
			it.verText = d.Raw.Value[s.VersionSpan.Start:s.VersionSpan.End]
			if len(s.Raw) == len(d.Raw.Value) && s.Raw != d.Raw.Value {
				// envspec read a certain typo ("=>2") as what it means
				// (">=2", same spans): EG103 reports the typo, the rest
				// read the meaning
				it.verText = s.Raw[s.VersionSpan.Start:s.VersionSpan.End]
			}
			it.verShift, it.verEnd = spanShift(d.Raw.Pos, s.VersionSpan)
		} else if s.Version != nil {
			it.verText = s.Version.String()
		}
		if s.BuildSpan.Start >= 0 && s.BuildSpan.End > s.BuildSpan.Start && s.BuildSpan.End <= len(d.Raw.Value) {
			it.buildShift, it.buildEnd = spanShift(d.Raw.Pos, s.BuildSpan)
		}
		it.exact = exactConda(it.verText)
		it.channel, it.how, it.firstChannel = resolveChannel(channels, it.name, s.Channel)
	}
	if in := d.Installed; in != nil {
		if it.name == "" {
			it.name = strings.ToLower(in.Name)
		}
		it.exact, it.verText, it.build = in.Version, in.Version, in.Build
		if in.Channel != "" {
			it.channel, it.how, it.firstChannel = channelName(in.Channel), "installed from it", false
		}
	}
	return it.name != ""
}

// condaItem is d, the i-th of Env.Deps, as Resolve read it, or read now
// when the Stack was not made by Resolve from this Env (a rule tested on a
// hand-made Stack).
func (c *Context) condaItem(i int, d *envspec.CondaDep) *item {
	if c.Stack != nil && i < len(c.Stack.conda) && len(c.Stack.conda) == len(c.Env.Deps) && c.Env.Deps[i] == d {
		return c.Stack.conda[i] // nil: Resolve found no package name
	}
	return readCondaItem(c.Env, d)
}

// pipItem reads a pip requirement (options are read by evidence()).
func readPipItem(d *envspec.PipDep) *item {
	it := &item{}
	if !fillPipItem(it, d) {
		return nil
	}
	return it
}

// fillPipItem is readPipItem into it, a zero item; false when d names no
// package.
func fillPipItem(it *item, d *envspec.PipDep) bool {
	it.pip = d
	if d.Line != nil && d.Line.Req != nil {
		q := d.Line.Req
		it.name = q.Normalized
		if it.name == "" {
			it.name = pep503(q.Name)
		}
		var text strings.Builder
		for i, sp := range q.Specifiers {
			op := sp.Op
			if op == "===" {
				op = "=="
			}
			v := sp.Version
			if i := strings.IndexByte(v, '+'); i >= 0 {
				if op == "==" || op == "" {
					it.local = strings.ToLower(v[i+1:])
				}
				v = v[:i]
			}
			if i > 0 {
				text.WriteByte(',')
			}
			text.WriteString(op)
			text.WriteString(v)
		}
		it.verText = text.String()
		if len(q.Specifiers) == 1 && (q.Specifiers[0].Op == "==" || q.Specifiers[0].Op == "===") &&
			!strings.Contains(q.Specifiers[0].Version, "*") {
			it.exact = padRelease(stripLocal(q.Specifiers[0].Version))
		}
		if q.SpecSpan.Start >= 0 && q.SpecSpan.End > q.SpecSpan.Start && q.SpecSpan.End <= len(d.Raw.Value) {
			it.verShift, it.verEnd = spanShift(d.Raw.Pos, q.SpecSpan)
		}
	}
	if in := d.Installed; in != nil {
		if it.name == "" {
			it.name = pep503(in.Name)
		}
		v := in.Version
		if i := strings.IndexByte(v, '+'); i >= 0 {
			it.local = strings.ToLower(v[i+1:])
			v = v[:i]
		}
		it.exact, it.verText = v, "=="+v
	}
	return it.name != ""
}

// spanShift is spanPos kept in an item: the shift of the span's start
// from the item's start (its verPos or buildPos) and the span's end column.
func spanShift(base finding.Pos, sp envspec.Span) (shift, end int32) {
	_, e := spanPos(base, sp)
	return int32(sp.Start), int32(e)
}

// spanPos places a caret on a part of an item: the column is the item's
// column plus the span's start.
func spanPos(base finding.Pos, sp envspec.Span) (finding.Pos, int) {
	p := base.Shift(sp.Start)
	if base.Col == 0 {
		return p, 0
	}
	return p, base.Col + sp.End
}

// exactConda returns the release a conda version spec pins, or "": `==2.0.1`,
// `=2.0.1` (conda reads it as 2.0.1*, which no later release matches) and a
// bare `2.0.1` pin a release; `=2.0`, `2.0.*`, ranges and alternatives do not.
// `==2.12` and a bare `2.12` (`pytorch 1.10`: conda's VersionSpec reads an
// operator-less version as an exact match, envspec.VersionSpec.Exact) pin
// 2.12 exactly and are read as 2.12.0.
func exactConda(text string) string {
	t := strings.TrimSpace(text)
	double := strings.HasPrefix(t, "==") || (t != "" && t[0] != '=')
	t = strings.TrimPrefix(strings.TrimPrefix(t, "=="), "=")
	if t == "" || strings.ContainsAny(t, "*<>!|,~ =^$()") {
		return ""
	}
	// Count the dotted parts of the public version without splitting: this
	// runs for every conda item, several times per file.
	pub, _, _ := strings.Cut(t, "+")
	parts := 1
	for i := 0; i < len(pub); i++ {
		if pub[i] != '.' {
			continue
		}
		if i == 0 || i == len(pub)-1 || pub[i-1] == '.' {
			return "" // an empty part
		}
		parts++
	}
	if pub == "" {
		return ""
	}
	if parts >= 3 {
		return t
	}
	if double && parts == 2 {
		return padRelease(t)
	}
	return ""
}

// padRelease writes a two-part release as three (2.12 → 2.12.0): PEP 440
// and conda both treat missing trailing parts as zero.
func padRelease(v string) string {
	if strings.Count(v, ".") == 1 {
		return v + ".0"
	}
	return v
}

func stripLocal(v string) string {
	pub, _, _ := strings.Cut(v, "+")
	return pub
}
