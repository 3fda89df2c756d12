package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strconv"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

func init() {
	register(&command{
		name:    "selftest",
		summary: "measure the measurer: A/A false-positive rate and planted-effect detection on kernel calib",
		run:     runSelftest,
	})
}

// calibKernel is the calibration kernel of package kernels/calib and
// calibFamily its family, which default sweeps leave out.
const (
	calibKernel = "calib"
	calibFamily = "calib"
)

func runSelftest(e *env, args []string) error {
	fs := newFlags(e, "selftest", "selftest [--reps N] [--budget D] [flags]")
	reps := fs.Int("reps", 30, "races per comparison (A/A and each planted eps)")
	budget := fs.Duration("budget", 0, "budget per verdict (default: a 2-variant group's share of a default sweep's budget)")
	out := fs.String("o", "", "also write the selftest's samples to this result file")
	mf := addMeasureFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *reps < 1 {
		return usagef("--reps %d: want at least 1", *reps)
	}
	if *budget < 0 {
		return usagef("--budget %v: want a positive duration, or 0 for the default", *budget)
	}
	cfg, err := mf.config()
	if err != nil {
		return err
	}
	cfg.Budget = *budget
	if cfg.Budget == 0 {
		cfg.Budget = verdictBudget()
	}
	cases, err := selftestCases()
	if err != nil {
		return err
	}
	var sink io.Writer = io.Discard
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fmt.Errorf("creating selftest result file: %w", err)
		}
		defer f.Close()
		sink = f
	}
	cfg.Results, cfg.Log, cfg.Run = sink, e.stderr, harness.NewRunInfo(cfg.Seed)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(e.stderr, "selftest: %d races per comparison, budget %v per verdict, threshold %g%%, sample time %v\n",
		*reps, cfg.Budget, 100*cfg.Race.Threshold, cfg.SampleTime)
	start, load0 := time.Now(), fmtLoad()
	res, err := harness.Selftest(ctx, cfg, variant.LookupKernel(calibKernel), cases, *reps)
	harness.WriteSelftest(e.stdout, res, cfg.Race.Threshold)
	fmt.Fprintf(e.stdout, "selftest took %v; budget %v per verdict; load average %s at start, %s at end on %d CPUs\n",
		time.Since(start).Round(time.Millisecond), cfg.Budget.Round(time.Millisecond), load0, fmtLoad(), runtime.NumCPU())
	return err
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

// selftestCases returns the A/A case on the unperturbed calibration chain
// and one planted case per eps variant.
func selftestCases() ([]harness.SelftestCase, error) {
	vs, err := variant.Match(calibKernel, "eps=*")
	if err != nil || len(vs) == 0 {
		return nil, fmt.Errorf("selftest: kernel %s has no eps=* variants (built with purego or not on amd64?)", calibKernel)
	}
	sort.Slice(vs, func(i, j int) bool { return eps(vs[i]) < eps(vs[j]) })
	base := vs[0]
	if eps(base) != 0 {
		return nil, fmt.Errorf("selftest: kernel %s has no eps=0 variant", calibKernel)
	}
	cases := []harness.SelftestCase{{Name: "A/A eps=0", Base: base, Other: base}}
	for _, v := range vs[1:] {
		cases = append(cases, harness.SelftestCase{Name: fmt.Sprintf("planted eps=%g%%", eps(v)), Base: base, Other: v, Eps: eps(v)})
	}
	return cases, nil
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
