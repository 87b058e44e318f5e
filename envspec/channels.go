package envspec

import (
	"fmt"
	"strings"
)

// channelNearMiss maps channel names that do not exist as written to the
// one meant. Names within one edit of these are caught by nearMissChannel.
var channelNearMiss = map[string]string{
	"default":     "defaults",
	"conda_forge": "conda-forge",
	"condaforge":  "conda-forge",
	"nodefault":   "nodefaults",
	"no-defaults": "nodefaults",
	"no_defaults": "nodefaults",
}

// wellKnownChannels are the channels near misses are measured against; only
// long names, so that short real channels (`pyg`, `esri`) are not mistaken
// for typos of each other.
var wellKnownChannels = []string{"conda-forge", "defaults", "nodefaults", "bioconda", "pytorch", "nvidia", "rapidsai"}

// nonCondaIndexes are package indexes people list as channels by mistake.
var nonCondaIndexes = map[string]bool{"pypi": true, "pip": true}

// nearMissChannel returns the channel c was meant to be, or "" when c is
// fine (or unknown but not close to a well-known name).
func nearMissChannel(c string) string {
	if r, ok := channelNearMiss[c]; ok {
		return r
	}
	if strings.ContainsAny(c, "/:\\") {
		return ""
	}
	lc := strings.ToLower(c)
	for _, k := range wellKnownChannels {
		if lc == k {
			return ""
		}
	}
	for _, k := range wellKnownChannels {
		limit := 1
		if len(k) >= 8 {
			limit = 2
		}
		// The distance is at least the difference in length: skip the
		// table for names that cannot be that close.
		if d := len(lc) - len(k); d > limit || -d > limit {
			continue
		}
		if osaDistance(lc, k) <= limit {
			return k
		}
	}
	return ""
}

// isDefaultsChannel reports whether c is `defaults` or one of the channels
// it stands for (main, r, msys2 on the Anaconda repository).
func isDefaultsChannel(c string) bool {
	c = strings.TrimSuffix(strings.ToLower(c), "/")
	switch c {
	case "defaults", "pkgs/main", "pkgs/r", "pkgs/msys2":
		return true
	}
	for _, s := range []string{"anaconda.com/pkgs/main", "anaconda.com/pkgs/r", "anaconda.com/pkgs/msys2",
		"continuum.io/pkgs/main", "continuum.io/pkgs/free", "continuum.io/pkgs/r"} {
		if strings.HasSuffix(c, s) {
			return true
		}
	}
	return false
}

func isCondaForgeChannel(c string) bool {
	c = strings.TrimSuffix(strings.ToLower(c), "/")
	return c == "conda-forge" || strings.HasSuffix(c, "/conda-forge")
}

func (p *envParser) channelChecks() {
	var forge, defs *String
	for i := range p.env.Channels {
		c := &p.env.Channels[i]
		v := strings.TrimSpace(c.Value)
		switch {
		case nonCondaIndexes[strings.ToLower(v)]:
			p.add(c.Pos, SeverityWarning, "EG112",
				fmt.Sprintf("%q is not a conda channel: conda looks for a channel of that name and finds none", v),
				"list PyPI packages under `- pip:` in `dependencies:` and remove this channel")
		default:
			if r := nearMissChannel(v); r != "" {
				p.add(c.Pos, SeverityWarning, "EG112",
					fmt.Sprintf("channel %q does not exist as written; did you mean %q?", v, r),
					fmt.Sprintf("did you mean `%s`?", r))
			}
		}
		if isCondaForgeChannel(v) && forge == nil {
			forge = c
		}
		if isDefaultsChannel(v) && defs == nil {
			defs = c
		}
	}
	if forge != nil && defs != nil {
		at, other := defs, forge
		if forge.Pos.Line > defs.Pos.Line {
			at, other = forge, defs
		}
		p.add(at.Pos, SeverityWarning, "EG108",
			fmt.Sprintf("%q is mixed with %q: packages built against different libraries end up in one environment", defs.Value, forge.Value),
			"use conda-forge alone and add `nodefaults` to the channels", other.Pos)
	}
}
