package harness

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tunelab/tunelab/internal/stats"
)

// HasTarget reports whether the case has a target.
func (r *SelftestResult) HasTarget() bool { return r.Case.Target > 0 }

// Met reports whether the case meets its target (true for a case without
// one): for A/A, the exact upper 95% bound of the false-positive rate is
// at most the target; for a planted case, the detection rate (point
// estimate) is at least the target. A case without verdicts meets none.
func (r *SelftestResult) Met() bool {
	switch {
	case !r.HasTarget():
		return true
	case r.Verdicts == 0:
		return false
	case r.Case.AA():
		_, hi := r.Interval()
		return hi <= r.Case.Target
	}
	return r.Rate() >= r.Case.Target
}

// Line states the rate, its interval and its target in one line, e.g.
// "A/A same address: false positives 4/300 = 1.3% [0.4%, 3.4%] (target:
// upper bound ≤ 7%): ok; named faster a 2, b 2 (chance: p=1)".
func (r *SelftestResult) Line() string {
	lo, hi := r.Interval()
	rate := fmt.Sprintf("%d/%d = %s [%s, %s]", r.Positives, r.Verdicts, pct1(r.Rate()), pct1(lo), pct1(hi))
	var s string
	switch {
	case r.Case.Placement():
		p := r.Pooled()
		return fmt.Sprintf("%s: positives %s; named faster a %d, b %d (chance: p=%.2g); pooled difference %s over %d rounds",
			r.Case.Name, rate, r.AFaster, r.BFaster, r.DirectionP(), fmtPaired(p), p.N)
	case r.Case.AA():
		s = fmt.Sprintf("%s: false positives %s", r.Case.Name, rate)
	default:
		s = fmt.Sprintf("detection of planted eps=%g%% %s", r.Case.Eps, rate)
	}
	switch {
	case !r.HasTarget():
		s += " (no target)"
	case r.Met():
		s += fmt.Sprintf(" (target %s): ok", r.targetText())
	default:
		s += fmt.Sprintf(" (target %s): MISSED", r.targetText())
	}
	if r.Case.AA() {
		s += fmt.Sprintf("; named faster a %d, b %d (chance: p=%.2g)", r.AFaster, r.BFaster, r.DirectionP())
	}
	return s
}

// fmtPaired formats a pooled comparison: "+0.02% [-0.03%, +0.07%]".
func fmtPaired(p stats.Paired) string {
	return fmt.Sprintf("%+.2f%% [%+.2f%%, %+.2f%%]", 100*p.Ratio, 100*p.Lo, 100*p.Hi)
}

// Miss describes a missed target, e.g. "A/A false positives 6.7%
// [4.1%, 10.2%]: upper bound above 7%", or returns "" if the target is
// met.
func (r *SelftestResult) Miss() string {
	switch {
	case r.Met():
		return ""
	case r.Verdicts == 0:
		return r.Case.Name + ": no verdicts"
	case r.Case.AA():
		lo, hi := r.Interval()
		return fmt.Sprintf("A/A false positives %s [%s, %s]: upper bound above %s", pct1(r.Rate()), pct1(lo), pct1(hi), pctG(r.Case.Target))
	}
	return fmt.Sprintf("detection at eps=%g%% %s < %s", r.Case.Eps, pct1(r.Rate()), pctG(r.Case.Target))
}

func (r *SelftestResult) targetText() string {
	if r.Case.AA() {
		return "upper bound ≤ " + pctG(r.Case.Target)
	}
	return "≥ " + pctG(r.Case.Target)
}

