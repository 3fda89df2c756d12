package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/lab/ct"
)

func init() {
	register(&command{
		name:    "ct",
		summary: "constant-time gate: static check of every generated function; --dynamic: dudect timing of production; --selftest: planted leaks",
		run:     runCT,
	})
}

// ctFlags are the flags of `tunelab ct`.
type ctFlags struct {
	dynamic, selftest, verbose bool
	kernels                    string
	n                          int
	budget                     time.Duration
	cpu                        int
	seed                       uint64
}

// ctSource supplies what the static report checks against (tests
// replace it).
var ctSource = func() dispatch.Table { return dispatch.Compiled() }

func runCT(e *env, args []string) error {
	fs := newFlags(e, "ct", "ct [-v] | ct --dynamic [--kernel K,...] [--n N] [--budget D] | ct --selftest [--n N]")
	var f ctFlags
	fs.BoolVar(&f.dynamic, "dynamic", false, "measure production variants and whole operations (dudect: fixed vs random secret classes, Welch's t)")
	fs.BoolVar(&f.selftest, "selftest", false, "require both checks to flag the planted leaks of lab/ct/leaks")
	fs.BoolVar(&f.verbose, "v", false, "list every finding and production variant")
	fs.StringVar(&f.kernels, "kernel", "", "--dynamic: comma-separated kernels or operations to measure (a prefix matches: mlkem768, aes128)")
	fs.IntVar(&f.n, "n", 0, fmt.Sprintf("measurements per target (default %d; --selftest %d)", ct.DefaultN, ct.SelftestN))
	fs.DurationVar(&f.budget, "budget", 0, "bound each target's measurement time (0: none; the count reached is reported)")
	fs.IntVar(&f.cpu, "cpu", lastAllowedCPU(), "CPU to pin the measuring thread to (-1: no pinning)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random classes and inputs")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case f.dynamic && f.selftest:
		return usagef("ct: --dynamic and --selftest are separate runs")
	case f.kernels != "" && !f.dynamic:
		return usagef("ct: --kernel selects what --dynamic measures")
	case f.n < 0:
		return usagef("ct: --n must be positive")
	case f.cpu < -1 || f.cpu >= 0 && !slices.Contains(allowedCPUs(), f.cpu):
		return usagef("ct: --cpu %d: this process may run on CPUs %v (or -1: no pinning)", f.cpu, allowedCPUs())
	case f.selftest:
		return ctSelftest(e, f)
	case f.dynamic:
		return ctDynamic(e, f)
	}
	return ctStatic(e, f)
}

// ctStatic prints the static check and fails on a gate problem.
func ctStatic(e *env, f ctFlags) error {
	t := ctSource()
	r := ct.Static(t)
	fmt.Fprintln(e.stdout, "static check: avo's instruction stream of every generated function, secrets as each generator declares them")
	writeFileSummaries(e.stdout, r.Files, true)
	var ok, finds, goCode, unknown int
	for _, p := range r.Production {
		switch {
		case p.Status.Findings() > 0:
			finds++
		case p.Status.Checked:
			ok++
		case p.Go:
			goCode++
		case p.Unknown:
			unknown++
		}
	}
	fmt.Fprintf(e.stdout, "\nproduction: %d variants named by the compiled dispatch table (%d entries, %d defaults): %d checked without findings, %d with findings, %d Go code (no generated function)",
		len(r.Production), len(t.Entries), len(t.Defaults), ok, finds, goCode)
	if unknown > 0 {
		fmt.Fprintf(e.stdout, ", %d not registered in this binary", unknown)
	}
	fmt.Fprintln(e.stdout)
	if f.verbose {
		tw := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', 0)
		for _, p := range r.Production {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", p.Kernel, p.Variant, productionState(p))
		}
		tw.Flush()
	}
	for _, s := range r.Fixtures {
		fmt.Fprintf(e.stdout, "fixtures: %s: %d functions, %d findings (%s), planted: see tunelab ct --selftest\n",
			s.File.Asm, s.Funcs, s.Findings, kindCounts(s.ByKind))
	}
	writeLabFindings(e.stdout, r.Files, f.verbose)
	writeDeclassified(e.stdout, r.Files, f.verbose)
	if len(r.Problems) > 0 {
		return &exitError{1, fmt.Errorf("constant-time gate:\n\t%s", strings.Join(r.Problems, "\n\t"))}
	}
	fmt.Fprintln(e.stdout, "gate: passed")
	return nil
}

