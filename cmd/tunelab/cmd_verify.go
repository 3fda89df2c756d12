package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

func init() {
	register(&command{
		name:    "verify",
		summary: "verify every variant against the generic reference in crash-isolated workers (exit 1 on mismatch or crash)",
		run:     runVerify,
	})
}

// verifyFlags are the flags of tunelab verify.
type verifyFlags struct {
	kernels, glob, sizes *string
	seed                 *uint64
	jobs                 *int
	timeout              *time.Duration
	lean                 *bool
	maxFailures          *int
	shard, shardCommon   *string
	labAbove             *string
}

func addVerifyFlags(fs *flag.FlagSet) *verifyFlags {
	return &verifyFlags{
		kernels: fs.String("kernel", "", "comma-separated kernels (default all, calib included)"),
		glob:    fs.String("variant", "", "variant glob over knobs, e.g. 'isa=avx512*/align=64'"),
		sizes:   fs.String("size", "", "comma-separated sizes, "+sizeHelp+" (default each kernel's sizes)"),
		seed:    fs.Uint64("seed", 1, "seed of the random inputs"),
		jobs:    fs.Int("jobs", runtime.NumCPU(), "worker processes verifying in parallel"),
		timeout: fs.Duration("timeout", harness.DefaultVerifyTimeout, "time one variant may take at one size before it counts as hung"),
		lean: fs.Bool("lean", false, fmt.Sprintf("check each variant on a few inputs (one fresh instance, not every edge case) at two small sizes, for emulated CPUs: "+
			"each kernel's smallest default size s and its largest up to %d bytes plus s (not --size); offset-sweep copies and external references are left out", leanMaxSize)),
		maxFailures: fs.Int("max-failures", 0, "stop after this many variants mismatched or crashed (0: never), e.g. where a wrong kernel makes every operation on it slow"),
		shard:       fs.String("shard", "", "`K/N`: with other tiers verifying alongside (emulated CPUs), check every production variant but only this share of the lab variants every tier can run (those needing more than --shard-common run wherever they can)"),
		shardCommon: fs.String("shard-common", "", "with --shard, the comma-separated `features` every tier sharing the work has"),
		labAbove:    fs.String("lab-above", "", "with --shard, verify only the lab variants that need a feature beyond this `level` (x86-64-v3): the tiers of that level verify the others"),
	}
}

// runVerify verifies every selected variant, offset-sweep variants
// included, in worker subprocesses: a variant that crashes or hangs is
// reported and the rest are verified regardless.
func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify", "verify [--kernel K,...] [--variant GLOB] [--size N,... | --lean] [--jobs N] [--timeout D] [--max-failures N] [--shard K/N --shard-common FEATURES]")
	vf := addVerifyFlags(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	tasks, err := vf.tasks()
	if err != nil {
		return err
	}
	if tasks, err = vf.shardTasks(e, tasks); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, enough := context.WithCancel(ctx)
	defer enough()
	t := newVerifyTally()
	cfg := &harness.VerifyConfig{Seed: *vf.seed, Start: harness.ExecRunner("worker"), Jobs: *vf.jobs, Timeout: *vf.timeout, Lean: *vf.lean,
		Done: func(r *harness.VerifyResult) {
			printVerifyResult(e.stdout, r)
			t.add(r)
			if *vf.maxFailures > 0 && t.total.Failed() >= *vf.maxFailures {
				enough()
			}
		}}
	start := time.Now()
	_, err = harness.Verify(ctx, cfg, tasks)
	t.write(e.stdout, time.Since(start))
	if *vf.maxFailures > 0 && t.total.Failed() >= *vf.maxFailures && err == nil {
		return &exitError{1, fmt.Errorf("verify: stopped after %d failures (--max-failures): %d mismatched and %d crashed, %d of %d variants not run",
			t.total.Failed(), t.total[harness.Mismatched], t.total[harness.Crashed], len(tasks)-t.total.Total(), len(tasks))}
	}
	return verifyStatus(t, len(tasks), ctx.Err() != nil, err)
}

// shardTasks applies --shard, saying how many lab variants it leaves to
// the other tiers.
func (vf *verifyFlags) shardTasks(e *env, tasks []harness.VerifyTask) ([]harness.VerifyTask, error) {
	s, err := parseShard(*vf.shard, *vf.shardCommon, *vf.labAbove)
	if err != nil || s == nil {
		return tasks, err
	}
	out, left, err := s.filter(tasks)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(e.stdout, "verify: shard %d/%d: %d variants here; %d lab variants left to the other shards or the lower tiers\n", s.k, s.n, len(out), left)
	return out, nil
}