func pct1(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
func pctG(f float64) string { return fmt.Sprintf("%.3g%%", 100*f) }

// SelftestMisses returns a description of every missed target.
func SelftestMisses(results []*SelftestResult) []string {
	var out []string
	for _, r := range results {
		if m := r.Miss(); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// A Layout sums up the placement cases: how often byte-identical code
// at another address or loop offset was called different, and the
// host's layout floor.
type Layout struct {
	Verdicts, Positives int
	AFaster, BFaster    int
	// Floor is the largest pooled difference, in magnitude, between a
	// placement and the base whose interval excludes 0 (0 when none
	// does), measured at Where.
	Floor float64
	Where string
	// Largest is the placement with the largest pooled difference in
	// magnitude, significant or not.
	Largest      stats.Paired
	LargestWhere string
	Placements   int
}

// SelftestLayout sums up the placement cases of results.
func SelftestLayout(results []*SelftestResult) Layout {
	var l Layout
	for _, r := range results {
		if !r.Case.Placement() || r.Verdicts == 0 {
			continue
		}
		l.Placements++
		l.Verdicts += r.Verdicts
		l.Positives += r.Positives
		l.AFaster, l.BFaster = l.AFaster+r.AFaster, l.BFaster+r.BFaster
		p := r.Pooled()
		if l.LargestWhere == "" || math.Abs(p.Ratio) > math.Abs(l.Largest.Ratio) {
			l.Largest, l.LargestWhere = p, r.Case.Name
		}
		if p.OK() && (p.Lo > 0 || p.Hi < 0) && math.Abs(p.Ratio) > l.Floor {
			l.Floor, l.Where = math.Abs(p.Ratio), r.Case.Name
		}
	}
	return l
}

// Interval returns the exact 95% interval of the placement positives'
// rate.
func (l Layout) Interval() (lo, hi float64) {
	if l.Verdicts == 0 {
		return 0, 1
	}
	return stats.ClopperPearson95(l.Positives, l.Verdicts)
}

// Line states the placement positives and the floor in one line.
func (l Layout) Line() string {
	if l.Verdicts == 0 {
		return "layout: not measured (no placement copies)"
	}
	lo, hi := l.Interval()
	dir := stats.SignTestP(l.AFaster, l.BFaster)
	s := fmt.Sprintf("A/A at other addresses and loop offsets (%d placements): positives %d/%d = %s [%s, %s]; named faster a %d, b %d (chance: p=%.2g)",
		l.Placements, l.Positives, l.Verdicts, pct1(float64(l.Positives)/float64(l.Verdicts)), pct1(lo), pct1(hi), l.AFaster, l.BFaster, dir)
	return s + "\n" + l.FloorLine()
}

// FloorLine states the layout floor and where it was measured.
func (l Layout) FloorLine() string {
	if l.Floor == 0 {
		return fmt.Sprintf("layout floor 0%%: no placement differs significantly; largest %s (%s)", fmtPaired(l.Largest), l.LargestWhere)
	}
	return fmt.Sprintf("layout floor %.2f%%: %s differs by %s", 100*l.Floor, l.Where, fmtPaired(l.Largest))
}

// WidenedThreshold returns the smallest threshold, at least threshold,
// at which the same-address A/A case would have met its target: its
// positives recounted as those whose deciding estimate exceeds it. It is
// threshold when the target is met, and +Inf when no threshold would do.
func WidenedThreshold(r *SelftestResult, threshold float64) float64 {
	if r.Verdicts == 0 || !r.HasTarget() {
		return threshold
	}
	candidates := []float64{threshold}
	for _, d := range r.Deciding {
		if math.Abs(d) > threshold {
			candidates = append(candidates, math.Abs(d))
		}
	}
	slices.Sort(candidates)
	for _, t := range candidates {
		kept := 0
		for _, d := range r.Deciding {
			if math.Abs(d) > t {
				kept++
			}
		}
		if _, hi := stats.ClopperPearson95(kept, r.Verdicts); hi <= r.Case.Target {
			return t
		}
	}
	return math.Inf(1)
}

// verdictsToShow returns the fewest verdicts whose exact upper bound can
// fall to target at all (no positive): fewer cannot show the promise.
func verdictsToShow(target float64) int {
	for n := 1; n < 100000; n++ {
		if _, hi := stats.ClopperPearson95(0, n); hi <= target {
			return n
		}
	}
	return 100000
}

// Promise states in a few lines whether the rule keeps its promise on
// this host (the same-address A/A target and detection of a planted
// effect of twice the threshold), and where it does not, by how much
// the threshold must widen; the layout floor widens it by itself.
func Promise(results []*SelftestResult, threshold float64) []string {
	var out []string
	var same *SelftestResult
	for _, r := range results {
		if r.Case.AA() && !r.Case.Placement() {
			same = r
		}
	}
	if same != nil && same.Verdicts > 0 && same.HasTarget() && same.Verdicts < verdictsToShow(same.Case.Target) {
		out = append(out, fmt.Sprintf("promise not shown: %d A/A verdicts cannot bound the false-positive rate to %s (at least %d needed)",
			same.Verdicts, pctG(same.Case.Target), verdictsToShow(same.Case.Target)))
	} else if same != nil && same.Verdicts > 0 && !same.Met() {
		t := WidenedThreshold(same, threshold)
		lo, hi := same.Interval()
		line := fmt.Sprintf("promise NOT kept on this host: A/A false positives %s [%s, %s] at threshold %s", pct1(same.Rate()), pct1(lo), pct1(hi), pctG(threshold))
		if math.IsInf(t, 1) {
			line += "; no threshold would keep it: measure on a quieter host"
		} else {
			line += fmt.Sprintf("; it would hold at threshold %.2f%% (%.2f points wider: sweep --threshold %.2f)", 100*t, 100*(t-threshold), 100*t)
		}
		out = append(out, line)
	} else if same != nil && same.Verdicts > 0 {
		_, hi := same.Interval()
		out = append(out, fmt.Sprintf("promise kept on this host: A/A false positives at most %s (95%% upper bound) at threshold %s", pct1(hi), pctG(threshold)))
	}
	if l := SelftestLayout(results); l.Floor > threshold {
		out = append(out, fmt.Sprintf("layout floor %.2f%% exceeds the %s threshold: on this host a margin below %.2f%% is a tie unless the winner keeps winning when both are moved (the threshold widens by %.2f points)",
			100*l.Floor, pctG(threshold), 100*l.Floor, 100*(l.Floor-threshold)))
	}
	for _, r := range results {
		if !r.Case.AA() && r.HasTarget() && !r.Met() {
			line := fmt.Sprintf("detection NOT as promised: planted %g%% found %s of the time (target %s)", r.Case.Eps, pct1(r.Rate()), pctG(r.Case.Target))
			if same != nil {
				if e := DetectableEffect(same); !math.IsInf(e, 1) {
					line += fmt.Sprintf("; on this host an effect must be about %.1f%% to be found 95%% of the time (95%% of A/A verdicts' intervals are narrower than ±%.1f%%)", 100*e, 100*e/detectFactor)
				}
			}
			out = append(out, line)
		}
	}
	return out
}

// detectFactor turns an interval's half-width (1.96 standard errors)
// into the effect found 95% of the time by a two-sided test at 0.02:
// (2.33 + 1.645) / 1.96.
const detectFactor = (2.326 + 1.645) / 1.96

// DetectableEffect estimates the smallest effect one verdict finds 95% of
// the time on this host: detectFactor times the 95th percentile of the
// A/A verdicts' interval half-widths (+Inf without finite ones).
func DetectableEffect(r *SelftestResult) float64 {
	var hw []float64
	for _, h := range r.HalfWidths {
		if !math.IsInf(h, 0) && !math.IsNaN(h) {
			hw = append(hw, h)
		}
	}
	if len(hw) == 0 {
		return math.Inf(1)
	}
	slices.Sort(hw)
	return detectFactor * hw[min(len(hw)-1, int(math.Ceil(0.95*float64(len(hw))))-1)]
}

// WriteSelftest prints a table of the cases (verdicts, positives, the
// arm named faster, time per verdict), the disturbance totals, one line
// per rate with its exact 95% interval and target (see
// SelftestResult.Line), the layout summary and the promise.
func WriteSelftest(w io.Writer, results []*SelftestResult, threshold float64) {
	fmt.Fprintf(w, "%-34s %8s %9s %8s %9s %10s %12s\n", "comparison", "verdicts", "positive", "rate", "a/b", "wrong-way", "time/verdict")
	for _, r := range results {
		per := r.Time / time.Duration(max(r.Verdicts, 1))
		fmt.Fprintf(w, "%-34s %8d %9d %7.1f%% %9s %10d %12v  (%.1f samples/verdict)\n", r.Case.Name, r.Verdicts, r.Positives,
			100*r.Rate(), fmt.Sprintf("%d/%d", r.AFaster, r.BFaster), r.Wrong, per.Round(time.Millisecond), float64(r.Samples)/float64(max(r.Verdicts, 1)))
	}
	att, disc, kept := 0, 0, 0
	for _, r := range results {
		att, disc, kept = att+r.Attempts, disc+r.Discarded, kept+r.Kept
	}
	fmt.Fprintf(w, "disturbance: %d of %d attempts discarded (%.1f%%), %d disturbed samples kept (%.1f%%; timed by the thread's CPU clock)\n",
		disc, att, 100*float64(disc)/float64(max(att, 1)), kept, 100*float64(kept)/float64(max(att, 1)))
	for _, r := range results {
		fmt.Fprintln(w, r.Line())
	}
	fmt.Fprintln(w, SelftestLayout(results).Line())
	fmt.Fprintln(w, "per-verdict differences (Other vs Base; min / quartiles / max):")
	for _, r := range results {
		if len(r.Estimates) > 0 {
			fmt.Fprintf(w, "  %-34s %s\n", r.Case.Name, quartiles(r.Estimates))
		}
	}
	for _, line := range Promise(results, threshold) {
		fmt.Fprintln(w, line)
	}
}

// quartiles formats min, quartiles and max of xs in percent.
func quartiles(xs []float64) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	q := func(f float64) float64 { return s[int(math.Round(f*float64(len(s)-1)))] }
	parts := make([]string, 0, 5)
	for _, f := range []float64{0, 0.25, 0.5, 0.75, 1} {
		parts = append(parts, fmt.Sprintf("%+.2f%%", 100*q(f)))
	}
	return strings.Join(parts, " / ")
}

// SelftestOutcome sums the results up in one line: every target met, or
// which were missed.
func SelftestOutcome(results []*SelftestResult) string {
	targets := 0
	for _, r := range results {
		if r.HasTarget() {
			targets++
		}
	}
	if misses := SelftestMisses(results); len(misses) > 0 {
		return fmt.Sprintf("selftest FAILED: %d of %d targets missed: %s", len(misses), targets, strings.Join(misses, "; "))
	}
	return fmt.Sprintf("selftest ok: %d of %d targets met (A/A: exact upper bound; detection: point estimate)", targets, targets)
}
