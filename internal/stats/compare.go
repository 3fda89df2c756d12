package stats

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"
)

// A Delta compares a variant with a reference: Pct is the time ratio minus
// one (negative = faster), PM the half-width of its interval (level
// Confidence) and P the p-value of the test. Paired deltas (the two were
// measured in the same rounds, at least minPairs of them) use the
// per-round time ratios: the Hodges–Lehmann estimate with its exact
// interval [Lo, Hi] and the Wilcoxon signed-rank test over N rounds.
// Unpaired ones (result files without round lines, or variants from
// different runs) compare the medians (the two medians' relative
// half-widths combined in quadrature) with the Mann-Whitney U test.
type Delta struct {
	Pct, PM, P float64
	Lo, Hi     float64 // the interval of Pct
	N          int     // rounds compared (paired)
	Paired     bool
}

// minPairs is the fewest common rounds a paired comparison uses: the
// fewest with a finite interval at level Confidence.
var minPairs = MinPairs(1 - Confidence)

// Compare returns the delta of s against ref: paired over their common
// rounds when they share at least minPairs, else unpaired.
func Compare(s, ref Stat) Delta {
	if x, y := pairs(ref, s); len(x) >= minPairs {
		p := ComparePaired(x, y, Confidence)
		return Delta{Pct: p.Ratio, Lo: p.Lo, Hi: p.Hi, PM: math.Max(p.Hi-p.Ratio, p.Ratio-p.Lo), P: p.P, N: p.N, Paired: true}
	}
	if ref.Median == 0 || s.sample == nil || ref.sample == nil {
		return Delta{P: 1, PM: math.Inf(1), Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	pm := math.Hypot(s.RelHalfWidth(), ref.RelHalfWidth()) * s.Median / ref.Median
	pct := s.Median/ref.Median - 1
	return Delta{Pct: pct, PM: pm, Lo: pct - pm, Hi: pct + pm, P: UTest(ref, s).P}
}

// UTest compares sample a with sample b by the Mann-Whitney U test, as
// benchstat does (benchmath.AssumeNothing): the p-value, the alpha it
// is judged at, both sizes and benchmath's warnings. A Stat that
// summarizes no sample (the zero Stat) gives P = 1.
func UTest(a, b Stat) benchmath.Comparison {
	if a.sample == nil || b.sample == nil {
		return benchmath.Comparison{P: 1, N1: a.N, N2: b.N}
	}
	return benchmath.AssumeNothing.Compare(a.sample, b.sample)
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
	return fmt.Sprintf("%s %s, %s", FormatPct(d.Pct), FormatPM(d.PM), FormatP(d.P))
}

// FormatPct formats a fraction as a signed percentage, "+0.4%".
func FormatPct(f float64) string { return fmt.Sprintf("%+.1f%%", 100*f) }

// FormatPM formats a fraction as an interval half-width, "±0.9%", or
// "±∞" for none.
func FormatPM(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "±∞"
	}
	return fmt.Sprintf("±%.1f%%", 100*f)
}

// FormatP formats a p-value as "p=0.41" or "p<0.001".
func FormatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.2g", p)
}
