//go:build !race

package mldsa

// raceEnabled reports whether the race detector is on.
const raceEnabled = false
