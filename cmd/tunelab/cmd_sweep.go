package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/reports"
)

func init() {
	register(&command{
		name:    "sweep",
		summary: "verify, then measure variants interleaved and racing; write a benchfmt result file",
		run:     runSweep,
	})
}

// defaultBudget bounds a default sweep's wall time (see harness.Config).
const defaultBudget = 10 * time.Minute

// measureFlags are the flags sweep and selftest share.
type measureFlags struct {
	cpu        *int
	sampleTime *time.Duration
	events     *string
	threshold  *float64
	minSamples *int
	maxSamples *int
	seed       *uint64
}

func addMeasureFlags(fs interface {
	Int(string, int, string) *int
	Duration(string, time.Duration, string) *time.Duration
	String(string, string, string) *string
	Float64(string, float64, string) *float64
	Uint64(string, uint64, string) *uint64
}) *measureFlags {
	p := harness.DefaultRaceParams
	return &measureFlags{
		cpu:        fs.Int("cpu", lastAllowedCPU(), "CPU to pin the measuring thread to (-1: no pinning; default the highest CPU this process may run on)"),
		sampleTime: fs.Duration("sample-time", 2*time.Millisecond, "target duration of one sample"),
		events:     fs.String("events", "", "comma-separated perf counters to record per op (e.g. cycles,instructions)"),
		threshold:  fs.Float64("threshold", 100*p.Threshold, "eliminate variants significantly slower than the best by more than this many percent"),
		minSamples: fs.Int("min-samples", p.MinSamples, "rounds before the race's first look (raised to what a look's share of alpha needs)"),
		maxSamples: fs.Int("max-samples", p.MaxSamples, "stop a race when every remaining variant has this many samples"),
		seed:       fs.Uint64("seed", 0, "seed for inputs and interleaving order (0: random)"),
	}
}

