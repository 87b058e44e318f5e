package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/finding"
)

// ruleEG206 reports a framework version the knowledge base does not know:
// the checks that need it (companions, Python, variants, architectures) are
// skipped rather than guessed. JAX is not covered: the knowledge base holds
// no JAX releases, and no check needs one.
var ruleEG206 = &Rule{
	Rule: finding.Rule{
		Code:     "EG206",
		Name:     "framework-version-unknown",
		Severity: finding.SeverityWarning,
		Title:    "the framework version is not in the knowledge base: checks that need it were skipped",
		Why: "envguard never guesses facts. A release newer than its knowledge base (or a version that never " +
			"existed) cannot be checked for companions, Python support, CUDA variants or GPU architectures.",
		Fix:    "Update envguard, or load newer knowledge with --kb DIR; check the version is spelled right.",
		Before: "dependencies:\n  - pytorch=9.0.0\n",
		After:  "dependencies:\n  - pytorch=2.5.1\n",
		Since:  "0.1.0",
	},
	run: runEG206,
}

func runEG206(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || c.KB == nil {
		return nil
	}
	f := st.Framework
	if f.Name != "pytorch" && f.Name != "tensorflow" {
		return nil
	}
	known := func(v string) bool {
		if f.Name == "pytorch" {
			_, ok := c.KB.Release(v)
			return ok
		}
		_, ok := c.KB.TensorFlow(v)
		return ok
	}
	// A release the tables hold needs nothing else worked out: most files.
	if f.Version != "" && known(f.Version) {
		return nil
	}
	newest := ""
	if f.Name == "pytorch" {
		newest = c.KB.LatestTorch()
	} else {
		for _, t := range c.KB.Facts.TensorFlow {
			if newest == "" || compareVersions(t.Version, newest) > 0 {
				newest = t.Version
			}
		}
	}
	oldest := oldestListed(c.KB, f.Name)
	// A release older than the first one the tables list is not "newer
	// knowledge": updating envguard does not help, so the message and the
	// hint say where coverage starts instead.
	older := func(v string) bool { return oldest != "" && v != "" && compareVersions(v, oldest) < 0 }
	oldHint := fmt.Sprintf("the knowledge base covers %s %s … %s: pin a covered release to get the CUDA, Python and companion checks, or silence this line with `# envguard: ignore EG206 <why this release>`",
		f.Name, orNone(oldest), orNone(newest))
	// The layers consulted, each with its date: what "newer than the
	// knowledge base" was judged against, and how old that is.
	date := c.KB.Consulted()
	var msg string
	switch {
	case f.Version != "":
		if known(f.Version) {
			return nil
		}
		if older(f.Version) {
			msg = fmt.Sprintf("%s%s is older than the releases the knowledge base covers (%s %s … %s): the checks that need it were skipped",
				fwLabel(f), at(f.Pos), f.Name, oldest, orNone(newest))
			return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg, oldHint)}
		}
		if series, ok := preReleaseSeries(f.Version); ok && f.Name == "pytorch" && torchSeriesKnown(c, series) {
			// A nightly or release candidate of a known series: the
			// architecture checks use the series' list where the knowledge
			// base records that its development builds carried it
			// (Framework.ArchFor), so not every check was skipped.
			msg = fmt.Sprintf("%s%s is a development build of the %s series, which the knowledge base does not list by itself: the checks that need the exact release (companions, Python, variants) were skipped; its GPU architectures are judged by the %s series' list only where the knowledge base records that the series' development builds were built with it",
				fwLabel(f), at(f.Pos), series, series)
			return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg,
				fmt.Sprintf("pin a release of the %s series for the full checks, or silence this line with `# envguard: ignore EG206 <why this release>`", series))}
		}
		if oldest != "" && newest != "" && compareVersions(f.Version, newest) < 0 {
			// inside the range with no row of its own (tensorflow 1.3.0
			// between 0.12.1 and 1.13.1): not "newer knowledge" either
			msg = fmt.Sprintf("%s%s is not among the releases the knowledge base covers (%s %s … %s, not every one between): the checks that need it were skipped",
				fwLabel(f), at(f.Pos), f.Name, oldest, newest)
			if note := indexReleaseNote(c.KB, indexName(f.Name), strings.SplitN(f.Version, "+", 2)[0]); note != "" {
				msg += "; " + note
			}
			return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg, oldHint)}
		}
		rel := "is not in"
		if newest != "" && compareVersions(f.Version, newest) > 0 {
			rel = "is newer than"
		}
		msg = fmt.Sprintf("%s%s %s the knowledge base (%s, newest %s %s): the checks that need it were skipped",
			fwLabel(f), at(f.Pos), rel, date, f.Name, orNone(newest))
		if note := indexReleaseNote(c.KB, indexName(f.Name), strings.SplitN(f.Version, "+", 2)[0]); note != "" {
			msg += "; " + note
		}
	case f.Spec != "" && len(f.Candidates) == 0:
		if lv := leadingVersion(specVersion(f.Spec)); older(lv) {
			msg = fmt.Sprintf("%s%s admits only releases older than the knowledge base covers (%s %s … %s): the checks that need it were skipped",
				f.Item, at(f.Pos), f.Name, oldest, orNone(newest))
			return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg, oldHint)}
		}
		msg = fmt.Sprintf("%s%s admits no %s release the knowledge base knows (%s, newest %s %s): the checks that need it were skipped",
			f.Item, at(f.Pos), f.Name, date, f.Name, orNone(newest))
	default:
		return nil
	}
	return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg,
		"update envguard or load newer knowledge with --kb DIR; check the version is spelled right")}
}

// torchSeriesKnown reports whether the knowledge base lists a torch
// release of the series (2.2: 2.2.0, 2.2.1, …).
func torchSeriesKnown(c *Context, series string) bool {
	for _, t := range c.KB.Facts.Torch {
		if seriesOf(t.Version) == series {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// specVersion strips a version spec's leading operators ("=1.5", "==1.3.*",
// "<1.6") down to its first version; "" for a compound or open spec, whose
// bounds cannot be told from one number.
func specVersion(spec string) string {
	t := strings.TrimSpace(spec)
	if strings.ContainsAny(t, ",|>!~ ") {
		return ""
	}
	t = strings.TrimLeft(t, "=<")
	return strings.TrimSuffix(strings.TrimSuffix(t, "*"), ".")
}

// indexName is the package index's name of a framework.
func indexName(framework string) string {
	if framework == "pytorch" {
		return "torch"
	}
	return framework
}