func productionState(p ct.Production) string {
	switch {
	case p.Go:
		return "Go code"
	case p.Unknown:
		return "not registered"
	}
	return p.Status.String()
}

// writeFileSummaries prints one row per generated file and a total.
func writeFileSummaries(w io.Writer, fs []ct.FileSummary, total bool) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "file\tfunctions\tinstructions\tvariants\tfindings\tvariants with findings\t")
	var sum ct.FileSummary
	for _, s := range fs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", s.File.Asm, s.Funcs, s.Instrs, s.Variants, s.Findings, len(s.Leaky))
		sum.Funcs += s.Funcs
		sum.Instrs += s.Instrs
		sum.Variants += s.Variants
		sum.Findings += s.Findings
		sum.Leaky = append(sum.Leaky, s.Leaky...)
	}
	if total {
		fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\t\n", sum.Funcs, sum.Instrs, sum.Variants, sum.Findings, len(sum.Leaky))
	}
	tw.Flush()
}

// kindCounts formats counts by kind: "address 16, branch 1".
func kindCounts(m map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// writeLabFindings lists the variants with findings (lab-only: the gate
// keeps them out of tables) and, verbose, every finding.
func writeLabFindings(w io.Writer, fs []ct.FileSummary, verbose bool) {
	n := 0
	for _, s := range fs {
		n += len(s.Leaky)
	}
	fmt.Fprintf(w, "variants with findings (lab only: never exported, never dispatched): %d\n", n)
	for _, s := range fs {
		for _, v := range s.Leaky {
			fmt.Fprintf(w, "  %s %s\n", v.Kernel, v.Name)
		}
		if !verbose {
			continue
		}
		for _, fn := range s.File.Funcs {
			for _, x := range fn.Findings {
				fmt.Fprintf(w, "  %s:%d %s %s: %s: %s\n", s.File.Asm, x.Line, fn.Name, x.Kind, x.Instr, x.Why)
			}
		}
	}
}

// writeDeclassified lists, per file, the instructions its generator
// declared public (ctcheck.Public) with each distinct reason and,
// verbose, every instruction.
func writeDeclassified(w io.Writer, fs []ct.FileSummary, verbose bool) {
	n := 0
	for _, s := range fs {
		n += s.Declassified
	}
	fmt.Fprintf(w, "declassified by the generators (outputs taken as public, not checked): %d instructions\n", n)
	for _, s := range fs {
		if s.Declassified == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s: %d instructions in %d functions\n", s.File.Asm, s.Declassified, s.FuncsDeclassified)
		var whys []string
		for _, fn := range s.File.Funcs {
			for _, d := range fn.Declassified {
				if verbose {
					fmt.Fprintf(w, "  %s:%d %s: %s: %s\n", s.File.Asm, d.Line, fn.Name, d.Instr, d.Why)
				} else if !slices.Contains(whys, d.Why) {
					whys = append(whys, d.Why)
					fmt.Fprintf(w, "    %s\n", d.Why)
				}
			}
		}
	}
}

// ctConfig is the dynamic check's configuration.
func ctConfig(f ctFlags) ct.Config {
	return ct.Config{Start: harness.ExecRunner("worker"), CPU: f.cpu, Seed: f.seed, Budget: f.budget}
}

// ctDynamic measures production variants and operations.
func ctDynamic(e *env, f ctFlags) error {
	n := f.n
	if n == 0 {
		n = ct.DefaultN
	}
	targets, skipped := ct.ProductionTargets(n)
	ops, opSkipped := ct.OperationTargets(n)
	targets = append(targets, ops...)
	maps.Copy(skipped, opSkipped)
	if f.kernels != "" {
		targets = filterTargets(targets, cpu.SplitList(f.kernels))
		for k := range skipped {
			if !ctMatches(k, cpu.SplitList(f.kernels)) {
				delete(skipped, k)
			}
		}
		if len(targets) == 0 && len(skipped) == 0 {
			return usagef("ct: --kernel %s matches no production kernel or operation (run 'tunelab dispatch')", f.kernels)
		}
	}
	host := cpu.Host()
	fmt.Fprintf(e.stdout, "dynamic check: dudect (fixed vs random secret, classes interleaved in random order, one RDTSCP-timed call each, pinned CPU %d), Welch's t on all, %d crops and 2nd order; |t| > %g is a finding\n",
		f.cpu, 100, ct.Threshold)
	fmt.Fprintf(e.stdout, "host: %s (%s), %s; load %s\n", host.Key(), host.Uarch(), host.Level(), loadString())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	results := ct.Measure(ctx, ctConfig(f), targets, func(r *ct.Result) {
		fmt.Fprintf(e.stderr, "  %s %s: max|t| %.2f over %d measurements (%v)\n", r.Target.Kernel, r.Target.Variant, r.Verdict.AbsT(), r.Measured, r.Elapsed.Round(time.Second))
	})
	writeDynamic(e.stdout, results, skipped)
	fmt.Fprintf(e.stdout, "took %v; load %s\n", time.Since(start).Round(time.Second), loadString())
	return dynamicOutcome(results, ctx.Err())
}

func filterTargets(ts []ct.Target, pats []string) []ct.Target {
	var out []ct.Target
	for _, t := range ts {
		if ctMatches(t.Kernel, pats) {
			out = append(out, t)
		}
	}
	return out
}

// ctMatches reports whether kernel starts with one of the patterns
// ("aes128" matches aes128.enc and aes128.dec, "mlkem768" its operations).
func ctMatches(kernel string, pats []string) bool {
	for _, p := range pats {
		if strings.HasPrefix(kernel, p) {
			return true
		}
	}
	return false
}

// writeDynamic prints the table of results and the operations not
// measured.
func writeDynamic(w io.Writer, rs []*ct.Result, skipped map[string]string) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tvariant\tsize\tclasses\tmeasurements\tΔmean\tmax|t|\ttest\tverdict")
	for _, r := range rs {
		v, size := r.Target.Variant, fmt.Sprint(r.Target.Size)
		if v == "" {
			v, size = "(public API)", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%.2f\t%s\t%s\n", r.Target.Kernel, v, size, r.Target.Classes,
			r.Measured, meanDelta(r.Verdict), r.Verdict.AbsT(), r.Verdict.Test, verdictText(r))
	}
	tw.Flush()
	for _, k := range slices.Sorted(maps.Keys(skipped)) {
		fmt.Fprintf(w, "%s: not measured: %s\n", k, skipped[k])
	}
}

