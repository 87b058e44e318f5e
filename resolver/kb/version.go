package kb

import (
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Driver and CUDA versions ("570.124.06", "12.6"), compute capabilities
// and release series are dotted numbers of at most three parts, which is what
// semver orders: they are compared with Masterminds/semver, the library the
// service's design names for them, so that a target's driver range
// (">=535.54, <560") and a single version are read by the same rules. Conda
// and PEP 440 versions (pre-releases, epochs, local parts, "*" globs) are not
// semver and keep envspec's own ordering.

// ParseNVIDIA reads a driver or CUDA version as semver. NVIDIA's leading
// zeros ("535.104.05") compare numerically (05 == 5), as NVIDIA means them;
// Original() keeps the spelling for messages.
func ParseNVIDIA(s string) (*semver.Version, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 32 || strings.Trim(s, "0123456789.") != "" ||
		strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.Contains(s, "..") ||
		strings.Count(s, ".") > 2 {
		return nil, false
	}
	for _, p := range strings.Split(s, ".") {
		if len(p) > 9 { // beyond uint64 range checks: no real version has such a part
			return nil, false
		}
	}
	v, err := semver.NewVersion(s)
	if err != nil {
		return nil, false
	}
	return v, true
}

// parseDotted splits a dotted numeric version into its parts ("570.124.06"
// → 570 124 6), for callers that need one part (a driver's branch).
func parseDotted(s string) ([]int, bool) {
	v, ok := ParseNVIDIA(s)
	if !ok {
		return nil, false
	}
	out := []int{int(v.Major()), int(v.Minor()), int(v.Patch())}
	return out[:strings.Count(strings.TrimSpace(s), ".")+1], true
}

// CompareDotted compares two dotted numeric versions of at most three parts
// (driver, CUDA, compute capability, series), a missing part counting as 0
// ("580" == "580.0.0"). ok is false when either does not parse.
func CompareDotted(a, b string) (cmp int, ok bool) {
	// The rules judge every environment against whole tables of versions,
	// so this reads the parts in place rather than through semver's
	// regular expression; TestCompareDottedAgreesWithSemver and
	// FuzzCompareDotted hold the two to the same answers.
	x, ok1 := dottedParts(a)
	y, ok2 := dottedParts(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	for i := range x {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1, true
			}
			return 1, true
		}
	}
	return 0, true
}

// dottedParts reads what ParseNVIDIA accepts — one to three dot-separated
// runs of at most nine digits — into major, minor and patch, a missing part
// counting as 0.
func dottedParts(s string) (v [3]uint64, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 32 {
		return v, false
	}
	part, digits := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if digits == 9 {
				return v, false
			}
			v[part] = v[part]*10 + uint64(c-'0')
			digits++
		case c == '.':
			if digits == 0 || part == 2 {
				return v, false
			}
			part, digits = part+1, 0
		default:
			return v, false
		}
	}
	return v, digits > 0
}

// VersionRange is a range of driver or CUDA versions as a target gives it
// for a mixed fleet: ">=535.54, <560". Its worst case, the oldest version
// it admits, is what the checks hold an environment against.
type VersionRange struct {
	// Text is the range as written.
	Text string
	// Floor is the oldest version the range admits, spelled as written in
	// the range ("535.54"). An exclusive bound (">535.54") has no oldest
	// member; its bound stands for it, which is never more optimistic,
	// since what a driver can run only grows with its version.
	Floor string
}

// IsRange reports whether s is written as a range rather than one version.
func IsRange(s string) bool { return strings.ContainsAny(s, "<>=~^,| ") }

// ParseRange reads a driver or CUDA range. A range with no lower bound
// ("<560") has no worst case to check and is refused, as is one that admits
// nothing.
func ParseRange(s string) (*VersionRange, error) {
	text := strings.TrimSpace(s)
	if strings.Contains(text, "||") {
		return nil, fmt.Errorf("%q: alternatives (||) are not supported; give one range such as \">=535.54, <560\"", text)
	}
	c, err := semver.NewConstraint(text)
	if err != nil {
		return nil, fmt.Errorf("%q is not a version range like \">=535.54, <560\": %v", text, err)
	}
	if c.Check(semver.New(0, 0, 0, "", "")) {
		return nil, fmt.Errorf("%q has no lower bound: give the oldest version the fleet runs (\">=535.54\")", text)
	}
	// The candidates for the oldest member are the range's own bounds and
	// the versions just above them (for exclusive bounds).
	var best *semver.Version
	var bestText string
	for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		op := strings.TrimLeft(part, "<>=!~^")
		v, ok := ParseNVIDIA(op)
		if !ok {
			continue
		}
		cands := []*semver.Version{v}
		next := v.IncPatch()
		cands = append(cands, &next)
		for _, cand := range cands {
			if c.Check(cand) && (best == nil || cand.LessThan(best)) {
				best, bestText = cand, op
			}
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%q admits no version", text)
	}
	return &VersionRange{Text: text, Floor: bestText}, nil
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
