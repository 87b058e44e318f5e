package resolver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ReviseChannelMix holds EG108's hint to the knowledge base. envspec
// raises EG108 (`defaults` beside conda-forge) and proposes conda-forge
// alone, knowing no facts; where the file pins a pytorch release that the
// knowledge base's conda-forge rows say conda-forge never built (corpus
// 008: pytorch==1.3.1, review 4 #47), that proposal cannot be followed.
// The hint then names the pin and what can be done instead, and the fix
// (defaults → nodefaults) is dropped, since it would take away the channel
// the pinned release comes from. Where the knowledge base has no row for
// the pin's series on conda-forge, the hint says that is not known. ds is
// revised in place; other findings are left alone.
func ReviseChannelMix(c *Context, ds []finding.Diagnostic) {
	if c == nil || c.KB == nil || c.Stack == nil {
		return
	}
	for i := range ds {
		if ds[i].Code != "EG108" {
			continue
		}
		hint, drop := channelMixHint(c)
		if hint != "" {
			ds[i].Hint = envspec.ExportedBuildsFirst(c.Env) + hint
			if drop {
				ds[i].Edits = nil
			}
		}
		if !drop {
			// conda-forge alone gives the framework conda-forge's build of
			// a library it may not load (review fifty-three F22, corpus
			// 064: the pytorch channel's pytorch and mkl 2024.1)
			ds[i].Hint += libBreakRoute(c, "conda-forge")
		}
	}
}

// channelMixHint is EG108's hint where the knowledge base bears on it
// ("" where it does not), and whether the fix must be dropped.
func channelMixHint(c *Context) (string, bool) {
	if only := defaultsOnlyPin(c); only != "" {
		// review forty-eight F32 (118): nodefaults would leave the pin
		// unsolvable, whatever else conda-forge has
		return only, true
	}
	item := neverOnCondaForge(c)
	movedIt := movedBesideFramework(c)
	moved := ""
	if movedIt != nil {
		moved = fmt.Sprintf("%s (line %d)", movedIt.moved, movedIt.pos().Line)
	}
	// another pin conda-forge never built keeps its channel whatever the
	// framework does (review forty-nine F2, corpus 007: tensorflow-gpu
	// 1.13.1 beside pytorch 1.1.0)
	torchHint, torchNever := pytorchMixHint(c, item != "" || movedIt != nil)
	if torchNever {
		// the framework first: a file whose pytorch conda-forge never
		// built cannot move there whatever its other pins (review
		// thirty-eight F29, corpus 112: pytorch 1.3.1 beside cudnn 7.6.4)
		for _, other := range []string{item, moved} {
			if other != "" {
				torchHint += "; " + other + " either"
			}
		}
		return torchHint, true
	}
	if item != "" {
		return item + ", so conda-forge alone cannot install the file: keep the channel that has it, or pin a release conda-forge built and then use conda-forge alone with `nodefaults`", true
	}
	f := c.Stack.Framework
	if movedIt != nil {
		return moved + ", so conda-forge alone cannot install the file: keep " + movedIt.channel + " in the channels for it, or move to a release conda-forge built and then use conda-forge alone with `nodefaults`", true
	}
	if f != nil && f.Name != "pytorch" && f.From == envspec.ProviderConda && f.Channel != "" && f.Channel != "conda-forge" && strings.HasPrefix(f.ChannelMoved, "conda-forge never built") {
		// The framework comes from the other channel because conda-forge
		// never built it (review eleven #949, corpus 116: tensorflow-gpu=1.13
		// and defaults): conda-forge alone cannot install the file.
		return fmt.Sprintf("%s, so conda-forge alone cannot install the file: keep %s in the channels for it, or move to a release conda-forge built and then use conda-forge alone with `nodefaults`", f.ChannelMoved, f.Channel), true
	}
	return torchHint, false
}

// movedBesideFramework is the first package beside the framework that
// comes from another channel because conda-forge never built it
// (tensorflow-gpu 1.13.1 beside pytorch), nil where none does: conda-forge
// alone cannot install the file whatever the framework. The framework's
// own companions are its hint's to name.
func movedBesideFramework(c *Context) *item {
	if c.Stack == nil {
		return nil
	}
	f := c.Stack.Framework
	for _, it := range c.Stack.conda {
		if it == nil || it.channel == "" || it.channel == "conda-forge" || !strings.HasPrefix(it.moved, "conda-forge never built") || (f != nil && it.pos() == f.Pos) || it.name == "torchvision" || it.name == "torchaudio" {
			continue
		}
		return it
	}
	return nil
}

