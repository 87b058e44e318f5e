package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// defaultsNeverPublished says why the defaults channel has no build of
// the framework's pinned pytorch release, where the knowledge base's list
// of the channel's releases (conda_releases, torch-defaults-releases.yaml)
// covers it and does not hold it: pytorch 2.4.1 (Anaconda's recipe went
// 2.3.1 → 2.5.1). "" where the release is on defaults, or not known.
// Only a framework that still reads as a defaults build reaches this: one
// written defaults::pytorch=2.4.1 (a pin that comes from defaults only
// for coming first moves to the next listed channel that has it:
// pastDefaults).
func defaultsNeverPublished(k *kb.KB, f *Framework) string {
	if k == nil || f == nil || f.Name != "pytorch" || f.Dist != kb.DistDefaults || f.Version == "" {
		return ""
	}
	if pub, known := k.CondaPublished("pytorch", kb.DistDefaults, f.Version); !known || pub {
		return ""
	}
	return fmt.Sprintf("the defaults channel never published pytorch %s (its releases nearest to it: %s: EG205)", f.Version, strings.Join(defaultsNearest(k, f.Version), ", "))
}

// defaultsNearest are the releases the defaults channel published next
// to release, older and newer.
func defaultsNearest(k *kb.KB, release string) []string {
	var older, newer string
	for _, r := range k.CondaReleases {
		if r.Package != "pytorch" || r.Dist != kb.DistDefaults {
			continue
		}
		for _, v := range r.Releases {
			c, ok := kb.CompareDotted(v, release)
			switch {
			case !ok:
			case c < 0 && (older == "" || compareVersions(v, older) > 0):
				older = v
			case c > 0 && (newer == "" || compareVersions(v, newer) < 0):
				newer = v
			}
		}
	}
	var out []string
	for _, v := range []string{older, newer} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// unpublishedOnDefaults records defaultsNeverPublished in the framework,
// for the checks against targets: no build exists to check.
func (r *resolution) unpublishedOnDefaults() {
	if f := r.st.Framework; f != nil && f.NotPublished == "" {
		f.NotPublished = defaultsNeverPublished(r.kb, f)
	}
}

// eg205Defaults reports a pytorch release asked of the defaults channel
// that it never published.
func eg205Defaults(c *Context, f *Framework) []finding.Diagnostic {
	why := defaultsNeverPublished(c.KB, f)
	if why == "" {
		return nil
	}
	near := defaultsNearest(c.KB, f.Version)
	msg := fmt.Sprintf("%s%s asks the defaults channel for a release it never published (its releases nearest to it are %s)", fwLabel(f), at(f.Pos), strings.Join(near, " and "))
	hint := "pin a release defaults has (" + strings.Join(near, " or ") + ")"
	if pub, _ := distPublishesTorch(c.KB, "conda-forge", f.Version); pub {
		hint += ", or take pytorch " + f.Version + " from conda-forge, which built it"
	}
	return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg, hint)}
}
