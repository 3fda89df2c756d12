package harness

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
)

// A SelftestCase is one comparison of the selftest: Base raced against Other; Eps is the
// planted slowdown of Other in percent (0 for A/A, Other == Base).
type SelftestCase struct {
	Name        string
	Base, Other *variant.Variant
	Eps         float64
}

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

// Selftest races every case reps times through Sweep, one single-group
// sweep per verdict with cfg's budget, interleaving the cases so drift
// hits them alike. Results go to cfg.Results.
func Selftest(ctx context.Context, cfg *Config, k *variant.Kernel, cases []SelftestCase, reps int) ([]*SelftestResult, error) {
	out := make([]*SelftestResult, len(cases))
	for i := range cases {
		out[i] = &SelftestResult{Case: cases[i]}
	}
	base := *cfg
	for rep := 0; rep < reps && ctx.Err() == nil; rep++ {
		for i, c := range cases {
			cfg := base
			cfg.Seed = base.Seed + uint64(rep*len(cases)+i)
			if err := selftestVerdict(ctx, &cfg, k, c, out[i]); err != nil {
				return out, err
			}
		}
	}
	return out, nil
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
	case c.Eps == 0 && (a.Eliminated || b.Eliminated):
		res.Positives++
	case b.Eliminated:
		res.Positives++
	case a.Eliminated:
		res.Wrong++
	}
	return nil
}

// WriteSelftest prints the false-positive rate of the A/A cases and the
// detection rate of the planted ones, with the time per verdict.
func WriteSelftest(w io.Writer, results []*SelftestResult, threshold float64) {
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
		switch {
		case r.Case.Eps == 0:
			fmt.Fprintf(w, "A/A false-positive rate: %.1f%% (target <= 5%%)\n", 100*r.Rate())
		default:
			fmt.Fprintf(w, "detection at eps=%g%% (threshold %g%%): %.1f%%%s\n", r.Case.Eps, 100*threshold, 100*r.Rate(), target(r.Case.Eps))
		}
	}
}

func target(eps float64) string {
	if eps == 2 {
		return " (target >= 95%)"
	}
	return ""
}