// meanDelta is the fixed class's mean time minus the random class's, in
// TSC ticks and relative, over all measurements (uncropped).
func meanDelta(v ct.Verdict) string {
	if v.Means[1] == 0 {
		return "-"
	}
	d := v.Means[0] - v.Means[1]
	return fmt.Sprintf("%+.1f (%+.2f%%)", d, 100*d/v.Means[1])
}

func verdictText(r *ct.Result) string {
	switch {
	case r.Err != nil:
		return "error: " + r.Err.Error()
	case r.Target.Variable != "" && r.Verdict.Leaks():
		return "varies, by design: " + r.Target.Variable
	case r.Target.Variable != "":
		return "no difference seen (may vary by design: " + r.Target.Variable + ")"
	case r.Verdict.Leaks() && r.Measured < ct.DefaultN:
		return fmt.Sprintf("FINDING (at %d measurements)", r.Measured)
	case r.Verdict.Leaks():
		return "FINDING"
	case r.Measured < ct.DefaultN:
		return fmt.Sprintf("ok at %d measurements (below 10^6: weaker)", r.Measured)
	}
	return "ok"
}

func dynamicOutcome(rs []*ct.Result, ctxErr error) error {
	var bad []string
	for _, r := range rs {
		switch {
		case r.Err != nil:
			bad = append(bad, r.Err.Error())
		case r.Finding():
			bad = append(bad, fmt.Sprintf("%s %s: |t| = %.2f", r.Target.Kernel, r.Target.Variant, r.Verdict.AbsT()))
		}
	}
	if ctxErr != nil {
		return &exitError{130, fmt.Errorf("ct: interrupted")}
	}
	if len(bad) > 0 {
		return &exitError{1, fmt.Errorf("dynamic check: %d findings or errors:\n\t%s", len(bad), strings.Join(bad, "\n\t"))}
	}
	return nil
}

