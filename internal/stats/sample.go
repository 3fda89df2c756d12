package stats

import (
	"fmt"
	"math"
	"slices"

	moremath "github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// A Stat summarizes one sample with benchmath's AssumeNothing: the median
// and its confidence interval.
type Stat struct {
	N              int
	Median, Lo, Hi float64
	// OK reports whether there are enough samples for a finite interval;
	// no winner is named from a sample that is not OK.
	OK bool
	// Warnings are benchmath's warnings about the summary (too few
	// samples for the interval).
	Warnings []string
	sample   *benchmath.Sample
	// values and rounds are the samples in file order and the round of
	// each ("" where none was recorded), for paired comparisons.
	values []float64
	rounds []string
}

// Summarize returns the Stat of values (which it does not modify), its
// interval at level Confidence.
func Summarize(values []float64) Stat { return SummarizeAt(values, Confidence) }

// SummarizeAt is Summarize with the interval at level conf (a
// simultaneous interval of several medians needs a higher one).
func SummarizeAt(values []float64, conf float64) Stat {
	s := newSample(values)
	sum := summary(s, conf)
	ok := len(values) > 0 && !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0)
	st := Stat{N: len(values), Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, OK: ok, sample: s, values: values}
	for _, w := range sum.Warnings {
		st.Warnings = append(st.Warnings, w.Error())
	}
	return st
}

// SummarizeRounds is Summarize for values measured in rounds (rounds[i]
// is values[i]'s, "" for none), so that Compare can pair them.
func SummarizeRounds(values []float64, rounds []string) Stat {
	s := Summarize(values)
	if len(rounds) == len(values) {
		s.rounds = rounds
	}
	return s
}

// MinSamples returns how many samples benchmath needs for an interval of
// the median at level Confidence.
func MinSamples() int {
	for n := 1; n < 1000; n++ {
		if Summarize(make([]float64, n)).OK {
			return n
		}
	}
	return 1000
}

// RelHalfWidth returns the relative half-width of the stat's interval,
// +Inf without one.
func (s Stat) RelHalfWidth() float64 {
	if !s.OK || s.Median == 0 {
		return math.Inf(1)
	}
	return math.Max(s.Hi-s.Median, s.Median-s.Lo) / s.Median
}

// PM returns the interval as "±x%" of the median.
func (s Stat) PM() string {
	if !s.OK {
		return "±∞"
	}
	return fmt.Sprintf("±%.1f%%", 100*s.RelHalfWidth())
}

// GeoMeanInterval summarizes ratios (each > 0) by their geometric mean
// minus one and the half-width of a t-interval (level Confidence) of the
// mean log ratio, mapped back to a ratio; with one ratio the half-width
// is infinite. The result does not depend on the order of ratios, to the
// last bit: the logs are summed in sorted order, so that callers that
// collect ratios from a map print the same figures every run.
func GeoMeanInterval(ratios []float64) (center, half float64) {
	logs := make([]float64, len(ratios))
	for i, r := range ratios {
		logs[i] = math.Log(r)
	}
	slices.Sort(logs)
	if len(logs) < 2 {
		return math.Exp(logs[0]) - 1, math.Inf(1)
	}
	mean, lo, hi := moremath.MeanCI(logs, Confidence)
	return math.Exp(mean) - 1, math.Max(math.Exp(hi)-math.Exp(mean), math.Exp(mean)-math.Exp(lo))
}
