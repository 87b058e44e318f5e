//go:build race

package e2e

// raceEnabled: the race detector slows the server 5-20x, so the page's
// load time is measured, and held to its bound, only in a run without it.
const raceEnabled = true
