package kb

import (
	"regexp"
	"strings"
)

// IndexRelease returns what the package index says of pkg's release
// version, from the index_releases table; pkg is matched after PEP 503
// normalisation, so "PyTorch" does not match but "Torch" does.
func (k *KB) IndexRelease(pkg, version string) (*IndexRelease, bool) {
	pkg = normIndexName(pkg)
	for i := range k.IndexReleases {
		r := &k.IndexReleases[i]
		if r.Package == pkg && r.Version == version {
			return r, true
		}
	}
	return nil, false
}

// NewestIndexRelease is the newest release of pkg the table holds.
func (k *KB) NewestIndexRelease(pkg string) (*IndexRelease, bool) {
	pkg = normIndexName(pkg)
	var best *IndexRelease
	for i := range k.IndexReleases {
		r := &k.IndexReleases[i]
		if r.Package != pkg {
			continue
		}
		if best == nil {
			best = r
			continue
		}
		if c, ok := CompareDotted(r.Version, best.Version); ok && c > 0 {
			best = r
		}
	}
	return best, best != nil
}

var indexNameSep = regexp.MustCompile(`[-_.]+`)

func normIndexName(s string) string {
	return indexNameSep.ReplaceAllString(strings.ToLower(s), "-")
}

var (
	indexDateRe   = regexp.MustCompile(`^\d{4}-\d{2}(-\d{2})?$`)
	indexSHA256Re = regexp.MustCompile(`^[0-9a-f]{64}$`)
	indexVerRe    = regexp.MustCompile(`^\d+(\.\d+)*([a-z]+\d*)?(\.post\d+)?$`)
)

// indexReleases checks index_releases: a source, a normalised name, a
// version, dates of the form 2026-10(-15), a hex sha256, and one row per
// release.
func (v *validator) indexReleases(keys map[string]bool) {
	const table = "index_releases"
	seen := map[string]bool{}
	for i, r := range v.k.IndexReleases {
		v.source(table, i, r.Source, keys)
		if r.Package == "" || r.Package != normIndexName(r.Package) {
			v.errf(table, i, "package %q is not a normalised project name (PEP 503)", r.Package)
		}
		v.version(table, i, "version", r.Version, indexVerRe)
		if !indexDateRe.MatchString(r.Read) {
			v.errf(table, i, "read %q is not a date of the form 2026-11-30", r.Read)
		}
		if r.Uploaded != "" && !indexDateRe.MatchString(r.Uploaded) {
			v.errf(table, i, "uploaded %q is not a date of the form 2026-10-15 or a month 2026-10", r.Uploaded)
		}
		if r.SHA256 != "" && !indexSHA256Re.MatchString(r.SHA256) {
			v.errf(table, i, "sha256 %q is not 64 lowercase hex digits", r.SHA256)
		}
		k := r.Package + "==" + r.Version
		if seen[k] {
			v.errf(table, i, "%s has more than one row", k)
		}
		seen[k] = true
	}
}
