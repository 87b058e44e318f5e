package envspec

import "errors"

// Version is a conda version, ordered as conda orders them.
// STUB: owned by the version/matchspec helper, who replaces this file.
type Version struct {
	raw string
}

// ParseVersion parses a conda version string.
func ParseVersion(s string) (Version, error) { return Version{raw: s}, errors.New("not implemented") }

// String returns the version as written.
func (v Version) String() string { return v.raw }

// Compare returns -1, 0 or +1 as v sorts before, equal to or after o.
func (v Version) Compare(o Version) int { return 0 }