// pytorchMixHint is EG108's hint for a conda pytorch pinned to a release,
// where the knowledge base says whether conda-forge built it ("" where it
// did, or where that does not bear on the hint), and whether it says
// conda-forge never built it (the fix must then be dropped).
func pytorchMixHint(c *Context, othersElsewhere bool) (string, bool) {
	f := c.Stack.Framework
	if f == nil || f.Name != "pytorch" || f.From != envspec.ProviderConda || f.Version == "" || strings.Contains(f.Item, "::") {
		// a release written with its channel (pytorch::pytorch=1.3.1)
		// comes from that channel whatever `channels:` says
		return "", false
	}
	pin := fmt.Sprintf("%s %s%s", pkgOf(f), f.Version, at(f.Pos))
	if _, ok := c.KB.Release(f.Version); !ok {
		if v, ok := c.KB.Variants(seriesOf(f.Version), kb.DistCondaForge); ok && !v.NotPublished && len(v.Releases) > 0 && !contains(v.Releases, f.Version) {
			// a nightly of a series whose conda-forge releases the
			// knowledge base lists: conda-forge built the releases only
			// (review forty-three F21, corpus 158: 1.11.0.dev20220131)
			return fmt.Sprintf("conda-forge never built %s, a development build (its pytorch %s releases are %s), so conda-forge alone cannot install the file: keep the channel it comes from, or pin one of those releases and then use conda-forge alone with `nodefaults`",
				pin, seriesOf(f.Version), strings.Join(v.Releases, ", ")), true
		}
		// a nightly or a release newer than the knowledge base: no row
		// of any distribution speaks for it
		return fmt.Sprintf("use conda-forge alone and add `nodefaults` to the channels, once you know it has %s: the knowledge base does not list that release", pin), false
	}
	switch torchOnDist(c.KB, kb.DistCondaForge, f.Version) {
	case pubUnknown:
		return fmt.Sprintf("use conda-forge alone and add `nodefaults` to the channels, once you know it has %s: the knowledge base has no conda-forge row for pytorch %s", pin, seriesOf(f.Version)), false
	case pubYes:
		return "", false
	}
	var on, has []string
	if pub, _ := c.KB.CondaPublished("pytorch", kb.DistDefaults, f.Version); pub {
		// the file already lists defaults, which has it (review
		// thirteen #66: 008's pytorch 1.3.1)
		on, has = append(on, distWhere(kb.DistDefaults)+", which the file already lists"), append(has, "defaults")
	}
	if torchOnDist(c.KB, kb.DistPytorchConda, f.Version) == pubYes {
		on, has = append(on, distWhere(kb.DistPytorchConda)), append(has, "pytorch")
	}
	where := ""
	if len(on) > 0 {
		where = " (the knowledge base lists it on " + strings.Join(on, ", and on ") + ")"
	}
	alt := ""
	if _, _, foreign := ForeignExport(c.Env); foreign {
		// conda-forge's rows are its linux-64 builds: a release it built
		// there may not exist for the export's platform (review
		// twenty-one F45: 2.4.x skips Windows)
		alt = "; the file is an export from another platform, whose conda-forge pytorch builds the knowledge base does not list, so it names no conda-forge release to move to"
	} else if near := nearestOnCondaForge(c, f); len(near) > 0 && !othersElsewhere {
		alt = fmt.Sprintf("; or move to a pytorch release conda-forge built (the nearest that fit the file: %s%s) and then use conda-forge alone with `nodefaults`", strings.Join(near, ", "), companionsOf(c, near))
	}
	// review thirty-one F43 (124): strict priority still takes from
	// conda-forge what the first channel lacks, so it orders the mix
	// without ending it; dropping conda-forge ends it
	drop := ""
	switch {
	case slices.Contains(has, "defaults") && listedBefore(c.Env, "conda-forge", "defaults") && listedBeforeForge(c.Env, has...) && othersElsewhere:
		drop = "; conda-forge is listed above defaults, so strict priority takes every package conda-forge has from it and from defaults only what conda-forge lacks: the mixing goes on, and to end it drop conda-forge, once you know that defaults has every other package and version the file pins (the knowledge base lists only the frameworks)"
	case slices.Contains(has, "defaults") && listedBefore(c.Env, "conda-forge", "defaults") && listedBeforeForge(c.Env, has...):
		// conda-forge above defaults: strict priority takes from
		// conda-forge all it has, defaults only fills gaps (review
		// forty-seven F33, F38: 124, 152); the framework comes from a
		// channel above conda-forge (listedBeforeForge), so defaults is
		// the one to drop
		drop = "; conda-forge is listed above defaults, so strict priority takes every package conda-forge has from it and from defaults only what conda-forge lacks: the mixing goes on, and to end it drop one of the two, defaults (add `nodefaults`) or conda-forge, once you know that the channels left have every other package and version the file pins (the knowledge base lists only the frameworks)"
	case slices.Contains(has, "defaults"):
		// whether defaults has the file's other pins is not known
		// (review thirty-four F39: 008's python=3.6.11 is conda-forge's)
		drop = "; strict priority still takes from conda-forge what defaults lacks, so to end the mixing drop conda-forge instead, once you know that defaults has every other package and version the file pins (the knowledge base lists only the frameworks)"
	}
	if listedBeforeForge(c.Env, has...) {
		// the file already lists a channel that has it first: the order
		// is right, and only channel priority is left to set
		return fmt.Sprintf("conda-forge never built %s, so conda-forge alone cannot install it%s; the file already lists a channel that has it before conda-forge: set channel_priority strict (conda then takes each package only from the first channel that has it, so a version pinned that only a later channel has cannot be installed)%s%s",
			pin, where, drop, alt), true
	}
	return fmt.Sprintf("conda-forge never built %s, so conda-forge alone cannot install it: list the channel that has it%s before conda-forge and set channel_priority strict (conda then takes each package only from the first channel that has it, so a version pinned that only a later channel has cannot be installed)%s%s",
		pin, where, drop, alt), true
}

