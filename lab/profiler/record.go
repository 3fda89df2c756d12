package profiler

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/google/pprof/profile"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/perfcounters"
)

// Options says what to profile and how.
type Options struct {
	Variant  *variant.Variant
	Size     int
	Seed     uint64
	Duration time.Duration // how long to run the loop; 0 means 1 s
	// Event is the event to sample ("cycles", "instructions", "cpu-clock",
	// a raw event ...); "" means cycles where the host has a PMU, else
	// cpu-clock.
	Event string
	// Period is the number of events between samples; 0 means 100 us for
	// cpu-clock and task-clock and 1,000,003 for other events.
	Period uint64
	// CPU labels the profile; "" means the host's microarchitecture and
	// brand string.
	CPU string
	// Log receives progress notes (the sampling source); nil discards them.
	Log io.Writer
}

// A Result is a recorded profile.
type Result struct {
	Profile *profile.Profile
	Source  string // the sampling source, as in the profile's comments
	Samples int64
	Lost    uint64
}

// Record verifies the variant, then runs it in a loop on a pinned thread
// for o.Duration while sampling, and returns the profile. It refuses a
// variant whose CPU features the host lacks.
func Record(o Options) (*Result, error) {
	v := o.Variant
	if err := Runnable(v, o.Size); err != nil {
		return nil, fmt.Errorf("profiling: %w", err)
	}
	if err := v.Verify(o.Size, o.Seed); err != nil {
		return nil, fmt.Errorf("profiling %s %s: verification failed: %w", v.Kernel, v.Name, err)
	}
	if o.Duration <= 0 {
		o.Duration = time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.CPU == "" {
		h := hostCPU()
		o.CPU = h.Uarch() + " (" + h.Brand + ")"
	}
	type out struct {
		r   *Result
		err error
	}
	ch := make(chan out, 1)
	go func() { // a fresh goroutine owns the locked, pinned thread
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		r, err := recordLocked(o)
		ch <- out{r, err}
	}()
	res := <-ch
	return res.r, res.err
}

func recordLocked(o Options) (*Result, error) {
	if _, restore, err := perfcounters.PinToCurrentCPU(); err == nil {
		defer restore()
	}
	inst := o.Variant.New(o.Size, o.Seed)
	batch := calibrateBatch(inst, 5*time.Millisecond)
	s, spec, source, err := openSampler(o)
	var r *Result
	if err != nil {
		fmt.Fprintf(o.Log, "profile: perf_event_open sampling unavailable (%v); falling back to runtime/pprof\n", err)
		fmt.Fprintf(o.Log, "profile: sampling source: %s\n", runtimeSource)
		r, err = recordRuntime(o, inst, batch)
	} else {
		defer s.Close()
		fmt.Fprintf(o.Log, "profile: sampling source: %s\n", source)
		r, err = recordPerf(o, s, spec, source, inst, batch)
	}
	if err != nil {
		return nil, err
	}
	if err := inst.Check(); err != nil {
		return nil, fmt.Errorf("profiling %s %s: re-check after the run failed: %w", o.Variant.Kernel, o.Variant.Name, err)
	}
	return r, nil
}

// calibrateBatch returns a Run count that takes about d.
func calibrateBatch(inst variant.Instance, d time.Duration) int {
	n := 1
	for {
		t0 := time.Now()
		inst.Run(n)
		if el := time.Since(t0); el >= d/4 || n >= 1<<30 {
			return max(1, int(float64(n)*float64(d)/float64(max(el, 1))))
		}
		n *= 4
	}
}

// openSampler opens o.Event, or cycles falling back to cpu-clock.
func openSampler(o Options) (*perfcounters.Sampler, perfcounters.Spec, string, error) {
	names := []string{o.Event}
	if o.Event == "" {
		names = []string{"cycles", "cpu-clock"}
	}
	var errs []error
	for _, name := range names {
		specs, err := perfcounters.ParseSpecs(name)
		if err != nil {
			return nil, perfcounters.Spec{}, "", err
		}
		spec := specs[0]
		period := periodFor(spec, o.Period)
		s, err := perfcounters.OpenSampler(spec, perfcounters.SampleOptions{Period: period})
		if err == nil {
			return s, spec, sourceText(spec, period, errs), nil
		}
		errs = append(errs, err)
	}
	return nil, perfcounters.Spec{}, "", errors.Join(errs...)
}

func periodFor(s perfcounters.Spec, p uint64) uint64 {
	switch {
	case p > 0:
		return p
	case s.Unit == "nanoseconds":
		return 100_000
	}
	return 1_000_003
}

func sourceText(s perfcounters.Spec, period uint64, skipped []error) string {
	t := fmt.Sprintf("perf_event_open sampling of %s (%s event), period %d", s.Name, s.Kind, period)
	for _, e := range skipped {
		t += "; skipped: " + e.Error()
	}
	return t
}

// recordPerf runs the loop while s samples, and builds the profile.
func recordPerf(o Options, s *perfcounters.Sampler, spec perfcounters.Spec, source string, inst variant.Instance, batch int) (*Result, error) {
	counts := map[uint64]int64{}
	add := func(x perfcounters.Sample) {
		if x.User {
			counts[x.IP]++
		}
	}
	start := time.Now()
	if err := s.Start(); err != nil {
		return nil, err
	}
	for time.Since(start) < o.Duration {
		inst.Run(batch)
		if _, err := s.Drain(add); err != nil {
			return nil, err
		}
	}
	if err := s.Stop(); err != nil {
		return nil, err
	}
	if _, err := s.Drain(add); err != nil {
		return nil, err
	}
	m := meta(o, spec.Name, spec.Unit, int64(periodFor(spec, o.Period)), source, start)
	p, err := Build(counts, m, SelfMappings())
	if err != nil {
		return nil, err
	}
	r := &Result{Profile: p, Source: source, Lost: s.Lost()}
	for _, c := range counts {
		r.Samples += c
	}
	return r, nil
}

func meta(o Options, event, unit string, period int64, source string, start time.Time) Meta {
	return Meta{Kernel: o.Variant.Kernel, Variant: o.Variant.Name, Size: o.Size, CPU: o.CPU,
		Event: event, Unit: unit, Period: period, Source: source, Start: start, Duration: time.Since(start)}
}

// runtimeSource is the sampling source of recordRuntime.
const runtimeSource = "runtime/pprof (SIGPROF, 100 Hz): perf_event_open sampling was unavailable"

// recordRuntime is the last resort: the Go runtime's SIGPROF profiler.
func recordRuntime(o Options, inst variant.Instance, batch int) (*Result, error) {
	var buf bytes.Buffer
	start := time.Now()
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return nil, fmt.Errorf("profiling with runtime/pprof: %w", err)
	}
	for time.Since(start) < o.Duration {
		inst.Run(batch)
	}
	pprof.StopCPUProfile()
	p, err := profile.Parse(&buf)
	if err != nil {
		return nil, fmt.Errorf("parsing runtime/pprof profile: %w", err)
	}
	m := meta(o, "cpu", "nanoseconds", p.Period, runtimeSource, start)
	p.Comments = append(p.Comments, comments(m)...)
	r := &Result{Profile: p, Source: runtimeSource}
	for _, s := range p.Sample {
		s.Label = labels(m)
		r.Samples += s.Value[0]
	}
	return r, p.CheckValid()
}
