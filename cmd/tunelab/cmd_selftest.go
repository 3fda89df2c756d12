package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
)

func init() {
	register(&command{
		name:    "selftest",
		summary: "measure the measurer on kernel calib: A/A false positives at one address, the layout floor from copies at other addresses, planted-effect detection",
		run:     runSelftest,
	})
}

// calibKernel is the calibration kernel of package lab/calib and
// calibFamily its family, which default sweeps leave out.
const (
	calibKernel = "calib"
	calibFamily = "calib"
)

// Selftest defaults. 300 A/A verdicts of one function at one address
// let the exact 95% upper bound of the false-positive rate fall below 7%
// unless the rate is near 4% (0/300: 1.2%, 6/300 = 2%: 4.3%, 12/300 =
// 4%: 6.9%); 300 more race byte-identical copies at other addresses and
// loop offsets against it (the host's layout sensitivity); 100 verdicts
// of a planted case bound a perfect detection rate below by 96.4%. With
// every verdict's budget at most selftestTime over the verdicts, a
// default run takes about 5 minutes at worst on a busy host.
const (
	defaultAAVerdicts        = 300
	defaultPlacementVerdicts = 300
	defaultPlantedVerdicts   = 100
	selftestTime             = 5 * time.Minute
	// aaTarget bounds the exact upper 95% bound of the same-address A/A
	// false-positive rate; detectTarget is the detection rate a planted
	// effect of at least twice the racing threshold must reach.
	aaTarget     = 0.07
	detectTarget = 0.95
)

// selftestFlags are the flags of `tunelab selftest`.
type selftestFlags struct {
	aa, placements, planted *int
	budget                  *time.Duration
	out                     *string
	measure                 *measureFlags
}

func runSelftest(e *env, args []string) error {
	f, err := parseSelftestFlags(e, args)
	if err != nil {
		return err
	}
	cfg, cases, err := f.plan()
	if err != nil {
		return err
	}
	sink, closeSink, err := selftestSink(*f.out)
	if err != nil {
		return err
	}
	defer closeSink()
	opt := selftestRule(cfg)
	cfg.Results, cfg.Log, cfg.Run = sink, e.stderr, harness.NewRun(cfg.Seed)
	cfg.Run.Rule = opt.String()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(e.stderr, "selftest: %s, budget %v per verdict, threshold %g%%, sample time %v\n",
		verdictCounts(cases), cfg.Budget.Round(time.Millisecond), 100*cfg.Race.Threshold, cfg.SampleTime)
	fmt.Fprintf(e.stdout, "decision rule: %s\n", opt)
	start, load0 := time.Now(), fmtLoad()
	res, err := harness.Selftest(ctx, cfg, variant.LookupKernel(calibKernel), cases, ruleJudge(opt, 0))
	harness.WriteSelftest(e.stdout, res, cfg.Race.Threshold)
	fmt.Fprintf(e.stdout, "selftest took %v; budget %v per verdict; load average %s at start, %s at end on %d CPUs\n",
		time.Since(start).Round(time.Millisecond), cfg.Budget.Round(time.Millisecond), load0, fmtLoad(), runtime.NumCPU())
	fmt.Fprintln(e.stdout, harness.SelftestOutcome(res))
	if err != nil {
		return err
	}
	return selftestExit(ctx, res, cases)
}

func parseSelftestFlags(e *env, args []string) (*selftestFlags, error) {
	fs := newFlags(e, "selftest", "selftest [--verdicts N] [--placements N] [--planted N] [--budget D] [flags]")
	f := &selftestFlags{
		aa:         fs.Int("verdicts", defaultAAVerdicts, "A/A verdicts of one function at one address (races of the unperturbed calibration chain against itself)"),
		placements: fs.Int("placements", defaultPlacementVerdicts, "A/A verdicts of byte-identical copies at other addresses and loop offsets, spread over the copies (0: none)"),
		planted:    fs.Int("planted", defaultPlantedVerdicts, "verdicts per planted effect (eps=1,2,5%)"),
		budget:     fs.Duration("budget", 0, "budget per verdict (default: a 2-variant group's share of a default sweep's budget, at most "+selftestTime.String()+" over the verdicts)"),
		out:        fs.String("o", "", "also write the selftest's samples to this result file"),
		measure:    addMeasureFlags(fs),
	}
	if err := parseNoArgs(fs, args); err != nil {
		return nil, err
	}
	return f, f.check(fs)
}

