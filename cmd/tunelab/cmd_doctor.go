package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/perfcounters"
)

func init() {
	register(&command{
		name:    "doctor",
		summary: "check whether this machine gives trustworthy measurements, and what to fix",
		run:     runDoctor,
	})
}

func runDoctor(e *env, args []string) error {
	fs := newFlags(e, "doctor", "doctor [--layout-verdicts N]")
	verdicts := fs.Int("layout-verdicts", probeVerdicts, "A/A races of the calibration chain's copies at other addresses and loop offsets that measure the layout floor (0: skip)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *verdicts < 0 {
		return usagef("doctor: --layout-verdicts %d: want a number of verdicts, or 0 to skip", *verdicts)
	}
	f := gatherDoctorFacts("/")
	f.PMUOK, f.PMUReason = probePMU()
	f.Hypervisor = cpu.Host().Hypervisor
	f.TSCHz, f.TSCSource = perfcounters.TSCHz()
	f.NoRDTSCP = !perfcounters.HaveRDTSCP()
	f.Busy = busyProcesses("/", 200*time.Millisecond, os.Getpid())
	f.Noise = measureNoise(noiseSamples, noiseSpan)
	if *verdicts > 0 {
		f.Layout, f.LayoutMeasured, f.LayoutErr = doctorLayout(*verdicts)
	}
	writeDoctor(e.stdout, doctorChecks(f))
	return nil
}

// doctorLayout measures the layout floor as a sweep does before it
// starts (probeLayout), with the sweep's default measurement settings.
func doctorLayout(verdicts int) (harness.Layout, bool, string) {
	var b [8]byte
	rand.Read(b[:])
	cfg := &harness.Config{Race: harness.DefaultRaceParams, CPU: lastAllowedCPU(), SampleTime: 2 * time.Millisecond,
		Seed: binary.LittleEndian.Uint64(b[:]) | 1, Start: harness.ExecRunner("worker")}
	l, ok, err := probeLayout(context.Background(), cfg, verdicts, probeMin*time.Duration(verdicts)/probeVerdicts)
	if err != nil {
		return l, ok, err.Error()
	}
	return l, ok, ""
}

// doctorFacts is what doctor found out about the host.
type doctorFacts struct {
	PMUOK      bool
	PMUReason  string
	Paranoid   int // -99 if unreadable
	Root       bool
	Governors  map[string]int // governor -> number of CPUs; empty if not exposed
	Boost      string         // cpufreq/boost "0"/"1", "" if unreadable
	NoTurbo    string         // intel_pstate/no_turbo "0"/"1", "" if unreadable
	SMTActive  string         // smt/active "0"/"1", "" if unreadable
	Siblings   string         // thread_siblings_list of CPU 0
	Hypervisor string         // CPUID hypervisor vendor, "" on bare metal
	HVSysfs    string         // /sys/hypervisor/type
	TSCFlags   map[string]bool
	TSCHz      float64
	TSCSource  string
	NoRDTSCP   bool   // CPUID reports no RDTSCP: ordered reads use LFENCE; RDTSC
	Clock      string // current clocksource
	Load1      float64
	NCPU       int
	Busy       []busyProc
	Noise      noiseResult
	// Layout is the layout probe's result (LayoutMeasured: it ran;
	// LayoutErr: why it failed).
	Layout         harness.Layout
	LayoutMeasured bool
	LayoutErr      string
}

// A busyProc is another process that used CPU while doctor watched.
type busyProc struct {
	PID     int
	Comm    string
	Percent float64 // of one CPU
}

