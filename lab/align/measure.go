package align

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/perfcounters"
)

// Entry modes.
const (
	// Warm measures steady-state throughput: many back-to-back calls per
	// sample, code and predictors warm.
	Warm = "warm"
	// Cold measures the first call after Evict flushed the instruction
	// cache and op-cache: one call per sample, timed with RDTSCP.
	Cold = "cold"
)

// Default limits on samples per arm.
const (
	DefaultWarmSamples = 400
	DefaultColdSamples = 2000
)

// Options configure a measurement.
type Options struct {
	Entry  string        // Warm or Cold
	Size   int           // input size (0 for fixed-size kernels)
	Budget time.Duration // wall time of the measurement rounds
	// MaxSamples bounds the samples per arm (0: DefaultWarmSamples or
	// DefaultColdSamples).
	MaxSamples int
	// SampleTime is the target duration of one warm sample (0: 1ms).
	SampleTime time.Duration
	Seed       uint64
	// Log receives progress and notes; nil discards them.
	Log io.Writer
}

// Samples are the measurements of one arm, one entry per sample.
type Samples struct {
	Iters []int
	Ns    []float64 // nanoseconds per op
	TSC   []float64 // TSC ticks per op
	// Events holds per sample the front-end event counts per op, in the
	// order of Measurement.Events.
	Events [][]float64
}

// A Measurement is the result of measuring a Set.
type Measurement struct {
	Set   *Set
	Entry string
	Size  int
	// Samples is parallel to Set.Arms; Excluded[i] != "" says why arm i
	// was not measured or its samples were dropped.
	Samples  []Samples
	Excluded []string
	// Events are the counted front-end events; Notes say what was not
	// possible (no PMU, no pinning, ...).
	Events []string
	Notes  []string
	TSCHz  float64
	Rounds int
	// Discarded counts samples retaken because the scheduler disturbed them.
	Discarded int
}

