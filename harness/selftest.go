package harness

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tunelab/tunelab/internal/binom"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A SelftestCase is one comparison of the selftest: Base raced against
// Other, Verdicts times.
type SelftestCase struct {
	Name        string
	Base, Other *variant.Variant
	// Eps is the planted slowdown of Other in percent; 0 for A/A (Other
	// is Base).
	Eps      float64
	Verdicts int
	// Target is the rate the case must reach: at most Target positives
	// for A/A, at least Target detections for a planted case; 0 sets no
	// target.
	Target float64
}

// AA reports whether the case is an A/A comparison.
func (c *SelftestCase) AA() bool { return c.Eps == 0 }

// SelftestResult counts one case's verdicts.
type SelftestResult struct {
	Case SelftestCase
	// Verdicts is the number of races; Positives those that eliminated
	// Other (for A/A: either arm); Wrong those that eliminated Base.
	Verdicts, Positives, Wrong int
	// Samples and Time total over the verdicts; Attempts, Discarded and
	// Kept total the disturbance counts (see Arm).
	Samples                   int
	Time                      time.Duration
	Attempts, Discarded, Kept int
}

// Rate returns Positives/Verdicts.
func (r *SelftestResult) Rate() float64 { return float64(r.Positives) / float64(max(r.Verdicts, 1)) }

// Interval returns the exact (Clopper–Pearson) 95% interval of the rate;
// with no verdicts it is [0, 1].
func (r *SelftestResult) Interval() (lo, hi float64) {
	if r.Verdicts == 0 {
		return 0, 1
	}
	return binom.Interval95(r.Positives, r.Verdicts)
}

// HasTarget reports whether the case has a target rate.
func (r *SelftestResult) HasTarget() bool { return r.Case.Target > 0 }

// Met reports whether the rate's point estimate meets the case's target
// (true for a case without one). A case without verdicts meets none.
func (r *SelftestResult) Met() bool {
	switch {
	case !r.HasTarget():
		return true
	case r.Verdicts == 0:
		return false
	case r.Case.AA():
		return r.Rate() <= r.Case.Target
	}
	return r.Rate() >= r.Case.Target
}

// Line states the rate, its interval and its target in one line, e.g.
// "A/A false positives 7/300 = 2.3% [0.9%, 4.7%] (target ≤ 5%): ok".
func (r *SelftestResult) Line() string {
	what := "A/A false positives"
	if !r.Case.AA() {
		what = fmt.Sprintf("detection of planted eps=%g%%", r.Case.Eps)
	}
	lo, hi := r.Interval()
	s := fmt.Sprintf("%s %d/%d = %s [%s, %s]", what, r.Positives, r.Verdicts, pct1(r.Rate()), pct1(lo), pct1(hi))
	switch {
	case !r.HasTarget():
		return s + " (no target)"
	case r.Met():
		return s + fmt.Sprintf(" (target %s): ok", r.targetText())
	}
	return s + fmt.Sprintf(" (target %s): MISSED", r.targetText())
}

// Miss describes a missed target, e.g. "A/A false positives 6.7% > 5%",
// or returns "" if the target is met.
func (r *SelftestResult) Miss() string {
	switch {
	case r.Met():
		return ""
	case r.Verdicts == 0:
		return r.Case.Name + ": no verdicts"
	case r.Case.AA():
		return fmt.Sprintf("A/A false positives %s > %s", pct1(r.Rate()), pctG(r.Case.Target))
	}
	return fmt.Sprintf("detection at eps=%g%% %s < %s", r.Case.Eps, pct1(r.Rate()), pctG(r.Case.Target))
}

func (r *SelftestResult) targetText() string {
	if r.Case.AA() {
		return "≤ " + pctG(r.Case.Target)
	}
	return "≥ " + pctG(r.Case.Target)
}

