package reports

import (
	"fmt"
	"math"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// confidence is the level of every interval in reports.
const confidence = 0.95

// A Stat summarizes one sample with benchmath's AssumeNothing: the median
// and its 95% confidence interval.
type Stat struct {
	N              int
	Median, Lo, Hi float64
	// OK reports whether there are enough samples for a 95% interval;
	// no winner is named from a sample that is not OK.
	OK     bool
	sample *benchmath.Sample
}

// Summarize returns the Stat of values (which it does not modify).
func Summarize(values []float64) Stat {
	th := benchmath.DefaultThresholds
	s := benchmath.NewSample(append([]float64(nil), values...), &th)
	sum := benchmath.AssumeNothing.Summary(s, confidence)
	ok := len(values) > 0 && !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0)
	return Stat{N: len(values), Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, OK: ok, sample: s}
}

// MinSamples returns how many samples benchmath needs for a 95% interval
// of the median.
func MinSamples() int {
	for n := 1; n < 1000; n++ {
		if Summarize(make([]float64, n)).OK {
			return n
		}
	}
	return 1000
}

// relHalfWidth returns the relative half-width of the stat's interval.
func (s Stat) relHalfWidth() float64 {
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
	return fmt.Sprintf("±%.1f%%", 100*s.relHalfWidth())
}

// A Delta compares a variant with a reference: Pct is the time ratio minus
// one (negative = faster), PM the half-width of its approximate 95%
// interval (the two medians' relative half-widths combined in quadrature)
// and P the Mann-Whitney U p-value.
type Delta struct {
	Pct, PM, P float64
}

// Compare returns the delta of s against ref.
func Compare(s, ref Stat) Delta {
	if ref.Median == 0 || s.sample == nil || ref.sample == nil {
		return Delta{P: 1}
	}
	cmp := benchmath.AssumeNothing.Compare(ref.sample, s.sample)
	pm := math.Hypot(s.relHalfWidth(), ref.relHalfWidth()) * s.Median / ref.Median
	return Delta{Pct: s.Median/ref.Median - 1, PM: pm, P: cmp.P}
}

// Significant reports whether the delta is significant at alpha and larger
// in magnitude than threshold (a fraction, e.g. 0.01).
func (d Delta) Significant(alpha, threshold float64) bool {
	return d.P < alpha && math.Abs(d.Pct) > threshold
}

// String formats the delta as "+0.4% ±0.9%, p=0.41".
func (d Delta) String() string {
	return fmt.Sprintf("%s %s, %s", pct(d.Pct), pm(d.PM), pval(d.P))
}

func pct(f float64) string { return fmt.Sprintf("%+.1f%%", 100*f) }

func pm(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "±∞"
	}
	return fmt.Sprintf("±%.1f%%", 100*f)
}

// pval formats a p-value as "p=0.41" or "p<0.001".
func pval(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.2g", p)
}

// geoInterval summarizes ratios (each > 0) by their geometric mean minus
// one and the half-width of a 95% t-interval of the mean log ratio, mapped
// back to a ratio; with one ratio the half-width is infinite.
func geoInterval(ratios []float64) (center, half float64) {
	logs := make([]float64, len(ratios))
	for i, r := range ratios {
		logs[i] = math.Log(r)
	}
	if len(logs) < 2 {
		return math.Exp(logs[0]) - 1, math.Inf(1)
	}
	mean, lo, hi := stats.MeanCI(logs, confidence)
	return math.Exp(mean) - 1, math.Max(math.Exp(hi)-math.Exp(mean), math.Exp(mean)-math.Exp(lo))
}
