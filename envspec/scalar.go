// Package envspec is the language of environment descriptions: environment.yml
// as CEP 24 defines it, conda MatchSpecs and versions, pip requirement lines,
// and installed prefixes. It knows syntax, never meaning: what a CUDA build
// string says is the resolver's business.
package envspec

import "github.com/envguard/envguard/finding"

// String is a scalar with the position it was read from.
type String struct {
	Value string
	Pos   finding.Pos
}