func pct1(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
func pctG(f float64) string { return fmt.Sprintf("%g%%", 100*f) }

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

// Selftest races each case its Verdicts times through Sweep, one
// single-group sweep per verdict with cfg's budget, interleaving the cases
// (see selftestSchedule) so that drift hits them alike. Results go to
// cfg.Results, each verdict as the next segment of cfg.Run. Cancelling ctx
// stops it after the verdict in flight.
func Selftest(ctx context.Context, cfg *Config, k *variant.Kernel, cases []SelftestCase) ([]*SelftestResult, error) {
	out := make([]*SelftestResult, len(cases))
	for i := range cases {
		out[i] = &SelftestResult{Case: cases[i]}
	}
	base := *cfg
	for n, i := range selftestSchedule(cases) {
		if ctx.Err() != nil {
			break
		}
		cfg := base
		cfg.Seed = base.Seed + uint64(n)
		cfg.Run.Segment = max(base.Run.Segment, 1) + n
		if err := selftestVerdict(ctx, &cfg, k, cases[i], out[i]); err != nil {
			return out, err
		}
	}
	return out, nil
}

// selftestSchedule returns the case index of each verdict in order: each
// next verdict goes to the case with the smallest share of its verdicts
// done (counting the one it would add; ties to the earlier case), so every
// case's verdicts are spread evenly over the run.
func selftestSchedule(cases []SelftestCase) []int {
	done := make([]int, len(cases))
	var out []int
	for {
		next := -1
		for i, c := range cases {
			if done[i] >= c.Verdicts {
				continue
			}
			// (done[i]+1)/V[i] < (done[next]+1)/V[next], in integers.
			if next < 0 || (done[i]+1)*cases[next].Verdicts < (done[next]+1)*c.Verdicts {
				next = i
			}
		}
		if next < 0 {
			return out
		}
		out = append(out, next)
		done[next]++
	}
}

func selftestVerdict(ctx context.Context, cfg *Config, k *variant.Kernel, c SelftestCase, res *SelftestResult) error {
	g := &Group{Kernel: k, Contenders: []Contender{{Label: c.Base.Name + "/arm=a", Variant: c.Base}, {Label: c.Other.Name + "/arm=b", Variant: c.Other}}}
	rep, err := Sweep(ctx, cfg, []*Group{g})
	if err != nil {
		return err
	}
	if rep.Interrupted || len(rep.Groups) == 0 {
		return nil
	}
	gr := rep.Groups[0]
	a, b := gr.Race.Arms[0], gr.Race.Arms[1]
	if a.Excluded || b.Excluded || gr.Err != nil {
		return fmt.Errorf("selftest %s: %s %s / %s %s", c.Name, a.Label, a.Reason, b.Label, b.Reason)
	}
	res.Verdicts++
	res.Samples += len(a.Values) + len(b.Values)
	att, disc, kept := gr.Race.Disturbance()
	res.Attempts, res.Discarded, res.Kept = res.Attempts+att, res.Discarded+disc, res.Kept+kept
	res.Time += gr.Elapsed
	switch {
	case c.AA() && (a.Eliminated || b.Eliminated):
		res.Positives++
	case b.Eliminated:
		res.Positives++
	case a.Eliminated:
		res.Wrong++
	}
	return nil
}

// WriteSelftest prints a table of the cases (verdicts, positives, time per
// verdict), the disturbance totals and one line per rate with its exact
// 95% interval and target (see SelftestResult.Line).
func WriteSelftest(w io.Writer, results []*SelftestResult) {
	fmt.Fprintf(w, "%-24s %8s %9s %8s %12s %12s\n", "comparison", "verdicts", "positive", "rate", "wrong-way", "time/verdict")
	for _, r := range results {
		per := r.Time / time.Duration(max(r.Verdicts, 1))
		fmt.Fprintf(w, "%-24s %8d %9d %7.1f%% %12d %12v  (%.1f samples/verdict)\n", r.Case.Name, r.Verdicts, r.Positives,
			100*r.Rate(), r.Wrong, per.Round(time.Millisecond), float64(r.Samples)/float64(max(r.Verdicts, 1)))
	}
	att, disc, kept := 0, 0, 0
	for _, r := range results {
		att, disc, kept = att+r.Attempts, disc+r.Discarded, kept+r.Kept
	}
	fmt.Fprintf(w, "disturbance: %d of %d attempts discarded (%.1f%%), %d disturbed samples kept\n",
		disc, att, 100*float64(disc)/float64(max(att, 1)), kept)
	for _, r := range results {
		fmt.Fprintln(w, r.Line())
	}
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
	return fmt.Sprintf("selftest ok: %d of %d targets met (point estimates; the intervals say how sure)", targets, targets)
}
