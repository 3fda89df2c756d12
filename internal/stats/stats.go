// Package stats holds the one median every part of tunelab uses, as
// x/perf's benchmath computes it (the center of an AssumeNothing
// summary), so that a median printed anywhere is the median benchstat
// would print.
package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Median returns the median of xs (NaN for none); xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
	return benchmath.AssumeNothing.Summary(s, 0.95).Center
}
