package resolver

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver/kb"
)

// ApplyLearned holds the Stack to the learned builds (`envguard kb learn`)
// that the environment names exactly: a package whose lock entry, --hash
// option or URL fragment gives the sha256 of a learned package file, or
// whose name, version (with a pip local version) and conda build string
// are a learned build's. Each such build's libraries become the Stack's
// Binaries, and the package's GPU code is taken from them as
// ApplyBinaries takes a prefix's (applyCode: one decision for both), so
// that EG403, EG408, EG410 and EG412 judge it as they judge binaries read
// on the machine. A Stack that already holds binaries (a live prefix,
// read now) is left alone: what is read now wins over what was read
// before.
func ApplyLearned(st *Stack, k *kb.KB) {
	if st == nil || k == nil || len(k.LearnedBuilds) == 0 || st.Binaries != nil {
		return
	}
	b := &Binaries{}
	how := map[string]string{}
	seen := map[string]bool{}
	for _, it := range st.items {
		lb, why := learnedFor(it, k)
		if lb == nil {
			continue
		}
		name := kb.NormalizeName(it.name)
		if seen[name] {
			continue
		}
		seen[name] = true
		for i := range lb.Libraries {
			l := &lb.Libraries[i]
			b.Libraries = append(b.Libraries, BinaryLibrary{Rel: l.Path, Package: name, Lib: learnedLibrary(lb, l)})
		}
		how[name] = fmt.Sprintf(" (learned from %s, sha256 %s…)", lb.Source, lb.SHA256[:12])
		b.Notes = append(b.Notes, fmt.Sprintf("%s: GPU code learned from %s (sha256 %s…, read %s), matched by %s",
			lb.Key(), lb.Source, lb.SHA256[:12], lb.Learned, why))
	}
	if len(b.Libraries) == 0 {
		return
	}
	applyCode(st, b, func(pkg string) string { return how[pkg] })
}

// learnedFor finds the learned build an item names exactly, and says how
// it was matched.
func learnedFor(it *item, k *kb.KB) (*kb.LearnedBuild, string) {
	sums := itemSHA256(it)
	for i, s := range sums {
		if lb, ok := k.LearnedBySHA256(s); ok {
			if len(sums) > 1 {
				return lb, fmt.Sprintf("sha256 (the %s of the %d hashes the file allows)", ordinal(i+1), len(sums))
			}
			return lb, "sha256"
		}
	}
	// By name and exact version (2.7 and 2.7.0 are one release, as pip and
	// conda read them), with the pip local version or the conda build
	// string: one learned file, or none where two of that build differ
	// (which one is installed is not known).
	eco, v, local, why := kb.LearnedPip, it.exact, it.local, "name and version"
	if it.from() == envspec.ProviderPip {
		if v == "" {
			v, local = wheelURLVersion(it)
		}
		if local != "" {
			why = "name, version and local version"
		}
	} else {
		eco, local, why = kb.LearnedConda, it.build, "name, version and build"
		if local == "" || strings.ContainsAny(local, "*?") {
			return nil, "" // the solver picks the build
		}
	}
	if v == "" {
		return nil, ""
	}
	var found *kb.LearnedBuild
	for i := range k.LearnedBuilds {
		lb := &k.LearnedBuilds[i]
		if lb.Ecosystem != eco || kb.NormalizeName(lb.Package) != kb.NormalizeName(it.name) {
			continue
		}
		pub, loc := lb.Version, lb.Build
		if eco == kb.LearnedPip {
			pub, loc, _ = strings.Cut(lb.Version, "+")
			loc = strings.ToLower(loc)
		}
		if padRelease(pub) != padRelease(v) || loc != local {
			continue
		}
		if found != nil && found.SHA256 != lb.SHA256 {
			return nil, ""
		}
		found = lb
	}
	if found == nil {
		return nil, ""
	}
	return found, why
}

// itemSHA256 lists the sha256 hashes the item pins its file to: a lock
// file's (Installed.SHA256), a requirement's --hash=sha256: options, a
// URL's #sha256= fragment.
func itemSHA256(it *item) []string {
	var out []string
	add := func(s string) {
		s = strings.ToLower(strings.TrimSpace(s))
		if len(s) == 64 {
			out = append(out, s)
		}
	}
	if it.conda != nil && it.conda.Installed != nil {
		add(it.conda.Installed.SHA256)
	}
	if it.pip != nil {
		if it.pip.Installed != nil {
			add(it.pip.Installed.SHA256)
		}
		if l := it.pip.Line; l != nil {
			for _, o := range l.Options {
				if o.Name == "--hash" {
					if h, ok := strings.CutPrefix(o.Value, "sha256:"); ok {
						add(h)
					}
				}
			}
			if l.Req != nil && l.Req.URL != "" {
				if pu, err := url.Parse(l.Req.URL); err == nil {
					if h, ok := strings.CutPrefix(pu.Fragment, "sha256="); ok {
						add(h)
					}
				}
			}
		}
	}
	return out
}

// wheelURLVersion is the version and lowercased local version a `name @
// URL` requirement's wheel file name gives (PEP 427).
func wheelURLVersion(it *item) (string, string) {
	if it.pip == nil || it.pip.Line == nil || it.pip.Line.Req == nil || it.pip.Line.Req.URL == "" {
		return "", ""
	}
	u := it.pip.Line.Req.URL
	if pu, err := url.Parse(u); err == nil && pu.Path != "" {
		u = pu.Path
	}
	base := path.Base(u)
	if unesc, err := url.PathUnescape(base); err == nil {
		base = unesc
	}
	parts := strings.Split(strings.TrimSuffix(base, ".whl"), "-")
	if !strings.HasSuffix(base, ".whl") || len(parts) < 5 {
		return "", ""
	}
	pub, local, _ := strings.Cut(parts[1], "+")
	return padRelease(pub), strings.ToLower(local)
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// learnedLibrary is a learned library as native would have read it: one
// loaded entry per entry learned, with its code and compression, so that
// the Library's SASS, PTX, variants and compression are what the file's
// were.
func learnedLibrary(lb *kb.LearnedBuild, l *kb.LearnedLibrary) *native.Library {
	lib := &native.Library{Path: lb.Source, Member: l.Path, Type: "shared", Needed: append([]string(nil), l.Needed...)}
	for _, c := range l.Code {
		sass, arch, variant, ok := kb.ParseLearnedCode(c.Code)
		if !ok {
			continue // validation refuses these
		}
		e := native.Entry{Kind: native.PTX, RawKind: 1, Arch: native.Arch(arch), Variant: native.Variant(variant),
			Compression: native.Compression(c.Compression), Section: ".nv_fatbin"}
		if sass {
			e.Kind, e.RawKind = native.SASS, 2
		}
		for range c.Entries {
			lib.Entries = append(lib.Entries, e)
		}
	}
	if len(lib.Entries) > 0 {
		lib.Containers = 1
	}
	return lib
}
