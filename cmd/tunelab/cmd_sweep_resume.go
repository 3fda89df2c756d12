package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/harness/resultfile"
)

// sweepFlags are sweep's selection flags: what it measures.
type sweepFlags struct {
	kernels, glob, sizes string
	offsets              bool
	budget               time.Duration
	prune                float64
}

// selectionFlags maps each selection flag to the config key its
// file records it under.
var selectionFlags = map[string]string{
	"kernel": harness.SelKernels, "variant": harness.SelVariant, "size": harness.SelSizes,
	"offset-sweep": harness.SelOffsetSweep, "budget": harness.SelBudget, "prune-mca": harness.SelPruneMCA,
}

// sweepSelection returns what the sweep measures. A new sweep measures
// what the flags select. With --resume it reads the file (refusing one
// it cannot extend: exit 2, file unchanged) and continues the selection
// the file recorded: selection flags may repeat it but not change it. A
// file written before selections were recorded resumes with the flags'.
func sweepSelection(fs *flag.FlagSet, f sweepFlags, cfg *harness.Config, out, resume string) (harness.SweepSelection, *harness.Resume, error) {
	ss, err := f.selection()
	if err != nil || resume == "" {
		return ss, nil, err
	}
	if out != "" && out != resume {
		return ss, nil, usagef("-o and --resume name different files")
	}
	rule := sweepRule(cfg)
	prior, err := harness.ReadResume(resume, resultfile.HostIdentityConfig(rule.String(), harness.VariantSet()))
	if err != nil {
		return ss, nil, &exitError{2, fmt.Errorf("sweep --resume: %w (the file is unchanged)", err)}
	}
	recorded, ok, err := harness.ParseSweepSelection(prior.Selection)
	if err != nil {
		return ss, nil, &exitError{2, fmt.Errorf("sweep --resume: %w (the file is unchanged)", err)}
	}
	if !ok {
		return ss, prior, nil
	}
	if err := sameSelection(fs, ss, prior.Selection, resume); err != nil {
		return ss, nil, err
	}
	ss, err = sweepFlagsOf(recorded).selection()
	if err != nil {
		return ss, nil, &exitError{2, fmt.Errorf("sweep --resume %s: the recorded selection: %w (the file is unchanged)", resume, err)}
	}
	return ss, prior, nil
}

// selection resolves the flags into a selection (kernel names, sizes
// checked against the registry).
func (f sweepFlags) selection() (harness.SweepSelection, error) {
	if f.budget <= 0 {
		return harness.SweepSelection{}, usagef("sweep: --budget %v: want a positive duration", f.budget)
	}
	sel, err := selection(f.kernels, f.glob, f.sizes, false)
	if err != nil {
		return harness.SweepSelection{}, err
	}
	sel.OffsetSweep = f.offsets
	return harness.SweepSelection{Selection: sel, Budget: f.budget, PruneMCA: f.prune}, nil
}

// sweepFlagsOf returns the flags that select ss.
func sweepFlagsOf(ss harness.SweepSelection) sweepFlags {
	sizes := make([]string, len(ss.Sizes))
	for i, n := range ss.Sizes {
		sizes[i] = strconv.Itoa(n)
	}
	return sweepFlags{kernels: strings.Join(ss.Kernels, ","), glob: ss.Variant, sizes: strings.Join(sizes, ","),
		offsets: ss.OffsetSweep, budget: ss.Budget, prune: ss.PruneMCA}
}

// sameSelection refuses selection flags given with --resume that select
// something other than what the file recorded.
func sameSelection(fs *flag.FlagSet, ss harness.SweepSelection, recorded resultfile.RunIdentity, path string) error {
	given := map[string]string{}
	for _, kv := range ss.Config() {
		given[kv[0]] = kv[1]
	}
	var err error
	fs.Visit(func(fl *flag.Flag) {
		key, ok := selectionFlags[fl.Name]
		if !ok || err != nil || given[key] == recorded[key].Value {
			return
		}
		err = usagef("sweep --resume %s: the sweep in the file selected %s %s (%s), not --%s %s: give no selection flags to continue that sweep, or start a new file with -o",
			path, key, recorded[key].Value, recorded[key].At, fl.Name, given[key])
	})
	return err
}

// runInfo returns the run identity to write: the resumed run's (with its
// next segment) or a fresh one; the selection is recorded unless a
// resumed file's results recorded none (written by an earlier tunelab).
func runInfo(cfg *harness.Config, prior *harness.Resume, ss harness.SweepSelection) resultfile.Run {
	rule := sweepRule(cfg).String()
	run := harness.NewRun(cfg.Seed)
	run.Rule, run.Segment, run.Selection = rule, 1, ss.Config()
	if prior == nil {
		return run
	}
	if prior.Run.RunID == "" { // interrupted before its first sample
		run.Segment = prior.Run.Segment
		return run
	}
	sel := run.Selection
	run = prior.Run
	if _, ok, _ := harness.ParseSweepSelection(prior.Selection); ok {
		run.Selection = sel
	}
	return run
}

// stopSignals returns a context cancelled by the first SIGINT or
// SIGTERM, a function returning the signal that cancelled it (nil if
// none), and a function to stop listening. Later signals are caught and
// ignored: the sweep finishes the sample in flight and writes whole lines.
func stopSignals() (ctx context.Context, received func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			cancel()
		case <-ctx.Done():
		}
	}()
	received = func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	return ctx, received, func() { signal.Stop(ch); cancel() }
}
