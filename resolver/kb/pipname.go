package kb

import (
	"regexp"
	"strconv"
	"strings"
)

var pep503Re = regexp.MustCompile(`[-_.]+`)

// pipName puts a pip requirement name in PEP 503 form and drops extras
// ("Jax[cuda12]" → "jax").
func pipName(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return pep503Re.ReplaceAllString(strings.ToLower(strings.TrimSpace(name)), "-")
}

// globMatch matches s against a pattern where * stands for any run of
// characters (including none); no other character is special.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
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
var cuTokenRe = regexp.MustCompile(`^cu(?:da)?(\d{2,3})x?$`)

// CUDAMajorFromPipName returns the CUDA major a pip distribution name
// carries (cupy-cuda12x → 12, nvidia-cublas-cu11 → 11, mxnet-cu112 → 11,
// mxnet-cu92 → 9, jax-cuda12-plugin → 12), or 0 when the name does not
// say. Three digits are major (2) + minor (1); two digits are a major from
// 10 on (cu11, cu12), else major (1) + minor (1) as in cu75 … cu92.
func CUDAMajorFromPipName(name string) int {
	n := pipName(name)
	for _, seg := range strings.Split(n, "-") {
		m := cuTokenRe.FindStringSubmatch(seg)
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
