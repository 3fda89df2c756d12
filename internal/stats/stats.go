package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Confidence is the level of every interval tunelab reports.
const Confidence = 0.95

// Median returns the median of xs as benchstat computes it (the center
// of benchmath's AssumeNothing summary), NaN for none; xs is not
// modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return summary(newSample(xs), Confidence).Center
}

// newSample returns a benchmath sample of a copy of xs.
func newSample(xs []float64) *benchmath.Sample {
	return benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
}

// summary is benchmath's AssumeNothing summary of s at level conf: the
// median with its distribution-free interval.
func summary(s *benchmath.Sample, conf float64) benchmath.Summary {
	return benchmath.AssumeNothing.Summary(s, conf)
}
