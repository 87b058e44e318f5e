package kb

// libBreaks checks lib_breaks: every field but note is required, the
// releases are versions, and from is not after through.
func (v *validator) libBreaks(keys map[string]bool) {
	for i, r := range v.k.LibBreaks {
		v.source("lib_breaks", i, r.Source, keys)
		if r.Framework == "" || !validDists[r.Dist] || r.Platform == "" || r.Lib == "" || r.Run == "" || r.Symptom == "" || len(r.Channels) == 0 {
			v.errf("lib_breaks", i, "framework, a known dist, platform, lib, run, channels and symptom are required")
		}
		v.version("lib_breaks", i, "from", r.From, releaseRe())
		v.version("lib_breaks", i, "through", r.Through, releaseRe())
		v.version("lib_breaks", i, "breaks_from", r.BreaksFrom, mmRe())
		v.version("lib_breaks", i, "last_good", r.LastGood, mmRe())
		if c, ok := CompareDotted(r.From, r.Through); ok && c > 0 {
			v.errf("lib_breaks", i, "from %s is after through %s", r.From, r.Through)
		}
		if c, ok := CompareDotted(r.LastGood, r.BreaksFrom); ok && c >= 0 {
			v.errf("lib_breaks", i, "last_good %s is not before breaks_from %s", r.LastGood, r.BreaksFrom)
		}
	}
}

// LibBreaksOf lists the lib_breaks rows of a framework's builds on dist and
// platform whose releases include version.
func (k *KB) LibBreaksOf(framework string, dist Distribution, platform, version string) []LibBreak {
	var out []LibBreak
	for _, r := range k.LibBreaks {
		if r.Framework != framework || r.Dist != dist || r.Platform != platform {
			continue
		}
		v := padRelease3(stripLocal(version))
		lo, ok1 := CompareDotted(v, r.From)
		hi, ok2 := CompareDotted(v, r.Through)
		if ok1 && ok2 && lo >= 0 && hi <= 0 {
			out = append(out, r)
		}
	}
	return out
}