// readTrim reads a small file under root, "" on any error.
func readTrim(root, path string) string {
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// gatherDoctorFacts reads the files doctor inspects under root ("/" on a
// live system; a fake tree in tests).
func gatherDoctorFacts(root string) doctorFacts {
	f := doctorFacts{Paranoid: -99, Governors: map[string]int{}, TSCFlags: map[string]bool{}, NCPU: runtime.NumCPU()}
	if p, err := strconv.Atoi(readTrim(root, "proc/sys/kernel/perf_event_paranoid")); err == nil {
		f.Paranoid = p
	}
	f.Root = os.Geteuid() == 0
	govs, _ := filepath.Glob(filepath.Join(root, "sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor"))
	for _, g := range govs {
		if b, err := os.ReadFile(g); err == nil {
			f.Governors[strings.TrimSpace(string(b))]++
		}
	}
	f.Boost = readTrim(root, "sys/devices/system/cpu/cpufreq/boost")
	f.NoTurbo = readTrim(root, "sys/devices/system/cpu/intel_pstate/no_turbo")
	f.SMTActive = readTrim(root, "sys/devices/system/cpu/smt/active")
	f.Siblings = readTrim(root, "sys/devices/system/cpu/cpu0/topology/thread_siblings_list")
	f.HVSysfs = readTrim(root, "sys/hypervisor/type")
	f.Clock = readTrim(root, "sys/devices/system/clocksource/clocksource0/current_clocksource")
	for _, fl := range cpuinfoFlags(readTrim(root, "proc/cpuinfo")) {
		if strings.Contains(fl, "tsc") {
			f.TSCFlags[fl] = true
		}
	}
	if la := strings.Fields(readTrim(root, "proc/loadavg")); len(la) > 0 {
		f.Load1, _ = strconv.ParseFloat(la[0], 64)
	}
	return f
}

// cpuinfoFlags returns the flags of the first processor in /proc/cpuinfo.
func cpuinfoFlags(cpuinfo string) []string {
	for _, line := range strings.Split(cpuinfo, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			return strings.Fields(v)
		}
	}
	return nil
}

// probePMU tries to open the cycles event on this thread.
func probePMU() (bool, string) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	specs, err := perfcounters.ParseSpecs("cycles")
	if err != nil {
		return false, err.Error()
	}
	g, err := perfcounters.Open(specs)
	if err != nil {
		return false, err.Error()
	}
	defer g.Close()
	st := g.Status()[0]
	return st.Available, st.Reason
}

// procTicks returns utime+stime (clock ticks) and comm of every process
// under root/proc.
func procTicks(root string) map[int]busyProc {
	out := map[int]busyProc{}
	dirs, _ := filepath.Glob(filepath.Join(root, "proc/[0-9]*/stat"))
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:]) // fields[0] is state (field 3)
		if len(fields) < 13 {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		ut, _ := strconv.ParseFloat(fields[11], 64)
		st, _ := strconv.ParseFloat(fields[12], 64)
		out[pid] = busyProc{PID: pid, Comm: s[open+1 : close], Percent: ut + st}
	}
	return out
}

// busyProcesses samples process CPU time twice, d apart, and returns the
// processes other than self that used more than 5% of a CPU, busiest first.
func busyProcesses(root string, d time.Duration, self int) []busyProc {
	const ticksPerSec = 100 // USER_HZ on every Linux architecture tunelab runs on
	before := procTicks(root)
	time.Sleep(d)
	after := procTicks(root)
	return busyFrom(before, after, d.Seconds()*ticksPerSec, self)
}

// busyFrom turns two tick snapshots over window ticks into busy processes.
func busyFrom(before, after map[int]busyProc, window float64, self int) []busyProc {
	var busy []busyProc
	for pid, a := range after {
		b, ok := before[pid]
		if !ok || pid == self {
			continue
		}
		if pct := 100 * (a.Percent - b.Percent) / window; pct > 5 {
			busy = append(busy, busyProc{PID: pid, Comm: a.Comm, Percent: pct})
		}
	}
	sort.Slice(busy, func(i, j int) bool {
		if busy[i].Percent != busy[j].Percent {
			return busy[i].Percent > busy[j].Percent
		}
		return busy[i].PID < busy[j].PID
	})
	return busy
}

// noiseResult is the noise floor: the spread of repeated timings of the
// same fixed work on a pinned thread.
type noiseResult struct {
	Samples  int
	Span     time.Duration // target duration of one sample
	CV       float64       // coefficient of variation (stddev/mean)
	MedianMs float64
	Spread   float64 // (max-min)/median
	RobustCV float64 // 1.4826 x median absolute deviation / median
	Pinned   string  // CPU the thread was pinned to, or why it was not
}

