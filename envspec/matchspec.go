package envspec

import "errors"

// Span is a half-open byte range [Start, End) inside a MatchSpec string.
// A zero Span with End == 0 means the part is absent.
type Span struct{ Start, End int }

// MatchSpec is a parsed conda MatchSpec.
// STUB: owned by the version/matchspec helper, who fills it in.
type MatchSpec struct {
	Raw       string
	Channel   string // "" when absent
	Subdir    string
	Namespace string
	Name      string       // lower-cased package name
	Version   *VersionSpec // nil when absent
	Build     string       // build glob, "" when absent
	Keys      map[string]string
	// Positions of each part inside Raw, for carets.
	ChannelSpan, NameSpan, VersionSpan, BuildSpan Span
}

// ParseMatchSpec parses one conda MatchSpec.
func ParseMatchSpec(s string) (*MatchSpec, error) { return nil, errors.New("not implemented") }
