package kb

import "strings"

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

// condaForgeTorchMKL checks conda_forge_torch_mkl: releases that are
// versions, in order, and mkl majors of four digits.
func (v *validator) condaForgeTorchMKL(keys map[string]bool) {
	for i, r := range v.k.CondaForgeTorchMKL {
		v.source("conda_forge_torch_mkl", i, r.Source, keys)
		v.version("conda_forge_torch_mkl", i, "from", r.From, releaseRe())
		v.version("conda_forge_torch_mkl", i, "through", r.Through, releaseRe())
		if c, ok := CompareDotted(r.From, r.Through); ok && c > 0 {
			v.errf("conda_forge_torch_mkl", i, "from %s is after through %s", r.From, r.Through)
		}
		if len(r.MKL) == 0 {
			v.errf("conda_forge_torch_mkl", i, "mkl lists no major")
		}
		for _, m := range r.MKL {
			if len(m) != 4 || strings.Trim(m, "0123456789") != "" {
				v.errf("conda_forge_torch_mkl", i, "mkl major %q is not a year", m)
			}
		}
	}
}

// CondaForgeTorchMKLOf is the conda_forge_torch_mkl row of a release.
func (k *KB) CondaForgeTorchMKLOf(version string) (*CondaForgeTorchMKL, bool) {
	v := padRelease3(stripLocal(version))
	for i := range k.CondaForgeTorchMKL {
		r := &k.CondaForgeTorchMKL[i]
		lo, ok1 := CompareDotted(v, r.From)
		hi, ok2 := CompareDotted(v, r.Through)
		if ok1 && ok2 && lo >= 0 && hi <= 0 {
			return r, true
		}
	}
	return nil, false
}
