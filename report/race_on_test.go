//go:build race

package report

// raceEnabled: the race detector slows code by 5-20×, unevenly, so speed
// ratios measured under it mean nothing.
const raceEnabled = true
