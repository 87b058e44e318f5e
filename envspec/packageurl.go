package envspec

import (
	"fmt"
	"net/url"
	"strings"
)

// A conda package's URL names what it installs: the explicit files, the
// lock files and the records of an installed prefix all say which build
// they mean by one.

// ParsePackageURL splits a package URL into channel, subdir, name, version
// and build. The file name is NAME-VERSION-BUILD.EXT; names may hold '-',
// versions and builds may not, so it splits from the right.
//
// A fragment of 64 hex digits (#sha256:HEX, or a bare #HEX, which no
// other hash conda writes is as long as) is the file's sha256.
func ParsePackageURL(s string) (*Installed, error) {
	sha := ""
	if h := strings.IndexByte(s, '#'); h >= 0 {
		f := strings.TrimPrefix(s[h+1:], "sha256:")
		if isHex64(f) {
			sha = strings.ToLower(f)
		}
		s = s[:h]
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return nil, fmt.Errorf("not a URL")
	}
	path := strings.TrimSuffix(u.Path, "/")
	slash := strings.LastIndexByte(path, '/')
	if slash < 0 {
		return nil, fmt.Errorf("no file name")
	}
	fn := path[slash+1:]
	dir := path[:slash]
	var stem string
	switch {
	case strings.HasSuffix(fn, ".conda"):
		stem = strings.TrimSuffix(fn, ".conda")
	case strings.HasSuffix(fn, ".tar.bz2"):
		stem = strings.TrimSuffix(fn, ".tar.bz2")
	default:
		return nil, fmt.Errorf("the file %q is not a .conda or .tar.bz2 package", Clip(fn, 60))
	}
	name, version, build, ok := splitDistName(stem)
	if !ok {
		return nil, fmt.Errorf("the file name %q is not NAME-VERSION-BUILD", Clip(stem, 60))
	}
	sub := strings.LastIndexByte(dir, '/')
	if sub < 0 {
		return nil, fmt.Errorf("no subdir directory before the file name")
	}
	subdir := dir[sub+1:]
	chanPath := dir[:sub]
	channel := u.Scheme + "://" + u.Host + chanPath
	// Channels on anaconda.org are known by their name, as conda shows them.
	if u.Host == "conda.anaconda.org" && chanPath != "" {
		channel = strings.TrimPrefix(chanPath, "/")
	}
	return &Installed{Name: name, Version: version, Build: build, Channel: channel, Subdir: subdir, SHA256: sha}, nil
}

// isHex64 reports whether s is 64 hex digits: a sha256.
func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// splitDistName splits NAME-VERSION-BUILD from the right.
func splitDistName(stem string) (name, version, build string, ok bool) {
	b := strings.LastIndexByte(stem, '-')
	if b <= 0 {
		return "", "", "", false
	}
	v := strings.LastIndexByte(stem[:b], '-')
	if v <= 0 {
		return "", "", "", false
	}
	name, version, build = stem[:v], stem[v+1:b], stem[b+1:]
	if name == "" || version == "" || build == "" {
		return "", "", "", false
	}
	return name, version, build, true
}

// PinnedSpec is the MatchSpec that pins exactly the installed package.
func PinnedSpec(in *Installed) *MatchSpec {
	ch := in.Channel
	if strings.Contains(ch, "://") {
		ch = ""
	}
	s := in.Name + "==" + in.Version + "=" + in.Build
	if ch != "" {
		s = ch + "/" + in.Subdir + "::" + s
	}
	if ms, err := ParseMatchSpec(s); err == nil {
		if ms.Channel == "" {
			ms.Channel = in.Channel
		}
		return ms
	}
	// A URL channel or an odd version conda itself accepted: pin it by hand.
	ms := &MatchSpec{Raw: s, Channel: in.Channel, Subdir: in.Subdir, Name: strings.ToLower(in.Name), Build: in.Build}
	if vs, err := ParseVersionSpec("==" + in.Version); err == nil {
		ms.Version = vs
	}
	return ms
}