// listedBefore says whether the file's channels list a before b (and a at
// all).
func listedBefore(env *envspec.Env, a, b string) bool {
	for _, ch := range env.Channels {
		switch envspec.ChannelName(ch.Value) {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// listedBeforeForge says whether the file's channels list one of names
// before conda-forge.
func listedBeforeForge(env *envspec.Env, names ...string) bool {
	for _, ch := range env.Channels {
		switch n := envspec.ChannelName(ch.Value); {
		case n == "conda-forge":
			return false
		case slices.Contains(names, n):
			return true
		}
	}
	return false
}

// companionsOf names, for the releases proposed, the companions the file
// pins that must move with them (" with torchvision 0.8.2 for 1.7.1"), ""
// where the file pins none or the knowledge base does not say.
func companionsOf(c *Context, releases []string) string {
	var parts []string
	for _, v := range releases {
		r, ok := c.KB.Release(v)
		if !ok {
			continue
		}
		var with []string
		for _, p := range c.Stack.Companions {
			switch {
			case p.Name == "torchvision" && r.Torchvision != "":
				with = append(with, "torchvision "+r.Torchvision)
			case p.Name == "torchaudio" && r.Torchaudio != "":
				with = append(with, "torchaudio "+r.Torchaudio)
			}
		}
		if len(with) > 0 {
			parts = append(parts, strings.Join(with, ", ")+" for "+v)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ", with " + strings.Join(parts, "; ")
}

// nearestOnCondaForge are the releases next to the framework's pinned one,
// older and newer, that conda-forge built for the file's Python and CUDA
// pins (exampleFits, read for conda-forge): what the file could pin to use
// conda-forge alone.
func nearestOnCondaForge(c *Context, f *Framework) []string {
	cf := *f
	cf.Dist = kb.DistCondaForge
	st := *c.Stack
	st.Framework = &cf
	cc := *c
	cc.Stack = &st
	var below, above string
	companions := map[string]companionReleases{}
	for _, p := range c.Stack.Companions {
		companions[p.Name] = condaForgeCompanions(c.KB, p.Name)
	}
	for i := range c.KB.Facts.Torch {
		r := &c.KB.Facts.Torch[i]
		v := r.Version
		if !exampleFits(&cc, &cf, v) || !companionsOnCondaForge(r, companions) {
			continue
		}
		switch d := compareVersions(v, f.Version); {
		case d < 0 && (below == "" || compareVersions(v, below) > 0):
			below = v
		case d > 0 && (above == "" || compareVersions(v, above) < 0):
			above = v
		}
	}
	var out []string
	for _, v := range []string{below, above} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// pkgOf is the conda package a framework item installs.
func pkgOf(f *Framework) string {
	if f.Package != "" {
		return f.Package
	}
	return f.Name
}

// published is what the knowledge base says of a release on a
// distribution.
type published int

const (
	pubUnknown published = iota // no row for its series there
	pubYes
	pubNo
)

// torchOnDist says whether a distribution built a torch release, from its
// torch_variants row for the release's series: a row marked not_published
// or whose releases leave the release out says no; a row whose releases
// are empty covers every release of the series.
func torchOnDist(k *kb.KB, d kb.Distribution, version string) published {
	v, ok := k.Variants(seriesOf(version), d)
	switch {
	case !ok:
		return pubUnknown
	case v.NotPublished || (len(v.Releases) > 0 && !contains(v.Releases, version)):
		return pubNo
	}
	return pubYes
}

// companionsOnCondaForge says whether conda-forge built the torchvision and
// torchaudio releases PyTorch pairs with release r, for those the file
// lists (review eleven #66, corpus 001: conda-forge's torchvision goes from
// 0.2.1 to 0.8.2, so pytorch 1.6.0 there has no torchvision 0.7.0). A
// companion whose conda-forge releases were not read counts as built.
func companionsOnCondaForge(r *kb.TorchRelease, built map[string]companionReleases) bool {
	for name, cf := range built {
		if w := companionOf(r, name); w != "" && cf.neverBuilt(w) {
			return false
		}
	}
	return true
}

// companionReleases are the releases of torchvision or torchaudio
// conda-forge built, as far as the knowledge base's conda-forge rows read
// them, and the newest of them.
type companionReleases struct {
	built  []string
	newest string
}

// condaForgeCompanions gathers companionReleases for torchvision or
// torchaudio from the conda-forge torch_variants rows.
func condaForgeCompanions(k *kb.KB, name string) companionReleases {
	var cr companionReleases
	for _, v := range k.TorchVariants {
		if v.Dist != kb.DistCondaForge {
			continue
		}
		switch name {
		case "torchvision":
			cr.built = append(cr.built, v.Torchvision...)
		case "torchaudio":
			cr.built = append(cr.built, v.Torchaudio...)
		}
	}
	for _, b := range cr.built {
		if cr.newest == "" || compareVersions(b, cr.newest) > 0 {
			cr.newest = b
		}
	}
	return cr
}

// neverBuilt says whether the lists show conda-forge never built release
// rel: not listed, and not newer than the newest read (which is not known
// either way).
func (cr companionReleases) neverBuilt(rel string) bool {
	return cr.newest != "" && !contains(cr.built, rel) && compareVersions(rel, cr.newest) <= 0
}

// neverOnCondaForge says, for EG108's hint, where the file pins a conda package to
// releases conda-forge never built, per the knowledge base's complete list
// of its conda-forge releases (review eleven #853, corpus 104: cudnn=9.1,
// which conda-forge skipped, 8.9.7.29 → 9.2.1.18): conda-forge alone
// cannot install it. "" where no such item is known.
func neverOnCondaForge(c *Context) string {
	if c.Env == nil {
		return ""
	}
	for _, it := range condaItems(c.Env) {
		sp := it.Dep.Spec
		if sp == nil || sp.Version == nil || sp.Channel != "" {
			continue
		}
		row, ok := c.KB.CondaReleasesOf(it.Name, kb.DistCondaForge)
		if !ok || row.CompleteFrom == "" {
			continue
		}
		admitted := false
		for _, rel := range row.Releases {
			if sp.Version.MatchString(rel) {
				admitted = true
				break
			}
		}
		if admitted {
			continue
		}
		// every release the spec admits lies in one series of the span
		// the list is complete for: a plain pin (=9.1, =9.1.1, 9.1.*)
		series := seriesOf(strings.TrimLeft(strings.TrimSuffix(sp.Version.String(), ".*"), "="))
		if series == "" || strings.ContainsAny(sp.Version.String(), "<>!|,") || !kb.InDottedSpan(series, row.CompleteFrom, row.CompleteThrough) {
			continue
		}
		before, after := "", ""
		for _, rel := range row.Releases {
			if c, ok := kb.CompareDotted(seriesOf(rel), series); ok && c < 0 {
				before = rel
			} else if ok && c > 0 && after == "" {
				after = rel
			}
		}
		gap := ""
		if before != "" && after != "" {
			gap = fmt.Sprintf(" (its releases go from %s to %s)", before, after)
		}
		return fmt.Sprintf("conda-forge never built %s %s%s", it.Name, sp.Version.String(), gap)
	}
	return ""
}

// defaultsOnlyPin says which package of the file only the defaults channel
// publishes (defaults_only), with what replacing defaults by nodefaults
// needs first; "" where the file pins none.
func defaultsOnlyPin(c *Context) string {
	if c.Env == nil || c.KB == nil {
		return ""
	}
	for _, it := range condaItems(c.Env) {
		if it.Dep.Spec == nil || (it.Dep.Spec.Channel != "" && envspec.ChannelName(it.Dep.Spec.Channel) != "defaults") {
			continue
		}
		row, ok := c.KB.DefaultsOnlyPackageOf(it.Name)
		if !ok {
			continue
		}
		return fmt.Sprintf("%s (line %d) is %s, which only defaults publishes (conda-forge never built it), so conda-forge alone cannot install the file as written: drop that line before using conda-forge alone with `nodefaults`, or keep defaults and drop conda-forge",
			it.Dep.Raw.Value, it.Dep.Raw.Pos.Line, row.What)
	}
	return ""
}
