//go:build race

package service_test

// raceEnabled: the race detector slows code 5-20x, so time bounds widen.
const raceEnabled = true
