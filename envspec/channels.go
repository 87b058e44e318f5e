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

// condaChannelAlias is the host of conda's default channel_alias
// (conda/base/constants.py DEFAULT_CHANNEL_ALIAS): a channel URL on it is
// known by its path, the channel name.
const condaChannelAlias = "conda.anaconda.org"

// ChannelName is the name conda knows a channel by (conda's
// Channel.canonical_name under the default configuration), so that rules
// can compare channels written as names, label paths or URLs:
//
//   - a URL on the channel alias is its path: ".../conda-forge/" and
//     ".../conda-forge/linux-64" are "conda-forge", ".../pytorch/label/nightly"
//     is "pytorch/label/nightly" (a "/t/<token>" prefix is dropped);
//   - the members of `defaults` (pkgs/main, pkgs/r, pkgs/msys2: conda's
//     DEFAULT_CHANNELS), by name or by URL, are "defaults", as is any URL
//     whose path is one of them (conda matches multichannel members by
//     name); pkgs/free and pkgs/pro, Anaconda's channels that were members
//     of defaults before conda 4.7, are read as "defaults" too (conda
//     itself now names them by their URL);
//   - a trailing platform subdir is dropped; names are lower-cased;
//   - any other URL stays a URL (scheme, host and path, without the subdir),
//     as conda's canonical_name keeps the base URL of a channel off the alias.
//
// "" gives "".
func ChannelName(c string) string {
	c = strings.TrimSpace(c)
	if c == "" {
		return ""
	}
	c = strings.TrimRight(c, "/")
	scheme, host, path := "", "", c
	if i := strings.Index(c, "://"); i > 0 {
		scheme, host = strings.ToLower(c[:i]), c[i+3:]
		path = ""
		if j := strings.IndexByte(host, '/'); j >= 0 {
			host, path = host[:j], host[j+1:]
		}
		if k := strings.LastIndexByte(host, '@'); k >= 0 {
			host = host[k+1:] // user:password@
		}
		host = strings.ToLower(host)
		if rest, ok := strings.CutPrefix(path, "t/"); ok {
			// an anaconda.org token: /t/<token>/<channel>
			if k := strings.IndexByte(rest, '/'); k >= 0 {
				path = rest[k+1:]
			} else {
				path = ""
			}
		}
	}
	if i := strings.LastIndexByte(path, '/'); msKnownSubdirs[strings.ToLower(path[i+1:])] {
		if i < 0 {
			i = 0
		}
		path = strings.TrimRight(path[:i], "/")
	}
	lp := strings.ToLower(path)
	switch lp {
	case "defaults", "pkgs/main", "pkgs/r", "pkgs/msys2", "pkgs/free", "pkgs/pro":
		if scheme == "file" {
			break
		}
		return "defaults"
	}
	if scheme == "" {
		if strings.HasPrefix(path, "/") || strings.HasPrefix(path, ".") || strings.HasPrefix(path, "~") || strings.Contains(path, "\\") {
			return path // a local directory
		}
		return lp
	}
	if host == condaChannelAlias && lp != "" {
		return lp
	}
	if path == "" {
		return scheme + "://" + host
	}
	return scheme + "://" + host + "/" + path
}

// SourceChannel is the channel whose packages a channel serves, for looking
// up what it publishes. It is ChannelName, with label paths cut to their
// channel ("pytorch/label/nightly" is "pytorch") and mirrors read by their
// layout, because a mirror URL names no channel conda knows:
//
//   - a path ending in pkgs/main, pkgs/r, pkgs/msys2, pkgs/free or pkgs/pro
//     (Anaconda's repository mirrored under any prefix) is "defaults";
//   - a path with a "cloud" part, the layout mirrors give anaconda.org's
//     channels (".../anaconda/cloud/conda-forge/"), is the part after it;
//   - any other path is its channel part: the part before "label", else
//     the last part (".../mirror/conda-forge").
//
// A URL with no path, and a local directory, stay as ChannelName gives them.
func SourceChannel(c string) string {
	n := ChannelName(c)
	scheme, rest, isURL := strings.Cut(n, "://")
	if !isURL {
		if strings.HasPrefix(n, "/") || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "~") || strings.Contains(n, "\\") {
			return n // a local directory
		}
		name, _, _ := strings.Cut(n, "/")
		return name
	}
	_, path, ok := strings.Cut(rest, "/")
	if !ok || path == "" || scheme == "file" {
		return n
	}
	parts := strings.Split(strings.ToLower(path), "/")
	if k := len(parts); k >= 2 && parts[k-2] == "pkgs" {
		switch parts[k-1] {
		case "main", "r", "msys2", "free", "pro":
			return "defaults"
		}
	}
	for i, p := range parts {
		if p == "cloud" && i+1 < len(parts) {
			return parts[i+1]
		}
	}
	for i, p := range parts {
		if p == "label" && i > 0 {
			return parts[i-1]
		}
	}
	return parts[len(parts)-1]
}

