//go:build race

package mlkem_test

// raceEnabled reports whether the race detector is on.
const raceEnabled = true