// Measure verifies every arm, then measures the arms interleaved in a
// fresh random order every round, on a locked and pinned OS thread, until
// o.Budget is spent or every arm has o.MaxSamples samples; finally it
// re-checks each arm's output. Arms the host cannot run or that fail
// verification are excluded, never run.
func Measure(s *Set, o Options) (*Measurement, error) {
	if o.Entry != Warm && o.Entry != Cold {
		return nil, fmt.Errorf("align: entry %q: want warm or cold", o.Entry)
	}
	if o.Entry == Cold && !EvictAvailable() {
		return nil, fmt.Errorf("align: cold entry needs the eviction footprint, which this build lacks (purego or not amd64)")
	}
	o = o.withDefaults()
	m := &Measurement{Set: s, Entry: o.Entry, Size: o.Size, Samples: make([]Samples, len(s.Arms)),
		Excluded: make([]string, len(s.Arms))}
	m.TSCHz, _ = perfcounters.TSCHz()
	insts := m.prepare(o)
	if m.live() == 0 {
		return m, fmt.Errorf("%s %s: no arm passed verification: %s", s.Kernel.Name, s.Base, m.Excluded[0])
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, restore, err := perfcounters.PinToCurrentCPU(); err != nil {
		m.Notes = append(m.Notes, fmt.Sprintf("thread not pinned: %v", err))
	} else {
		defer restore()
	}
	mt := openMeter()
	defer mt.close()
	m.Events = mt.events
	if mt.note != "" {
		m.Notes = append(m.Notes, mt.note)
	}
	m.rounds(insts, mt, o)
	m.check(insts)
	return m, nil
}

func (o Options) withDefaults() Options {
	if o.MaxSamples <= 0 {
		o.MaxSamples = DefaultWarmSamples
		if o.Entry == Cold {
			o.MaxSamples = DefaultColdSamples
		}
	}
	if o.SampleTime <= 0 {
		o.SampleTime = time.Millisecond
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	return o
}

// live counts the arms not excluded.
func (m *Measurement) live() int {
	n := 0
	for _, e := range m.Excluded {
		if e == "" {
			n++
		}
	}
	return n
}

// An armState is a prepared arm.
type armState struct {
	in    variant.Instance
	iters int // iterations per warm sample (1 for cold)
}

// prepare checks features, verifies and sets up every arm and, for warm
// entry, calibrates its iterations per sample.
func (m *Measurement) prepare(o Options) []armState {
	st := make([]armState, len(m.Set.Arms))
	for i, a := range m.Set.Arms {
		v := a.Variant
		if !hostCPU().Has(v.Features...) {
			m.Excluded[i] = fmt.Sprintf("host lacks features of %s (needs %v)", v.Name, v.Features)
			continue
		}
		if err := v.Verify(o.Size, o.Seed); err != nil {
			m.Excluded[i] = fmt.Sprintf("verification failed: %v", err)
			continue
		}
		st[i] = armState{in: v.New(o.Size, o.Seed), iters: 1}
		if o.Entry == Warm {
			st[i].iters = harness.Calibrate(st[i].in, o.SampleTime)
		}
		m.Samples[i] = newSamples(o.MaxSamples)
	}
	return st
}

func newSamples(n int) Samples {
	return Samples{Iters: make([]int, 0, n), Ns: make([]float64, 0, n), TSC: make([]float64, 0, n),
		Events: make([][]float64, 0, n)}
}

// rounds runs interleaved rounds until the budget or the sample limit.
func (m *Measurement) rounds(st []armState, mt *meter, o Options) {
	gc := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gc)
	rng := rand.New(rand.NewPCG(o.Seed, 0x616c69676e))
	fmt.Fprintf(o.Log, "measuring %d arms of %s %s, %s entry, budget %v\n",
		m.live(), m.Set.Kernel.Name, m.Set.Base, o.Entry, o.Budget)
	start := time.Now()
	for m.Rounds < o.MaxSamples && (m.Rounds == 0 || time.Since(start) < o.Budget) {
		for _, i := range rng.Perm(len(st)) {
			if m.Excluded[i] == "" {
				m.sample(i, st[i], mt, o.Entry)
			}
		}
		m.Rounds++
	}
	fmt.Fprintf(o.Log, "%d rounds in %v (%d disturbed samples retaken)\n",
		m.Rounds, time.Since(start).Round(time.Millisecond), m.Discarded)
}

// maxAttempts bounds how often a disturbed sample is retaken.
const maxAttempts = 4

// sample takes one sample of arm i, retaking it when disturbed.
func (m *Measurement) sample(i int, a armState, mt *meter, entry string) {
	var ns, tsc float64
	var ev []float64
	for attempt := range maxAttempts {
		var disturbed bool
		if entry == Warm {
			ns, tsc, ev, disturbed = warmSample(a, mt)
		} else {
			tsc, ev, disturbed = coldSample(a, mt)
			ns = tsc / m.TSCHz * 1e9
		}
		if !disturbed || attempt == maxAttempts-1 {
			break
		}
		m.Discarded++
	}
	s := &m.Samples[i]
	s.Iters = append(s.Iters, a.iters)
	s.Ns, s.TSC = append(s.Ns, ns), append(s.TSC, tsc)
	for j := range ev {
		ev[j] /= float64(a.iters)
	}
	s.Events = append(s.Events, ev)
}

// warmSample times a.iters back-to-back calls after a short pre-run that
// brings code and data back after the other arms ran.
func warmSample(a armState, mt *meter) (ns, tsc float64, ev []float64, disturbed bool) {
	a.in.Run(max(a.iters/64, 1))
	mt.start()
	t0, c0 := time.Now(), perfcounters.RDTSC()
	a.in.Run(a.iters)
	c1 := perfcounters.RDTSC()
	el := time.Since(t0)
	ev, disturbed = mt.stop()
	n := float64(a.iters)
	return float64(el.Nanoseconds()) / n, float64(c1-c0) / n, ev, disturbed
}

// coldSample evicts the instruction cache and op-cache, then times one
// call with RDTSCP. The counters span the eviction and the call (the
// eviction is the same for every arm).
func coldSample(a armState, mt *meter) (tsc float64, ev []float64, disturbed bool) {
	mt.start()
	Evict()
	c0, _ := perfcounters.RDTSCP()
	a.in.Run(1)
	c1, _ := perfcounters.RDTSCP()
	ev, disturbed = mt.stop()
	return float64(c1 - c0), ev, disturbed
}

// check re-verifies every measured arm's output after measurement and
// drops the samples of an arm that fails.
func (m *Measurement) check(st []armState) {
	for i := range st {
		if m.Excluded[i] != "" {
			continue
		}
		if err := st[i].in.Check(); err != nil {
			m.Excluded[i] = fmt.Sprintf("check after measurement failed: %v", err)
			m.Samples[i] = Samples{}
		}
	}
}
