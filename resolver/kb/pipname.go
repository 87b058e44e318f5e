package kb

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// pipName puts a pip requirement name in PEP 503 form and drops extras
// ("Jax[cuda12]" → "jax").
func pipName(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return normalizePEP503(strings.TrimSpace(name))
}

// normalizePEP503 lower-cases and turns runs of -_. into one "-", by hand:
// it runs for every pip line of every file.
func normalizePEP503(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || (c == '-' && i > 0 && s[i-1] == '-') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-' || c == '_' || c == '.':
			if len(b) == 0 || b[len(b)-1] != '-' || !isSep(s[i-1]) {
				b = append(b, '-')
			}
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func isSep(c byte) bool { return c == '-' || c == '_' || c == '.' }

// globMatchParts matches s against a pattern already split at its stars,
// where * stands for any run of characters (including none); no other
// character is special.
func globMatchParts(parts []string, s string) bool {
	if len(parts) == 1 {
		return parts[0] == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// cuTokenRe matches a name segment that carries a CUDA version: cu118,
// cu12, cuda12x, cuda117, cuda120.
// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var cuTokenRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^cu(?:da)?(\d{2,3})x?$`) })

// CUDAMajorFromPipName returns the CUDA major a pip distribution name
// carries (cupy-cuda12x → 12, nvidia-cublas-cu11 → 11, mxnet-cu112 → 11,
// mxnet-cu92 → 9, jax-cuda12-plugin → 12), or 0 when the name does not
// say. Three digits are major (2) + minor (1); two digits are a major from
// 10 on (cu11, cu12), else major (1) + minor (1) as in cu75 … cu92.
func CUDAMajorFromPipName(name string) int {
	n := pipName(name)
	for seg := range strings.SplitSeq(n, "-") {
		if !strings.HasPrefix(seg, "cu") {
			continue // what cuTokenRe needs first, without running it
		}
		m := cuTokenRe().FindStringSubmatch(seg)
		if m == nil {
			continue
		}
		d := m[1]
		switch {
		case len(d) == 3:
			v, _ := strconv.Atoi(d[:2])
			return v
		default:
			v, _ := strconv.Atoi(d)
			if v >= 10 && v < 20 {
				return v
			}
			return v / 10
		}
	}
	return 0
}

// PipNameStem returns the part of a pip name before its CUDA segment
// (cupy-cuda101 → cupy, mxnet-cu112 → mxnet), or "" when the name carries
// no CUDA segment after a first one.
func PipNameStem(name string) string {
	segs := strings.Split(pipName(name), "-")
	for i, seg := range segs {
		if i > 0 && cuTokenRe().MatchString(seg) {
			return strings.Join(segs[:i], "-")
		}
	}
	return ""
}

// ExtensionsOfStem returns, sorted, the extensions with a release row
// whose name is stem or stem followed by a CUDA segment (cupy,
// cupy-cuda12x for stem cupy), each with the distributions of its rows:
// "cupy (conda-forge)".
func (k *KB) ExtensionsOfStem(stem string) []string {
	if stem == "" {
		return nil
	}
	dists := map[string][]string{}
	for _, b := range k.ExtensionBuilds {
		if (b.Name == stem || PipNameStem(b.Name) == stem) && !slices.Contains(dists[b.Name], b.Dist) {
			dists[b.Name] = append(dists[b.Name], b.Dist)
		}
	}
	var out []string
	for n, ds := range dists {
		slices.Sort(ds)
		out = append(out, n+" ("+strings.Join(ds, ", ")+")")
	}
	slices.Sort(out)
	return out
}
