package kb

import (
	"strconv"
	"strings"
)

// parseDotted parses a dotted numeric version ("570.124.06", "12.6", "3.10").
// Leading zeros are kept numerically (06 == 6), which is how NVIDIA driver
// versions compare.
func parseDotted(s string) ([]int, bool) {
	if s == "" {
		return nil, false
	}
	parts := strings.Split(s, ".")
	out := make([]int, len(parts))
	for i, p := range parts {
		if p == "" || len(p) > 9 {
			return nil, false
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || strings.ContainsAny(p, "+-") {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// CompareDotted compares two dotted numeric versions component by
// component, a missing component counting as 0 ("580" == "580.0.0").
// ok is false when either does not parse.
func CompareDotted(a, b string) (cmp int, ok bool) {
	x, ok1 := parseDotted(a)
	y, ok2 := parseDotted(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	for i := 0; i < len(x) || i < len(y); i++ {
		var p, q int
		if i < len(x) {
			p = x[i]
		}
		if i < len(y) {
			q = y[i]
		}
		switch {
		case p < q:
			return -1, true
		case p > q:
			return 1, true
		}
	}
	return 0, true
}

// majorMinor returns "X.Y" of a dotted version ("2.0.1" → "2.0"), or the
// input unchanged when it has fewer than two components.
func majorMinor(v string) string {
	// Slicing, not splitting: every lookup normalises its key with this.
	if i := strings.IndexByte(v, '.'); i >= 0 {
		if j := strings.IndexByte(v[i+1:], '.'); j >= 0 {
			return v[:i+1+j]
		}
	}
	return v
}

// stripLocal removes a PEP 440 local part ("2.0.1+cu118" → "2.0.1").
func stripLocal(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '+'); i >= 0 {
		v = v[:i]
	}
	return v
}
