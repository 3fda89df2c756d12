// Package stats holds the statistics every part of tunelab shares: the
// one median, as x/perf's benchmath computes it (the center of an
// AssumeNothing summary), so that a median printed anywhere is the median
// benchstat would print; and the paired comparison the decision rule
// applies to arms measured round by round (Paired: the Wilcoxon
// signed-rank test and the Hodges–Lehmann interval on per-round log
// ratios), so that the race, the sweep summary, report and export judge
// the same numbers the same way.
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