// ChannelName is the name conda knows the spec's channel by ("" when the
// spec names none): "https://<alias>/conda-forge::numpy" is "conda-forge".
func (m *MatchSpec) ChannelName() string { return ChannelName(m.Channel) }

// isDefaultsChannel reports whether c is `defaults` or one of the channels
// it stands for (main, r, msys2 on the Anaconda repository).
func isDefaultsChannel(c string) bool {
	if ChannelName(c) == "defaults" {
		return true
	}
	c = strings.TrimSuffix(strings.ToLower(c), "/")
	for _, s := range []string{"anaconda.com/pkgs/main", "anaconda.com/pkgs/r", "anaconda.com/pkgs/msys2",
		"continuum.io/pkgs/main", "continuum.io/pkgs/free", "continuum.io/pkgs/r"} {
		if strings.HasSuffix(c, s) {
			return true
		}
	}
	return false
}

// isDefaultsMirror reports whether c is anaconda.org's anaconda channel,
// which serves the Anaconda repository's own builds: defaults' packages
// under another name.
func isDefaultsMirror(c string) bool { return ChannelName(c) == "anaconda" }

func isCondaForgeChannel(c string) bool {
	n := ChannelName(c)
	if n == "conda-forge" || strings.HasPrefix(n, "conda-forge/label/") {
		return true
	}
	// a mirror that keeps the name (https://mirror.example/conda-forge)
	c = strings.TrimSuffix(strings.ToLower(c), "/")
	return strings.HasSuffix(c, "/conda-forge")
}