const (
	noiseSamples = 30
	noiseSpan    = 2 * time.Millisecond
)

// measureNoise times n samples of about span each of a fixed compute loop
// on a thread pinned to its current CPU.
func measureNoise(n int, span time.Duration) noiseResult {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pinned := "not pinned"
	if cpu, restore, err := perfcounters.PinToCurrentCPU(); err == nil {
		pinned = "CPU " + strconv.Itoa(cpu)
		defer restore()
	}
	hz, _ := perfcounters.TSCHz()
	iters := calibrateWork(span, hz)
	ticks := make([]float64, 0, n)
	for i := 0; i < n+5; i++ { // 5 warm-up samples are dropped
		t0, _ := perfcounters.RDTSCP()
		sinkCounters += noiseWork(iters)
		t1, _ := perfcounters.RDTSCP()
		if i >= 5 {
			ticks = append(ticks, float64(t1-t0))
		}
	}
	r := noiseStats(ticks)
	r.Span, r.Pinned, r.MedianMs = span, pinned, r.MedianMs/hz*1e3
	return r
}

// noiseStats computes CV, median and relative spread of samples; MedianMs
// holds the median in the samples' unit.
func noiseStats(x []float64) noiseResult {
	r := noiseResult{Samples: len(x)}
	if len(x) < 2 {
		return r
	}
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	r.CV = math.Sqrt(ss/float64(len(x)-1)) / mean
	s := slices.Clone(x)
	sort.Float64s(s)
	med := stats.Median(s)
	r.MedianMs, r.Spread = med, (s[len(s)-1]-s[0])/med
	dev := make([]float64, len(s))
	for i, v := range s {
		dev[i] = math.Abs(v - med)
	}
	r.RobustCV = 1.4826 * stats.Median(dev) / med
	return r
}

// calibrateWork returns the noiseWork iteration count that takes about
// span, from the fastest of three timings (preemption only slows a run).
func calibrateWork(span time.Duration, hz float64) int {
	n := 10_000
	for {
		el := math.Inf(1)
		for range 3 {
			t0 := perfcounters.RDTSC()
			sinkCounters += noiseWork(n)
			el = math.Min(el, float64(perfcounters.RDTSC()-t0)/hz)
		}
		if el > span.Seconds()/4 || n > 1<<30 {
			return int(float64(n) * span.Seconds() / el)
		}
		n *= 4
	}
}