// check validates the selftest's own flags.
func (f *selftestFlags) check(fs *flag.FlagSet) error {
	for _, c := range []struct {
		name string
		n    int
	}{{"verdicts", *f.aa}, {"planted", *f.planted}} {
		if c.n < 1 {
			return usagef("%s: --%s %d: want a positive number of verdicts", fs.Name(), c.name, c.n)
		}
	}
	if *f.placements < 0 {
		return usagef("%s: --placements %d: want a number of verdicts, or 0 for none", fs.Name(), *f.placements)
	}
	if *f.budget < 0 {
		return usagef("%s: --budget %v: want a positive duration, or 0 for the default", fs.Name(), *f.budget)
	}
	return nil
}

// plan returns the harness configuration and the cases to race.
func (f *selftestFlags) plan() (*harness.Config, []harness.SelftestCase, error) {
	cfg, err := f.measure.config()
	if err != nil {
		return nil, nil, err
	}
	cases, err := selftestCases(*f.aa, *f.placements, *f.planted, cfg.Race.Threshold)
	if err != nil {
		return nil, nil, err
	}
	cfg.Budget = *f.budget
	if cfg.Budget == 0 {
		cfg.Budget = defaultVerdictBudget(cases)
	}
	return cfg, cases, nil
}

// selftestSink opens the -o result file, or discards the samples.
func selftestSink(path string) (io.Writer, func(), error) {
	if path == "" {
		return io.Discard, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, fmt.Errorf("creating selftest result file: %w", err)
	}
	return f, func() { f.Close() }, nil
}

// selftestExit turns missed targets (point estimates) or an interrupted
// run into exit status 1 with one line saying which.
func selftestExit(ctx context.Context, res []*harness.SelftestResult, cases []harness.SelftestCase) error {
	done, want := 0, 0
	for i, r := range res {
		done, want = done+r.Verdicts, want+cases[i].Verdicts
	}
	if ctx.Err() != nil && done < want {
		return &exitError{code: 1, err: fmt.Errorf("selftest interrupted after %d of %d verdicts: no claim either way", done, want)}
	}
	if misses := harness.SelftestMisses(res); len(misses) > 0 {
		return &exitError{code: 1, err: errors.New("selftest missed its targets: " + strings.Join(misses, "; "))}
	}
	return nil
}

// verdictCounts describes the run's verdicts, e.g. "900 verdicts (A/A
// 300, placements 300, planted 100 each)".
func verdictCounts(cases []harness.SelftestCase) string {
	total, placements, planted := 0, 0, 0
	for _, c := range cases {
		total += c.Verdicts
		switch {
		case c.Placement():
			placements += c.Verdicts
		case !c.AA():
			planted = c.Verdicts
		}
	}
	return fmt.Sprintf("%d verdicts (A/A %d, placements %d, planted %d each)", total, cases[0].Verdicts, placements, planted)
}

// selftestRule is the decision rule the selftest judges by: the
// reports package's, with the run's threshold and race.
func selftestRule(cfg *harness.Config) reports.Options {
	opt := reports.DefaultOptions()
	opt.Threshold, opt.Race = cfg.Race.Threshold, cfg.Race.String()
	return opt
}

// ruleJudge judges a selftest race by the reports package's rule on a
// model with the given layout floor.
func ruleJudge(opt reports.Options, floor float64) harness.Judge {
	return func(arms []*harness.Arm) int {
		w, _ := reports.DecideArms(arms, opt, floor)
		return w
	}
}

