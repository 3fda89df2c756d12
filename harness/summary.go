package harness

import (
	"fmt"
	"io"
	"time"
)

// A Verdicts function returns the lines that state a group's decision
// (winner, runner-up or tie, references); the sweep command computes them
// with the reports package's winner rule from the result file, so that
// the sweep, report and export give one answer.
type Verdicts func(g *GroupResult) []string

// A Failure is a contender a sweep excluded: it failed verification,
// crashed or could not be restarted; Group is its kernel/size group.
type Failure struct {
	Group, Variant, Reason string
}

// Failures returns every contender the sweep excluded, group by group,
// and every group that could not be measured at all.
func (r *Report) Failures() []Failure {
	var out []Failure
	for _, g := range r.Groups {
		if g.Err != nil {
			out = append(out, Failure{Group: g.Group.Key(), Reason: g.Err.Error()})
		}
		for _, a := range g.Race.Arms {
			if a.Excluded {
				out = append(out, Failure{Group: g.Group.Key(), Variant: a.Label, Reason: a.Reason})
			}
		}
	}
	return out
}

// WriteFailures prints the failures under a heading that counts them,
// one line each; nothing when there are none. Sweeps print them before
// any verdict: a variant that computes wrong results matters more than
// which variant is fastest.
func WriteFailures(w io.Writer, fs []Failure) {
	if len(fs) == 0 {
		return
	}
	noun := "variants"
	if len(fs) == 1 {
		noun = "variant"
	}
	fmt.Fprintf(w, "FAILED: %d %s failed verification or crashed; no verdict counts them\n", len(fs), noun)
	for _, f := range fs {
		v := f.Variant
		if v == "" {
			v = "(whole group)"
		}
		fmt.Fprintf(w, "  %s  %s: %s\n", f.Group, v, f.Reason)
	}
	fmt.Fprintln(w)
}

// WriteSummary prints, per group, what the race did and the verdict lines,
// then the time racing saved.
func WriteSummary(w io.Writer, rep *Report, verdicts Verdicts) {
	for _, g := range rep.Groups {
		writeGroupSummary(w, g, verdicts)
	}
	writeClock(w, rep, rep.TSCHz)
	saved, spent := rep.Saved()
	if spent > 0 {
		fmt.Fprintf(w, "\nmeasuring took %v; racing saved %v (%.0f%% of measuring every variant to the end)\n",
			spent.Round(time.Millisecond), saved.Round(time.Millisecond), 100*float64(saved)/float64(saved+spent))
	}
	if rep.Interrupted {
		fmt.Fprintln(w, "interrupted: results so far are in the result file; continue with --resume")
	}
}

func writeGroupSummary(w io.Writer, g *GroupResult, verdicts Verdicts) {
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
	for _, line := range verdicts(g) {
		fmt.Fprintf(w, "  %s\n", line)
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