// noiseWork is a fixed chain of dependent integer operations: no memory
// traffic, no allocation, no system calls.
func noiseWork(n int) uint64 {
	x := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// A check is one line of doctor's verdict.
type check struct {
	Name   string
	Status string // "ok", "warn" or "info"
	Detail string
	Advice string // what to do, "" when nothing
}

// doctorChecks turns facts into checks with plain-words advice.
func doctorChecks(f doctorFacts) []check {
	return []check{
		pmuCheck(f), paranoidCheck(f), governorCheck(f), boostCheck(f), smtCheck(f),
		virtCheck(f), tscCheck(f), loadCheck(f), noiseCheck(f), layoutCheck(f),
	}
}

// layoutCheck reports the host's layout floor: the largest difference
// measured between byte-identical copies of the calibration chain at
// other addresses and loop offsets.
func layoutCheck(f doctorFacts) check {
	l := f.Layout
	threshold := harness.DefaultRaceParams.Threshold
	switch {
	case f.LayoutErr != "":
		return check{"layout floor", "warn", "not measured: " + f.LayoutErr, "sweeps measure it themselves before they start (sweep --layout-floor auto); rerun doctor once the error is fixed"}
	case !f.LayoutMeasured:
		return check{"layout floor", "info", "not measured (--layout-verdicts 0, or no calibration copies in this build)", ""}
	}
	d := fmt.Sprintf("%s (%d placements, %d verdicts; A/A positives %d)", l.FloorLine(), l.Placements, l.Verdicts, l.Positives)
	if l.Floor > threshold {
		return check{"layout floor", "warn", d, fmt.Sprintf("code placement alone moves times by %s here: sweeps on this host treat margins below it as ties unless the winner survives moving both variants (the %s threshold widens to %s)",
			pct(l.Floor), pct(threshold), pct(l.Floor))}
	}
	return check{"layout floor", "ok", d, ""}
}

func pmuCheck(f doctorFacts) check {
	if f.PMUOK {
		return check{"PMU", "ok", "hardware counters present (cycles opens)", ""}
	}
	return check{"PMU", "warn", "no hardware counters: cycles: " + f.PMUReason,
		"results use TSC reference cycles and software events only; for core cycles and front-end events run on bare metal or a VM with a virtual PMU (KVM: -cpu host,pmu=on)"}
}

func paranoidCheck(f doctorFacts) check {
	c := check{Name: "perf_event_paranoid"}
	switch {
	case f.Paranoid == -99:
		c.Status, c.Detail = "info", "unreadable (/proc/sys/kernel/perf_event_paranoid)"
	case f.Root:
		c.Status, c.Detail = "ok", fmt.Sprintf("%d, but running as root: no restriction", f.Paranoid)
	case f.Paranoid <= 1:
		c.Status, c.Detail = "ok", fmt.Sprintf("%d: per-thread counting allowed", f.Paranoid)
	case f.Paranoid == 2:
		c.Status, c.Detail = "ok", "2: user-mode counting only, which is what tunelab measures"
	default:
		c.Status, c.Detail = "warn", fmt.Sprintf("%d: perf events are blocked for unprivileged users", f.Paranoid)
		c.Advice = "run 'sudo sysctl kernel.perf_event_paranoid=2' (or run as root / with CAP_PERFMON)"
	}
	return c
}

func governorCheck(f doctorFacts) check {
	if len(f.Governors) == 0 {
		return check{"cpufreq governor", "info", "not exposed (usual in VMs: the host controls the clock)", ""}
	}
	var parts []string
	for g, n := range f.Governors {
		parts = append(parts, fmt.Sprintf("%s on %d CPUs", g, n))
	}
	sort.Strings(parts)
	c := check{"cpufreq governor", "ok", strings.Join(parts, ", "), ""}
	if _, perf := f.Governors["performance"]; !perf || len(f.Governors) > 1 {
		c.Status = "warn"
		c.Advice = "set the performance governor so the clock does not ramp during a run: 'sudo cpupower frequency-set -g performance'"
	}
	return c
}

func boostCheck(f doctorFacts) check {
	switch {
	case f.Boost == "1":
		return check{"turbo/boost", "warn", "boost enabled (cpufreq/boost=1)",
			"the clock follows temperature and load; disable for stable results: 'echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost'"}
	case f.NoTurbo == "0":
		return check{"turbo/boost", "warn", "turbo enabled (intel_pstate/no_turbo=0)",
			"the clock follows temperature and load; disable for stable results: 'echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo'"}
	case f.Boost == "0" || f.NoTurbo == "1":
		return check{"turbo/boost", "ok", "boost disabled", ""}
	}
	return check{"turbo/boost", "info", "state not exposed (usual in VMs)", ""}
}

func smtCheck(f doctorFacts) check {
	sib := f.Siblings
	if sib == "" {
		sib = "unknown"
	}
	switch {
	case f.SMTActive == "1" || strings.ContainsAny(sib, ",-"):
		return check{"SMT", "warn", "SMT active (CPU 0 siblings: " + sib + ")",
			"a sibling hyperthread shares the core's front end and caches; keep the sibling idle or disable SMT ('echo off | sudo tee /sys/devices/system/cpu/smt/control')"}
	case f.SMTActive == "0" || f.Siblings != "":
		return check{"SMT", "ok", "no SMT sibling shares a core (CPU 0 siblings: " + sib + ")", ""}
	}
	return check{"SMT", "info", "topology not exposed", ""}
}

func virtCheck(f doctorFacts) check {
	if f.Hypervisor == "" && f.HVSysfs == "" {
		return check{"virtualization", "ok", "bare metal (no CPUID hypervisor bit)", ""}
	}
	d := "running under a hypervisor"
	if f.Hypervisor != "" {
		d += " (CPUID vendor " + f.Hypervisor + ")"
	}
	if f.HVSysfs != "" {
		d += " (/sys/hypervisor/type " + f.HVSysfs + ")"
	}
	return check{"virtualization", "warn", d,
		"other guests share the machine: expect more noise and no PMU; compare variants within one run (tunelab interleaves them) rather than across runs"}
}

func tscCheck(f doctorFacts) check {
	var have, miss []string
	for _, fl := range []string{"constant_tsc", "nonstop_tsc", "tsc_known_freq"} {
		if f.TSCFlags[fl] {
			have = append(have, fl)
		} else {
			miss = append(miss, fl)
		}
	}
	d := fmt.Sprintf("%.3f GHz reference cycles (source: %s); flags: %s", f.TSCHz/1e9, f.TSCSource, strings.Join(have, " "))
	if f.Clock != "" {
		d += "; clocksource " + f.Clock
	}
	if f.NoRDTSCP {
		d += "; no RDTSCP (CPUID): ordered reads use LFENCE; RDTSC"
	}
	if !f.TSCFlags["constant_tsc"] || !f.TSCFlags["nonstop_tsc"] {
		return check{"TSC", "warn", d + "; missing " + strings.Join(miss, " "),
			"without constant_tsc and nonstop_tsc the TSC rate changes with the clock or stops in idle: tsc-cycles are not comparable; rely on ns/op"}
	}
	return check{"TSC", "ok", d, ""}
}

func loadCheck(f doctorFacts) check {
	d := fmt.Sprintf("load average %.2f on %d CPUs", f.Load1, f.NCPU)
	var busy []string
	for i, b := range f.Busy {
		if i == 5 {
			busy = append(busy, fmt.Sprintf("and %d more", len(f.Busy)-5))
			break
		}
		busy = append(busy, fmt.Sprintf("%s[%d] %.0f%%", b.Comm, b.PID, b.Percent))
	}
	if len(busy) > 0 {
		d += "; busy: " + strings.Join(busy, ", ")
	}
	if f.Load1 > 0.5*float64(f.NCPU) || len(f.Busy) > 0 {
		return check{"load", "warn", d,
			"other processes compete for the CPUs and caches: stop them or measure on an idle machine; at least pin (tunelab does) to a CPU they do not use"}
	}
	return check{"load", "ok", d, ""}
}

func noiseCheck(f doctorFacts) check {
	n := f.Noise
	d := fmt.Sprintf("CV %.2f%% over %d samples of %.1f ms (robust CV from MAD %.2f%%, median %.3f ms, max-min %.1f%% of median, %s)",
		100*n.CV, n.Samples, n.Span.Seconds()*1e3, 100*n.RobustCV, n.MedianMs, 100*n.Spread, n.Pinned)
	switch {
	case n.Samples < 2:
		return check{"noise floor", "warn", "not measured", ""}
	case n.CV < 0.01:
		return check{"noise floor", "ok", d, "differences above about " + pct(3*n.CV) + " are measurable with tunelab's default sample counts"}
	case n.CV < 0.03:
		return check{"noise floor", "warn", d, "moderate noise: effects below about " + pct(3*n.CV) + " need more samples (raise --count) to be told apart"}
	}
	return check{"noise floor", "warn", d, "noisy: small effects (alignment, a few %) will not be resolvable; fix the warnings above, then rerun 'tunelab doctor'"}
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// writeDoctor prints the checks and a one-line summary.
func writeDoctor(w io.Writer, checks []check) {
	fmt.Fprintln(w, "tunelab doctor: can this machine measure kernels trustworthily?")
	fmt.Fprintln(w)
	warns := 0
	for _, c := range checks {
		if c.Status == "warn" {
			warns++
		}
		fmt.Fprintf(w, "%-5s %-20s %s\n", strings.ToUpper(c.Status), c.Name, c.Detail)
		if c.Advice != "" {
			fmt.Fprintf(w, "%-5s %-20s -> %s\n", "", "", c.Advice)
		}
	}
	fmt.Fprintf(w, "\n%d of %d checks need attention.\n", warns, len(checks))
}
