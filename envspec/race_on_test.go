//go:build race

package envspec

// slowdown widens time bounds under the race detector, which slows code
// 5-20x, unevenly.
const slowdown = 20
