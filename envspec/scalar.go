package envspec

import "github.com/envguard/envguard/finding"

// String is a scalar with the position it was read from.
type String struct {
	Value string
	Pos   finding.Pos
}