// defaultVerdictBudget is the budget a group of two contenders gets in a
// default sweep on this host, cut to fit the run into selftestTime.
func defaultVerdictBudget(cases []harness.SelftestCase) time.Duration {
	total := 0
	for _, c := range cases {
		total += c.Verdicts
	}
	return min(verdictBudget(), selftestTime/time.Duration(max(total, 1)))
}

// verdictBudget is the budget a group of two contenders gets in a default
// sweep on this host: its share of the default budget.
func verdictBudget() time.Duration {
	sel, err := selection("", "", "", false)
	if err != nil {
		return 2 * time.Second
	}
	groups, _, err := harness.Select(sel)
	contenders := 0
	for _, g := range groups {
		contenders += len(g.Contenders)
	}
	if err != nil || contenders < 2 {
		return 2 * time.Second
	}
	return defaultBudget * 2 / time.Duration(contenders)
}

// selftestCases returns the A/A case of the unperturbed calibration
// chain against itself (one function, one address), aa verdicts; A/A
// cases of the chain against each byte-identical copy at another address
// (copy=N) and loop offset (align=64+N), placements verdicts spread over
// them; and one planted case per eps variant, planted verdicts each. The
// same-address case targets an exact upper bound of aaTarget on its
// false-positive rate; a planted effect of at least twice the racing
// threshold (a fraction) must be detected at least detectTarget of the
// time; the placement cases measure the host and have no target.
func selftestCases(aa, placements, planted int, threshold float64) ([]harness.SelftestCase, error) {
	vs, err := variant.Match(calibKernel, "eps=*")
	if err != nil || len(vs) == 0 {
		return nil, fmt.Errorf("selftest: kernel %s has no eps=* variants (built with purego or not on amd64?)", calibKernel)
	}
	base := variant.Lookup(calibKernel, calibBase)
	if base == nil {
		return nil, fmt.Errorf("selftest: kernel %s has no %s variant", calibKernel, calibBase)
	}
	cases := []harness.SelftestCase{{Name: "A/A same address", Base: base, Other: base, Verdicts: aa, Target: aaTarget}}
	cases = append(cases, placementCases(base, placements)...)
	sort.Slice(vs, func(i, j int) bool { return eps(vs[i]) < eps(vs[j]) })
	for _, v := range vs {
		if eps(v) <= 0 {
			continue
		}
		c := harness.SelftestCase{Name: fmt.Sprintf("planted eps=%g%%", eps(v)), Base: base, Other: v, Eps: eps(v), Verdicts: planted}
		if c.Eps >= 200*threshold-1e-9 { // in percent, robust to rounding
			c.Target = detectTarget
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// calibBase is the calibration chain every case races against.
const calibBase = "isa=amd64/eps=0/align=64"

// placementCases returns one A/A case per copy of base at another
// address or loop offset, n verdicts spread over them (none for n = 0).
func placementCases(base *variant.Variant, n int) []harness.SelftestCase {
	var copies []*variant.Variant
	for _, v := range variant.Variants(calibKernel) {
		if v != base && v.Knob("eps") == "0" {
			copies = append(copies, v)
		}
	}
	var out []harness.SelftestCase
	for i, v := range copies {
		share := n/len(copies) + btoi(i < n%len(copies))
		if share == 0 {
			continue
		}
		where := "other address"
		if strings.Contains(v.Knob("align"), "+") {
			where = "loop offset"
		}
		name := fmt.Sprintf("A/A %s (%s)", strings.TrimPrefix(v.Name, base.Name+"/"), where)
		if where == "loop offset" {
			name = fmt.Sprintf("A/A align=%s (%s)", v.Knob("align"), where)
		}
		out = append(out, harness.SelftestCase{Name: name, Base: base, Other: v, Verdicts: share})
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func eps(v *variant.Variant) float64 {
	f, err := strconv.ParseFloat(v.Knob("eps"), 64)
	if err != nil {
		return -1
	}
	return f
}

func fmtLoad() string {
	if l, ok := loadAverage(); ok {
		return fmt.Sprintf("%.1f", l)
	}
	return "unknown"
}
