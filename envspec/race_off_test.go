//go:build !race

package envspec

// slowdown leaves room for a loaded 2-core machine: the bounds catch
// blow-ups (exponential expansion), not small regressions.
const slowdown = 4
