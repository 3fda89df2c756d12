package harness

import (
	"context"
	"fmt"
	"time"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A SelftestCase is one comparison of the selftest: Base raced against
// Other, Verdicts times.
type SelftestCase struct {
	Name        string
	Base, Other *variant.Variant
	// Eps is the planted slowdown of Other in percent; 0 for A/A (Other
	// runs the same instructions as Base).
	Eps      float64
	Verdicts int
	// Target is what the case must reach; 0 sets none. For A/A of one
	// function at one address: the most the exact upper 95% bound of the
	// false-positive rate may be. For a planted case: the least detection
	// rate. Placement cases (A/A of copies) measure the host and have
	// none.
	Target float64
}

// AA reports whether the case is an A/A comparison.
func (c *SelftestCase) AA() bool { return c.Eps == 0 }

// Placement reports whether the case compares byte-identical code at
// two placements (another address or loop offset): an A/A case whose
// arms are different functions.
func (c *SelftestCase) Placement() bool { return c.AA() && c.Base != c.Other }

// A Judge applies the decision rule to a finished two-arm race: it
// returns the index (0 or 1) of the arm the rule names the winner, or -1
// for a tie or no winner. The selftest command passes the reports
// package's rule, so that the selftest measures the rule that sweep,
// report and export apply.
type Judge func(arms []*Arm) int

// PairedJudge is the decision rule for two arms without the reports
// package (harness tests): an arm the race eliminated loses, else the
// paired comparison must be significant at alpha and beyond margin.
func PairedJudge(alpha, margin float64) Judge {
	return func(arms []*Arm) int {
		a, b := arms[0], arms[1]
		switch {
		case a.Eliminated && !b.Eliminated:
			return 1
		case b.Eliminated && !a.Eliminated:
			return 0
		}
		c := compare(a, b)
		switch {
		case !c.Significant(alpha, margin):
			return -1
		case c.Ratio > 0:
			return 0
		}
		return 1
	}
}

// SelftestResult counts one case's verdicts.
type SelftestResult struct {
	Case SelftestCase
	// Verdicts is the number of races; Positives those whose decision
	// named a winner (for A/A: either arm; planted: Base), Wrong those
	// that named Other (planted only). AFaster and BFaster split the A/A
	// positives by the arm named faster: chance flips, layout does not.
	Verdicts, Positives, Wrong int
	AFaster, BFaster           int
	// Estimates holds each verdict's paired estimate of Other's time
	// relative to Base's minus one (over the rounds both arms ran: up to
	// an elimination), Deciding that of each positive.
	Estimates, Deciding []float64
	// HalfWidths holds each verdict's 95% interval half-width of that
	// estimate: how finely one verdict resolves a difference here.
	HalfWidths []float64
	// LogRatios pools every round's ln(Other/Base) over the verdicts.
	LogRatios []float64
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
	return stats.ClopperPearson95(r.Positives, r.Verdicts)
}

// Pooled compares Other with Base over every round of every verdict.
func (r *SelftestResult) Pooled() stats.Paired {
	return stats.PairedFromLogRatios(r.LogRatios, confidence)
}

// DirectionP is the two-sided binomial p-value of the A/A positives'
// split between the arms under chance (each arm equally likely): small
// when one arm keeps being named faster, as layout would make it.
func (r *SelftestResult) DirectionP() float64 {
	return stats.SignTestP(r.AFaster, r.BFaster)
}

// Selftest races each case its Verdicts times through Sweep, one
// single-group sweep per verdict with cfg's budget, interleaving the cases
// (see selftestSchedule) so that drift hits them alike, and judges each
// race with judge. Results go to cfg.Results, each verdict as the next
// segment of cfg.Run. Cancelling ctx stops it after the verdict in flight.
func Selftest(ctx context.Context, cfg *Config, k *variant.Kernel, cases []SelftestCase, judge Judge) ([]*SelftestResult, error) {
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
		if err := selftestVerdict(ctx, &cfg, k, cases[i], out[i], judge); err != nil {
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

func selftestVerdict(ctx context.Context, cfg *Config, k *variant.Kernel, c SelftestCase, res *SelftestResult, judge Judge) error {
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
	res.count(gr, judge(gr.Race.Arms))
	return nil
}

// count adds one judged race (winner: the arm the rule named, -1 none).
func (res *SelftestResult) count(gr *GroupResult, winner int) {
	a, b := gr.Race.Arms[0], gr.Race.Arms[1]
	res.Verdicts++
	res.Samples += len(a.Values) + len(b.Values)
	att, disc, kept := gr.Race.Disturbance()
	res.Attempts, res.Discarded, res.Kept = res.Attempts+att, res.Discarded+disc, res.Kept+kept
	res.Time += gr.Elapsed
	x, y := Pairs(a, b)
	d := stats.LogRatios(x, y)
	res.LogRatios = append(res.LogRatios, d...)
	all := stats.PairedFromLogRatios(d, confidence)
	res.Estimates = append(res.Estimates, all.Ratio)
	res.HalfWidths = append(res.HalfWidths, all.Width()/2)
	if winner < 0 {
		return
	}
	res.Deciding = append(res.Deciding, all.Ratio)
	switch {
	case res.Case.AA():
		res.Positives++
		if winner == 0 {
			res.AFaster++
		} else {
			res.BFaster++
		}
	case winner == 0:
		res.Positives++
	default:
		res.Wrong++
	}
}
