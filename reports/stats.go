package reports

import (
	"fmt"
	"math"

	moremath "github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"

	"github.com/tunelab/tunelab/internal/stats"
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
	// values and rounds are the samples in file order and the round of
	// each ("" where none was recorded), for paired comparisons.
	values []float64
	rounds []string
}

// Summarize returns the Stat of values (which it does not modify).
func Summarize(values []float64) Stat {
	th := benchmath.DefaultThresholds
	s := benchmath.NewSample(append([]float64(nil), values...), &th)
	sum := benchmath.AssumeNothing.Summary(s, confidence)
	ok := len(values) > 0 && !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0)
	return Stat{N: len(values), Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, OK: ok, sample: s, values: values}
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
// one (negative = faster), PM the half-width of its 95% interval and P
// the p-value of the test. Paired deltas (the two were measured in the
// same rounds, at least minPairs of them) use the per-round time ratios:
// the Hodges–Lehmann estimate with its exact interval [Lo, Hi] and the
// Wilcoxon signed-rank test over N rounds. Unpaired ones (result files
// without round lines, or variants from different runs) compare the
// medians (the two medians' relative half-widths combined in quadrature)
// with the Mann-Whitney U test.
type Delta struct {
	Pct, PM, P float64
	Lo, Hi     float64 // the interval of Pct
	N          int     // rounds compared (paired)
	Paired     bool
}

// minPairs is the fewest common rounds a paired comparison uses: the
// fewest with a finite 95% interval (stats.MinPairs(0.05)).
var minPairs = stats.MinPairs(1 - confidence)

// Compare returns the delta of s against ref: paired over their common
// rounds when they share at least minPairs, else unpaired.
func Compare(s, ref Stat) Delta {
	if x, y := pairs(ref, s); len(x) >= minPairs {
		p := stats.ComparePaired(x, y, confidence)
		return Delta{Pct: p.Ratio, Lo: p.Lo, Hi: p.Hi, PM: math.Max(p.Hi-p.Ratio, p.Ratio-p.Lo), P: p.P, N: p.N, Paired: true}
	}
	if ref.Median == 0 || s.sample == nil || ref.sample == nil {
		return Delta{P: 1, PM: math.Inf(1), Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	cmp := benchmath.AssumeNothing.Compare(ref.sample, s.sample)
	pm := math.Hypot(s.relHalfWidth(), ref.relHalfWidth()) * s.Median / ref.Median
	pct := s.Median/ref.Median - 1
	return Delta{Pct: pct, PM: pm, Lo: pct - pm, Hi: pct + pm, P: cmp.P}
}

// pairs returns a's and b's values of the rounds both recorded, in a's
// order.
func pairs(a, b Stat) (x, y []float64) {
	if a.rounds == nil || b.rounds == nil {
		return nil, nil
	}
	at := make(map[string]int, len(b.rounds))
	for k, r := range b.rounds {
		if r != "" {
			at[r] = k
		}
	}
	for k, r := range a.rounds {
		if m, ok := at[r]; ok && r != "" {
			x, y = append(x, a.values[k]), append(y, b.values[m])
		}
	}
	return x, y
}

// Significant reports whether the delta is significant at alpha and larger
// in magnitude than threshold (a fraction, e.g. 0.01).
func (d Delta) Significant(alpha, threshold float64) bool {
	return d.P < alpha && math.Abs(d.Pct) > threshold
}

// How says how the delta was computed: "paired, 23 rounds" or
// "unpaired".
func (d Delta) How() string {
	if d.Paired {
		return fmt.Sprintf("paired, %d rounds", d.N)
	}
	return "unpaired"
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
	mean, lo, hi := moremath.MeanCI(logs, confidence)
	return math.Exp(mean) - 1, math.Max(math.Exp(hi)-math.Exp(mean), math.Exp(mean)-math.Exp(lo))
}