// allowedCPUs returns the CPUs in this process's affinity mask (a
// container's cpuset need not start at 0), or 0..NumCPU-1 if it cannot be
// read.
func allowedCPUs() []int {
	var set unix.CPUSet
	var out []int
	if err := unix.SchedGetaffinity(0, &set); err == nil {
		for c := 0; c < len(set)*64; c++ {
			if set.IsSet(c) {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		for c := range runtime.NumCPU() {
			out = append(out, c)
		}
	}
	return out
}

// lastAllowedCPU is the default measuring CPU: the highest allowed one,
// away from CPU 0's interrupts.
func lastAllowedCPU() int {
	cpus := allowedCPUs()
	return cpus[len(cpus)-1]
}

// config turns the flags into a harness configuration.
func (m *measureFlags) config() (*harness.Config, error) {
	if allowed := allowedCPUs(); *m.cpu < -1 || *m.cpu >= 0 && !slices.Contains(allowed, *m.cpu) {
		return nil, usagef("--cpu %d: this process may run on CPUs %v (or -1: no pinning)", *m.cpu, allowed)
	}
	if *m.sampleTime < 100*time.Microsecond || *m.sampleTime > time.Second {
		return nil, usagef("--sample-time %v: want 100µs..1s", *m.sampleTime)
	}
	if *m.threshold < 0 || *m.minSamples < 1 || *m.maxSamples < *m.minSamples {
		return nil, usagef("bad racing flags: --threshold %v --min-samples %d --max-samples %d", *m.threshold, *m.minSamples, *m.maxSamples)
	}
	seed := *m.seed
	if seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	p := harness.DefaultRaceParams
	p.Threshold, p.MinSamples, p.MaxSamples = *m.threshold/100, *m.minSamples, *m.maxSamples
	return &harness.Config{Race: p, CPU: *m.cpu, SampleTime: *m.sampleTime, Events: *m.events,
		Seed: seed, Start: harness.ExecRunner("worker")}, nil
}

func runSweep(e *env, args []string) error {
	fs := newFlags(e, "sweep", "sweep [--kernel K,...] [--variant GLOB] [--size N,...] [-o FILE | --resume FILE] [flags]")
	var f sweepFlags
	fs.StringVar(&f.kernels, "kernel", "", "comma-separated kernels (default every kernel except calib)")
	fs.StringVar(&f.glob, "variant", "", "variant glob over knobs, e.g. 'isa=avx512*/align=64'")
	fs.StringVar(&f.sizes, "size", "", "comma-separated sizes, "+sizeHelp+" (default each kernel's sizes)")
	fs.BoolVar(&f.offsets, "offset-sweep", false, "include offset-sweep (align=64+N) variants")
	fs.DurationVar(&f.budget, "budget", defaultBudget, "wall-time budget of the whole sweep, shared among kernel/size groups")
	out := fs.String("o", "", "result file (default results/<date>-<host>.txt)")
	resume := fs.String("resume", "", "continue the interrupted sweep in this result file (with the selection it recorded)")
	fs.Float64Var(&f.prune, "prune-mca", 0, "measure only variants llvm-mca predicts within this many percent of the best on this host's model (0: off)")
	pruneCheck := fs.String("prune-check", "", "with --prune-mca: a full sweep's result `FILE` of this host, to report whether its winners were kept")
	verbose := fs.Bool("v", false, "list every skipped variant (default: one line per kernel)")
	floor := fs.String("layout-floor", "auto", "the host's layout floor in percent, below which a margin is a tie unless it survives moving both variants; auto: measure it first with the calibration chain's copies (a 40th of the budget, 3-15s)")
	mf := addMeasureFlags(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	cfg, err := mf.config()
	if err != nil {
		return err
	}
	if *floor != "auto" {
		if _, err := parseFloor(*floor); err != nil {
			return usagef("sweep: --layout-floor: %v (or auto)", err)
		}
	}
	ss, prior, err := sweepSelection(fs, f, cfg, *out, *resume)
	if err != nil {
		return err
	}
	cfg.Budget, cfg.Resume = ss.Budget, prior
	groups, skips, err := harness.Select(ss.Selection)
	if err != nil {
		return err
	}
	printSkips(e, skips, *verbose)
	var pr *pruning
	if ss.PruneMCA > 0 {
		if pr, err = pruneMCA(groups, ss.PruneMCA); err != nil {
			return err
		}
		if *pruneCheck != "" {
			if err := pr.loadCheck(e, *pruneCheck); err != nil {
				return err
			}
		}
	}
	cfg.Run = runInfo(cfg, prior, ss)
	return sweep(e, cfg, groups, *out, *resume, *floor, resumeFlags(fs), pr)
}

// resumeFlags returns the flags given on the command line, -o and
// --resume left out, shell-quoted for the resume hint: a resumed sweep
// must select the same kernels, variants, sizes and budget.
func resumeFlags(fs *flag.FlagSet) []string {
	var args []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "o" || f.Name == "resume" {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			args = append(args, "--"+f.Name+"="+f.Value.String())
			return
		}
		args = append(args, "--"+f.Name, shellQuote(f.Value.String()))
	})
	return args
}

// shellQuote quotes s for a POSIX shell unless it is made of characters
// that need no quoting.
func shellQuote(s string) string {
	safe := s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == ""
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// testProgress, when set (only by tests that run the test binary as
// tunelab), sees every progress report of a sweep with the sweep's
// context, which SIGINT and SIGTERM cancel.
var testProgress func(ctx context.Context, p harness.Progress)

// sweep opens the result file, runs the sweep stopping cleanly on
// SIGINT (Ctrl-C) or SIGTERM (what schedulers send before SIGKILL) and
// prints the summary. floor is the --layout-floor flag; flags are the
// command line's selection and measurement flags, repeated in the resume
// hint.
func sweep(e *env, cfg *harness.Config, groups []*harness.Group, out, resume, floor string, flags []string, pr *pruning) error {
	rule := sweepRule(cfg)
	f, path, err := openResults(out, resume)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, received, stop := stopSignals()
	defer stop()
	if err := resolveFloor(ctx, e, cfg, floor, cfg.Resume != nil && cfg.Resume.Run.RunID != ""); err != nil {
		return err
	}
	cfg.Results, cfg.Log = f, e.stderr
	terminal := isTerminal(e.stderr)
	cfg.Progress = plainProgress(e.stderr, plainEvery)
	if terminal {
		cfg.Progress = progressBar(e.stderr)
	}
	if testProgress != nil {
		show := cfg.Progress
		cfg.Progress = func(p harness.Progress) { show(p); testProgress(ctx, p) }
	}
	fmt.Fprintf(e.stderr, "sweeping %d kernel/size groups, budget %v, results in %s\n", len(groups), cfg.Budget, path)
	if l, ok := loadAverage(); ok && l >= float64(runtime.NumCPU()) {
		fmt.Fprintf(e.stderr, "warning: load average %.1f on %d CPUs: samples will be disturbed and verdicts weaker\n", l, runtime.NumCPU())
	}
	rep, err := harness.Sweep(ctx, cfg, groups)
	if terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if rep != nil {
		writeSweepSummary(e, rep, path, rule, cfg.Run.Floor, pr)
	}
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing result file: %w", err)
	}
	fmt.Fprintf(e.stdout, "results: %s\n", path)
	if rep.Interrupted {
		return interrupted(received(), flags, path)
	}
	if n := len(rep.Failures()); n > 0 {
		return &exitError{1, fmt.Errorf("sweep: %s failed verification or crashed (listed first above; the result file is complete)", plural(n, "variant"))}
	}
	return nil
}

// writeSweepSummary prints the sweep's summary: the variants that failed
// first, per group what the reports package decides from the file the
// sweep wrote (read once), the winner table, and what pruning left out.
func writeSweepSummary(e *env, rep *harness.Report, path string, rule reports.Options, floor string, pr *pruning) {
	harness.WriteFailures(e.stdout, rep.Failures())
	fmt.Fprintf(e.stdout, "layout floor: %s\n", floor)
	set, warnings, err := reports.Read([]string{path})
	for _, w := range warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	harness.WriteSummary(e.stdout, rep, sweepVerdicts(set, err, rule))
	if err == nil {
		writeWinnerTable(e.stdout, reports.Analyze(set, rule))
	}
	if pr != nil {
		pr.write(e.stdout, rep)
	}
}

// interrupted is the error of a sweep stopped by sig (nil: an
// interruption without a signal): exit status 128+signal as a shell
// reports it (130 for SIGINT, 143 for SIGTERM), with the command that
// continues the sweep.
func interrupted(sig os.Signal, flags []string, path string) error {
	hint := strings.Join(append(append([]string{"tunelab sweep"}, flags...), "--resume", shellQuote(path)), " ")
	code, by := 130, "interrupted"
	if s, ok := sig.(syscall.Signal); ok && s != syscall.SIGINT {
		code, by = 128+int(s), "stopped by "+unix.SignalName(s)
	}
	return &exitError{code, fmt.Errorf("sweep %s; continue with: %s", by, hint)}
}

// sweepRule is the decision rule a sweep records and applies: the
// reports package's, with the run's threshold and race.
func sweepRule(cfg *harness.Config) reports.Options {
	return reports.Options{Alpha: reports.DefaultOptions().Alpha, Threshold: cfg.Race.Threshold, Race: cfg.Race.String()}
}

// resolveFloor sets the layout floor the race uses and the run records:
// the resumed file's; the --layout-floor flag's; or, for auto, a short
// measurement (probeLayout) whose time the sweep's budget pays.
func resolveFloor(ctx context.Context, e *env, cfg *harness.Config, flag string, resumed bool) error {
	switch {
	case resumed:
		if cfg.Run.Floor == "" {
			fmt.Fprintln(e.stderr, "layout floor: none recorded in the resumed file (an older sweep): margins are judged against the threshold alone")
			return nil
		}
		cfg.Race.Floor, _ = parseFloor(cfg.Run.Floor)
		return nil
	case flag != "auto":
		v, err := parseFloor(flag)
		if err != nil {
			return usagef("sweep: --layout-floor: %v", err)
		}
		cfg.Race.Floor, cfg.Run.Floor = v, fmt.Sprintf("%.2f%% (set by --layout-floor)", 100*v)
		return nil
	}
	start := time.Now()
	budget := probeBudget(cfg.Budget)
	fmt.Fprintf(e.stderr, "measuring the layout floor (copies of the calibration chain at other addresses and loop offsets, about %v)\n", budget.Round(time.Second))
	l, ok, err := probeLayout(ctx, cfg, probeVerdicts, budget)
	if err != nil {
		return fmt.Errorf("measuring the layout floor: %w", err)
	}
	cfg.Budget = max((cfg.Budget - time.Since(start)).Round(time.Second), time.Second)
	if !ok {
		cfg.Run.Floor = "unmeasured (no calibration copies in this build)"
		return nil
	}
	cfg.Race.Floor, cfg.Run.Floor = l.Floor, floorConfig(l)
	return nil
}

// sweepVerdicts returns the verdict lines of each group: the reports
// package's winner rule applied to what the sweep wrote (set, or the
// error reading it), so that the summary names the winner report and
// export will.
func sweepVerdicts(set *reports.Set, err error, rule reports.Options) harness.Verdicts {
	if err != nil {
		return func(*harness.GroupResult) []string { return []string{"no verdict: " + err.Error()} }
	}
	rep := reports.Analyze(set, rule)
	return func(g *harness.GroupResult) []string {
		if rg := rep.FindGroup("", g.Group.Kernel.Name, g.Group.Size); rg != nil {
			return rg.VerdictLines()
		}
		return []string{"no verdict: no samples in the result file"}
	}
}

// openResults opens the result file: the resumed one for appending (read
// and checked before by sweepSelection), or a new one.
func openResults(out, resume string) (*os.File, string, error) {
	if resume != "" {
		f, err := os.OpenFile(resume, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return nil, "", fmt.Errorf("opening resume file: %w", err)
		}
		return f, resume, nil
	}
	if out == "" {
		host, _ := os.Hostname()
		out = filepath.Join("results", time.Now().UTC().Format("2006-01-02T150405")+"-"+sanitize(host)+".txt")
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, "", fmt.Errorf("creating result directory: %w", err)
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, "", fmt.Errorf("result file %s exists: use --resume to continue it or -o for a new file", out)
	}
	if err != nil {
		return nil, "", fmt.Errorf("creating result file: %w", err)
	}
	return f, out, nil
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// progressBar renders sweep progress on one terminal line, at most ten
// times a second: groups done, elapsed and estimated time left, the
// group and variant being measured.
func progressBar(w io.Writer) func(harness.Progress) {
	var last time.Time
	return func(p harness.Progress) {
		if time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		const width = 20
		done := width * p.GroupIndex / max(p.Groups, 1)
		bar := strings.Repeat("=", done) + strings.Repeat(" ", width-done)
		eta := "?"
		if left, ok := timeLeft(p); ok {
			eta = "~" + left.Round(time.Second).String()
		}
		fmt.Fprintf(w, "\r\033[K[%s] %d/%d %s %s n=%d live=%d %v elapsed, %s left (budget left %v)",
			bar, p.GroupIndex+1, p.Groups, p.Group, p.Label, p.Samples, p.LiveArms,
			p.Elapsed.Round(time.Second), eta, max(p.BudgetLeft, 0).Round(time.Second))
	}
}

// loadAverage returns the 1-minute load average from /proc/loadavg.
func loadAverage() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	var l float64
	_, err = fmt.Sscan(string(b), &l)
	return l, err == nil
}