func (p *envParser) channelChecks() {
	var forge, defs *String
	for i := range p.env.Channels {
		c := &p.env.Channels[i]
		v := strings.TrimSpace(c.Value)
		switch {
		case nonCondaIndexes[strings.ToLower(v)]:
			p.add(c.Pos, RuleEG112,
				fmt.Sprintf("%q is not a conda channel: conda looks for a channel of that name and finds none", v),
				"list PyPI packages under `- pip:` in `dependencies:` and remove this channel")
			if len(p.env.Channels) > 1 {
				p.fix(p.env.DeleteItem(*c))
			}
		default:
			n := v
			if cn := ChannelName(v); strings.Contains(v, "://") && !strings.Contains(cn, "://") {
				n = cn // "https://<alias>/conda_forge" is the channel "conda_forge"
			}
			if r := nearMissChannel(n); r != "" {
				p.add(c.Pos, RuleEG112,
					fmt.Sprintf("channel %q does not exist as written; did you mean %q?", v, r),
					fmt.Sprintf("did you mean `%s`?", r))
				if n == v && c.Value == v {
					p.fix(p.env.channelRename(*c, r))
				}
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
		exported := ExportedBuildsFirst(p.env)
		p.add(at.Pos, RuleEG108,
			fmt.Sprintf("%q is mixed with %q: packages built against different libraries can end up in one environment", defs.Value, forge.Value),
			exported+mixHint(p.env.Channels), other.Pos)
		// No edit for an export pinned to builds: dropping defaults leaves
		// its defaults-only builds with no channel.
		if eds, ok := p.env.defaultsEdits(); ok && exported == "" {
			p.env.Diags[len(p.env.Diags)-1].Edits = eds
		}
	}
}

// mixHint is EG108's advice. Where the file lists channels besides
// conda-forge and defaults (pytorch, nvidia, bioconda), "conda-forge alone"
// would drop the packages only they publish (pytorch-cuda 11.x comes from
// nvidia, conda-forge's CUDA packages start at 12.0), so the hint says what
// the fix does instead: defaults gives way to `nodefaults`, and the other
// channels stay.
//
// The anaconda channel on anaconda.org carries the Anaconda repository's
// own packages, defaults' builds (review 8 #824): kept, it would bring
// defaults back, so the hint drops it too.
func mixHint(channels []String) string {
	var keep, urls []string
	mirror := ""
	seen := map[string]bool{}
	for _, c := range channels {
		v := strings.TrimSpace(c.Value)
		if isDefaultsChannel(v) && v != "defaults" && !seen[v] {
			// Anaconda's channels written by URL are defaults too: the fix
			// removes them, and the hint says so (review sixteen #1066)
			seen[v] = true
			urls = append(urls, "`"+v+"`")
			continue
		}
		if v == "" || v == "nodefaults" || isDefaultsChannel(v) || isCondaForgeChannel(v) || seen[v] {
			continue
		}
		seen[v] = true
		if isDefaultsMirror(v) {
			mirror = v
			continue
		}
		keep = append(keep, "`"+v+"`")
	}
	named := false
	for _, c := range channels {
		named = named || strings.TrimSpace(c.Value) == "defaults"
	}
	lead := "replace `defaults` with `nodefaults`"
	if !named && len(urls) > 0 {
		// the fix puts nodefaults where the first of them was
		lead, urls = "replace "+urls[0]+" with `nodefaults`", urls[1:]
	}
	also := ""
	if len(urls) > 0 {
		also = fmt.Sprintf(", and remove %s, Anaconda's channels written by URL", strings.Join(urls, ", "))
	}
	if mirror != "" {
		also += fmt.Sprintf(", and remove `%s`, which serves defaults' own packages", mirror)
	}
	if len(keep) == 0 {
		return "use conda-forge alone and add `nodefaults` to the channels" + also
	}
	publish := "they publish"
	if len(keep) == 1 {
		publish = "it publishes"
	}
	return fmt.Sprintf("%s%s, keeping conda-forge and %s for the packages only %s, so that no package comes from defaults",
		lead, also, strings.Join(keep, ", "), publish)
}

// ExportedBuildsFirst is what EG108's hint must say first where the file
// pins exact builds on most of its conda items (`name=1.2=h1234_0`, as
// `conda env export` writes them): a build string names one channel's
// upload, so no change of channels solves until they go (a defaults-only
// `mkl=2017.0.3=0` beside conda-forge alone, whose mkl starts at 2019.5;
// `channel_priority strict` with defaults' `_libgcc_mutex=0.1=main`).
// "" where the file pins builds on fewer than half of its conda items.
func ExportedBuildsFirst(e *Env) string {
	pinned, all := 0, 0
	for _, d := range e.Deps {
		if d == nil || d.Spec == nil {
			continue
		}
		all++
		if b := d.Spec.Build; b != "" && !strings.ContainsAny(b, "*?") {
			pinned++
		}
	}
	if all < 4 || 2*pinned < all {
		return ""
	}
	return fmt.Sprintf("this file pins exact builds on %d of its %d conda packages (a `conda env export`), and a build exists only on the channel that built it: export again with `conda env export --from-history`%s, or drop the build strings, before changing channels; then ", pinned, all, FromHistoryPipNote(e))
}

// FromHistoryPipNote is what a hint to export again with --from-history
// adds for a file with a pip: section, which that export leaves out
// (review forty-four F5, corpus 020: torch and 150 other packages there);
// "" for a file without one (review forty-two F42, corpus 159).
func FromHistoryPipNote(e *Env) string {
	if e == nil || len(e.Pip) == 0 {
		return ""
	}
	return " and copy this file's pip: section into it (--from-history leaves pip packages out, conda/conda#9628)"
}