// tasks checks the flags and resolves them to verify tasks. A selection
// matching no variant is a usage error; one whose variants the host
// cannot run is not (they are reported as skipped).
func (vf *verifyFlags) tasks() ([]harness.VerifyTask, error) {
	if *vf.jobs < 1 || *vf.timeout <= 0 || *vf.maxFailures < 0 {
		return nil, usagef("verify: --jobs %d --timeout %v --max-failures %d: want at least one job, a positive timeout and failures not negative",
			*vf.jobs, *vf.timeout, *vf.maxFailures)
	}
	sel, err := selection(*vf.kernels, *vf.glob, *vf.sizes, true)
	if err != nil {
		return nil, err
	}
	sel.OffsetSweep = true
	if *vf.lean {
		if *vf.sizes != "" {
			return nil, usagef("verify: --lean picks the sizes; it takes no --size")
		}
		return leanTasks(sel)
	}
	groups, skips, err := harness.Select(sel)
	if err != nil && len(skips) == 0 {
		return nil, usagef("verify: %v", err)
	}
	return harness.VerifyTasks(groups, skips), nil
}

// leanMaxSize bounds the larger size --lean checks a kernel at: large
// enough for every main loop (8 zmm registers of AES blocks are 512
// bytes) to run twice, small enough for an emulator that is a hundred
// times slower than the host.
const leanMaxSize = 1024

// leanSizes returns the sizes --lean checks k at (nil, size 0, for
// fixed-size kernels): its smallest default size s, and its largest
// default size up to leanMaxSize plus s, so that the main loops run and
// end in a tail.
func leanSizes(k *variant.Kernel) []int {
	if len(k.Sizes) == 0 {
		return nil
	}
	lo, hi := slices.Min(k.Sizes), 0
	for _, n := range k.Sizes {
		if n <= leanMaxSize {
			hi = max(hi, n)
		}
	}
	if hi <= lo {
		return []int{lo}
	}
	if k.ValidSize(hi+lo) == nil {
		hi += lo
	}
	return []int{lo, hi}
}

