package harness

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/tunelab/tunelab/kernels/variant"
)

// A Verdict summarizes one group: its winner and the winner's margins.
type Verdict struct {
	Winner  *Arm
	Summary benchmath.Summary
	// RunnerUp and Baseline are compared with the winner; nil if absent.
	RunnerUp, Baseline       *Arm
	RunnerUpCmp, BaselineCmp Comparison
}

// A Comparison is the relative difference of another arm's median to the
// winner's and the U test's p-value.
type Comparison struct {
	Delta, P float64
}

// Decide returns the group's verdict, or nil when no live arm has the
// minimum sample count.
func Decide(r *Race) *Verdict {
	min := r.Params.minSamples()
	var ranked []*Arm
	for _, a := range r.Arms {
		if !a.Excluded && len(a.Values) >= min {
			ranked = append(ranked, a)
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		// Live arms rank before eliminated ones, then by median.
		if ranked[i].live() != ranked[j].live() {
			return ranked[i].live()
		}
		return ranked[i].median() < ranked[j].median()
	})
	if len(ranked) == 0 || !ranked[0].live() {
		return nil
	}
	v := &Verdict{Winner: ranked[0], Summary: benchmath.AssumeNothing.Summary(ranked[0].sample(r.Params.Alpha), confidence)}
	if len(ranked) > 1 {
		v.RunnerUp, v.RunnerUpCmp = ranked[1], compare(v.Winner, ranked[1], r.Params.Alpha)
	}
	for _, a := range ranked {
		if a.Label == variant.GenericName && a != v.Winner {
			v.Baseline, v.BaselineCmp = a, compare(v.Winner, a, r.Params.Alpha)
		}
	}
	return v
}

func compare(w, a *Arm, alpha float64) Comparison {
	c := benchmath.AssumeNothing.Compare(a.sample(alpha), w.sample(alpha))
	return Comparison{Delta: a.median()/w.median() - 1, P: c.P}
}

// WriteSummary prints, per group, the winner's median with its 95%
// interval and its margins over the runner-up and the generic baseline,
// then the time racing saved.
func WriteSummary(w io.Writer, rep *Report) {
	for _, g := range rep.Groups {
		writeGroupSummary(w, g)
	}
	saved, spent := rep.Saved()
	if spent > 0 {
		fmt.Fprintf(w, "\nmeasuring took %v; racing saved %v (%.0f%% of measuring every variant to the end)\n",
			spent.Round(time.Millisecond), saved.Round(time.Millisecond), 100*float64(saved)/float64(saved+spent))
	}
	if rep.Interrupted {
		fmt.Fprintln(w, "interrupted: results so far are in the result file; continue with --resume")
	}
}

func writeGroupSummary(w io.Writer, g *GroupResult) {
	r := g.Race
	elim, excl := 0, 0
	for _, a := range r.Arms {
		if a.Eliminated {
			elim++
		}
		if a.Excluded {
			excl++
		}
	}
	fmt.Fprintf(w, "%s: %d contenders, %d eliminated, %d excluded; stopped: %s (%v)\n",
		g.Group.Key(), len(r.Arms), elim, excl, g.Stop, g.Elapsed.Round(time.Millisecond))
	if v := Decide(r); v != nil {
		s := v.Summary
		fmt.Fprintf(w, "  winner     %-40s %s [%s, %s] n=%d\n", v.Winner.Label, fmtNs(s.Center), fmtNs(s.Lo), fmtNs(s.Hi), len(v.Winner.Values))
		writeMargin(w, "runner-up", v.RunnerUp, v.RunnerUpCmp)
		writeMargin(w, "baseline", v.Baseline, v.BaselineCmp)
	} else {
		fmt.Fprintf(w, "  no winner: no live contender has %d samples\n", r.Params.minSamples())
	}
	for _, a := range r.Arms {
		if a.Excluded {
			fmt.Fprintf(w, "  excluded   %-40s %s\n", a.Label, a.Reason)
		}
	}
	if att, disc, kept := r.Disturbance(); disc+kept > 0 {
		fmt.Fprintf(w, "  disturbed  %d of %d attempts discarded, %d disturbed samples kept (busy host)\n", disc, att, kept)
	}
}

// Disturbance sums the arms' attempts, discarded attempts and kept
// disturbed samples.
func (r *Race) Disturbance() (attempts, discarded, kept int) {
	for _, a := range r.Arms {
		attempts += a.Attempts
		discarded += a.Discarded
		kept += a.Kept
	}
	return attempts, discarded, kept
}

func writeMargin(w io.Writer, what string, a *Arm, c Comparison) {
	if a == nil {
		return
	}
	fmt.Fprintf(w, "  %-10s %-40s %+.2f%% p=%.3g n=%d\n", what, a.Label, 100*c.Delta, c.P, len(a.Values))
}

// fmtNs formats a duration given in nanoseconds with 4 significant digits.
func fmtNs(ns float64) string {
	switch {
	case math.IsInf(ns, 0) || math.IsNaN(ns):
		return fmt.Sprint(ns)
	case ns >= 1e6:
		return fmt.Sprintf("%.4gms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.4gµs", ns/1e3)
	}
	return fmt.Sprintf("%.4gns", ns)
}
