package harness

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/internal/stats"
)

// confidence is the level of every interval the harness reports.
const confidence = stats.Confidence

// RaceParams configure the racing rule.
type RaceParams struct {
	// Threshold is the relative slowdown (0.01 = 1%) beyond which a
	// significantly slower variant is eliminated.
	Threshold float64
	// Floor is the host's layout floor (a fraction): the largest
	// difference measured between byte-identical copies of one function
	// at other addresses. A margin below it is no ground for elimination
	// (see Margin); 0 when not measured.
	Floor float64
	// Alpha is the significance level the race spends in all: each of
	// its looks (see Looks) tests at Alpha/len(Looks), so the chance
	// that any look eliminates an arm that is not slower stays below
	// Alpha (Bonferroni) however many rounds are run.
	Alpha float64
	// MinSamples is the number of rounds before the first look; it is
	// raised to what a look's share of Alpha needs (stats.MinPairs).
	MinSamples int
	// MaxSamples ends the race once every live arm has this many.
	MaxSamples int
}

// DefaultRaceParams are the sweep defaults.
var DefaultRaceParams = RaceParams{Threshold: 0.01, Alpha: 0.02, MinSamples: 6, MaxSamples: 60}

// Margin is the smallest slowdown that eliminates: the threshold, or
// the layout floor where it is larger.
func (p RaceParams) Margin() float64 { return max(p.Threshold, p.Floor) }

// lookGrowth spaces the looks geometrically: each tests about half as
// many rounds again as the one before.
const lookGrowth = 1.5

// Looks returns the round counts at which an arm is tested against its
// rivals: n0, ⌈1.5·n0⌉, ... below MaxSamples, n0 the smallest count
// (at least MinSamples) at which the signed-rank test can reject at
// Alpha/len(Looks). None when MaxSamples is too small: then only the
// final decision (reports' rule) judges.
func (p RaceParams) Looks() []int {
	for n0 := max(p.MinSamples, 2); n0 < p.MaxSamples; n0++ {
		var looks []int
		for n := n0; n < p.MaxSamples; n = int(math.Ceil(float64(n) * lookGrowth)) {
			looks = append(looks, n)
		}
		if stats.MinPairs(p.Alpha/float64(len(looks))) <= n0 {
			return looks
		}
	}
	return nil
}

// LookAlpha is the significance level of one look.
func (p RaceParams) LookAlpha() float64 { return p.Alpha / float64(max(len(p.Looks()), 1)) }

// String describes the race's rule, as recorded in result files.
func (p RaceParams) String() string {
	looks := make([]string, 0, 8)
	for _, n := range p.Looks() {
		looks = append(looks, strconv.Itoa(n))
	}
	return fmt.Sprintf("race=paired-signed-rank alpha=%g looks=%s", p.Alpha, strings.Join(looks, ","))
}

// minSamples is the sample count every live arm needs before the race
// may end: the first look, or MaxSamples without looks.
func (p RaceParams) minSamples() int {
	if looks := p.Looks(); len(looks) > 0 {
		return looks[0]
	}
	return max(p.MaxSamples, 1)
}

// An Arm is one contender's state in a race.
type Arm struct {
	Label string
	// Values are the ns/op of the arm's samples in measurement order.
	Values []float64
	// Rounds holds the round of each value: arms are compared pair by
	// pair over the rounds both were measured in. Nil means the k-th
	// value was measured in round k.
	Rounds []int64
	// WallNs is the wall time spent on the arm's samples.
	WallNs int64
	// Attempts counts measurement attempts, Discarded those thrown away
	// as disturbed, and Kept the disturbed samples kept (timed by the
	// thread's CPU clock, or on a busy host).
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

// round returns the round of the arm's k-th value.
func (a *Arm) round(k int) int64 {
	if len(a.Rounds) == len(a.Values) {
		return a.Rounds[k]
	}
	return int64(k)
}

// median returns the median of the arm's values (NaN for none).
func (a *Arm) median() float64 { return stats.Median(a.Values) }

// Pairs returns the values of a and b measured in the same rounds, in
// a's order.
func Pairs(a, b *Arm) (x, y []float64) {
	at := make(map[int64]int, len(b.Values))
	for k := range b.Values {
		at[b.round(k)] = k
	}
	for k, v := range a.Values {
		if m, ok := at[a.round(k)]; ok {
			x, y = append(x, v), append(y, b.Values[m])
		}
	}
	return x, y
}

// compare compares b with a over their common rounds.
func compare(a, b *Arm) stats.Paired {
	x, y := Pairs(a, b)
	return stats.ComparePaired(x, y, confidence)
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

// Eliminate drops every live arm that, at one of the looks (its number
// of rounds in common with a rival is in Looks), is slower than one of
// the (up to rivals) fastest live arms by more than Margin, paired by
// round: the Hodges–Lehmann estimate of the per-round time ratio exceeds
// 1+Margin and the signed-rank test rejects equality at LookAlpha. It
// returns the indexes of the arms it dropped.
func (r *Race) Eliminate() []int {
	ranked := r.ranked()
	looks := r.Params.Looks()
	var out []int
	for _, i := range ranked {
		if r.Arms[i].Keep {
			continue
		}
		if reason := r.beaten(i, ranked, looks); reason != "" {
			r.Arms[i].Eliminated, r.Arms[i].Reason = true, reason
			out = append(out, i)
		}
	}
	return out
}

// ranked returns the live arms with at least the first look's samples,
// fastest (lowest median) first.
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
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(meds[a], meds[b]) })
	return out
}

// beaten says why arm i loses to one of the fastest arms, or "".
func (r *Race) beaten(i int, ranked, looks []int) string {
	a := r.Arms[i]
	alpha, margin := r.Params.LookAlpha(), r.Params.Margin()
	for _, j := range ranked[:min(rivals, len(ranked))] {
		if j == i {
			continue
		}
		x, y := Pairs(r.Arms[j], a)
		if !slices.Contains(looks, len(x)) {
			continue
		}
		c := stats.ComparePaired(x, y, confidence)
		if c.Ratio > margin && c.P < alpha {
			return fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%] vs %s (signed-rank p=%.3g < %.3g, %d rounds)",
				100*c.Ratio, 100*c.Lo, 100*c.Hi, r.Arms[j].Label, c.P, alpha, c.N)
		}
	}
	return ""
}

// Done reports whether the race is over, and why: one arm left (and no
// kept reference), every live arm's time ratio to the fastest known to
// within Margin (settled: the paired interval is narrower), or every
// live arm at MaxSamples.
func (r *Race) Done() (bool, string) {
	live := r.Live()
	min := r.Params.minSamples()
	switch {
	case len(live) == 0:
		return true, "no arm left"
	case len(live) == 1 && len(r.Arms[live[0]].Values) >= min && !r.Arms[live[0]].Keep:
		return true, "one arm left"
	}
	full := true
	for _, i := range live {
		if len(r.Arms[i].Values) < r.Params.MaxSamples {
			full = false
		}
	}
	if full {
		return true, "max samples"
	}
	if r.settled(live, min) {
		return true, "settled"
	}
	return false, ""
}

// settled reports whether every live arm has min samples and its
// paired interval against the fastest live arm is narrower than Margin.
func (r *Race) settled(live []int, min int) bool {
	best := -1
	for _, i := range live {
		if len(r.Arms[i].Values) < min {
			return false
		}
		if best < 0 || r.Arms[i].median() < r.Arms[best].median() {
			best = i
		}
	}
	for _, i := range live {
		if i != best && compare(r.Arms[best], r.Arms[i]).Width() > r.Params.Margin() {
			return false
		}
	}
	return true
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