// leanTasks resolves sel kernel by kernel at each kernel's lean sizes,
// leaving out offset-sweep copies (another variant's code, moved) and
// external references (not tunelab's code; they run on every host).
// selection has checked that the glob matches some variant; a kernel
// with no match adds nothing.
func leanTasks(sel harness.Selection) ([]harness.VerifyTask, error) {
	var groups []*harness.Group
	var skips []harness.Skip
	for _, name := range sel.Kernels {
		ks := sel
		ks.Kernels, ks.OffsetSweep = []string{name}, false
		ks.Sizes = leanSizes(variant.LookupKernel(name))
		g, s, _ := harness.Select(ks)
		groups, skips = append(groups, g...), append(skips, s...)
	}
	var tasks []harness.VerifyTask
	for _, t := range harness.VerifyTasks(groups, skips) {
		if !t.Variant.External {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return nil, usagef("verify: --variant %q selects only offset-sweep copies or external references, which --lean leaves out", sel.Variant)
	}
	return tasks, nil
}

// verifyStatus maps the run's outcome to the command's error: exit 1 on
// a mismatch, a crash or a worker that would not start, 130 when
// interrupted.
func verifyStatus(t *verifyTally, tasks int, interrupted bool, err error) error {
	total := t.total.Total()
	switch {
	case err != nil:
		return fmt.Errorf("verify: %w", err)
	case interrupted:
		return &exitError{130, fmt.Errorf("verify interrupted after %d of %d variants", total, tasks)}
	case t.total.Failed() > 0:
		return &exitError{1, fmt.Errorf("verify: %d mismatched and %d crashed of %d variants",
			t.total[harness.Mismatched], t.total[harness.Crashed], total)}
	}
	return nil
}

// printVerifyResult prints one variant's verdict: an ok or skip line, or
// a FAIL or CRASH line per size at which it failed.
func printVerifyResult(w io.Writer, r *harness.VerifyResult) {
	switch r.Outcome {
	case harness.Verified:
		sizes := ""
		if r.Passed > 1 {
			sizes = fmt.Sprintf("%d sizes, ", r.Passed)
		}
		fmt.Fprintf(w, "ok    %s %s (%s%v)\n", r.Kernel, r.Variant, sizes, roundDur(r.Elapsed))
	case harness.Skipped:
		fmt.Fprintf(w, "skip  %s %s: %s\n", r.Kernel, r.Variant, r.Reason)
	}
	for _, f := range r.Failures {
		tag := "FAIL "
		if f.Outcome == harness.Crashed {
			tag = "CRASH"
		}
		// The error names the kernel and variant again ("K V: mismatch
		// on ..."): the line already starts with them.
		why := strings.Replace(fmt.Sprint(f.Err), r.Kernel+" "+r.Variant+": ", "", 1)
		fmt.Fprintf(w, "%s %s %s: %s\n", tag, f.Group, r.Variant, why)
	}
}

// A verifyTally counts outcomes per kernel and in total.
type verifyTally struct {
	kernels []string
	counts  map[string]*harness.VerifyCounts
	total   harness.VerifyCounts
	pairs   int // variant/size pairs run
}

func newVerifyTally() *verifyTally {
	return &verifyTally{counts: map[string]*harness.VerifyCounts{}}
}

func (t *verifyTally) add(r *harness.VerifyResult) {
	c := t.counts[r.Kernel]
	if c == nil {
		c = &harness.VerifyCounts{}
		t.counts[r.Kernel] = c
		t.kernels = append(t.kernels, r.Kernel)
	}
	c.Add(r)
	t.total.Add(r)
	t.pairs += r.Passed + len(r.Failures)
}

// write prints a per-kernel table (when there is more than one kernel)
// and the summary line.
func (t *verifyTally) write(w io.Writer, elapsed time.Duration) {
	if len(t.kernels) > 1 {
		width := 0
		for _, k := range t.kernels {
			width = max(width, len(k))
		}
		fmt.Fprintf(w, "%-*s  verified  mismatched  crashed  skipped\n", width, "kernel")
		for _, k := range t.kernels {
			c := t.counts[k]
			fmt.Fprintf(w, "%-*s  %8d  %10d  %7d  %7d\n", width, k, c[harness.Verified], c[harness.Mismatched], c[harness.Crashed], c[harness.Skipped])
		}
	}
	c := &t.total
	fmt.Fprintf(w, "verify: %d variants: %d verified, %d mismatched, %d crashed, %d skipped (%d variant/size pairs run in %v)\n",
		c.Total(), c[harness.Verified], c[harness.Mismatched], c[harness.Crashed], c[harness.Skipped], t.pairs, roundDur(elapsed))
}

func roundDur(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// selection builds a harness selection from flag values. With no kernels
// named it selects every kernel, leaving out the calibration family unless
// withCalib is set (sweeps measure calib only when asked to).
func selection(kernels, glob, sizes string, withCalib bool) (harness.Selection, error) {
	sel := harness.Selection{Variant: glob}
	all, err := lookupKernels(kernels)
	if err != nil {
		return sel, err
	}
	var ks []*variant.Kernel
	for _, k := range all {
		if kernels != "" || withCalib || k.Family != calibFamily {
			ks = append(ks, k)
			sel.Kernels = append(sel.Kernels, k.Name)
		}
	}
	if _, err := variant.Match("", glob); err != nil {
		return sel, usagef("--variant: %v", err)
	}
	if sel.Sizes, err = parseSizes(sizes); err != nil {
		return sel, err
	}
	if err := checkSizes(ks, sel.Sizes); err != nil {
		return sel, err
	}
	return sel, matchesAny(ks, glob)
}

// matchesAny returns a usage error naming glob when it matches no
// registered variant of the kernels ks, whatever the host runs.
func matchesAny(ks []*variant.Kernel, glob string) error {
	for _, k := range ks {
		if vs, _ := variant.Match(k.Name, glob); len(vs) > 0 {
			return nil
		}
	}
	return usagef("--variant %q matches no variant of the selected kernels (run 'tunelab list')", glob)
}

// printSkips prints the variants the host cannot run: one line per
// kernel and reason, or with verbose every variant.
func printSkips(e *env, skips []harness.Skip, verbose bool) {
	if verbose {
		for _, s := range skips {
			fmt.Fprintf(e.stderr, "skipped %s %s: %s\n", s.Kernel, s.Variant, s.Reason)
		}
		return
	}
	for _, line := range skipLines(skips) {
		fmt.Fprintln(e.stderr, line)
	}
	if len(skips) > 0 {
		fmt.Fprintf(e.stderr, "(%d variants skipped in all; -v lists each)\n", len(skips))
	}
}
