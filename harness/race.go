package harness

import (
	"fmt"
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// confidence is the level of every interval the harness reports.
const confidence = 0.95

// RaceParams configure the racing rule.
type RaceParams struct {
	// Threshold is the relative slowdown (0.01 = 1%) beyond which a
	// significantly slower variant is eliminated.
	Threshold float64
	// Alpha is the significance level of the Mann-Whitney U test.
	Alpha float64
	// MinSamples is the sample count before any elimination or verdict;
	// it is raised to what benchmath needs (see MinSamplesFor).
	MinSamples int
	// MaxSamples ends the race once every live arm has this many.
	MaxSamples int
}

// DefaultRaceParams are the sweep defaults.
var DefaultRaceParams = RaceParams{Threshold: 0.01, Alpha: 0.05, MinSamples: 6, MaxSamples: 60}

// MinSamplesFor returns the smallest sample count n for which benchmath's
// AssumeNothing gives a finite 95% interval for the median and the U test
// can reach significance at alpha between two samples of n.
func MinSamplesFor(alpha float64) int {
	th := &benchmath.Thresholds{CompareAlpha: alpha}
	for n := 2; n < 100; n++ {
		lo, hi := make([]float64, n), make([]float64, n)
		for i := range lo {
			lo[i], hi[i] = float64(i), float64(n+i)
		}
		s := benchmath.AssumeNothing.Summary(benchmath.NewSample(lo, th), confidence)
		c := benchmath.AssumeNothing.Compare(benchmath.NewSample(lo, th), benchmath.NewSample(hi, th))
		if !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) && c.P <= alpha {
			return n
		}
	}
	return 100
}

func (p RaceParams) minSamples() int { return max(p.MinSamples, MinSamplesFor(p.Alpha)) }

// An Arm is one contender's state in a race.
type Arm struct {
	Label string
	// Values are the ns/op of the arm's samples in measurement order.
	Values []float64
	// WallNs is the wall time spent on the arm's samples.
	WallNs int64
	// Attempts counts measurement attempts, Discarded those thrown away
	// as disturbed, and Kept the disturbed samples kept on a busy host.
	Attempts, Discarded, Kept int
	// Eliminated is set when the race dropped the arm; Reason says why.
	Eliminated bool
	// Excluded is set for a crash or a verification failure; its
	// samples, if any, take no part in verdicts.
	Excluded bool
	Reason   string
	// Keep marks a reference the winner's speed-up is reported against
	// (an ext= variant): never eliminated, so it is sampled as long as
	// the race runs and the speed-up's interval is as tight as the
	// winner's.
	Keep bool
}

func (a *Arm) live() bool { return !a.Eliminated && !a.Excluded }

// sample returns the arm's values as a benchmath sample.
func (a *Arm) sample(alpha float64) *benchmath.Sample {
	return benchmath.NewSample(slices.Clone(a.Values), &benchmath.Thresholds{CompareAlpha: alpha})
}

func (a *Arm) median() float64 {
	return benchmath.AssumeNothing.Summary(a.sample(0.05), confidence).Center
}

// A Race applies the racing rule to a set of arms.
type Race struct {
	Params RaceParams
	Arms   []*Arm
}

// Live returns the indexes of the arms still racing.
func (r *Race) Live() []int {
	var out []int
	for i, a := range r.Arms {
		if a.live() {
			out = append(out, i)
		}
	}
	return out
}

// Best returns the live arm with the lowest median, or -1.
func (r *Race) Best() int {
	best, bm := -1, math.Inf(1)
	for _, i := range r.Live() {
		if len(r.Arms[i].Values) == 0 {
			continue
		}
		if m := r.Arms[i].median(); m < bm {
			best, bm = i, m
		}
	}
	return best
}

// rivals is how many of the fastest arms each arm is tested against, so
// that one noisy arm with a lucky median cannot shield the others.
const rivals = 3

// Eliminate drops every live arm whose median exceeds that of one of the
// (up to rivals) fastest live arms by more than the threshold and whose
// samples differ significantly from that arm's (Mann-Whitney U, p <
// Alpha); both arms need MinSamples. It returns the indexes of the arms
// it dropped.
func (r *Race) Eliminate() []int {
	ranked := r.ranked()
	var out []int
	for _, i := range ranked {
		if r.Arms[i].Keep {
			continue
		}
		if reason := r.beaten(i, ranked); reason != "" {
			r.Arms[i].Eliminated, r.Arms[i].Reason = true, reason
			out = append(out, i)
		}
	}
	return out
}

// ranked returns the live arms with at least MinSamples, fastest first.
func (r *Race) ranked() []int {
	var out []int
	for _, i := range r.Live() {
		if len(r.Arms[i].Values) >= r.Params.minSamples() {
			out = append(out, i)
		}
	}
	meds := make(map[int]float64, len(out))
	for _, i := range out {
		meds[i] = r.Arms[i].median()
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmpFloat(meds[a], meds[b]) })
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// beaten says why arm i loses to one of the fastest arms, or "".
func (r *Race) beaten(i int, ranked []int) string {
	a := r.Arms[i]
	m := a.median()
	for _, j := range ranked[:min(rivals, len(ranked))] {
		b := r.Arms[j]
		bm := b.median()
		if j == i || m <= bm*(1+r.Params.Threshold) {
			continue
		}
		c := benchmath.AssumeNothing.Compare(a.sample(r.Params.Alpha), b.sample(r.Params.Alpha))
		if c.P < r.Params.Alpha {
			return fmt.Sprintf("%+.2f%% vs %s (p=%.3g, n=%d+%d)", 100*(m/bm-1), b.Label, c.P, c.N1, c.N2)
		}
	}
	return ""
}

// Done reports whether the race is over, and why: one arm left (and no
// kept reference), every live arm's median known to within the threshold
// (settled), or every live arm at MaxSamples.
func (r *Race) Done() (bool, string) {
	live := r.Live()
	min := r.Params.minSamples()
	switch {
	case len(live) == 0:
		return true, "no arm left"
	case len(live) == 1 && len(r.Arms[live[0]].Values) >= min && !r.Arms[live[0]].Keep:
		return true, "one arm left"
	}
	settled, full := true, true
	for _, i := range live {
		a := r.Arms[i]
		if len(a.Values) < r.Params.MaxSamples {
			full = false
		}
		if len(a.Values) < min || relCIWidth(a.sample(r.Params.Alpha)) > r.Params.Threshold {
			settled = false
		}
	}
	if full {
		return true, "max samples"
	}
	if settled {
		return true, "settled"
	}
	return false, ""
}

// relCIWidth is the width of the 95% interval of the median relative to
// the median.
func relCIWidth(s *benchmath.Sample) float64 {
	sum := benchmath.AssumeNothing.Summary(s, confidence)
	if math.IsInf(sum.Lo, 0) || math.IsInf(sum.Hi, 0) || sum.Center == 0 {
		return math.Inf(1)
	}
	return (sum.Hi - sum.Lo) / sum.Center
}

// Saved estimates the wall time racing saved: what the eliminated arms
// would have spent reaching the sample count of the longest-running arm.
func (r *Race) Saved() (saved, spent int64) {
	most := 0
	for _, a := range r.Arms {
		most = max(most, len(a.Values))
		spent += a.WallNs
	}
	for _, a := range r.Arms {
		if a.Eliminated && len(a.Values) > 0 {
			saved += a.WallNs / int64(len(a.Values)) * int64(most-len(a.Values))
		}
	}
	return saved, spent
}