// ctSelftest requires both checks to flag the planted leaks.
func ctSelftest(e *env, f ctFlags) error {
	n := f.n
	if n == 0 {
		n = ct.SelftestN
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(e.stdout, "selftest: planted leaks of lab/ct/leaks (generated by variants/ctleaks), %d measurements each; load %s\n", n, loadString())
	rs, err := ct.Selftest(ctx, ctConfig(f), n)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "fixture\tfunction\tstatic (want)\tdynamic max|t|\tmeasurements\ttest\tresult")
	var miss []string
	for _, r := range rs {
		want := r.Fixture.Kind
		if want == "" {
			want = "none"
		}
		got := "none"
		if r.Findings > 0 {
			got = fmt.Sprintf("%d %s", r.Findings, strings.Join(r.Static, ","))
		}
		dyn, meas, test := "-", "-", "-"
		if d := r.Dynamic; d != nil {
			dyn, meas, test = fmt.Sprintf("%.2f", d.Verdict.AbsT()), fmt.Sprint(d.Measured), d.Verdict.Test
			if d.Err != nil {
				dyn = "error: " + d.Err.Error()
			}
		}
		res := selftestVerdict(r)
		if !r.OK() {
			miss = append(miss, r.Fixture.Name+": "+res)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s (%s)\t%s\t%s\t%s\t%s\n", r.Fixture.Name, r.Fixture.Symbol, got, want, dyn, meas, test, res)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "load %s\n", loadString())
	if len(miss) > 0 {
		return &exitError{1, fmt.Errorf("ct selftest: %s", strings.Join(miss, "; "))}
	}
	fmt.Fprintln(e.stdout, "selftest: every planted leak flagged statically and dynamically")
	return nil
}

func selftestVerdict(r *ct.SelftestResult) string {
	var parts []string
	switch {
	case !r.StaticOK && r.Fixture.Kind == "":
		parts = append(parts, "static check flags the control")
	case !r.StaticOK:
		parts = append(parts, "static check missed it")
	}
	switch d := r.Dynamic; {
	case d == nil:
	case d.Err != nil:
		parts = append(parts, "dynamic check failed")
	case r.Fixture.Kind != "" && !r.DynamicOK:
		parts = append(parts, "dynamic check missed it")
	case r.Fixture.Kind == "" && d.Verdict.Leaks():
		parts = append(parts, "control flagged dynamically (not required; noise or a side effect)")
	}
	if len(parts) == 0 {
		if r.Fixture.Kind == "" {
			return "ok (clean control)"
		}
		return "flagged by both"
	}
	return strings.Join(parts, "; ")
}

// loadString is the host's 1-minute load average and CPU count.
func loadString() string {
	if l, ok := loadAverage(); ok {
		return fmt.Sprintf("%.2f on %d CPUs", l, runtime.NumCPU())
	}
	return "unknown"
}
