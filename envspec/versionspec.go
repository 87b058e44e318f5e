package envspec

import "errors"

// VersionSpec is a conda version spec (`>=1.12,<2`, `1.13.*`, `=1.2|1.3`).
// STUB: owned by the version/matchspec helper, who replaces this file.
type VersionSpec struct {
	raw string
}

// ParseVersionSpec parses a conda version spec.
func ParseVersionSpec(s string) (*VersionSpec, error) { return nil, errors.New("not implemented") }

// Match reports whether the spec admits v.
func (s *VersionSpec) Match(v Version) bool { return false }

// String is the spec as conda normalises it (`=1.8` → `1.8*`).
func (s *VersionSpec) String() string { return s.raw }
